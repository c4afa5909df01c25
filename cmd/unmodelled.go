package cmd

import (
	appsv1 "k8s.io/api/apps/v1"

	"github.com/k8sexplain/k8sexplain/internal/exitcode"
	"github.com/k8sexplain/k8sexplain/internal/manifest"
)

// refuseUnmodelled stops a simulation before it runs when the input asks
// for behaviour the simulator does not model, so that no trace shows a
// rollout the real controller would not make. A paused Deployment: the
// real controller then only scales the ReplicaSets it already has and
// creates no new one (pkg/controller/deployment/deployment_controller.go
// syncDeployment → sync with createIfNotExisted false, v1.37.2); the
// simulated one has no paused path yet.
func refuseUnmodelled(objs []manifest.Object) error {
	for _, o := range objs {
		if d, ok := o.Obj.(*appsv1.Deployment); ok && d.Spec.Paused {
			return exitcode.Inputf("%s:%d: Deployment %s: spec.paused: true is not modelled by the simulator (a paused Deployment gets no new ReplicaSet: the controller only scales the ones it has until kubectl rollout resume)", o.Pos.File, o.Pos.Line, d.Name)
		}
	}
	return nil
}
