package apiserver

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	eventsv1 "k8s.io/api/events/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// The remembered Resources are what the scheme says; a set TypeMeta still
// goes to KindOf.
func TestCommonResourceIsResourceOf(t *testing.T) {
	for _, obj := range []runtime.Object{&corev1.Pod{}, &corev1.Event{}, &eventsv1.Event{}, &appsv1.ReplicaSet{},
		&discoveryv1.EndpointSlice{}, &coordinationv1.Lease{}, &corev1.Node{}} {
		got, ok := commonResource(obj)
		if want := resourceOf(obj); !ok || got != want {
			t.Errorf("%T: commonResource = %+v, %v; want %+v", obj, got, ok, want)
		}
	}
	typed := &corev1.Pod{}
	typed.APIVersion, typed.Kind = "v1", "Pod"
	if _, ok := commonResource(typed); ok {
		t.Error("a Pod with its TypeMeta set must go to KindOf")
	}
	if _, ok := commonResource(&appsv1.Deployment{}); ok {
		t.Error("a Deployment is not one of the remembered types")
	}
}
