package sim

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"github.com/k8sexplain/k8sexplain/internal/sim/scheduler"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// The state log: every committed change of an object `kubectl get` would
// list, as the row kubectl prints for it (trace.StateKinds), recorded by
// the API server's OnCommit hook. A row is a handful of short strings, so a
// change costs about 100 bytes, not a copy of the object.

// stateLogPlurals are the resources the state log lists, for a snapshot of
// the store at the start of a story.
var stateLogPlurals = []string{"deployments", "replicasets", "statefulsets", "pods", "persistentvolumeclaims", "services", "endpointslices", "nodes"}

// startStateLog (re)starts the log with the store as it is now: every
// listed object as a change belonging to the story's first step.
func (c *Cluster) startStateLog() {
	c.state = &trace.StateLog{Limit: c.cfg.StateLimit}
	for _, plural := range stateLogPlurals {
		for _, o := range c.api.List(plural) {
			c.logState(apiserver.Event{Type: apiserver.Added, Obj: o})
		}
	}
	c.logProxyRows()
}

// logState records one committed change (the API server's OnCommit).
func (c *Cluster) logState(ev apiserver.Event) {
	kind, cols := stateRow(ev.Obj)
	if kind == "" {
		return
	}
	m := apiserver.Meta(ev.Obj)
	name := m.GetName()
	if ns := m.GetNamespace(); ns != "" {
		name = ns + "/" + name
	}
	ch := trace.ObjectChange{Seq: c.rec.Seq(), At: c.eng.Now(), Kind: kind, Name: name, Deleted: ev.Type == apiserver.Deleted,
		Created: m.GetCreationTimestamp().Sub(apiserver.Epoch)}
	if p, ok := ev.Obj.(*corev1.Pod); ok {
		if last := podLastRestart(p); !last.IsZero() {
			ch.Restarted = last.Sub(apiserver.Epoch)
		}
	}
	if !ch.Deleted {
		ch.Cols = cols
	}
	c.state.Add(ch)
}

// stateRow is obj's kind and its kubectl get row in trace.StateKinds'
// header order, NAME and AGE left empty; "" for a kind the log skips.
// The cells follow kubectl's printers (kubernetes
// pkg/printers/internalversion/printers.go, v1.37: printDeployment,
// printReplicaSet, printStatefulSet, printPod, printService, printEndpointSlice, printNode).
func stateRow(obj runtime.Object) (string, []string) {
	switch o := obj.(type) {
	case *appsv1.Deployment:
		want := int32(1)
		if o.Spec.Replicas != nil {
			want = *o.Spec.Replicas
		}
		return "Deployment", []string{"", fmt.Sprintf("%d/%d", o.Status.ReadyReplicas, want),
			itoa(o.Status.UpdatedReplicas), itoa(o.Status.AvailableReplicas), ""}
	case *appsv1.ReplicaSet:
		want := int32(1)
		if o.Spec.Replicas != nil {
			want = *o.Spec.Replicas
		}
		return "ReplicaSet", []string{"", itoa(want), itoa(o.Status.Replicas), itoa(o.Status.ReadyReplicas), ""}
	case *appsv1.StatefulSet:
		// printStatefulSet: READY is readyReplicas/spec.replicas.
		want := int32(1)
		if o.Spec.Replicas != nil {
			want = *o.Spec.Replicas
		}
		return "StatefulSet", []string{"", fmt.Sprintf("%d/%d", o.Status.ReadyReplicas, want), ""}
	case *corev1.Pod:
		ready, total, status, restarts := podStatus(o)
		return "Pod", []string{"", fmt.Sprintf("%d/%d", ready, total), status, strconv.Itoa(restarts), "",
			orNone(o.Status.PodIP), orNone(o.Spec.NodeName)}
	case *corev1.PersistentVolumeClaim:
		return "PersistentVolumeClaim", claimRow(o)
	case *corev1.Service:
		typ := o.Spec.Type
		if typ == "" {
			typ = corev1.ServiceTypeClusterIP // the API server's default (bootstrap objects are stored undefaulted)
		}
		return "Service", []string{"", string(typ), orNone(o.Spec.ClusterIP), serviceExternal(o, typ), servicePorts(o), ""}
	case *discoveryv1.EndpointSlice:
		return "EndpointSlice", []string{"", string(o.AddressType), slicePorts(o), sliceEndpoints(o), ""}
	case *corev1.Node:
		return "Node", []string{"", nodeStatus(o), nodeRoles(o), "", o.Status.NodeInfo.KubeletVersion}
	}
	return "", nil
}

func itoa(n int32) string { return strconv.Itoa(int(n)) }

func orNone(s string) string {
	if s == "" {
		return "<none>"
	}
	return s
}

// podStatus is printPod's READY count, STATUS and RESTARTS (kubernetes
// pkg/printers/internalversion/printers.go, v1.37): the phase (or
// status.reason, or SchedulingGated), then the first init container not
// done (Init:N/M, Init:<reason>), else a container's waiting or
// terminated reason; Terminating once the pod has a deletionTimestamp and
// is not finished (Unknown when the node controller marked it NodeLost).
// Sidecars (restartable init containers) count in READY. RESTARTS is the
// count; the "(5s ago)" kubectl adds is the printer's, from
// podLastRestart's time.
func podStatus(p *corev1.Pod) (ready, total int, reason string, restarts int) {
	reason = string(p.Status.Phase)
	if p.Status.Reason != "" {
		reason = p.Status.Reason
	}
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodScheduled && c.Reason == corev1.PodReasonSchedulingGated {
			reason = corev1.PodReasonSchedulingGated
		}
	}
	total = len(p.Spec.Containers)
	sidecar := map[string]bool{}
	for _, c := range p.Spec.InitContainers {
		if c.RestartPolicy != nil && *c.RestartPolicy == corev1.ContainerRestartPolicyAlways {
			sidecar[c.Name] = true
			total++
		}
	}
	initReason, initializing, sidecarRestarts, allInitRestarts, sidecarsReady := initStatus(p, sidecar)
	ready, restarts = sidecarsReady, allInitRestarts
	if initializing {
		reason = initReason
	}
	if !initializing || podCondition(p, corev1.PodInitialized) {
		var appReady int
		reason, appReady, restarts = containersStatus(p, reason)
		ready += appReady
		restarts += sidecarRestarts
	}
	terminal := p.Status.Phase == corev1.PodSucceeded || p.Status.Phase == corev1.PodFailed
	switch {
	case p.DeletionTimestamp != nil && p.Status.Reason == "NodeLost": // node.NodeUnreachablePodReason
		reason = "Unknown"
	case p.DeletionTimestamp != nil && !terminal:
		reason = "Terminating"
	}
	return ready, total, reason, restarts
}

// initStatus walks the init containers as printPod does: the first one
// neither finished with exit code 0 nor a started sidecar names the
// status (it is still initializing); the restarts of all of them, and of
// the sidecars alone, and the ready sidecars are counted on the way.
func initStatus(p *corev1.Pod, sidecar map[string]bool) (reason string, initializing bool, sidecarRestarts, restarts, ready int) {
	for i, cs := range p.Status.InitContainerStatuses {
		restarts += int(cs.RestartCount)
		if sidecar[cs.Name] {
			sidecarRestarts += int(cs.RestartCount)
		}
		st := cs.State
		switch {
		case st.Terminated != nil && st.Terminated.ExitCode == 0:
			continue
		case sidecar[cs.Name] && cs.Started != nil && *cs.Started:
			if cs.Ready {
				ready++
			}
			continue
		case st.Terminated != nil && st.Terminated.Reason != "":
			reason = "Init:" + st.Terminated.Reason
		case st.Terminated != nil && st.Terminated.Signal != 0:
			reason = fmt.Sprintf("Init:Signal:%d", st.Terminated.Signal)
		case st.Terminated != nil:
			reason = fmt.Sprintf("Init:ExitCode:%d", st.Terminated.ExitCode)
		case st.Waiting != nil && st.Waiting.Reason != "" && st.Waiting.Reason != "PodInitializing":
			reason = "Init:" + st.Waiting.Reason
		default:
			reason = fmt.Sprintf("Init:%d/%d", i, len(p.Spec.InitContainers))
		}
		return reason, true, sidecarRestarts, restarts, ready
	}
	return "", false, sidecarRestarts, restarts, ready
}

// containersStatus is printPod's pass over the app containers, last to
// first: a waiting or terminated reason replaces the status; a running
// ready container counts; Completed with one still running reads Running
// (or NotReady without the Ready condition).
func containersStatus(p *corev1.Pod, reason string) (string, int, int) {
	ready, restarts, hasRunning := 0, 0, false
	for i := len(p.Status.ContainerStatuses) - 1; i >= 0; i-- {
		cs := p.Status.ContainerStatuses[i]
		restarts += int(cs.RestartCount)
		switch st := cs.State; {
		case st.Waiting != nil && st.Waiting.Reason != "":
			reason = st.Waiting.Reason
		case st.Terminated != nil && st.Terminated.Reason != "":
			reason = st.Terminated.Reason
		case st.Terminated != nil && st.Terminated.Signal != 0:
			reason = fmt.Sprintf("Signal:%d", st.Terminated.Signal)
		case st.Terminated != nil:
			reason = fmt.Sprintf("ExitCode:%d", st.Terminated.ExitCode)
		case cs.Ready && st.Running != nil:
			hasRunning = true
			ready++
		}
	}
	if reason == "Completed" && hasRunning {
		reason = "NotReady"
		if podCondition(p, corev1.PodReady) {
			reason = "Running"
		}
	}
	return reason, ready, restarts
}

// podLastRestart is the latest lastState.terminated.finishedAt among the
// containers RESTARTS counts (printPod's lastRestartDate): the init
// containers while the pod initializes, else the sidecars and the app
// containers; zero when none restarted.
func podLastRestart(p *corev1.Pod) time.Time {
	sidecar := map[string]bool{}
	for _, c := range p.Spec.InitContainers {
		sidecar[c.Name] = c.RestartPolicy != nil && *c.RestartPolicy == corev1.ContainerRestartPolicyAlways
	}
	_, initializing, _, _, _ := initStatus(p, sidecar)
	var last time.Time
	later := func(cs corev1.ContainerStatus) {
		if t := cs.LastTerminationState.Terminated; t != nil && t.FinishedAt.Time.After(last) {
			last = t.FinishedAt.Time
		}
	}
	app := !initializing || podCondition(p, corev1.PodInitialized)
	for _, cs := range p.Status.InitContainerStatuses {
		if !app || sidecar[cs.Name] {
			later(cs)
		}
	}
	if app {
		for _, cs := range p.Status.ContainerStatuses {
			later(cs)
		}
	}
	return last
}

// podCondition reports whether the pod's condition t is True.
func podCondition(p *corev1.Pod, t corev1.PodConditionType) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == t && c.Status == corev1.ConditionTrue {
			return true
		}
	}
	return false
}

// serviceExternal is EXTERNAL-IP as getServiceExternalIP has it: the
// external IPs for ClusterIP and NodePort (<none> without), for a
// LoadBalancer its ingress addresses (sorted, clipped to 16 bytes as
// loadBalancerStatusStringer does) then the external IPs, <pending> while
// it has none, and the target name of an ExternalName Service.
func serviceExternal(s *corev1.Service, typ corev1.ServiceType) string {
	switch typ {
	case corev1.ServiceTypeClusterIP, corev1.ServiceTypeNodePort:
		if len(s.Spec.ExternalIPs) > 0 {
			return strings.Join(s.Spec.ExternalIPs, ",")
		}
		return "<none>"
	case corev1.ServiceTypeLoadBalancer:
		seen := map[string]bool{}
		var lb []string
		for _, in := range s.Status.LoadBalancer.Ingress {
			a := in.IP
			if a == "" {
				a = in.Hostname
			}
			if a != "" && !seen[a] {
				seen[a] = true
				lb = append(lb, a)
			}
		}
		sort.Strings(lb)
		r := strings.Join(lb, ",")
		if len(r) > 16 {
			r = r[:13] + "..."
		}
		if len(s.Spec.ExternalIPs) > 0 {
			if r == "" {
				return strings.Join(s.Spec.ExternalIPs, ",")
			}
			return strings.Join(append(strings.Split(r, ","), s.Spec.ExternalIPs...), ",")
		}
		if r != "" {
			return r
		}
		return "<pending>"
	case corev1.ServiceTypeExternalName:
		return s.Spec.ExternalName
	}
	return "<unknown>"
}

// servicePorts is PORT(S): port[:nodePort]/protocol, comma-separated.
func servicePorts(s *corev1.Service) string {
	var out []string
	for _, p := range s.Spec.Ports {
		v := strconv.Itoa(int(p.Port))
		if p.NodePort != 0 {
			v += ":" + strconv.Itoa(int(p.NodePort))
		}
		out = append(out, v+"/"+string(p.Protocol))
	}
	if len(out) == 0 {
		return "<none>"
	}
	return strings.Join(out, ",")
}

// slicePorts is PORTS: the port numbers, or <unset>.
func slicePorts(s *discoveryv1.EndpointSlice) string {
	var out []string
	for _, p := range s.Ports {
		if p.Port != nil {
			out = append(out, strconv.Itoa(int(*p.Port)))
		}
	}
	if len(out) == 0 {
		return "<unset>"
	}
	return strings.Join(out, ",")
}

// sliceEndpoints is ENDPOINTS: the first three addresses and "+ N
// more...", or <unset> (formatDiscoveryEndpoints).
func sliceEndpoints(s *discoveryv1.EndpointSlice) string {
	var addrs []string
	for _, e := range s.Endpoints {
		addrs = append(addrs, e.Addresses...)
	}
	if len(addrs) == 0 {
		return "<unset>"
	}
	if len(addrs) > 3 {
		return strings.Join(addrs[:3], ",") + " + " + strconv.Itoa(len(addrs)-3) + " more..."
	}
	return strings.Join(addrs, ",")
}

// nodeStatus is STATUS: Ready, NotReady or Unknown, with
// SchedulingDisabled when cordoned.
func nodeStatus(n *corev1.Node) string {
	st := "Unknown"
	for _, c := range n.Status.Conditions {
		if c.Type == corev1.NodeReady {
			switch c.Status {
			case corev1.ConditionTrue:
				st = "Ready"
			case corev1.ConditionFalse:
				st = "NotReady"
			}
		}
	}
	if n.Spec.Unschedulable {
		st += ",SchedulingDisabled"
	}
	return st
}

// nodeRoles is ROLES: the node-role.kubernetes.io/<role> labels, or <none>.
func nodeRoles(n *corev1.Node) string {
	var roles []string
	for k := range n.Labels {
		if r, ok := strings.CutPrefix(k, "node-role.kubernetes.io/"); ok && r != "" {
			roles = append(roles, r)
		}
	}
	if len(roles) == 0 {
		return "<none>"
	}
	sort.Strings(roles)
	return strings.Join(roles, ",")
}

// claimRow is printPersistentVolumeClaim (kubernetes pkg/printers/
// internalversion/printers.go, v1.37): capacity and access modes only once
// the claim names its volume, Terminating while it is deleted, the class
// as GetPersistentVolumeClaimClass reads it.
func claimRow(o *corev1.PersistentVolumeClaim) []string {
	phase := string(o.Status.Phase)
	if o.DeletionTimestamp != nil {
		phase = "Terminating"
	}
	capacity, modes := "", ""
	if o.Spec.VolumeName != "" {
		if q, ok := o.Status.Capacity[corev1.ResourceStorage]; ok {
			capacity = q.String()
		}
		var m []string
		for _, want := range []struct {
			mode  corev1.PersistentVolumeAccessMode
			short string
		}{{corev1.ReadWriteOnce, "RWO"}, {corev1.ReadOnlyMany, "ROX"}, {corev1.ReadWriteMany, "RWX"}, {corev1.ReadWriteOncePod, "RWOP"}} {
			if slices.Contains(o.Status.AccessModes, want.mode) {
				m = append(m, want.short)
			}
		}
		modes = strings.Join(m, ",")
	}
	vac := "<unset>"
	if o.Spec.VolumeAttributesClassName != nil {
		vac = *o.Spec.VolumeAttributesClassName
	}
	return []string{"", phase, o.Spec.VolumeName, capacity, modes, scheduler.ClaimClass(o), vac, ""}
}
