package sim

import (
	"testing"

	"github.com/k8sexplain/k8sexplain/internal/sim/engine"
	"github.com/k8sexplain/k8sexplain/internal/sim/scheduler"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
)

// The default spreading selector is built once for the pods of one
// ReplicaSet and rebuilt when the pod's labels, the namespace's Services
// or the controller's selector change; it is always what
// DefaultSpreadSelector gives.
func TestSpreadSelectorIsRememberedUntilItsInputsChange(t *testing.T) {
	s := newSchedAgent(nil, engine.New(1), nil)
	rs := &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "web-1", UID: "rs-1"},
		Spec: appsv1.ReplicaSetSpec{Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web", "pod-template-hash": "1"}}}}
	s.rsets.Write(rs)
	s.services.Write(&corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "web"},
		Spec: corev1.ServiceSpec{Selector: map[string]string{"app": "web"}}})
	pod := func(name string, lbls map[string]string) *corev1.Pod {
		p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: name, Labels: lbls}}
		p.OwnerReferences = []metav1.OwnerReference{{Kind: "ReplicaSet", Name: "web-1", UID: types.UID("rs-1"), Controller: new(bool)}}
		*p.OwnerReferences[0].Controller = true
		return p
	}
	// check asks for p's selector: the memo's when reused, else what
	// DefaultSpreadSelector builds.
	check := func(p *corev1.Pod, reused bool) {
		t.Helper()
		got := s.spreadSelector(p).String()
		want := scheduler.DefaultSpreadSelector(p, s.services.ByNamespace(p.Namespace), rs.Spec.Selector).String()
		if reused {
			want = "sentinel"
		}
		if got != want {
			t.Fatalf("%s: selector %q, want %q", p.Name, got, want)
		}
	}
	web := map[string]string{"app": "web", "pod-template-hash": "1"}
	check(pod("a", web), false)
	// A stand-in selector shows whether the next call reuses the memo.
	sentinel, _ := labels.Parse("sentinel")
	s.spread.sel = sentinel
	check(pod("b", map[string]string{"app": "web", "pod-template-hash": "1"}), true)
	// Another Service in the namespace: rebuilt.
	s.services.Write(&corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "web-tier"},
		Spec: corev1.ServiceSpec{Selector: map[string]string{"app": "web", "tier": "front"}}})
	check(pod("c", web), false)
	// Other labels (the second Service selects this pod too): rebuilt.
	s.spread.sel = sentinel
	check(pod("d", map[string]string{"app": "web", "pod-template-hash": "1", "tier": "front"}), false)
	s.spread.sel = sentinel
	check(pod("e", map[string]string{"app": "web", "pod-template-hash": "1", "tier": "front"}), true)
}
