package sim

import (
	"fmt"
	"strings"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"github.com/k8sexplain/k8sexplain/internal/sim/engine"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// DrainOptions are `kubectl drain NODE`'s flags (k8s.io/kubectl
// pkg/cmd/drain/drain.go, v1.37).
type DrainOptions struct {
	Node string
	// Force deletes pods no controller manages (--force).
	Force bool
	// IgnoreDaemonSets leaves DaemonSet pods (--ignore-daemonsets).
	IgnoreDaemonSets bool
	// DeleteEmptyDirData lets pods with emptyDir volumes go (--delete-emptydir-data).
	DeleteEmptyDirData bool
	// DisableEviction deletes instead of evicting (--disable-eviction).
	DisableEviction bool
	// Timeout gives up after this long (--timeout; 0: never).
	Timeout time.Duration
}

// EvictRetryDelay is how long kubectl drain waits after a 429 before it
// asks again (drain.go NewDrainCmdOptions: EvictErrorRetryDelay 5 s).
const EvictRetryDelay = 5 * time.Second

// drainPollInterval is waitForDelete's interval (1 s).
const drainPollInterval = time.Second

// kubectl drain's filter messages (k8s.io/kubectl pkg/drain/filters.go).
const (
	daemonSetFatal      = "DaemonSet-managed Pods (use --ignore-daemonsets to ignore)"
	daemonSetWarning    = "ignoring DaemonSet-managed Pods"
	localStorageFatal   = "Pods with local storage (use --delete-emptydir-data to override)"
	localStorageWarning = "deleting Pods with local storage"
	unmanagedFatal      = "Pods that declare no controller (use --force to override)"
	unmanagedWarning    = "deleting Pods that declare no controller"
)

// DrainResult is how a drain ended.
type DrainResult struct {
	// Done: the command has returned; Drained: it printed "drained".
	Done, Drained bool
	// Err is the command's final error line, "" on success.
	Err string
}

// Drain runs `kubectl drain` as a proc: cordon, list the node's pods,
// filter them, evict (or delete) each on a proc of its own, wait for each
// to be gone, and print "drained" (drain.go RunDrain). The result fills
// in when the command returns.
func (c *Cluster) Drain(o DrainOptions) *DrainResult {
	res := &DrainResult{}
	kc := c.api.NewClient("kubectl", cert("kubernetes-admin", "kubeadm:cluster-admins"), trace.PhaseKubectl)
	c.eng.Go(func(p *engine.Proc) {
		d := &drainer{c: c, o: o, api: kc.In(p), kc: kc, start: p.Now()}
		res.Err = d.run(p)
		res.Done, res.Drained = true, res.Err == ""
	})
	return res
}

type drainer struct {
	c     *Cluster
	o     DrainOptions
	api   apiserver.Calls
	kc    *apiserver.Client
	start time.Duration
}

func (d *drainer) say(kind trace.Kind, object string, fields ...any) {
	d.c.rec.Add(trace.Step{Phase: trace.PhaseKubectl, Actor: "kubectl", Kind: kind, Object: object, Fields: trace.F(fields...)})
}

// run is RunDrain: RunCordonOrUncordon(true), then deleteOrEvictPodsSimple.
func (d *drainer) run(p *engine.Proc) string {
	node := d.o.Node
	obj, err := d.api.Get(apiserver.ResourceOf(&corev1.Node{}), "", node)
	if err != nil {
		line := fmt.Sprintf("Error from server (NotFound): nodes %q not found", node)
		d.say("drain.failed", "nodes/"+node, "line", line)
		return line
	}
	if obj.(*corev1.Node).Spec.Unschedulable {
		d.say("drain.cordon", "nodes/"+node, "line", "node/"+node+" already cordoned", "patched", false)
	} else {
		// CordonHelper.PatchOrReplace: a strategic merge patch made from
		// the node and its copy with spec.unschedulable true.
		_, err := d.api.Patch(apiserver.ResourceOf(&corev1.Node{}), "", node, `{"spec":{"unschedulable":true}}`, func(o runtime.Object) {
			o.(*corev1.Node).Spec.Unschedulable = true
		})
		if err != nil {
			d.say("drain.failed", "nodes/"+node, "line", fmt.Sprintf("error: unable to cordon node %q: %s", node, err.Message))
		} else {
			d.say("drain.cordon", "nodes/"+node, "line", "node/"+node+" cordoned", "patched", true)
		}
	}
	if msg := d.deleteOrEvict(p); msg != "" {
		lines := []string{fmt.Sprintf("error: unable to drain node %q due to error: %s, continuing command...", node, msg),
			"There are pending nodes to be drained:", " " + node, "error: " + msg}
		d.say("drain.failed", "nodes/"+node, "line", strings.Join(lines, "\n"))
		return "error: " + msg
	}
	d.say("drain.drained", "nodes/"+node, "line", "node/"+node+" drained", "after", p.Now()-d.start)
	return ""
}

// podDeleteStatus is a filter's verdict (filters.go PodDeleteStatus).
type podDeleteStatus struct {
	del     bool
	reason  string // Okay, Skip, Warning, Error
	message string
	pod     *corev1.Pod
}

// filter runs makeFilters' filters in order, stopping at the first that
// keeps the pod: skipDeleted, daemonSet, mirrorPod, localStorage,
// unreplicated.
func (d *drainer) filter(pod *corev1.Pod) podDeleteStatus {
	ok := podDeleteStatus{del: true, reason: "Okay"}
	terminal := pod.Status.Phase == corev1.PodSucceeded || pod.Status.Phase == corev1.PodFailed
	ref := metav1.GetControllerOfNoCopy(pod)
	// daemonSetFilter (the DaemonSet's GET is left out: the simulator runs
	// no DaemonSet controller, a pod naming one is taken at its word).
	if ref != nil && ref.Kind == "DaemonSet" && ref.APIVersion == "apps/v1" && !terminal {
		if !d.o.IgnoreDaemonSets {
			return podDeleteStatus{reason: "Error", message: daemonSetFatal}
		}
		return podDeleteStatus{reason: "Warning", message: daemonSetWarning}
	}
	if _, mirror := pod.Annotations[corev1.MirrorPodAnnotationKey]; mirror {
		return podDeleteStatus{reason: "Skip"}
	}
	st := ok
	if hasLocalStorage(pod) && !terminal {
		if !d.o.DeleteEmptyDirData {
			return podDeleteStatus{reason: "Error", message: localStorageFatal}
		}
		st = podDeleteStatus{del: true, reason: "Warning", message: localStorageWarning}
	}
	if ref == nil && !terminal {
		if !d.o.Force {
			return podDeleteStatus{reason: "Error", message: unmanagedFatal}
		}
		st = podDeleteStatus{del: true, reason: "Warning", message: unmanagedWarning}
	}
	return st
}

func hasLocalStorage(p *corev1.Pod) bool {
	for _, v := range p.Spec.Volumes {
		if v.EmptyDir != nil {
			return true
		}
	}
	return false
}

// grouped is PodDeleteList.errors / Warnings: "MESSAGE: ns/a, ns/b" per
// message, in the order the messages first appear (upstream ranges over
// a map; the simulator keeps an order).
func grouped(list []podDeleteStatus, reason, prefix string) []string {
	var order []string
	pods := map[string][]string{}
	for _, s := range list {
		if s.reason != reason {
			continue
		}
		if _, seen := pods[s.message]; !seen {
			order = append(order, s.message)
		}
		pods[s.message] = append(pods[s.message], s.pod.Namespace+"/"+s.pod.Name)
	}
	var out []string
	for _, m := range order {
		out = append(out, prefix+m+": "+strings.Join(pods[m], ", "))
	}
	return out
}

// aggregate is utilerrors.NewAggregate(errs).Error().
func aggregate(errs []string) string {
	if len(errs) == 1 {
		return errs[0]
	}
	return "[" + strings.Join(errs, ", ") + "]"
}

// deleteOrEvict is deleteOrEvictPodsSimple: GetPodsForDeletion, the
// warnings, DeleteOrEvictPods. It returns the error message, "" if none.
func (d *drainer) deleteOrEvict(p *engine.Proc) string {
	pods, err := d.api.ListPodsOnNode(d.o.Node)
	if err != nil {
		return err.Message
	}
	var list []podDeleteStatus
	var names []string
	for _, pod := range pods {
		st := d.filter(pod)
		st.pod = pod
		list = append(list, st)
		names = append(names, pod.Namespace+"/"+pod.Name)
	}
	d.say("drain.list", "nodes/"+d.o.Node, "node", d.o.Node, "count", len(pods), "pods", strings.Join(names, ", "))
	if errs := grouped(list, "Error", "cannot delete "); len(errs) > 0 {
		return aggregate(errs)
	}
	if w := grouped(list, "Warning", ""); len(w) > 0 {
		d.say("drain.warning", "nodes/"+d.o.Node, "line", "Warning: "+strings.Join(w, "; "))
	}
	var victims []*corev1.Pod
	for _, s := range list {
		if s.del {
			victims = append(victims, s.pod)
		}
	}
	if len(victims) == 0 {
		return ""
	}
	var errs []string
	if d.o.DisableEviction {
		errs = d.deletePods(p, victims)
	} else {
		var wg engine.WaitGroup
		results := make([]string, len(victims))
		for i, pod := range victims {
			wg.Go(p.Engine(), func(pp *engine.Proc) { results[i] = d.evictPod(pp, pod) })
		}
		wg.Wait(p)
		for _, r := range results {
			if r != "" {
				errs = append(errs, r)
			}
		}
	}
	if len(errs) == 0 {
		return ""
	}
	msg := aggregate(errs)
	if left, _ := d.api.ListPodsOnNode(d.o.Node); len(left) > 0 {
		lines := []string{fmt.Sprintf("There are pending pods in node %q when an error occurred: %s", d.o.Node, msg)}
		for _, pod := range left {
			lines = append(lines, "pod/"+pod.Name)
		}
		d.say("drain.pending", "nodes/"+d.o.Node, "line", strings.Join(lines, "\n"))
	}
	return msg
}

// expired reports whether --timeout has run out.
func (d *drainer) expired(now time.Duration) bool {
	return d.o.Timeout > 0 && now-d.start >= d.o.Timeout
}

// evictPod is evictPods' goroutine for one pod: POST the Eviction until it
// is accepted, retrying a 429 after 5 s, then waitForDelete.
func (d *drainer) evictPod(p *engine.Proc, pod *corev1.Pod) string {
	api := d.kc.In(p)
	ref := apiserver.ObjectRef(pod)
	for attempt := 1; ; attempt++ {
		d.say("drain.evicting", ref, "line", fmt.Sprintf("evicting pod %s/%s", pod.Namespace, pod.Name), "pod", pod.Name, "attempt", attempt)
		if d.expired(p.Now()) {
			return fmt.Sprintf("error when evicting pods/%q -n %q: global timeout reached: %v", pod.Name, pod.Namespace, d.o.Timeout)
		}
		_, err := api.Evict(pod.Namespace, pod.Name)
		if err == nil {
			break
		}
		switch err.Code {
		case 404:
			return ""
		case 429:
			d.say("drain.retry", ref, "line", fmt.Sprintf("error when evicting pods/%q -n %q (will retry after %v): %s", pod.Name, pod.Namespace, EvictRetryDelay, err.Message),
				"pod", pod.Name, "cause", err.Cause)
			p.Sleep(EvictRetryDelay)
		default:
			return fmt.Sprintf("error when evicting pods/%q -n %q: %s", pod.Name, pod.Namespace, err.Message)
		}
		if fresh, err := api.Get(apiserver.ResourceOf(pod), pod.Namespace, pod.Name); err == nil {
			pod = fresh.(*corev1.Pod)
		}
	}
	if msg := d.waitForDelete(p, []*corev1.Pod{pod}, "evicted"); msg != "" {
		return fmt.Sprintf("error when waiting for pod %q in namespace %q to terminate: %s", pod.Name, pod.Namespace, msg)
	}
	return ""
}

// deletePods is deletePods: DELETE each, then wait for all.
func (d *drainer) deletePods(p *engine.Proc, pods []*corev1.Pod) []string {
	for _, pod := range pods {
		d.say("drain.delete", apiserver.ObjectRef(pod), "pod", pod.Name)
		if _, err := d.api.Delete(apiserver.ResourceOf(pod), pod.Namespace, pod.Name); err != nil && err.Code != 404 {
			return []string{err.Message}
		}
	}
	if msg := d.waitForDelete(p, pods, "deleted"); msg != "" {
		return []string{msg}
	}
	return nil
}

// waitForDelete polls each pod every second until it is gone (404, or a
// new pod of the same name), printing "pod/NAME evicted" (or deleted);
// past --timeout it gives up with the context's error.
func (d *drainer) waitForDelete(p *engine.Proc, pods []*corev1.Pod, verb string) string {
	api := d.kc.In(p)
	for {
		var pending []*corev1.Pod
		for _, pod := range pods {
			cur, err := api.Get(apiserver.ResourceOf(pod), pod.Namespace, pod.Name)
			if (err != nil && err.Code == 404) || (err == nil && apiserver.Meta(cur).GetUID() != pod.UID) {
				d.say("drain.gone", apiserver.ObjectRef(pod), "line", "pod/"+pod.Name+" "+verb, "pod", pod.Name)
				continue
			}
			if err != nil {
				return err.Message
			}
			pending = append(pending, pod)
		}
		pods = pending
		if len(pods) == 0 {
			return ""
		}
		if d.expired(p.Now() + drainPollInterval) {
			p.Sleep(d.start + d.o.Timeout - p.Now())
			return "context deadline exceeded"
		}
		p.Sleep(drainPollInterval)
	}
}
