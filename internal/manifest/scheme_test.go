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
		got, err := fresh().ObjectKinds(obj)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("ObjectKinds(%T) = %v, %v; want %v", obj, got, err, want)
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
	if got, err := fresh().ObjectKinds(&metav1.Status{}); err != nil || len(got) == 0 {
		t.Errorf("ObjectKinds(Status) = %v, %v", got, err)
	}
}
