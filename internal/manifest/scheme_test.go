package manifest

import (
	"reflect"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// The lazy scheme answers as one with every served group registered up
// front, whatever it was asked first.
func TestLazySchemeMatchesFullScheme(t *testing.T) {
	full := runtime.NewScheme()
	for _, g := range servedGroups {
		if err := g.add(full); err != nil {
			t.Fatal(err)
		}
	}
	fresh := func() *lazyScheme { return &lazyScheme{} }
	for gvk, typ := range full.AllKnownTypes() {
		l := fresh()
		obj, ok := l.New(gvk)
		if !ok || reflect.TypeOf(obj).Elem() != typ {
			t.Errorf("New(%v) = %T, %v; want %v", gvk, obj, ok, typ)
			continue
		}
		want, _, err := full.ObjectKinds(obj)
		if err != nil {
			t.Fatal(err)
		}
		l = fresh()
		if got, ok := l.Kind(obj); !ok || got != want[0] {
			t.Errorf("Kind(%T) = %v, %v; want %v", obj, got, ok, want[0])
		}
		// Remembered, and still right once every group is registered.
		l.mu.Lock()
		l.withAll()
		l.mu.Unlock()
		if got, ok := l.Kind(obj); !ok || got != want[0] {
			t.Errorf("Kind(%T) after registering every group = %v, %v; want %v", obj, got, ok, want[0])
		}
	}
	for _, gvk := range []schema.GroupVersionKind{
		{Group: "extensions", Version: "v1beta1", Kind: "Deployment"},
		{Group: "policy", Version: "v1beta1", Kind: "PodDisruptionBudget"},
		{Group: "example.com", Version: "v1", Kind: "Widget"},
		{Group: "apps", Version: "v1", Kind: "NoSuchKind"},
	} {
		if obj, ok := fresh().New(gvk); ok {
			t.Errorf("New(%v) = %T, want not served", gvk, obj)
		}
	}
	if got, want := len(fresh().AllKnownTypes()), len(full.AllKnownTypes()); got != want {
		t.Errorf("AllKnownTypes: %d kinds, want %d", got, want)
	}
	if got, ok := fresh().Kind(&metav1.Status{}); !ok || got.Kind != "Status" {
		t.Errorf("Kind(Status) = %v, %v", got, ok)
	}
}
