package sim

// The two ways `kubectl apply` changes an existing object, told on one
// Deployment (trace apply-modes): server-side apply, where the API server
// merges and tracks field ownership in metadata.managedFields, and
// client-side apply, where kubectl computes a three-way strategic merge
// patch from the last-applied-configuration annotation, the manifest and
// the live object (k8s.io/kubectl pkg/cmd/apply/apply.go and patcher.go,
// v1.37; apimachinery pkg/util/strategicpatch, v0.37.2).

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"github.com/k8sexplain/k8sexplain/internal/sim/engine"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// LastAppliedAnnotation is where client-side apply keeps the object as the
// user last applied it (kubectl.kubernetes.io/last-applied-configuration).
const LastAppliedAnnotation = "kubectl.kubernetes.io/last-applied-configuration"

// Field managers as kubectl names them (apply.go: fieldManagerServerSideApply
// "kubectl", FieldManagerClientSideApply "kubectl-client-side-apply";
// label.go "kubectl-label").
const (
	ManagerSSA   = "kubectl"
	ManagerCSA   = "kubectl-client-side-apply"
	ManagerLabel = "kubectl-label"
)

// applyPause is how long the story lets the cluster work between two
// commands, so each command's consequences (pods created or removed) show
// before the next one.
const applyPause = 20 * time.Second

// ApplyModes plays the story: mode "server" or "client", on dep (as its
// manifest in file says it, spec.replicas set), with `kubectl scale
// --replicas=scaleTo` as the second writer.
func (c *Cluster) ApplyModes(mode string, dep *appsv1.Deployment, file string, scaleTo int32) {
	if dep.Namespace == "" {
		// kubectl fills in its context's namespace, "default".
		dep = dep.DeepCopy()
		dep.Namespace = "default"
	}
	c.eng.Go(func(p *engine.Proc) {
		if mode == "client" {
			c.clientSideStory(p, dep, file, scaleTo)
			return
		}
		c.serverSideStory(p, dep, file, scaleTo)
	})
}

func withReplicas(dep *appsv1.Deployment, n *int32) *appsv1.Deployment {
	d := dep.DeepCopy()
	d.Spec.Replicas = n
	return d
}

func (c *Cluster) serverSideStory(p *engine.Proc, dep *appsv1.Deployment, file string, scaleTo int32) {
	base := *dep.Spec.Replicas
	c.serverSideApply(p, dep, file, false)
	c.kubectlScale(p, dep, scaleTo)
	// The manifest still says base: the API server refuses to hand the
	// field back silently. With the live value the apply agrees, and the
	// two managers share the field.
	c.serverSideApply(p, dep, file, false)
	c.serverSideApply(p, withReplicas(dep, &scaleTo), file, false)
	c.serverSideApply(p, withReplicas(dep, nil), file, false)
	c.serverSideApply(p, withReplicas(dep, &base), file, true)
	c.serverSideApply(p, withReplicas(dep, nil), file, false)
}

func (c *Cluster) clientSideStory(p *engine.Proc, dep *appsv1.Deployment, file string, scaleTo int32) {
	c.clientSideApply(p, dep, file)
	c.kubectlScale(p, dep, scaleTo)
	c.kubectlLabel(p, dep, "tier", "frontend")
	c.clientSideApply(p, withReplicas(dep, nil), file)
}

func replicasText(d *appsv1.Deployment) any {
	if d.Spec.Replicas == nil {
		return trace.P("applymodes.unset")
	}
	return fmt.Sprint(*d.Spec.Replicas)
}

// serverSideApply is `kubectl apply --server-side [--force-conflicts] -f
// file`: one PATCH of type application/apply-patch+yaml with the manifest
// as it is, ?fieldManager=kubectl and ?force (apply.go applyOneObject).
func (c *Cluster) serverSideApply(p *engine.Proc, dep *appsv1.Deployment, file string, force bool) {
	obj := dep.DeepCopy()
	obj.SetGroupVersionKind(appsv1.SchemeGroupVersion.WithKind("Deployment"))
	res := apiserver.ResourceOf(obj)
	cmd := "kubectl apply --server-side -f " + file
	if force {
		cmd += " --force-conflicts"
	}
	path := fmt.Sprintf("%s?fieldManager=%s&fieldValidation=Strict&force=%t", apiserver.Path(res, obj.Namespace, obj.Name), ManagerSSA, force)
	c.rec.Add(trace.Step{Phase: trace.PhaseKubectl, Actor: "kubectl", To: "kube-apiserver", Kind: "kubectl.ssa", Object: apiserver.ObjectRef(obj),
		Fields: trace.F("command", cmd, "replicas", replicasText(obj), "path", path)})
	body, jerr := manifestJSON(obj)
	if jerr != nil {
		return
	}
	_, err := c.kubectl.In(p).Apply(obj, body, ManagerSSA, force)
	c.afterCommand(p, obj, err)
}

// afterCommand reports a refusal as kubectl prints it, or reads the object
// back with its managedFields; then the cluster works for a while.
func (c *Cluster) afterCommand(p *engine.Proc, obj runtime.Object, err *apiserver.Status) {
	if err != nil {
		msg := "error: " + err.Message
		if err.Reason != "Conflict" {
			msg = fmt.Sprintf("Error from server (%s): %s", err.Reason, err.Message)
		}
		c.rec.Add(trace.Step{Phase: trace.PhaseKubectl, Actor: "kubectl", Kind: "kubectl.error", Object: apiserver.ObjectRef(obj),
			Fields: trace.F("status", err.StatusLine(), "message", msg)})
	} else {
		c.showManagedFields(p, obj)
	}
	p.Sleep(applyPause)
}

// showManagedFields is `kubectl get deployment NAME -o yaml
// --show-managed-fields` (get hides them by default since v1.21), read as
// who owns spec.replicas.
func (c *Cluster) showManagedFields(p *engine.Proc, obj runtime.Object) {
	m := apiserver.Meta(obj)
	res := apiserver.ResourceOf(obj)
	live, err := c.kubectl.In(p).Get(res, m.GetNamespace(), m.GetName())
	if err != nil {
		return
	}
	d := live.(*appsv1.Deployment)
	owners, all := apiserver.ReplicasOwners(d)
	who := strings.Join(owners, ", ")
	if len(owners) == 0 {
		who = "—"
	}
	c.rec.Add(trace.Step{Phase: trace.PhaseKubectl, Actor: "kubectl", Kind: "kubectl.managedfields", Object: apiserver.ObjectRef(d),
		Fields: trace.F("deployment", d.Name, "replicas", replicasText(d), "owners", who, "labels", labelsText(d.Labels), "managers", strings.Join(all, ", "))})
}

func labelsText(l map[string]string) string {
	var out []string
	for k, v := range l {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return strings.Join(out, ",")
}

// kubectlScale is `kubectl scale deployment/NAME --replicas=N`: a merge
// PATCH of the scale subresource; kubectl names no field manager, so the
// API server records its User-Agent's "kubectl", operation Update,
// subresource scale (k8s.io/kubectl pkg/scale/scale.go).
func (c *Cluster) kubectlScale(p *engine.Proc, dep *appsv1.Deployment, n int32) {
	res := apiserver.ResourceOf(dep)
	c.rec.Add(trace.Step{Phase: trace.PhaseKubectl, Actor: "kubectl", To: "kube-apiserver", Kind: "kubectl.scale", Object: apiserver.ObjectRef(dep),
		Fields: trace.F("deployment", dep.Name, "replicas", n, "path", apiserver.Path(res, dep.Namespace, dep.Name)+"/scale")})
	_, err := c.kubectl.In(p).PatchScale(res, dep.Namespace, dep.Name, n)
	c.afterCommand(p, dep, err)
}

// kubectlLabel is `kubectl label deployment NAME KEY=VALUE`: a merge PATCH
// of metadata.labels with ?fieldManager=kubectl-label (label.go).
func (c *Cluster) kubectlLabel(p *engine.Proc, dep *appsv1.Deployment, key, value string) {
	res := apiserver.ResourceOf(dep)
	body := fmt.Sprintf(`{"metadata":{"labels":{%q:%q}}}`, key, value)
	c.rec.Add(trace.Step{Phase: trace.PhaseKubectl, Actor: "kubectl", To: "kube-apiserver", Kind: "kubectl.label", Object: apiserver.ObjectRef(dep),
		Fields: trace.F("deployment", dep.Name, "label", key+"="+value, "body", body)})
	_, err := c.kubectl.In(p).PatchAs(res, dep.Namespace, dep.Name, body, ManagerLabel, func(o runtime.Object) {
		m := apiserver.Meta(o)
		l := map[string]string{}
		for k, v := range m.GetLabels() {
			l[k] = v
		}
		l[key] = value
		m.SetLabels(l)
	})
	c.afterCommand(p, dep, err)
}

// manifestJSON is the manifest as kubectl reads it from the file: the
// typed object's JSON without the fields the file did not write (Go's zero
// values: null, and the empty objects of structs such as status: {} and
// resources: {}; an empty emptyDir is kept, it means something).
func manifestJSON(dep *appsv1.Deployment) ([]byte, error) {
	d := dep.DeepCopy()
	d.SetGroupVersionKind(appsv1.SchemeGroupVersion.WithKind("Deployment"))
	raw, err := json.Marshal(d)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, err
	}
	prune(m)
	return json.Marshal(m)
}

func prune(v any) bool {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if e == nil || (prune(e) && k != "emptyDir") {
				delete(x, k)
			}
		}
		return len(x) == 0
	case []any:
		for _, e := range x {
			prune(e)
		}
	}
	return false
}

// withLastApplied is the manifest with the annotation holding the
// manifest itself, as kubectl sends it (util.GetModifiedConfiguration),
// and its JSON.
func withLastApplied(dep *appsv1.Deployment) (*appsv1.Deployment, []byte, error) {
	plain, err := manifestJSON(dep)
	if err != nil {
		return nil, nil, err
	}
	d := dep.DeepCopy()
	d.SetGroupVersionKind(appsv1.SchemeGroupVersion.WithKind("Deployment"))
	ann := map[string]string{}
	for k, v := range d.Annotations {
		ann[k] = v
	}
	ann[LastAppliedAnnotation] = string(plain) + "\n"
	d.Annotations = ann
	var m map[string]any
	if err := json.Unmarshal(plain, &m); err != nil {
		return nil, nil, err
	}
	md, _ := m["metadata"].(map[string]any)
	if md == nil {
		md = map[string]any{}
		m["metadata"] = md
	}
	mann, _ := md["annotations"].(map[string]any)
	if mann == nil {
		mann = map[string]any{}
		md["annotations"] = mann
	}
	mann[LastAppliedAnnotation] = string(plain) + "\n"
	modified, err := json.Marshal(m)
	return d, modified, err
}

// enableFieldManagement turns on managedFields and server-side apply for
// Deployments when cfg asks for it (Config.FieldManagement).
func enableFieldManagement(api *apiserver.Server, cfg Config) error {
	if !cfg.FieldManagement {
		return nil
	}
	return api.EnableFieldManagement()
}
