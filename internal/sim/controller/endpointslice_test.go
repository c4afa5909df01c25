package controller

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

func service(name string, sel map[string]string) *corev1.Service {
	svc := &corev1.Service{}
	svc.Namespace, svc.Name = "default", name
	svc.Spec.Selector = sel
	// No fixed clusterIP: two Services cannot share one (the registry
	// refuses "provided IP is already allocated"); the API server
	// allocates each its own.
	svc.Spec.Ports = []corev1.ServicePort{{Name: "http", Port: 80, Protocol: corev1.ProtocolTCP, TargetPort: intstr.FromString("http")}}
	return svc
}

// seedPod stores a pod of the web app with an IP, Ready or not, before
// the controller starts (it arrives with the informer's initial list).
func (h *harness) seedPod(i int, ready bool) *corev1.Pod {
	p := &corev1.Pod{}
	p.Namespace, p.Name = "default", fmt.Sprintf("web-%03d", i)
	p.Labels = set("app", "web")
	p.Spec.NodeName = "node-a"
	p.Spec.Containers = []corev1.Container{{Name: "web", Image: "nginx", Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 8080}}}}
	p.Status.Phase = corev1.PodRunning
	p.Status.PodIP = ip(i)
	st := corev1.ConditionFalse
	if ready {
		st = corev1.ConditionTrue
	}
	p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: st}}
	h.api.Seed(p)
	return p
}

func (h *harness) slices(svc string) []*discoveryv1.EndpointSlice {
	var out []*discoveryv1.EndpointSlice
	for _, o := range h.api.List("endpointslices") {
		if sl := o.(*discoveryv1.EndpointSlice); sl.Labels[discoveryv1.LabelServiceName] == svc {
			out = append(out, sl)
		}
	}
	return out
}

func startEndpointSlice(h *harness) *EndpointSlice {
	e := NewEndpointSlice(nil, h.client("endpointslice-controller"), h.eng, h.rec)
	e.Start()
	return e
}

// Each selected pod with an IP is an endpoint with its conditions; a named
// targetPort is resolved against the pods' container ports; unselected
// pods and a Service without selector get none.
func TestEndpointSliceReadyAndNotReady(t *testing.T) {
	h := newHarness(t)
	h.seedPod(0, true)
	h.seedPod(1, false)
	other := h.seedPod(2, true)
	upd := other.DeepCopy()
	upd.Labels = set("app", "db")
	h.api.Seed(upd)
	startEndpointSlice(h)
	h.create(service("web", set("app", "web")))
	h.create(service("manual", nil))
	sls := h.slices("web")
	if len(sls) != 1 {
		t.Fatalf("%d slices, want 1", len(sls))
	}
	sl := sls[0]
	if sl.AddressType != discoveryv1.AddressTypeIPv4 || sl.Labels[discoveryv1.LabelManagedBy] != "endpointslice-controller.k8s.io" {
		t.Fatalf("slice metadata: %v %v", sl.AddressType, sl.Labels)
	}
	var got []string
	for _, ep := range sl.Endpoints {
		got = append(got, fmt.Sprintf("%s %s ready=%v serving=%v terminating=%v", ep.TargetRef.Name, ep.Addresses[0], *ep.Conditions.Ready, *ep.Conditions.Serving, *ep.Conditions.Terminating))
	}
	want := []string{"web-000 10.244.0.2 ready=true serving=true terminating=false", "web-001 10.244.0.3 ready=false serving=false terminating=false"}
	if !slices.Equal(got, want) {
		t.Fatalf("endpoints:\n got %q\nwant %q", got, want)
	}
	if len(sl.Ports) != 1 || *sl.Ports[0].Port != 8080 || *sl.Ports[0].Name != "http" {
		t.Fatalf("ports: %+v", sl.Ports)
	}
	if n := len(h.slices("manual")); n != 0 {
		t.Fatalf("a Service without selector got %d slices", n)
	}
	// The not-ready pod turns ready: the slice is rewritten.
	p1 := h.get(&corev1.Pod{}, "default", "web-001").(*corev1.Pod)
	h.admin.UpdateStatus(readyPod(p1, 1), nil)
	h.settle()
	if ep := h.slices("web")[0].Endpoints[1]; !*ep.Conditions.Ready {
		t.Fatal("web-001 still not ready in the slice")
	}
	// A deleted pod leaves the slice.
	h.delete(h.get(&corev1.Pod{}, "default", "web-000"))
	p0 := h.get(&corev1.Pod{}, "default", "web-000").(*corev1.Pod) // bound: deleted gracefully
	if ep := h.slices("web")[0].Endpoints[0]; p0.DeletionTimestamp == nil || !*ep.Conditions.Terminating || *ep.Conditions.Ready {
		t.Fatalf("a terminating pod must be terminating and not ready: %+v", ep.Conditions)
	}
}

// More than MaxEndpointsPerSlice endpoints are split over slices of at
// most 100; a pod keeps its slice when another changes.
func TestEndpointSliceSplitsAt100(t *testing.T) {
	h := newHarness(t)
	for i := 0; i < 150; i++ {
		h.seedPod(i, true)
	}
	e := startEndpointSlice(h)
	h.create(service("web", set("app", "web")))
	sls := h.slices("web")
	if len(sls) != 2 {
		t.Fatalf("%d slices, want 2", len(sls))
	}
	sizes := []int{len(sls[0].Endpoints), len(sls[1].Endpoints)}
	slices.Sort(sizes)
	if sizes[0] != 50 || sizes[1] != MaxEndpointsPerSlice {
		t.Fatalf("slice sizes %v, want 50 and 100", sizes)
	}
	writes := e.Writes
	// One pod turns unready: one slice is rewritten, not both.
	p := h.get(&corev1.Pod{}, "default", "web-120").(*corev1.Pod)
	p.Status.Conditions[0].Status = corev1.ConditionFalse
	h.admin.UpdateStatus(p, nil)
	h.settle()
	if e.Writes != writes+1 {
		t.Fatalf("%d slice writes for one pod change, want 1", e.Writes-writes)
	}
	if st := h.steps("endpointslice.update"); len(st) == 0 || st[len(st)-1].Get("ready") != "149" || st[len(st)-1].Get("total") != "150" {
		t.Fatalf("last update step: %+v", st[len(st)-1])
	}
}

// Two Services selecting the same pods are synced in the same order on
// every run (the controller used to walk a Go map of Services for each
// pod event, in an order that changed from run to run).
func TestEndpointSliceServicesInOrder(t *testing.T) {
	var first []string
	for run := 0; run < 8; run++ {
		h := newHarness(t)
		for i := 0; i < 3; i++ {
			h.seedPod(i, false)
		}
		for _, name := range []string{"b", "a", "c"} {
			h.api.Seed(service(name, set("app", "web")))
		}
		startEndpointSlice(h)
		h.settle()
		h.readyAll("default")
		var order []string
		for _, s := range h.steps("endpointslice.update") {
			order = append(order, s.Get("service")+" "+s.Get("ready"))
		}
		if len(order) == 0 {
			t.Fatal("no slice updates")
		}
		if run == 0 {
			first = order
		} else if !slices.Equal(order, first) {
			t.Fatalf("run %d wrote slices in another order:\n%q\nthe first run:\n%q", run, order, first)
		}
	}
}

// TestEndpointSliceStepByStep drives the controller with its requests
// held: one sync sends all of a Service's slices at once (a write per
// slice, each on its own proc); a pod change while a slice's write is in
// flight asks for nothing more until that write is answered, then the
// slice is written again with the stored resourceVersion.
func TestEndpointSliceStepByStep(t *testing.T) {
	h := newHarness(t)
	for i := range 150 {
		h.seedPod(i, true)
	}
	c := h.client("endpointslice-controller")
	ob := c.Hold()
	NewEndpointSlice(nil, c, h.eng, h.rec).Start()
	h.create(service("web", set("app", "web")))
	lines, creates := held(ob, "/endpointslices")
	if len(creates) != 2 || len(lines) != 2 {
		t.Fatalf("first sync asked for %q, want two slice creations (150 pods, 100 a slice)", lines)
	}
	var sizes []int
	for _, r := range ob.Requests() {
		sizes = append(sizes, len(r.Object.(*discoveryv1.EndpointSlice).Endpoints))
	}
	if !slices.Equal(sizes, []int{100, 50}) {
		t.Fatalf("held slices of %v endpoints, want [100 50]", sizes)
	}
	// web-000 turns not ready while both creations are held: its slice has
	// a write in flight, so the sync sends nothing.
	notReady := readyPod(h.pods("default")[0], 0)
	notReady.Status.Conditions[0].Status = corev1.ConditionFalse
	h.admin.UpdateStatus(notReady, nil)
	h.settle()
	if n := ob.Len(); n != 2 {
		t.Fatalf("%d requests held after the pod change, want the 2 creations only", n)
	}
	ob.SendAll()
	h.settle()
	lines, _ = held(ob, "")
	if len(lines) != 1 || !strings.HasPrefix(lines[0], "PUT /apis/discovery.k8s.io/v1/namespaces/default/endpointslices/web-") {
		t.Fatalf("after the creations were answered it asked for %q, want one slice update", lines)
	}
	upd := ob.Requests()[0].Object.(*discoveryv1.EndpointSlice)
	if upd.ResourceVersion == "" || *upd.Endpoints[0].Conditions.Ready {
		t.Fatalf("update rv %q, web-000 ready %v: want the stored version and web-000 not ready", upd.ResourceVersion, *upd.Endpoints[0].Conditions.Ready)
	}
	ob.Release()
	h.settle()
	if n := len(h.slices("web")); n != 2 {
		t.Fatalf("%d slices stored, want 2", n)
	}
}
