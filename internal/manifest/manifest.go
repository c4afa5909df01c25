// Package manifest turns manifest files into typed k8s.io/api objects, the
// way kubectl reads them before it sends anything: multi-document YAML or
// JSON, `kind: List` (nested too), strict field checking with file:line and
// the field path. Defaulting and validation live here too, as pure
// functions the simulated API server calls during admission.
//
// Loading: Load and Parse read YAML with gopkg.in/yaml.v3 into a node tree
// (so every field keeps its line), check it (duplicate keys, nesting
// depth, alias expansion, size), convert each object to JSON and decode
// that strictly with sigs.k8s.io/json into the k8s.io/api type registered
// for its apiVersion and kind: the same decoder the API server uses, so
// unknown fields and wrong types are caught with kubectl's field paths.
// Only versions a current API server serves are registered; a removed one
// (policy/v1beta1, extensions/v1beta1) fails as kubectl fails. Kinds of
// groups the API server does not serve itself (custom resources) and
// CustomResourceDefinitions are kept as *unstructured.Unstructured.
//
// Defaulting (Default) and validation (Validate) cover the fields the
// simulator reads, with upstream's values and messages; they are not the
// whole of pkg/apis/*/defaults.go and validation.go. Deliberately left
// out: YAML 1.1 scalars kubectl's YAML library still reads as booleans
// (yes/no/on/off stay strings here), multi-object JSON streams, and
// schema validation of custom resources (only a CRD could do that).
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
