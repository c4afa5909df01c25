// Command k8sexplain makes Kubernetes internals visible: traces from a
// deterministic cluster simulation, etcd quorum on real Raft, kube-proxy
// rules, gRPC balancing and a senior-interview quiz.
package main

import (
	"os"

	"github.com/k8sexplain/k8sexplain/cmd"
	"github.com/k8sexplain/k8sexplain/internal/iostreams"
)

func main() {
	os.Exit(cmd.Execute(iostreams.System(), os.Args[1:]))
}
