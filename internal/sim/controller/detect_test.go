package controller

import "github.com/k8sexplain/k8sexplain/internal/sim/informer"

// Every controller test runs with the informers' mutation detector: a
// controller that changes a shared object in place fails its test.
func init() { informer.DetectMutations = true }
