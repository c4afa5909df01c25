package sim

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/clip"
	"github.com/k8sexplain/k8sexplain/internal/manifest"
	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"github.com/k8sexplain/k8sexplain/internal/sim/engine"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// controllers that would act on kinds the simulator stores but does not run.
var unmodeled = map[string]string{
	"StatefulSet":              "statefulset controller (kube-controller-manager)",
	"DaemonSet":                "daemonset controller (kube-controller-manager)",
	"Job":                      "job controller (kube-controller-manager)",
	"CronJob":                  "cronjob controller (kube-controller-manager)",
	"ReplicationController":    "replicationcontroller controller (kube-controller-manager)",
	"HorizontalPodAutoscaler":  "horizontal-pod-autoscaler controller (kube-controller-manager)",
	"PodDisruptionBudget":      "disruption controller (kube-controller-manager), consulted by evictions",
	"PersistentVolumeClaim":    "persistentvolume-binder controller and a CSI provisioner",
	"Ingress":                  "an ingress controller you install (ingress-nginx, Traefik…): Kubernetes ships none",
	"IngressClass":             "an ingress controller you install",
	"NetworkPolicy":            "the CNI plugin (Calico, Cilium…): kube-proxy does not enforce it",
	"CustomResourceDefinition": "apiextensions-apiserver, which starts serving the new resource",
	"StorageClass":             "a CSI provisioner, when a claim asks for this class",
	// kube-controller-manager v1.37: pkg/controller/endpointslicemirroring mirrors a selector-less
	// Service's Endpoints into EndpointSlices.
	"Endpoints": "endpointslicemirroring controller (kube-controller-manager)",
}

// data kinds are stored and read by others; no controller reconciles them.
var dataKinds = map[string]bool{
	"ConfigMap": true, "Secret": true, "ServiceAccount": true, "Role": true, "RoleBinding": true,
	"ClusterRole": true, "ClusterRoleBinding": true, "LimitRange": true,
	"PriorityClass": true, "PodTemplate": true, "EndpointSlice": true,
}

// Apply sends objs the way `kubectl apply` does with a new object: one at a
// time, GET (404), then POST with the last-applied-configuration annotation.
// Objects with an error are reported and skipped, as kubectl does. kubectl
// runs as a proc: each request waits for its answer before the next.
func (c *Cluster) Apply(objs []manifest.Object, sources []string) {
	c.rec.Add(trace.Step{Phase: trace.PhaseKubectl, Actor: "kubectl", Kind: "kubectl.read",
		Fields: trace.F("count", len(objs), "files", strings.Join(sources, ", "))})
	c.eng.Go(func(p *engine.Proc) {
		for _, o := range objs {
			c.applyOne(p, o)
		}
	})
}

// applyOne is client-side apply of one object (kubectl apply.go): GET it,
// and POST it when it does not exist.
func (c *Cluster) applyOne(p *engine.Proc, o manifest.Object) {
	obj := o.Obj.DeepCopyObject()
	if c.cfg.Mutate != nil {
		if spec := podSpecOf(obj); spec != nil {
			c.cfg.Mutate(spec)
		}
	}
	res := apiserver.ResourceOf(obj)
	m := apiserver.Meta(obj)
	ns := m.GetNamespace()
	if ns == "" && res.Namespaced {
		ns = "default"
	}
	// kubectl keeps the object as the user wrote it in an annotation, for
	// the next apply's three-way merge.
	if data, err := json.Marshal(o.Obj); err == nil {
		ann := m.GetAnnotations()
		if ann == nil {
			ann = map[string]string{}
		}
		ann[LastAppliedAnnotation] = string(data) + "\n"
		m.SetAnnotations(ann)
	}
	where := fmt.Sprintf("%s:%d", o.Pos.File, o.Pos.Line)
	name := m.GetName()
	if name == "" {
		name = m.GetGenerateName()
	}
	c.rec.Add(trace.Step{Phase: trace.PhaseKubectl, Actor: "kubectl", Kind: "kubectl.validate", Object: res.Plural + "/" + ns + "/" + name,
		Fields: trace.F("kind", res.Kind, "apiVersion", o.APIVersion, "name", name, "where", where)})
	if msg := clientSideRefusal(o, obj, res, ns); msg != "" {
		// kubectl refuses it before any request: nothing is created.
		c.rec.Add(trace.Step{Phase: trace.PhaseKubectl, Actor: "kubectl", Kind: "kubectl.error", Object: res.Plural + "/" + ns + "/" + name,
			Fields: trace.F("status", "not sent", "message", "error: "+msg)})
		if c.failed == "" {
			c.failed = where + ": " + strings.ReplaceAll(msg, "\n", " ")
		}
		c.clientErrs = append(c.clientErrs, "error: "+msg)
		return
	}
	api := c.kubectl.In(p)
	if m.GetName() != "" { // generateName: kubectl create semantics, nothing to GET
		existing, err := api.Get(res, ns, m.GetName())
		if err == nil {
			c.rec.Add(trace.Step{Phase: trace.PhaseKubectl, Actor: "kubectl", Kind: "kubectl.exists", Object: apiserver.ObjectRef(existing)})
			return
		}
		c.rec.Add(trace.Step{Phase: trace.PhaseKubectl, Actor: "kubectl", Kind: "kubectl.get", Verbose: true, Object: res.Plural + "/" + ns + "/" + name,
			Fields: trace.F("path", apiserver.Path(res, ns, m.GetName()), "status", err.StatusLine())})
	}
	c.rec.Add(trace.Step{Phase: trace.PhaseKubectl, Actor: "kubectl", To: "kube-apiserver", Kind: "kubectl.post", Object: res.Plural + "/" + ns + "/" + name,
		// Client-side apply's query (kubectl apply.go, --validate=strict).
		Fields: trace.F("path", apiserver.Path(res, ns, "")+"?fieldManager=kubectl-client-side-apply&fieldValidation=Strict", "kind", res.Kind)})
	stored, err := api.Create(obj)
	if err != nil {
		msg := fmt.Sprintf("Error from server (%s): error when creating %q: %s", err.Reason, o.Pos.File, err.Message)
		c.rec.Add(trace.Step{Phase: trace.PhaseStore, Actor: "kubectl", Kind: "kubectl.error", Object: res.Plural + "/" + ns + "/" + name,
			Fields: trace.F("status", err.StatusLine(), "message", msg)})
		if c.failed == "" {
			c.failed = fmt.Sprintf("%s: %s", where, err.Message)
		}
		return
	}
	sm := apiserver.Meta(stored)
	lower := strings.ToLower(res.Kind)
	if res.Group != "" {
		lower += "." + res.Group
	}
	c.rec.Add(trace.Step{Phase: trace.PhaseStore, Actor: "kubectl", Kind: "kubectl.created", Object: apiserver.ObjectRef(stored),
		Fields: trace.F("ref", lower+"/"+sm.GetName())})
	c.noteUnmodeled(res, stored)
}

// ClientErrors are the errors kubectl itself printed for objects it did not
// send, each as kubectl prints it (lines joined by "\n").
func (c *Cluster) ClientErrors() []string { return c.clientErrs }

// clientSideRefusal is kubectl apply's own error for an object it cannot
// send, or "" (k8s.io/kubectl pkg/cmd/apply/apply.go applyOneObject and
// k8s.io/cli-runtime pkg/resource/mapper.go, v1.37):
//   - a custom resource, or a component's config file
//     (KubeSchedulerConfiguration), whose kind no CRD serves: kubectl maps
//     every object before it applies any, so even a CRD in the same apply
//     comes too late;
//   - generateName without a name: apply needs the name to merge;
//   - no name at all: the GET of the current configuration has no name.
func clientSideRefusal(o manifest.Object, obj runtime.Object, res apiserver.Resource, ns string) string {
	gvk := obj.GetObjectKind().GroupVersionKind()
	if gvk.Kind == "" {
		gvk = manifest.KindOf(obj)
	}
	m := apiserver.Meta(obj)
	if manifest.Custom(gvk) {
		return manifest.NoMatch(clip.Value(m.GetName()), clip.Value(m.GetNamespace()), o.Pos.File, clip.Value(o.Kind), clip.Value(o.APIVersion)) + "\n" + manifest.CRDHint
	}
	if m.GetName() != "" {
		return ""
	}
	if g := m.GetGenerateName(); g != "" {
		return fmt.Sprintf("from %s: cannot use generate name with apply", clip.Value(g))
	}
	// resource.Info's String(), then client-go's "resource name may not be
	// empty" from the GET, wrapped by cmdutil.AddSourceToErr.
	group := gvk.Group + "/" + gvk.Version
	return fmt.Sprintf("error when retrieving current configuration of:\nResource: %q, GroupVersionKind: %q\nName: \"\", Namespace: %q\nfrom server for: %q: resource name may not be empty",
		group+", Resource="+res.Plural, group+", Kind="+gvk.Kind, ns, o.Pos.File)
}

func (c *Cluster) noteUnmodeled(res apiserver.Resource, obj runtime.Object) {
	kind := res.Kind
	ref := apiserver.ObjectRef(obj)
	who, ok := unmodeled[kind]
	switch {
	case kind == "Namespace":
		return // modelled: the serviceaccount controller and the root-ca-cert-publisher fill it
	case kind == "PodDisruptionBudget" && c.cfg.Disruption:
		return // modelled: the disruption controller keeps its status
	case kind == "HorizontalPodAutoscaler" && c.cfg.Autoscaling:
		return // modelled: controller.HPA with metrics-server
	case kind == "StatefulSet" && c.cfg.StatefulSets:
		return // modelled: controller.StatefulSet (its claims bound with Config.Volumes)
	case (kind == "PersistentVolumeClaim" || kind == "StorageClass") && c.cfg.Volumes:
		return // modelled: controller.PVBinder and the local-path provisioner
	case ok:
	case dataKinds[kind]:
		c.rec.Add(trace.Step{Phase: trace.PhaseController, Actor: "kube-apiserver", Kind: "stored.data", Object: ref, Fields: trace.F("kind", kind)})
		return
	case res.Group != "" && strings.Contains(res.Group, ".") && !strings.HasSuffix(res.Group, ".k8s.io"):
		who = "the operator that owns " + res.Group + " (a custom resource)"
	default:
		return // modelled: Deployment, ReplicaSet, Pod, Service
	}
	c.unmod = append(c.unmod, kind+" "+ref)
	c.rec.Add(trace.Step{Phase: trace.PhaseController, Actor: "kube-apiserver", Kind: "unmodeled", Object: ref,
		Fields: trace.F("kind", kind, "controller", who)})
}

// podSpecOf returns the pod spec inside a workload object, or nil.
func podSpecOf(obj runtime.Object) *corev1.PodSpec {
	switch o := obj.(type) {
	case *corev1.Pod:
		return &o.Spec
	case *appsv1.Deployment:
		return &o.Spec.Template.Spec
	case *appsv1.ReplicaSet:
		return &o.Spec.Template.Spec
	}
	return nil
}

// SetImage is `kubectl set image deployment/NAME CONTAINER=IMAGE`: kubectl
// reads the Deployment, changes the image locally and sends the difference
// as a strategic merge patch (kubectl set/set_image.go: PATCH with
// application/strategic-merge-patch+json, RBAC verb patch). A new template,
// so a new ReplicaSet and a rolling update.
func (c *Cluster) SetImage(dep *appsv1.Deployment, container, image string) error {
	if err := hasContainer("deployment", dep.Name, &dep.Spec.Template.Spec, container); err != nil {
		return err
	}
	c.rec.Add(trace.Step{Phase: trace.PhaseKubectl, Actor: "kubectl", To: "kube-apiserver", Kind: "kubectl.setimage", Object: apiserver.ObjectRef(dep),
		Fields: trace.F("deployment", dep.Name, "container", container, "image", image)})
	c.kubectl.Patch(apiserver.ResourceOf(dep), dep.Namespace, dep.Name, setImagePatch(container, image), func(o runtime.Object) {
		setImage(&o.(*appsv1.Deployment).Spec.Template.Spec, container, image)
	}, c.recordFailure)
	return nil
}

// Undo is `kubectl rollout undo deployment/NAME`: kubectl finds the
// ReplicaSet of the previous revision and sends a JSON patch that replaces
// the Deployment's spec.template with that set's template (without its
// pod-template-hash label) and its annotations (kubectl polymorphichelpers
// rollback.go getDeploymentPatch). The Deployment controller then finds
// that old ReplicaSet for the template and reuses it under a new revision.
func (c *Cluster) Undo(dep *appsv1.Deployment) {
	rs := c.previousRS(dep)
	if rs == nil {
		return
	}
	tmpl := rs.Spec.Template.DeepCopy()
	delete(tmpl.Labels, "pod-template-hash")
	c.rec.Add(trace.Step{Phase: trace.PhaseKubectl, Actor: "kubectl", To: "kube-apiserver", Kind: "kubectl.undo", Object: apiserver.ObjectRef(dep),
		Fields: trace.F("deployment", dep.Name, "rs", rs.Name, "revision", rs.Annotations["deployment.kubernetes.io/revision"])})
	c.kubectl.Patch(apiserver.ResourceOf(dep), dep.Namespace, dep.Name,
		`JSON patch [{"op":"replace","path":"/spec/template","value":{…}},{"op":"replace","path":"/metadata/annotations","value":{…}}]`,
		func(o runtime.Object) { o.(*appsv1.Deployment).Spec.Template = *tmpl }, nil)
}

// previousRS is the ReplicaSet of the revision before the current one.
func (c *Cluster) previousRS(dep *appsv1.Deployment) *appsv1.ReplicaSet {
	var owned []*appsv1.ReplicaSet
	for _, o := range c.api.List("replicasets") {
		rs := o.(*appsv1.ReplicaSet)
		for _, ref := range rs.OwnerReferences {
			if ref.UID == dep.UID {
				owned = append(owned, rs)
			}
		}
	}
	sort.Slice(owned, func(i, j int) bool {
		ri, _ := strconv.Atoi(owned[i].Annotations["deployment.kubernetes.io/revision"])
		rj, _ := strconv.Atoi(owned[j].Annotations["deployment.kubernetes.io/revision"])
		return ri > rj
	})
	if len(owned) < 2 {
		return nil
	}
	return owned[1]
}

// Scale is `kubectl scale deployment/NAME --replicas=N`: a merge PATCH
// {"spec":{"replicas":N}} of the scale subresource, answered with an
// autoscaling/v1 Scale (k8s.io/kubectl pkg/cmd/scale, pkg/scale; the API
// server's ScaleREST, pkg/registry/apps/deployment/storage/storage.go,
// v1.37.2).
func (c *Cluster) Scale(dep *appsv1.Deployment, replicas int32) {
	c.kubectl.PatchScale(apiserver.ResourceOf(dep), dep.Namespace, dep.Name, replicas, c.recordFailure)
}

// DeletePod is `kubectl delete pod NAME`: a DELETE with the default grace
// period.
func (c *Cluster) DeletePod(pod *corev1.Pod) {
	c.rec.Add(trace.Step{Phase: trace.PhaseKubectl, Actor: "kubectl", To: "kube-apiserver", Kind: "kubectl.delete", Object: apiserver.ObjectRef(pod),
		Fields: trace.F("pod", pod.Name, "ip", pod.Status.PodIP, "node", pod.Spec.NodeName)})
	c.kubectl.Delete(apiserver.ResourceOf(pod), pod.Namespace, pod.Name, nil)
}

// DeleteMirrorPod is `kubectl delete pod NAME` of a static pod's mirror
// pod: the same DELETE, told as what it is.
func (c *Cluster) DeleteMirrorPod(pod *corev1.Pod) {
	c.rec.Add(trace.Step{Phase: trace.PhaseKubectl, Actor: "kubectl", To: "kube-apiserver", Kind: "kubectl.deletemirror", Object: apiserver.ObjectRef(pod),
		Fields: trace.F("pod", pod.Name, "node", pod.Spec.NodeName)})
	c.kubectl.Delete(apiserver.ResourceOf(pod), pod.Namespace, pod.Name, nil)
}

// Autoscale is `kubectl autoscale deployment NAME --min=MIN --max=MAX
// --cpu=TARGET%`: kubectl builds an autoscaling/v2 HorizontalPodAutoscaler
// named after the Deployment and POSTs it (k8s.io/kubectl pkg/cmd/autoscale
// autoscale.go, v1.37: --cpu as a percentage is an Utilization target).
func (c *Cluster) Autoscale(hpa *autoscalingv2.HorizontalPodAutoscaler) {
	target := int32(0)
	if m := hpa.Spec.Metrics; len(m) > 0 && m[0].Resource != nil && m[0].Resource.Target.AverageUtilization != nil {
		target = *m[0].Resource.Target.AverageUtilization
	}
	minR := int32(1)
	if hpa.Spec.MinReplicas != nil {
		minR = *hpa.Spec.MinReplicas
	}
	c.rec.Add(trace.Step{Phase: trace.PhaseKubectl, Actor: "kubectl", To: "kube-apiserver", Kind: "kubectl.autoscale",
		Object: apiserver.ObjectRef(hpa), Fields: trace.F("deployment", hpa.Spec.ScaleTargetRef.Name, "min", minR, "max", hpa.Spec.MaxReplicas, "cpu", target)})
	c.kubectl.Create(hpa.DeepCopy(), c.recordFailure)
}

// HPAs lists the stored HorizontalPodAutoscalers.
func (c *Cluster) HPAs() []*autoscalingv2.HorizontalPodAutoscaler {
	var out []*autoscalingv2.HorizontalPodAutoscaler
	for _, o := range c.api.List("horizontalpodautoscalers") {
		out = append(out, o.(*autoscalingv2.HorizontalPodAutoscaler))
	}
	return out
}

// SetStatefulSetImage is `kubectl set image statefulset/NAME
// CONTAINER=IMAGE`, preceded when partition ≥ 0 by `kubectl patch
// statefulset NAME -p '{"spec":{"updateStrategy":{"rollingUpdate":
// {"partition":N}}}}'`: both strategic merge patches.
func (c *Cluster) SetStatefulSetImage(set *appsv1.StatefulSet, container, image string, partition int32) error {
	if err := hasContainer("statefulset", set.Name, &set.Spec.Template.Spec, container); err != nil {
		return err
	}
	res := apiserver.ResourceOf(set)
	if partition >= 0 {
		body := fmt.Sprintf(`strategic merge patch {"spec":{"updateStrategy":{"rollingUpdate":{"partition":%d}}}}`, partition)
		c.rec.Add(trace.Step{Phase: trace.PhaseKubectl, Actor: "kubectl", To: "kube-apiserver", Kind: "kubectl.partition", Object: apiserver.ObjectRef(set),
			Fields: trace.F("set", set.Name, "partition", partition)})
		c.kubectl.Patch(res, set.Namespace, set.Name, body, func(o runtime.Object) {
			s := o.(*appsv1.StatefulSet)
			s.Spec.UpdateStrategy.Type = appsv1.RollingUpdateStatefulSetStrategyType
			s.Spec.UpdateStrategy.RollingUpdate = &appsv1.RollingUpdateStatefulSetStrategy{Partition: &partition}
		}, nil)
	}
	c.rec.Add(trace.Step{Phase: trace.PhaseKubectl, Actor: "kubectl", To: "kube-apiserver", Kind: "kubectl.setimage.sts", Object: apiserver.ObjectRef(set),
		Fields: trace.F("set", set.Name, "container", container, "image", image)})
	c.kubectl.Patch(res, set.Namespace, set.Name, setImagePatch(container, image), func(o runtime.Object) {
		setImage(&o.(*appsv1.StatefulSet).Spec.Template.Spec, container, image)
	}, c.recordFailure)
	return nil
}

// StatefulSets lists the stored StatefulSets.
func (c *Cluster) StatefulSets() []*appsv1.StatefulSet {
	var out []*appsv1.StatefulSet
	for _, o := range c.api.List("statefulsets") {
		out = append(out, o.(*appsv1.StatefulSet))
	}
	return out
}

// recordFailure keeps the API server's message when one of kubectl's
// requests is refused: the story reports it (Failed).
func (c *Cluster) recordFailure(_ runtime.Object, err *apiserver.Status) {
	if err != nil {
		c.failed = err.Message
	}
}

// hasContainer is kubectl set image's check that the pod template has the
// container (kind and name say which workload, in the error).
func hasContainer(kind, name string, spec *corev1.PodSpec, container string) error {
	var names []string
	for _, ct := range spec.Containers {
		if ct.Name == container {
			return nil
		}
		names = append(names, ct.Name)
	}
	return fmt.Errorf("%s %s has no container %q (it has %s)", kind, name, container, strings.Join(names, ", "))
}

// setImagePatch is the strategic merge patch `kubectl set image` sends for
// one container (kubectl set/set_image.go), and setImage what it does to
// the stored template.
func setImagePatch(container, image string) string {
	body, _ := json.Marshal(map[string]any{"spec": map[string]any{"template": map[string]any{"spec": map[string]any{
		"containers": []map[string]string{{"image": image, "name": container}}}}}})
	return "strategic merge patch " + string(body)
}

func setImage(spec *corev1.PodSpec, container, image string) {
	for i := range spec.Containers {
		if spec.Containers[i].Name == container {
			spec.Containers[i].Image = image
		}
	}
}
