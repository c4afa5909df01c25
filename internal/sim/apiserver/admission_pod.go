package apiserver

import (
	"fmt"
	"maps"
	"net/http"
	"slices"
	"sort"
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/manifest"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	corev1 "k8s.io/api/core/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime"
)

// The admission plugins a kubeadm cluster enables (kube-apiserver's default
// set plus NodeRestriction), each listed in the phase where it runs, in
// upstream's order (pkg/kubeapiserver/options/plugins.go AllOrderedPlugins).
// Mutating plugins run after decoding; validating ones after the object's
// own validation, with ResourceQuota last of all. NamespaceLifecycle and
// NodeRestriction implement only Admit, so they belong to the mutating
// phase (plugin/pkg/admission/namespace/lifecycle/admission.go,
// plugin/pkg/admission/noderestriction/admission.go, v1.37); the trace
// names only the validating list.
var (
	mutatingPodPlugins   = []string{"NamespaceLifecycle", "LimitRanger", "ServiceAccount", "NodeRestriction", "Priority", "DefaultTolerationSeconds", "MutatingAdmissionWebhook"}
	validatingPodPlugins = []string{"LimitRanger", "ServiceAccount", "PodSecurity", "Priority",
		"ValidatingAdmissionPolicy", "ValidatingAdmissionWebhook", "ResourceQuota"}
	validatingPlugins_ = []string{"ValidatingAdmissionPolicy", "ValidatingAdmissionWebhook", "ResourceQuota"}
)

// Built-in priority classes the API server creates at start
// (pkg/apis/scheduling SystemPriorityClasses).
var systemPriorityClasses = map[string]int32{"system-node-critical": 2000001000, "system-cluster-critical": 2000000000}

// inNamespace lists the stored objects of plural in namespace ns.
func (s *Server) inNamespace(plural, ns string) []runtime.Object {
	var out []runtime.Object
	for _, o := range s.List(plural) {
		if Meta(o).GetNamespace() == ns {
			out = append(out, o)
		}
	}
	return out
}

// limitRanger is the LimitRanger plugin's Admit for a new pod
// (plugin/pkg/admission/limitranger): every LimitRange of type Container in
// the namespace fills the requests and limits a container left out —
// defaultRequest for requests, default for limits (a LimitRange without
// defaultRequest uses its default, as the API defaults it) — and the pod
// gets the kubernetes.io/limit-ranger annotation saying what was set.
func (s *Server) limitRanger(pod *corev1.Pod) string {
	var notes []string
	for _, o := range s.inNamespace("limitranges", pod.Namespace) {
		lr := o.(*corev1.LimitRange)
		for _, item := range lr.Spec.Limits {
			if item.Type != corev1.LimitTypeContainer {
				continue
			}
			// The API's defaulting of a LimitRange (SetDefaults_LimitRangeItem):
			// default ← max, defaultRequest ← default, then ← min.
			defs := item.Default.DeepCopy()
			if defs == nil {
				defs = corev1.ResourceList{}
			}
			for k, v := range item.Max {
				if _, ok := defs[k]; !ok {
					defs[k] = v
				}
			}
			reqs := item.DefaultRequest.DeepCopy()
			if reqs == nil {
				reqs = corev1.ResourceList{}
			}
			for _, from := range []corev1.ResourceList{defs, item.Min} {
				for k, v := range from {
					if _, ok := reqs[k]; !ok {
						reqs[k] = v
					}
				}
			}
			fill := func(kind string, c *corev1.Container) {
				var setReq, setLim []string
				// The maps may be shared with the pod's template (controller
				// copyTemplate): each is copied before its first write.
				for _, k := range slices.Sorted(maps.Keys(reqs)) {
					if _, ok := c.Resources.Requests[k]; !ok {
						if _, lim := c.Resources.Limits[k]; lim {
							continue // the API already copied the limit into the request
						}
						if setReq == nil {
							c.Resources.Requests = manifest.OwnResourceList(c.Resources.Requests)
						}
						c.Resources.Requests[k] = reqs[k]
						setReq = append(setReq, string(k))
					}
				}
				for _, k := range slices.Sorted(maps.Keys(defs)) {
					if _, ok := c.Resources.Limits[k]; !ok {
						if setLim == nil {
							c.Resources.Limits = manifest.OwnResourceList(c.Resources.Limits)
						}
						c.Resources.Limits[k] = defs[k]
						setLim = append(setLim, string(k))
					}
				}
				if len(setReq) > 0 {
					notes = append(notes, fmt.Sprintf("%s request for %s %s", strings.Join(setReq, ", "), kind, c.Name))
				}
				if len(setLim) > 0 {
					notes = append(notes, fmt.Sprintf("%s limit for %s %s", strings.Join(setLim, ", "), kind, c.Name))
				}
			}
			for i := range pod.Spec.InitContainers {
				fill("init container", &pod.Spec.InitContainers[i])
			}
			for i := range pod.Spec.Containers {
				fill("container", &pod.Spec.Containers[i])
			}
		}
	}
	if len(notes) == 0 {
		return ""
	}
	val := "LimitRanger plugin set: " + strings.Join(notes, "; ")
	if pod.Annotations == nil {
		pod.Annotations = map[string]string{}
	}
	pod.Annotations["kubernetes.io/limit-ranger"] = val
	return val
}

// priority is the Priority plugin's Admit (plugin/pkg/admission/priority):
// spec.priority from the pod's PriorityClass, else from the class marked
// globalDefault, else 0; spec.preemptionPolicy from the class, else
// PreemptLowerPriority. An unknown class name is refused. It returns what
// it did when describe.
func (s *Server) priority(pod *corev1.Pod, name string, describe bool) (any, *Status) {
	var value int32
	policy := corev1.PreemptLowerPriority
	from := "" // the class the value came from; "" for none
	if cn := pod.Spec.PriorityClassName; cn != "" {
		if v, ok := systemPriorityClasses[cn]; ok {
			value, from = v, "PriorityClass "+cn
		} else if o := s.Get(Resource{Group: "scheduling.k8s.io", Kind: "PriorityClass", Plural: "priorityclasses"}, "", cn); o != nil {
			pc := o.(*schedulingv1.PriorityClass)
			value, from = pc.Value, "PriorityClass "+cn
			if pc.PreemptionPolicy != nil {
				policy = *pc.PreemptionPolicy
			}
		} else {
			return "", &Status{Code: http.StatusForbidden, Reason: "Forbidden",
				Message: fmt.Sprintf("pods %q is forbidden: no PriorityClass with name %s was found", name, cn)}
		}
	} else {
		for _, o := range s.List("priorityclasses") {
			if pc := o.(*schedulingv1.PriorityClass); pc.GlobalDefault {
				value, from = pc.Value, "globalDefault PriorityClass "+pc.Name
				pod.Spec.PriorityClassName = pc.Name
				if pc.PreemptionPolicy != nil {
					policy = *pc.PreemptionPolicy
				}
			}
		}
	}
	if pod.Spec.Priority != nil && *pod.Spec.Priority != value {
		return "", &Status{Code: http.StatusForbidden, Reason: "Forbidden", Message: fmt.Sprintf(
			"pods %q is forbidden: the integer value of priority (%d) must not be provided in pod spec; priority admission controller computed %d from the given PriorityClass name", name, *pod.Spec.Priority, value)}
	}
	pod.Spec.Priority = &value
	if pod.Spec.PreemptionPolicy == nil {
		pod.Spec.PreemptionPolicy = &policy
	}
	if !describe {
		return nil, nil
	}
	var source any = trace.P("priority.none")
	if from != "" {
		source = from
	}
	return trace.P("admission.priority", value, string(*pod.Spec.PreemptionPolicy), source), nil
}

// PodUsage is what a pod charges to a ResourceQuota (pkg/quota/v1/evaluator/core/pods.go):
// its count and its requests and limits — the sum over app containers and
// native sidecars, or the largest init container if that is larger.
func PodUsage(pod *corev1.Pod) corev1.ResourceList {
	req, lim := corev1.ResourceList{}, corev1.ResourceList{}
	// The sums are the function's own: a Quantity copied by value shares its
	// decimal with the pod's (and, through controller copyTemplate, with the
	// pod's template and every sibling), and Add changes that in place.
	add := func(to corev1.ResourceList, from corev1.ResourceList) {
		for k, v := range from {
			q := to[k].DeepCopy()
			q.Add(v)
			to[k] = q
		}
	}
	for _, c := range pod.Spec.Containers {
		add(req, c.Resources.Requests)
		add(lim, c.Resources.Limits)
	}
	for _, c := range pod.Spec.InitContainers {
		if c.RestartPolicy != nil && *c.RestartPolicy == corev1.ContainerRestartPolicyAlways {
			add(req, c.Resources.Requests)
			add(lim, c.Resources.Limits)
			continue
		}
		for k, v := range c.Resources.Requests {
			if q := req[k]; v.Cmp(q) > 0 {
				req[k] = v.DeepCopy()
			}
		}
		for k, v := range c.Resources.Limits {
			if q := lim[k]; v.Cmp(q) > 0 {
				lim[k] = v.DeepCopy()
			}
		}
	}
	one := resource.MustParse("1")
	out := corev1.ResourceList{corev1.ResourcePods: one, "count/pods": one}
	for _, r := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
		if q, ok := req[r]; ok {
			out[r] = q
			out["requests."+r] = q
		}
		if q, ok := lim[r]; ok {
			out["limits."+r] = q
		}
	}
	return out
}

// computeNames are the quota resources every container must set once a
// quota tracks them (the pod evaluator's validationSet).
var computeNames = map[corev1.ResourceName]bool{"cpu": true, "memory": true, "requests.cpu": true, "requests.memory": true, "limits.cpu": true, "limits.memory": true}

// quotaCheck is the ResourceQuota plugin's Validate for a new pod
// (plugin/pkg/admission/resourcequota/controller.go CheckRequest): every
// quota of the namespace must know its status, every tracked compute
// resource must be set on every container, and used + requested must stay
// within hard; otherwise 403 with upstream's message. It returns the
// quotas with their new status.used, which the plugin writes before the
// pod is stored.
func (s *Server) quotaCheck(pod *corev1.Pod, name string) ([]*corev1.ResourceQuota, []string, *Status) {
	forbid := func(msg string) *Status {
		return &Status{Code: http.StatusForbidden, Reason: "Forbidden", Message: fmt.Sprintf("pods %q is forbidden: %s", name, msg)}
	}
	inNS := s.inNamespace("resourcequotas", pod.Namespace)
	if len(inNS) == 0 {
		// No quota, nothing to charge: the pod's usage is not computed
		// ("if there are no quotas, we don't need to do anything":
		// apiserver admission/plugin/resourcequota resource_access.go
		// GetQuotas, and checkQuotas evaluates nothing for none).
		return nil, nil, nil
	}
	usage := PodUsage(pod)
	var out []*corev1.ResourceQuota
	var notes []string
	for _, o := range inNS {
		rq := o.(*corev1.ResourceQuota).DeepCopy()
		if len(rq.Spec.Scopes) > 0 || rq.Spec.ScopeSelector != nil {
			continue // scoped quotas are not modelled
		}
		var tracked []string
		for _, k := range slices.Sorted(maps.Keys(rq.Spec.Hard)) {
			if _, ok := usage[k]; ok || computeNames[k] {
				tracked = append(tracked, string(k))
			}
		}
		if len(tracked) == 0 {
			continue
		}
		if len(rq.Status.Hard) == 0 {
			return nil, nil, forbid(fmt.Sprintf("status unknown for quota: %s, resources: %s", rq.Name, strings.Join(tracked, ",")))
		}
		if missing := missingCompute(pod, tracked); missing != "" {
			return nil, nil, forbid(fmt.Sprintf("failed quota: %s: must specify %s", rq.Name, missing))
		}
		newUsed, exceeded := charge(rq, usage, tracked)
		if len(exceeded) > 0 {
			pick := func(l corev1.ResourceList) string {
				var p []string
				for _, k := range exceeded {
					q := l[k]
					p = append(p, fmt.Sprintf("%s=%s", k, q.String()))
				}
				return strings.Join(p, ",")
			}
			return nil, nil, forbid(fmt.Sprintf("exceeded quota: %s, requested: %s, used: %s, limited: %s",
				rq.Name, pick(usage), pick(rq.Status.Used), pick(rq.Status.Hard)))
		}
		rq.Status.Used = newUsed
		out = append(out, rq)
		var charged []string
		for _, k := range tracked {
			if q, ok := newUsed[corev1.ResourceName(k)]; ok {
				h := rq.Status.Hard[corev1.ResourceName(k)]
				charged = append(charged, fmt.Sprintf("%s %s/%s", k, q.String(), h.String()))
			}
		}
		notes = append(notes, strings.Join(charged, ", "))
	}
	return out, notes, nil
}

// missingCompute is the quota evaluator's constraint: a tracked compute
// resource must be set on every container; it lists, per resource, the
// containers without it ("" when none is missing).
func missingCompute(pod *corev1.Pod, tracked []string) string {
	missing := map[string][]string{}
	for _, c := range append(append([]corev1.Container{}, pod.Spec.Containers...), pod.Spec.InitContainers...) {
		cu := PodUsage(&corev1.Pod{Spec: corev1.PodSpec{Containers: []corev1.Container{c}}})
		for _, k := range tracked {
			if _, ok := cu[corev1.ResourceName(k)]; computeNames[corev1.ResourceName(k)] && !ok {
				missing[k] = append(missing[k], c.Name)
			}
		}
	}
	var parts []string
	for _, k := range tracked {
		if names := missing[k]; len(names) > 0 {
			sort.Strings(names)
			parts = append(parts, fmt.Sprintf("%s for: %s", k, strings.Join(names, ",")))
		}
	}
	return strings.Join(parts, "; ")
}

// charge adds the pod's usage of the tracked resources to the quota's
// status.used; exceeded are those now above hard.
func charge(rq *corev1.ResourceQuota, usage corev1.ResourceList, tracked []string) (corev1.ResourceList, []corev1.ResourceName) {
	var exceeded []corev1.ResourceName
	newUsed := rq.Status.Used.DeepCopy()
	if newUsed == nil {
		newUsed = corev1.ResourceList{}
	}
	for _, k := range tracked {
		rn := corev1.ResourceName(k)
		req, ok := usage[rn]
		if !ok || req.IsZero() {
			continue
		}
		n := newUsed[rn]
		n.Add(req)
		newUsed[rn] = n
		if hard := rq.Status.Hard[rn]; n.Cmp(hard) > 0 {
			exceeded = append(exceeded, rn)
		}
	}
	return newUsed, exceeded
}

// admitQuota runs ResourceQuota admission for a new pod and, when it
// passes, writes the quotas' new status.used (the plugin itself charges
// the usage, before the pod is stored; the resource-quota controller later
// corrects it). It reports whether the request may go on; a refusal has
// already been answered.
func (s *Server) admitQuota(c *Client, r request, obj runtime.Object, step func(trace.Phase, trace.Kind, ...any), fail func(*Status)) bool {
	pod, ok := obj.(*corev1.Pod)
	if !ok {
		return true
	}
	if st := s.limitRangeCheck(pod, r.name); st != nil {
		fail(st)
		return false
	}
	quotas, notes, st := s.quotaCheck(pod, r.name)
	if st != nil {
		fail(st)
		return false
	}
	for i, rq := range quotas {
		key := Key(ResourceOf(rq), rq.Namespace, rq.Name)
		prev := s.data[key]
		if prev == nil {
			continue
		}
		s.rec.Add(trace.Step{Phase: c.Phase, Actor: "kube-apiserver", Kind: "admission.quota", Object: "pods/" + pod.Namespace + "/" + r.name,
			Fields: trace.F("pod", r.name, "quota", rq.Name, "used", notes[i])})
		// The quota evaluator serialises a namespace's checks and keeps the
		// charged usage: the next pod is checked against it at once.
		s.put(key, &stored{obj: rq, res: prev.res})
		charge := request{verb: "update", subresource: "status", res: ResourceOf(rq), ns: rq.Namespace, name: rq.Name, obj: rq}
		var logged Done
		if s.LogWrites {
			// The plugin writes through the API server's loopback client,
			// as user system:apiserver (staging/src/k8s.io/apiserver/pkg/
			// admission/plugin/resourcequota/controller.go checkQuotas,
			// quotaAccessor.UpdateQuotaStatus).
			logged = s.logWrite(&Client{s: s, Actor: "kube-apiserver", ID: Identity{User: "system:apiserver"}}, &charge, nil)
		}
		s.commit(c, &charge, key, func(*stored) (runtime.Object, *Status) { return rq, nil }, logged, step)
	}
	return true
}

// noteLimitRanger shows what LimitRanger filled in, even for pods a
// controller creates (whose request pipeline shows only with -v): it
// changes the pod's QoS class.
func (s *Server) noteLimitRanger(c *Client, r request, obj runtime.Object) {
	pod, ok := obj.(*corev1.Pod)
	if !ok || pod.Annotations["kubernetes.io/limit-ranger"] == "" || s.rec.Full() {
		return
	}
	name := pod.Name
	if name == "" {
		name = pod.GenerateName + " (generateName)"
	}
	// Once per template: a ReplicaSet's retries would repeat the same news.
	key := pod.Namespace + "/" + pod.GenerateName + pod.Name
	if s.limitNoted == nil {
		s.limitNoted = map[string]bool{}
	}
	if s.limitNoted[key] {
		return
	}
	s.limitNoted[key] = true
	s.rec.Add(trace.Step{Phase: c.Phase, Actor: "kube-apiserver", Kind: "admission.limitranger", Object: "pods/" + pod.Namespace + "/" + name,
		Fields: trace.F("pod", name, "set", pod.Annotations["kubernetes.io/limit-ranger"])})
}

// limitRangeCheck is LimitRanger's Validate for a new pod: each container
// against the min and max of the namespace's Container LimitRanges
// (plugin/pkg/admission/limitranger minConstraint, maxConstraint; several
// violations print as one "[a, b]" list, as utilerrors.NewAggregate does).
func (s *Server) limitRangeCheck(pod *corev1.Pod, name string) *Status {
	var errs []string
	for _, o := range s.inNamespace("limitranges", pod.Namespace) {
		for _, item := range o.(*corev1.LimitRange).Spec.Limits {
			if item.Type != corev1.LimitTypeContainer {
				continue
			}
			for _, c := range append(append([]corev1.Container{}, pod.Spec.InitContainers...), pod.Spec.Containers...) {
				for _, k := range slices.Sorted(maps.Keys(item.Min)) {
					min := item.Min[k]
					req, ok := c.Resources.Requests[k]
					switch {
					case !ok:
						errs = append(errs, fmt.Sprintf("minimum %s usage per Container is %s.  No request is specified", k, min.String()))
					case req.Cmp(min) < 0:
						errs = append(errs, fmt.Sprintf("minimum %s usage per Container is %s, but request is %s", k, min.String(), req.String()))
					}
				}
				for _, k := range slices.Sorted(maps.Keys(item.Max)) {
					max := item.Max[k]
					lim, ok := c.Resources.Limits[k]
					switch {
					case !ok:
						errs = append(errs, fmt.Sprintf("maximum %s usage per Container is %s.  No limit is specified", k, max.String()))
					case lim.Cmp(max) > 0:
						errs = append(errs, fmt.Sprintf("maximum %s usage per Container is %s, but limit is %s", k, max.String(), lim.String()))
					}
				}
			}
		}
	}
	if len(errs) == 0 {
		return nil
	}
	msg := errs[0]
	if len(errs) > 1 {
		msg = "[" + strings.Join(errs, ", ") + "]"
	}
	return &Status{Code: http.StatusForbidden, Reason: "Forbidden", Message: fmt.Sprintf("pods %q is forbidden: %s", name, msg)}
}
