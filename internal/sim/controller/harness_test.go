package controller

import (
	"testing"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"github.com/k8sexplain/k8sexplain/internal/sim/engine"
	"github.com/k8sexplain/k8sexplain/internal/sim/informer"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// harness is a real simulated API server on an engine, with no other
// component than the controllers a test starts: what the controller reads
// comes through its informers, what it does shows in the store.
type harness struct {
	t     *testing.T
	eng   *engine.Engine
	rec   *trace.Recorder
	api   *apiserver.Server
	admin *apiserver.Client
}

func newHarness(t *testing.T) *harness {
	t.Helper()
	eng := engine.New(1)
	rec := trace.NewRecorder(eng.Now, 0)
	api, err := apiserver.New(eng, rec, "10.96.0.0/12")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"default", "kube-node-lease", "team"} {
		ns := &corev1.Namespace{}
		ns.Name = name
		ns.Status.Phase = corev1.NamespaceActive
		api.Seed(ns)
	}
	admin := api.NewClient("kubectl", apiserver.Identity{User: "kubernetes-admin", Groups: []string{"kubeadm:cluster-admins", "system:authenticated"}}, trace.PhaseKubectl)
	return &harness{t: t, eng: eng, rec: rec, api: api, admin: admin}
}

// client is a controller's client with its service account, as the
// simulator gives it.
func (h *harness) client(account string) *apiserver.Client {
	return h.api.NewClient(account, apiserver.Identity{User: "system:serviceaccount:kube-system:" + account,
		Groups: []string{"system:serviceaccounts", "system:serviceaccounts:kube-system", "system:authenticated"}}, trace.PhaseController)
}

// settle runs until no foreground work is left (background timers, such
// as the node monitor, need runUntil).
func (h *harness) settle() { h.eng.Run(h.eng.Now() + time.Hour) }

func (h *harness) runUntil(d time.Duration) { h.eng.RunUntil(d) }

func (h *harness) create(obj runtime.Object) {
	h.t.Helper()
	h.admin.Create(obj, func(_ runtime.Object, err *apiserver.Status) {
		if err != nil {
			h.t.Errorf("create %s: %s", informer.Key(obj), err.Message)
		}
	})
	h.settle()
}

func (h *harness) update(obj runtime.Object) {
	h.t.Helper()
	h.admin.Update(obj, func(_ runtime.Object, err *apiserver.Status) {
		if err != nil {
			h.t.Errorf("update %s: %s", informer.Key(obj), err.Message)
		}
	})
	h.settle()
}

func (h *harness) delete(obj runtime.Object) {
	h.t.Helper()
	m := apiserver.Meta(obj)
	h.admin.Delete(apiserver.ResourceOf(obj), m.GetNamespace(), m.GetName(), nil)
	h.settle()
}

// pods lists the stored pods of ns in name order.
func (h *harness) pods(ns string) []*corev1.Pod {
	var out []*corev1.Pod
	for _, p := range h.api.Pods() {
		if p.Namespace == ns {
			out = append(out, p)
		}
	}
	return out
}

func (h *harness) get(obj runtime.Object, ns, name string) runtime.Object {
	return h.api.Get(apiserver.ResourceOf(obj), ns, name)
}

func (h *harness) steps(kind trace.Kind) []trace.Step {
	var out []trace.Step
	for _, s := range h.rec.Steps {
		if s.Kind == kind {
			out = append(out, s)
		}
	}
	return out
}

// readyAll plays the kubelets: every pod not yet Ready gets an IP and
// turns Running and Ready (a status write per pod, as a kubelet sends).
func (h *harness) readyAll(ns string) {
	h.t.Helper()
	for i, p := range h.pods(ns) {
		if PodReady(p) || p.DeletionTimestamp != nil {
			continue
		}
		h.admin.UpdateStatus(readyPod(p, i), nil)
	}
	h.settle()
}

func readyPod(p *corev1.Pod, i int) *corev1.Pod {
	upd := p.DeepCopy()
	upd.Status.Phase = corev1.PodRunning
	if upd.Status.PodIP == "" {
		upd.Status.PodIP = ip(i)
	}
	upd.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}
	return upd
}

func ip(i int) string {
	return "10.244." + itoa(i/250) + "." + itoa(i%250+2)
}

func itoa(i int) string { return resource.NewQuantity(int64(i), resource.DecimalSI).String() }

func set(kv ...string) map[string]string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return m
}

func template(image string) corev1.PodTemplateSpec {
	var t corev1.PodTemplateSpec
	t.Labels = set("app", "web")
	t.Spec.Containers = []corev1.Container{{Name: "web", Image: image}}
	return t
}

func replicaSet(name string, replicas int32) *appsv1.ReplicaSet {
	rs := &appsv1.ReplicaSet{}
	rs.Namespace, rs.Name = "default", name
	rs.Spec.Replicas = &replicas
	rs.Spec.Selector = &metav1.LabelSelector{MatchLabels: set("app", "web")}
	rs.Spec.Template = template("nginx:1.27")
	return rs
}

func deployment(name string, replicas int32, image string) *appsv1.Deployment {
	d := &appsv1.Deployment{}
	d.Namespace, d.Name = "default", name
	d.Spec.Replicas = &replicas
	d.Spec.Selector = &metav1.LabelSelector{MatchLabels: set("app", "web")}
	d.Spec.Template = template(image)
	d.Spec.Strategy.Type = appsv1.RollingUpdateDeploymentStrategyType
	return d
}
