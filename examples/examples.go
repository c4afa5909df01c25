// Package examples embeds the bundled example manifests, so that
// `k8sexplain trace apply` with no file has something to trace.
package examples

import _ "embed"

// App is examples/app.yaml: a 3-replica Deployment and its Service.
//
//go:embed app.yaml
var App []byte
