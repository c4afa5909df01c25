package sim

import (
	"strings"
	"testing"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/manifest"
	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

func settled(t *testing.T, src string) *Cluster {
	t.Helper()
	objs, err := manifest.Parse("test.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	cl, err := NewCluster(Config{Seed: 1, Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	cl.Apply(objs, []string{"test.yaml"})
	if !cl.Settle() {
		t.Fatal("did not settle")
	}
	return cl
}

const recreate = `apiVersion: apps/v1
kind: Deployment
metadata: {name: api}
spec:
  replicas: 4
  selector: {matchLabels: {app: api}}
  strategy: {type: Recreate}
  template:
    metadata: {labels: {app: api}}
    spec:
      containers:
      - {name: api, image: example/api:1.0, resources: {requests: {cpu: 10m}}}
`

// Recreate: old pods all gone (terminating ones included) before the new
// ReplicaSet exists; it is created at full size; no `from 0 to 0`, no
// repeated scaling event.
func TestRecreate(t *testing.T) {
	cl := settled(t, recreate)
	dep := cl.Deployment("default", "api")
	pods := map[string]*corev1.Pod{}
	var bad []string
	w := cl.api.NewClient("test", apiserver.Identity{User: "test"}, trace.PhaseController)
	w.Watch("pods", func(ev apiserver.Event) {
		p := ev.Obj.(*corev1.Pod)
		if ev.Type == apiserver.Deleted {
			delete(pods, p.Name)
		} else {
			pods[p.Name] = p
		}
		old, young := 0, 0
		for _, p := range pods {
			if p.Spec.Containers[0].Image == "example/api:1.0" {
				old++
			} else {
				young++
			}
		}
		if old > 0 && young > 0 && len(bad) < 3 {
			bad = append(bad, "old and new pods exist together")
		}
	})
	if err := cl.SetImage(dep, "api", "example/api:2.0"); err != nil {
		t.Fatal(err)
	}
	cl.RunFor(5 * time.Minute)
	tr := cl.Story("", "rollout")
	var scaling []string
	for i := range tr.Steps {
		if s := &tr.Steps[i]; s.Kind == "event" && s.Get("reason") == "ScalingReplicaSet" {
			scaling = append(scaling, s.Get("message"))
		}
	}
	if len(scaling) != 2 || !strings.HasSuffix(scaling[0], "from 4 to 0") || !strings.HasSuffix(scaling[1], "from 0 to 4") {
		t.Errorf("scaling events %q, want the old set 4 → 0, then the new one 0 → 4", scaling)
	}
	if len(bad) > 0 {
		t.Error(bad)
	}
}

const rolling = `apiVersion: apps/v1
kind: Deployment
metadata: {name: api}
spec:
  replicas: 3
  progressDeadlineSeconds: 60
  selector: {matchLabels: {app: api}}
  template:
    metadata: {labels: {app: api}}
    spec:
      containers:
      - {name: api, image: example/api:1.0, resources: {requests: {cpu: 10m}}}
`

// rollout undo reuses the old ReplicaSet: no new one, its revision becomes
// the next number and the old number goes into revision-history; both
// kubectl writes are PATCHes authorized with the verb patch.
func TestUndoReusesReplicaSet(t *testing.T) {
	cl := settled(t, rolling)
	dep := cl.Deployment("default", "api")
	if err := cl.SetImage(dep, "api", "example/api:2.0"); err != nil {
		t.Fatal(err)
	}
	cl.RunFor(5 * time.Minute)
	cl.Undo(cl.Deployment("default", "api"))
	cl.RunFor(10 * time.Minute)
	var rss []*appsv1.ReplicaSet
	for _, o := range cl.api.List("replicasets") {
		rss = append(rss, o.(*appsv1.ReplicaSet))
	}
	if len(rss) != 2 {
		t.Fatalf("%d ReplicaSets after undo, want the same 2", len(rss))
	}
	for _, rs := range rss {
		want := map[string]string{"example/api:1.0": "3", "example/api:2.0": "2"}[rs.Spec.Template.Spec.Containers[0].Image]
		if got := rs.Annotations["deployment.kubernetes.io/revision"]; got != want {
			t.Errorf("%s: revision %s, want %s", rs.Name, got, want)
		}
		if rs.Spec.Template.Spec.Containers[0].Image == "example/api:1.0" {
			if h := rs.Annotations["deployment.kubernetes.io/revision-history"]; h != "1" || *rs.Spec.Replicas != 3 {
				t.Errorf("%s: revision-history %q, replicas %d; want 1 and 3", rs.Name, h, *rs.Spec.Replicas)
			}
		}
	}
	tr := cl.Story("", "rollout")
	patches := 0
	for i := range tr.Steps {
		s := &tr.Steps[i]
		if s.Kind == "apiserver.authz" && s.Get("user") == "kubernetes-admin" {
			if s.Get("verb") != "patch" || s.Get("resource") != "deployments" {
				t.Errorf("kubectl's write authorized as %s %s, want patch deployments", s.Get("verb"), s.Get("resource"))
			}
			patches++
		}
	}
	if patches != 2 {
		t.Errorf("%d kubectl writes, want 2 PATCHes (set image, undo)", patches)
	}
}

// A write with a stale resourceVersion is refused with upstream's 409
// message and leaves the stored object alone; a /status write keeps the
// stored spec, a spec write the stored status.
func TestOptimisticConcurrency(t *testing.T) {
	cl := settled(t, rolling)
	res := apiserver.ResourceOf(&appsv1.Deployment{})
	read := cl.Deployment("default", "api")
	c := cl.api.NewClient("test", apiserver.Identity{User: "kubernetes-admin", Groups: []string{"kubeadm:cluster-admins"}}, trace.PhaseController)
	// First writer: scale to 5 with the version it read.
	first := read.DeepCopy()
	five := int32(5)
	first.Spec.Replicas = &five
	first.Status.Replicas = 99 // a main-resource write cannot change status
	var firstErr, secondErr, statusErr *apiserver.Status
	c.Update(first, func(_ runtime.Object, err *apiserver.Status) { firstErr = err })
	cl.eng.Run(cl.eng.Now() + 10*time.Millisecond)
	// Second writer read the same old version: refused.
	second := read.DeepCopy()
	seven := int32(7)
	second.Spec.Replicas = &seven
	c.Update(second, func(_ runtime.Object, err *apiserver.Status) { secondErr = err })
	cl.eng.Run(cl.eng.Now() + 10*time.Millisecond)
	// A status write from a fresh read keeps the stored spec.
	st := cl.Deployment("default", "api")
	st.Spec.Replicas = &seven
	st.Status.Conditions = append(st.Status.Conditions, appsv1.DeploymentCondition{Type: "Tested", Status: corev1.ConditionTrue})
	c.UpdateStatus(st, func(_ runtime.Object, err *apiserver.Status) { statusErr = err })
	cl.eng.Run(cl.eng.Now() + 10*time.Millisecond)
	got := cl.api.Get(res, "default", "api").(*appsv1.Deployment)
	want := `Operation cannot be fulfilled on deployments.apps "api": the object has been modified; please apply your changes to the latest version and try again`
	switch {
	case firstErr != nil || statusErr != nil:
		t.Fatalf("fresh writes failed: %v, %v", firstErr, statusErr)
	case secondErr == nil || secondErr.Code != 409 || secondErr.Reason != "Conflict" || secondErr.Message != want:
		t.Errorf("stale write: %+v, want 409 Conflict %q", secondErr, want)
	case *got.Spec.Replicas != 5:
		t.Errorf("stored replicas %d, want 5 (the stale write and the status write must not change it)", *got.Spec.Replicas)
	case got.Status.Replicas == 99:
		t.Error("a main-resource write changed status")
	case len(got.Status.Conditions) == 0 || got.Status.Conditions[len(got.Status.Conditions)-1].Type != "Tested":
		t.Error("the status write was lost")
	}
}

// Every ready pod ends up in its Service's EndpointSlice: the controller
// never sends a second update of a slice with the resourceVersion of the
// first (it would be refused with 409 and the endpoint lost).
func TestEndpointSlicesConverge(t *testing.T) {
	for _, replicas := range []int{1, 3, 7, 20} {
		cl, err := NewCluster(Config{Seed: int64(replicas), Workers: 3})
		if err != nil {
			t.Fatal(err)
		}
		cl.Apply(deployment(replicas), []string{"bench.yaml"})
		if !cl.Settle() {
			t.Fatalf("%d replicas: did not settle", replicas)
		}
		ready := 0
		for _, st := range cl.Services() {
			for _, sl := range st.Slices {
				for _, ep := range sl.Endpoints {
					if ep.Conditions.Ready != nil && *ep.Conditions.Ready {
						ready++
					}
				}
			}
		}
		if ready != replicas {
			t.Errorf("%d replicas: %d ready endpoints stored", replicas, ready)
		}
	}
}

// getNewReplicaSet writes the new ReplicaSet's revision into the
// Deployment's deployment.kubernetes.io/revision annotation, with the
// Progressing condition NewReplicaSetCreated, by UpdateStatus (the status
// strategy keeps annotations); the sync's own status write then carries the
// stale resourceVersion and meets 409 (deployment/sync.go, progress.go).
// The rollout ends Available and Progressing NewReplicaSetAvailable, with
// times, and a new template takes revision 2.
func TestDeploymentRevisionAndConditions(t *testing.T) {
	objs, err := manifest.Parse("test.yaml", []byte(recreate))
	if err != nil {
		t.Fatal(err)
	}
	cl, err := NewCluster(Config{Seed: 1, Workers: 3, LogWrites: true})
	if err != nil {
		t.Fatal(err)
	}
	cl.Apply(objs, []string{"test.yaml"})
	cl.Settle()
	dep := cl.Deployment("default", "api")
	if got := dep.Annotations["deployment.kubernetes.io/revision"]; got != "1" {
		t.Fatalf("revision annotation %q, want 1", got)
	}
	var conflicts int
	for _, w := range cl.Writes() {
		if w.Resource == "deployments" && w.Subresource == "status" && w.Code == 409 {
			conflicts++
		}
	}
	if conflicts == 0 {
		t.Error("the first sync's second status write should meet 409 Conflict, as upstream's does")
	}
	want := []string{"Available True MinimumReplicasAvailable", `Progressing True NewReplicaSetAvailable ReplicaSet "` + dep.Name + "-"}
	if len(dep.Status.Conditions) != 2 {
		t.Fatalf("conditions %+v", dep.Status.Conditions)
	}
	for i, c := range dep.Status.Conditions {
		if got := strings.Join([]string{string(c.Type), string(c.Status), c.Reason, c.Message}, " "); !strings.HasPrefix(got, want[i]) {
			t.Errorf("condition %d: %s, want %s…", i, got, want[i])
		}
		if c.LastTransitionTime.IsZero() || c.LastUpdateTime.IsZero() {
			t.Errorf("condition %s has no times", c.Type)
		}
	}
	if err := cl.SetImage(dep, "api", "example/api:2.0"); err != nil {
		t.Fatal(err)
	}
	cl.Settle()
	if got := cl.Deployment("default", "api").Annotations["deployment.kubernetes.io/revision"]; got != "2" {
		t.Errorf("after a new template: revision annotation %q, want 2", got)
	}
}

// calculateStatus counts unavailable replicas against the ReplicaSets'
// desired replicas, surge included (deployment/sync.go): while the rolling
// update of examples/app.yaml (maxSurge 1, maxUnavailable 0) runs four
// pods, three available, the Deployment reports one unavailable.
func TestDeploymentUnavailableCountsTheSurge(t *testing.T) {
	cl := exampleCluster(t, "app.yaml", Config{Seed: 1, Workers: 3, LogWrites: true})
	cl.Settle()
	from := len(cl.Writes())
	if err := cl.SetImage(cl.Deployment("default", "web"), "web", "nginx:1.28"); err != nil {
		t.Fatal(err)
	}
	cl.Settle()
	seen := map[int32]bool{}
	for _, w := range cl.Writes()[from:] {
		if d, ok := w.Object.(*appsv1.Deployment); ok && w.Subresource == "status" && w.Code == 200 {
			seen[d.Status.UnavailableReplicas] = true
		}
	}
	if !seen[1] {
		t.Errorf("unavailableReplicas during the rollout: %v, want 1 while the surge pod is not available", seen)
	}
}
