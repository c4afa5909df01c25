package sim

import (
	"encoding/json"
	"fmt"

	"github.com/k8sexplain/k8sexplain/internal/manifest"
	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"github.com/k8sexplain/k8sexplain/internal/sim/engine"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
)

// clientSideApply is `kubectl apply -f file` without --server-side
// (apply.go applyOneObject, patcher.go Patch): GET the object; when it
// does not exist, POST it with the annotation; else compute the three-way
// strategic merge patch of the annotation's last-applied configuration
// (original), the manifest (modified) and the live object (current), and
// PATCH it.
func (c *Cluster) clientSideApply(p *engine.Proc, dep *appsv1.Deployment, file string) {
	obj, modified, err := withLastApplied(dep)
	if err != nil {
		return
	}
	res := apiserver.ResourceOf(obj)
	api := c.kubectl.In(p)
	cmd := "kubectl apply -f " + file
	live, st := api.Get(res, obj.Namespace, obj.Name)
	if st != nil {
		c.rec.Add(trace.Step{Phase: trace.PhaseKubectl, Actor: "kubectl", Kind: "kubectl.get", Object: apiserver.ObjectRef(obj),
			Fields: trace.F("path", apiserver.Path(res, obj.Namespace, obj.Name), "status", st.StatusLine())})
		c.rec.Add(trace.Step{Phase: trace.PhaseKubectl, Actor: "kubectl", To: "kube-apiserver", Kind: "kubectl.post", Object: apiserver.ObjectRef(obj),
			Fields: trace.F("path", apiserver.Path(res, obj.Namespace, "")+"?fieldManager="+ManagerCSA+"&fieldValidation=Strict", "kind", res.Kind,
				"command", cmd, "replicas", replicasText(obj))})
		_, st = api.CreateAs(obj, ManagerCSA)
		c.afterCommand(p, obj, st)
		return
	}
	current, _ := json.Marshal(live)
	original := []byte(apiserver.Meta(live).GetAnnotations()[LastAppliedAnnotation])
	meta, err := strategicpatch.NewPatchMetaFromStruct(&appsv1.Deployment{})
	if err != nil {
		return
	}
	patch, err := strategicpatch.CreateThreeWayMergePatch(original, modified, current, meta, true)
	if err != nil {
		return
	}
	c.rec.Add(trace.Step{Phase: trace.PhaseKubectl, Actor: "kubectl", To: "kube-apiserver", Kind: "kubectl.csa", Object: apiserver.ObjectRef(obj),
		Fields: trace.F("command", cmd, "replicas", replicasText(obj), "path", apiserver.Path(res, obj.Namespace, obj.Name)+"?fieldManager="+ManagerCSA+"&fieldValidation=Strict",
			"patch", summarizePatch(patch))})
	_, st = api.PatchAs(res, obj.Namespace, obj.Name, summarizePatch(patch)+" ("+apiserver.PatchContentType+")", ManagerCSA, func(o runtime.Object) {
		strategicMerge(o, patch)
	})
	c.afterCommand(p, obj, st)
}

// strategicMerge is the API server's strategic merge patch of the stored
// object (handlers/patch.go smpPatcher: strategicpatch.StrategicMergePatch
// on its JSON, then decoding with defaults).
func strategicMerge(o runtime.Object, patch []byte) {
	d, ok := o.(*appsv1.Deployment)
	if !ok {
		return
	}
	cur, err := json.Marshal(d)
	if err != nil {
		return
	}
	out, err := strategicpatch.StrategicMergePatch(cur, patch, &appsv1.Deployment{})
	if err != nil {
		return
	}
	next := &appsv1.Deployment{}
	if json.Unmarshal(out, next) != nil {
		return
	}
	manifest.Default(next)
	*d = *next
}

// summarizePatch is the patch with the annotation's value (the whole
// manifest again) cut to "…", as the trace shows it.
func summarizePatch(patch []byte) string {
	var m map[string]any
	if json.Unmarshal(patch, &m) != nil {
		return string(patch)
	}
	if md, ok := m["metadata"].(map[string]any); ok {
		if ann, ok := md["annotations"].(map[string]any); ok {
			if _, ok := ann[LastAppliedAnnotation]; ok {
				ann[LastAppliedAnnotation] = "…"
			}
		}
	}
	b, err := json.Marshal(m)
	if err != nil {
		return fmt.Sprint(m)
	}
	return string(b)
}
