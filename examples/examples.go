// Package examples embeds the bundled example manifests, so that
// `k8sexplain trace apply` with no file has something to trace, and a
// path such as examples/unschedulable.yaml works outside a checkout.
package examples

import "embed"

// App is examples/app.yaml: a 3-replica Deployment and its Service.
//
//go:embed app.yaml
var App []byte

// FS holds every bundled example (app.yaml, unschedulable.yaml,
// tainted-nodes.yaml).
//
//go:embed *.yaml
var FS embed.FS
