// Command server is the stand-in for the examples' nginx image on the real
// node (issue 24): a static HTTP server that answers every path with 200,
// so the examples' readiness and liveness probes (GET /healthz on the
// containerPort) pass. It listens on every port in $PORTS (default the
// examples' 80 and 8080). The recorder builds it into an OCI image tagged
// with the name the examples use; it is not nginx (see the known
// differences). Its behaviour switches, for the crash scenarios:
//
//	EXIT_AFTER=2s EXIT_CODE=3   exit with that code after that long
//	HEALTHZ=fail                answer /healthz with 500 (probe failures)
//	ALLOC=512                   allocate and touch that many MiB (OOMKilled)
package main

import (
	"fmt"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func main() {
	ports := os.Getenv("PORTS")
	if ports == "" {
		ports = "80,8080"
	}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/healthz" && os.Getenv("HEALTHZ") == "fail" {
			http.Error(w, "unhealthy", http.StatusInternalServerError)
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
	if mib, _ := strconv.Atoi(os.Getenv("ALLOC")); mib > 0 {
		var hold [][]byte
		for range mib {
			b := make([]byte, 1<<20)
			for i := range b {
				b[i] = 1
			}
			hold = append(hold, b)
		}
		_ = hold
	}
	if d, err := time.ParseDuration(os.Getenv("EXIT_AFTER")); err == nil {
		time.Sleep(d)
		code, _ := strconv.Atoi(os.Getenv("EXIT_CODE"))
		os.Exit(code)
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT, syscall.SIGQUIT)
	<-sig
	os.Exit(0)
}
