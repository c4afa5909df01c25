// Package manifest turns manifest files into typed k8s.io/api objects, the
// way kubectl reads them before it sends anything: multi-document YAML or
// JSON, `kind: List` (nested too), strict field checking with file:line and
// the field path. Defaulting and validation live here too, as pure
// functions the simulated API server calls during admission.
package manifest

import (
	"k8s.io/apimachinery/pkg/runtime"
)

// Pos is where an object (or a field) starts in its source.
type Pos struct {
	File string // as the user named it; "-" for stdin
	Line int    // 1-based
}

// Object is one decoded object and where it came from.
type Object struct {
	// Obj is a typed pointer (*appsv1.Deployment, *corev1.Service, ...) for
	// the kinds k8s.io/api knows, or *unstructured.Unstructured for others
	// (custom resources).
	Obj        runtime.Object
	APIVersion string
	Kind       string
	Namespace  string // as written; "" when the manifest leaves it out
	Name       string // may be "" with metadata.generateName
	Pos        Pos
}
