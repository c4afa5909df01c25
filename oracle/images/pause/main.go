// Command pause is the sandbox image's process on the real node (issue 24),
// written for the recorder: like the pause image it holds the pod's
// namespaces, reaps children and exits on SIGINT or SIGTERM. Tagged with
// the modelled pause image (internal/k8sversion PauseImage).
package main

import (
	"os"
	"os/signal"
	"syscall"
)

func main() {
	sig := make(chan os.Signal, 4)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM, syscall.SIGCHLD)
	for s := range sig {
		if s != syscall.SIGCHLD {
			os.Exit(0)
		}
		for {
			var ws syscall.WaitStatus
			if pid, err := syscall.Wait4(-1, &ws, syscall.WNOHANG, nil); pid <= 0 || err != nil {
				break
			}
		}
	}
}
