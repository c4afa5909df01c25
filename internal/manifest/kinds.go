package manifest

import (
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// KindOf returns the group, version and kind of obj: from its TypeMeta when
// set, else from the Go type registered in the scheme (typed objects lose
// their TypeMeta once decoded). The zero value means unknown.
func KindOf(obj runtime.Object) schema.GroupVersionKind {
	if gvk := obj.GetObjectKind().GroupVersionKind(); gvk.Kind != "" {
		return gvk
	}
	if gvk, ok := scheme.Kind(obj); ok {
		return gvk
	}
	return schema.GroupVersionKind{}
}
