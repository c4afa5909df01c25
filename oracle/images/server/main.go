// Command server is the stand-in for the examples' nginx image on the real
// node (issue 24): a static HTTP server that answers every path with 200,
// so the examples' readiness and liveness probes (GET /healthz on the
// containerPort) pass. It listens on every port in $PORTS (default the
// examples' 80 and 8080). The recorder builds it into an OCI image tagged
// with the name the examples use; it is not nginx (see the known
// differences). The node crash scenarios (oracle/node_record.go) make it
// fail on request, as the simulator's crash reasons do:
//
//	GET /crash?reason=panic      exit with status 2, as a Go panic does
//	GET /crash?reason=oom        allocate and touch memory until the OOM killer ends it
//	GET /crash?reason=liveness   hang on /healthz from now on (this process only): the
//	                             probe times out, as the simulator's hung process does
package main

import (
	"fmt"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

func main() {
	ports := os.Getenv("PORTS")
	if ports == "" {
		ports = "80,8080"
	}
	var unhealthy atomic.Bool
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/healthz" && unhealthy.Load():
			// hung, not failing: the kubelet's prober gives up after
			// timeoutSeconds (internal/sim/kubelet crash.go probeFailure)
			select {
			case <-r.Context().Done():
			case <-time.After(time.Hour):
			}
			return
		case r.URL.Path == "/crash":
			reason := r.URL.Query().Get("reason")
			fmt.Fprintln(w, "crashing:", reason)
			w.(http.Flusher).Flush()
			switch reason {
			case "panic":
				go func() { time.Sleep(100 * time.Millisecond); os.Exit(2) }()
			case "oom":
				go allocate()
			case "liveness":
				unhealthy.Store(true)
			}
			return
		}
		fmt.Fprintln(w, "ok")
	})
	for _, p := range strings.Split(ports, ",") {
		go func(p string) {
			if err := http.ListenAndServe(":"+p, h); err != nil {
				fmt.Fprintln(os.Stderr, err)
			}
		}(strings.TrimSpace(p))
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT, syscall.SIGQUIT)
	<-sig
	os.Exit(0)
}

// hold keeps what allocate touched reachable.
var hold [][]byte

// allocate touches memory a MiB at a time, without end: the container's
// memory limit ends it.
func allocate() {
	for {
		b := make([]byte, 1<<20)
		for i := range b {
			b[i] = 1
		}
		hold = append(hold, b)
	}
}
