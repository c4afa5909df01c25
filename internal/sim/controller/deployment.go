// Package controller holds the kube-controller-manager loops the simulator
// runs: Deployment, ReplicaSet and EndpointSlice. Each is a reconcile loop:
// it keeps a cache fed only by watch events, compares desired with observed
// state, and acts only through API requests with its own service account.
//
// The Deployment controller does rolling updates and Recreate, and reuses
// an old ReplicaSet on `rollout undo`. Its files follow upstream's
// pkg/controller/deployment: deployment.go (deployment_controller.go:
// informers, handlers, syncDeployment), deployment_sync.go (sync.go),
// deployment_rolling.go (rolling.go), deployment_recreate.go (recreate.go)
// and deployment_progress.go (progress.go). Upstream's rollback.go serves
// the old extensions/v1beta1 rollbackTo; `kubectl rollout undo` on apps/v1
// writes the old template back, and getNewReplicaSet finds its ReplicaSet. Every write carries the
// resourceVersion read from the informer; a 409 Conflict ends the sync and
// the key is retried with back-off, as client-go's work queue does — except
// for an old ReplicaSet's scale-down, after which rolling.go goes on to the
// status write.
//
// Left out: pausing, proportional scaling of a rollout in progress,
// revisionHistoryLimit clean-up, adoption of orphans and the garbage
// collector.
package controller

import (
	"strings"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"github.com/k8sexplain/k8sexplain/internal/sim/engine"
	"github.com/k8sexplain/k8sexplain/internal/sim/informer"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// Deployment is the deployment controller.
type Deployment struct {
	c       *apiserver.Client
	eng     *engine.Engine
	rec     *trace.Recorder
	deploys *informer.Informer[*appsv1.Deployment]
	rsets   *informer.Informer[*appsv1.ReplicaSet] // indexed by controller UID
	queue   *workQueue                             // syncs queued
	avail   map[string]int32                       // last reported available replicas
	// History is each Deployment's rollout table: sizes after every scaling.
	History   map[string][]RolloutRow
	complete  map[string]bool
	pods      *informer.Informer[*corev1.Pod] // indexed by controller UID
	waiting   map[string]bool                 // Recreate: waiting for old pods to go
	shown     map[string][3]int32             // last status line shown: ready, available, minAvailable
	informers *informer.Factory               // its own, when built without kube-controller-manager's
}

// NewDeployment builds the controller on its client; Start opens its
// watches.
func NewDeployment(f *informer.Factory, c *apiserver.Client, eng *engine.Engine, rec *trace.Recorder) *Deployment {
	f, own := informer.Or(f, c)
	d := &Deployment{c: c, eng: eng, rec: rec, deploys: informer.For[*appsv1.Deployment](f, "deployments"), informers: own,
		rsets: informer.For[*appsv1.ReplicaSet](f, "replicasets").EnsureIndexer(informer.ControllerIndex, informer.ByController[*appsv1.ReplicaSet]),
		avail: map[string]int32{}, History: map[string][]RolloutRow{},
		complete: map[string]bool{},
		pods:     informer.For[*corev1.Pod](f, "pods").EnsureIndexer(informer.ControllerIndex, informer.ByController[*corev1.Pod]),
		waiting:  map[string]bool{}, shown: map[string][3]int32{}}
	d.queue = newWorkQueue(eng, d.syncDeployment)
	d.queue.onRetry = retryStep(rec, c.Actor, "deployments")
	d.deploys.AddEventHandlerFor(c.Actor, observeAndQueue[*appsv1.Deployment](rec, c.Actor, "Deployment", d.queue))
	d.rsets.AddEventHandlerFor(c.Actor, func(ev informer.Event[*appsv1.ReplicaSet]) {
		if ref := metav1.GetControllerOfNoCopy(ev.Obj); ref != nil && ref.Kind == "Deployment" {
			d.queue.add(ev.Obj.Namespace + "/" + ref.Name)
		}
	})
	// Pods, for Recreate: the new ReplicaSet waits until no old pod exists
	// (deployment_controller.go deletePod enqueues the Deployment).
	d.pods.AddEventHandlerFor(c.Actor, func(ev informer.Event[*corev1.Pod]) {
		if !ev.Deleted() {
			return
		}
		pod := ev.Obj
		ref := metav1.GetControllerOfNoCopy(pod)
		if ref == nil || ref.Kind != "ReplicaSet" {
			return
		}
		rs, _ := d.rsets.Get(pod.Namespace, ref.Name)
		if rs == nil {
			return
		}
		if dref := metav1.GetControllerOfNoCopy(rs); dref != nil && dref.Kind == "Deployment" {
			if dep, _ := d.deploys.Get(rs.Namespace, dref.Name); dep != nil && dep.Spec.Strategy.Type == appsv1.RecreateDeploymentStrategyType {
				d.queue.add(rs.Namespace + "/" + dref.Name)
			}
		}
	})
	return d
}

// Name is the controller's client name.
func (d *Deployment) Name() string { return d.c.Actor }

// Start opens the controller's own watches (Deployments, ReplicaSets,
// pods); on shared informers kube-controller-manager opens them.
func (d *Deployment) Start() { d.informers.Start() }

// retryStep records a failed sync and its back-off.
func retryStep(rec *trace.Recorder, actor, plural string) func(string, error, time.Duration, int) {
	return func(key string, err error, after time.Duration, attempt int) {
		ns, name, _ := strings.Cut(key, "/")
		kind := trace.Kind("controller.retry")
		if st, ok := err.(*apiserver.Status); ok && st.Reason == "Conflict" {
			kind = "controller.conflict"
		}
		rec.Add(trace.Step{Phase: trace.PhaseController, Actor: actor, Kind: kind, Object: plural + "/" + ns + "/" + name,
			Fields: trace.F("key", key, "message", err.Error(), "after", after, "attempt", attempt)})
	}
}

// MaxSurge and MaxUnavailable resolve the rolling-update parameters: a
// percentage of replicas, surge rounded up and unavailable rounded down;
// both zero makes unavailable 1 (deployment/util ResolveFenceposts).
func ResolveFenceposts(surge, unavail *intstr.IntOrString, replicas int32) (int32, int32, error) {
	s, err := intstr.GetScaledValueFromIntOrPercent(intstr.ValueOrDefault(surge, intstr.FromInt32(0)), int(replicas), true)
	if err != nil {
		return 0, 0, err
	}
	u, err := intstr.GetScaledValueFromIntOrPercent(intstr.ValueOrDefault(unavail, intstr.FromInt32(0)), int(replicas), false)
	if err != nil {
		return 0, 0, err
	}
	if s == 0 && u == 0 {
		u = 1
	}
	if int32(u) > replicas {
		u = int(replicas)
	}
	return int32(s), int32(u), nil
}

// syncDeployment is syncDeployment (deployment_controller.go): it
// reads the Deployment and its ReplicaSets from the informers and runs the
// strategy's rollout; its API calls follow one another as upstream's
// blocking calls do, the first failure ends the sync with an error, and
// the queue retries the key with back-off after the informers caught up.
func (d *Deployment) syncDeployment(p *engine.Proc, key string) error {
	dep, _ := d.deploys.GetByKey(key)
	if dep == nil {
		return nil
	}
	replicas := int32(1)
	if dep.Spec.Replicas != nil {
		replicas = *dep.Spec.Replicas
	}
	hash := PodTemplateHash(&dep.Spec.Template, dep.Status.CollisionCount)
	name := dep.Name + "-" + hash
	newRS, olds := d.owned(dep, name)
	if dep.Spec.Strategy.Type == appsv1.RecreateDeploymentStrategyType {
		return d.rolloutRecreate(p, key, dep, replicas, name, hash, newRS, olds)
	}
	return d.rolloutRolling(p, key, dep, replicas, name, hash, newRS, olds)
}

func (d *Deployment) fenceposts(dep *appsv1.Deployment, replicas int32) (int32, int32, error) {
	var surge, unavail *intstr.IntOrString
	if ru := dep.Spec.Strategy.RollingUpdate; ru != nil {
		surge, unavail = ru.MaxSurge, ru.MaxUnavailable
	}
	if dep.Spec.Strategy.Type == appsv1.RecreateDeploymentStrategyType {
		return 0, replicas, nil
	}
	return ResolveFenceposts(surge, unavail, replicas)
}
