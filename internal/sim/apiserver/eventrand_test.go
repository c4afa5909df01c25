package apiserver

import (
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// Creating an Event draws from the seeded random source only what any
// named object's create draws (its uid): its name comes from the recorder
// (<object>.<hex UnixNano>), not generateName, so nothing else is drawn
// and the next pod name, uid or tie-break is the one a named ConfigMap's
// create would leave.
func TestEventCreateDrawsNoMoreThanANamedObject(t *testing.T) {
	next := func(obj runtime.Object) uint64 {
		_, c, eng, _ := callRig(t)
		c.Create(obj, nil)
		eng.Run(time.Minute)
		return eng.Rand().Uint64()
	}
	ev := &corev1.Event{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "web.18a1b2c3d4e5f607"},
		InvolvedObject: corev1.ObjectReference{Kind: "Pod", Namespace: "default", Name: "web"},
		Reason:         "Pulling", Message: "Pulling image \"nginx\"", Type: "Normal", Count: 1, Source: corev1.EventSource{Component: "kubelet"}}
	if a, b := next(configMap("")), next(ev); a != b {
		t.Fatalf("an Event create moved the random stream further than a named ConfigMap's (next draw %x, want %x)", b, a)
	}
}
