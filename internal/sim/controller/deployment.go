// Package controller holds the kube-controller-manager loops the simulator
// runs: Deployment, ReplicaSet and EndpointSlice. Each is a reconcile loop:
// it keeps a cache fed only by watch events, compares desired with observed
// state, and acts only through API requests with its own service account.
//
// Left out: rolling updates of an existing Deployment (only the first
// rollout of a new one), the Recreate strategy, pod deletion ranking,
// adoption of orphans and the garbage collector.
package controller

import (
	"fmt"
	"strconv"

	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"github.com/k8sexplain/k8sexplain/internal/sim/engine"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// Deployment is the deployment controller.
type Deployment struct {
	c       *apiserver.Client
	eng     *engine.Engine
	rec     *trace.Recorder
	deploys map[string]*appsv1.Deployment
	rsets   map[string]*appsv1.ReplicaSet // by namespace/name
	pending map[string]bool               // syncs queued
	avail   map[string]int32              // last reported available replicas
}

// NewDeployment starts the controller's watches.
func NewDeployment(c *apiserver.Client, eng *engine.Engine, rec *trace.Recorder) *Deployment {
	d := &Deployment{c: c, eng: eng, rec: rec, deploys: map[string]*appsv1.Deployment{},
		rsets: map[string]*appsv1.ReplicaSet{}, pending: map[string]bool{}, avail: map[string]int32{}}
	c.Watch("deployments", func(ev apiserver.Event) {
		dep := ev.Obj.(*appsv1.Deployment)
		k := dep.Namespace + "/" + dep.Name
		if ev.Type == apiserver.Deleted {
			delete(d.deploys, k)
			return
		}
		first := d.deploys[k] == nil
		d.deploys[k] = dep
		if first {
			rec.Add(trace.Step{Phase: trace.PhaseController, Actor: c.Actor, Kind: "controller.observe",
				Object: apiserver.ObjectRef(dep), Fields: trace.F("kind", "Deployment", "rev", ev.Rev)})
		}
		d.enqueue(k)
	})
	c.Watch("replicasets", func(ev apiserver.Event) {
		rs := ev.Obj.(*appsv1.ReplicaSet)
		k := rs.Namespace + "/" + rs.Name
		if ev.Type == apiserver.Deleted {
			delete(d.rsets, k)
		} else {
			d.rsets[k] = rs
		}
		if ref := metav1.GetControllerOf(rs); ref != nil && ref.Kind == "Deployment" {
			d.enqueue(rs.Namespace + "/" + ref.Name)
		}
	})
	return d
}

func (d *Deployment) enqueue(k string) {
	if d.pending[k] {
		return
	}
	d.pending[k] = true
	d.eng.After(0, func() { delete(d.pending, k); d.sync(k) })
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

func (d *Deployment) sync(k string) {
	dep := d.deploys[k]
	if dep == nil {
		return
	}
	replicas := int32(1)
	if dep.Spec.Replicas != nil {
		replicas = *dep.Spec.Replicas
	}
	hash := PodTemplateHash(&dep.Spec.Template, dep.Status.CollisionCount)
	name := dep.Name + "-" + hash
	var newRS *appsv1.ReplicaSet
	var ready, available, total int32
	for _, rs := range d.rsets {
		if ref := metav1.GetControllerOf(rs); ref == nil || ref.UID != dep.UID {
			continue
		}
		if rs.Name == name {
			newRS = rs
		}
		ready += rs.Status.ReadyReplicas
		available += rs.Status.AvailableReplicas
		total += rs.Status.Replicas
	}
	if newRS == nil {
		d.createRS(dep, name, hash, replicas)
		return
	}
	if d.avail[k] != available || dep.Status.ObservedGeneration != dep.Generation {
		d.avail[k] = available
		st := dep.DeepCopy()
		st.Status.ObservedGeneration = dep.Generation
		st.Status.Replicas, st.Status.ReadyReplicas, st.Status.AvailableReplicas = total, ready, available
		st.Status.UpdatedReplicas = newRS.Status.Replicas
		st.Status.UnavailableReplicas = max(replicas-available, 0)
		_, maxUnavail, _ := d.fenceposts(dep, replicas)
		cond := "False"
		if available >= replicas-maxUnavail {
			cond = "True"
		}
		d.rec.Add(trace.Step{Phase: trace.PhaseReady, Actor: d.c.Actor, Kind: "deployment.status", Object: apiserver.ObjectRef(dep),
			Fields: trace.F("ready", ready, "available", available, "replicas", replicas, "availableCond", cond, "minAvailable", replicas-maxUnavail)})
		d.c.UpdateStatus(st, nil)
	}
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

func (d *Deployment) createRS(dep *appsv1.Deployment, name, hash string, replicas int32) {
	surge, _, _ := d.fenceposts(dep, replicas)
	rs := &appsv1.ReplicaSet{}
	rs.Name, rs.Namespace = name, dep.Namespace
	rs.Labels = copyLabels(dep.Spec.Template.Labels, hash)
	rs.Annotations = map[string]string{
		"deployment.kubernetes.io/revision":         "1",
		"deployment.kubernetes.io/desired-replicas": strconv.Itoa(int(replicas)),
		"deployment.kubernetes.io/max-replicas":     strconv.Itoa(int(replicas + surge)),
	}
	rs.OwnerReferences = []metav1.OwnerReference{*metav1.NewControllerRef(dep, appsv1.SchemeGroupVersion.WithKind("Deployment"))}
	rs.Spec.Replicas = &replicas
	rs.Spec.MinReadySeconds = dep.Spec.MinReadySeconds
	rs.Spec.Selector = dep.Spec.Selector.DeepCopy()
	if rs.Spec.Selector.MatchLabels == nil {
		rs.Spec.Selector.MatchLabels = map[string]string{}
	}
	rs.Spec.Selector.MatchLabels["pod-template-hash"] = hash
	rs.Spec.Template = *dep.Spec.Template.DeepCopy()
	rs.Spec.Template.Labels = copyLabels(dep.Spec.Template.Labels, hash)
	d.rec.Add(trace.Step{Phase: trace.PhaseController, Actor: d.c.Actor, Kind: "deployment.newrs", Object: apiserver.ObjectRef(dep),
		Fields: trace.F("rs", name, "hash", hash, "replicas", replicas, "maxSurge", surge)})
	key := dep.Namespace + "/" + name
	d.rsets[key] = rs // expectation: do not create it twice while the request is in flight
	d.c.Create(rs, func(_ runtime.Object, err *apiserver.Status) {
		if err != nil {
			delete(d.rsets, key)
			d.rec.Add(trace.Step{Phase: trace.PhaseController, Actor: d.c.Actor, Kind: "controller.error", Object: apiserver.ObjectRef(dep), Fields: trace.F("message", err.Message)})
			return
		}
		// Event wording of recent releases (deployment/sync.go scaleReplicaSet).
		d.c.Event(trace.PhaseController, dep, "Normal", "ScalingReplicaSet", fmt.Sprintf("Scaled up replica set %s from 0 to %d", name, replicas))
	})
}

func copyLabels(in map[string]string, hash string) map[string]string {
	out := make(map[string]string, len(in)+1)
	for k, v := range in {
		out[k] = v
	}
	out["pod-template-hash"] = hash
	return out
}
