package sim

import "github.com/k8sexplain/k8sexplain/internal/sim/informer"

// Every simulator test runs with the informers' mutation detector: a
// component that changes a shared object in place fails the test.
func init() { informer.DetectMutations = true }
