package task

import (
	"sort"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
)

// history follows every committed pod change (sim.Cluster.OnCommit) and
// judges the history goals after each one while it is on: the first
// violation of each goal is kept with its virtual time.
type history struct {
	on    bool
	now   func() time.Duration
	pods  map[string]*corev1.Pod
	goals []*Goal
	first map[string]violation
	// peaks are the peakReady goals and peak the most pods of each that
	// were Ready at once while the history was on.
	peaks []*Goal
	peak  map[string]int
	// readySince is when each pod was last seen turning Ready (virtual
	// time), for minAvailable with seconds: available as the ReplicaSet
	// counts it with minReadySeconds (podutil.IsPodAvailable).
	readySince map[string]time.Duration
}

type violation struct {
	at   time.Duration
	find *Finding
}

func newHistory(goals []Goal, now func() time.Duration) *history {
	h := &history{now: now, pods: map[string]*corev1.Pod{}, first: map[string]violation{}, peak: map[string]int{},
		readySince: map[string]time.Duration{}}
	for i := range goals {
		if goals[i].History() {
			h.goals = append(h.goals, &goals[i])
		}
		if goals[i].Type == "peakReady" {
			h.peaks = append(h.peaks, &goals[i])
		}
	}
	return h
}

// start turns the history on when the task's action begins. The pods
// Ready then are the ones the cluster was serving with before the change:
// they count as Ready long since (a task's "once it is up" comes as soon
// as every pod is Ready, and the story is about the new pods).
func (h *history) start() {
	h.on = true
	for key, p := range h.pods {
		if podReady(p) {
			h.readySince[key] = -time.Hour
		}
	}
}

// commit is the cluster's OnCommit hook.
func (h *history) commit(obj runtime.Object, deleted bool) {
	p, ok := obj.(*corev1.Pod)
	if !ok {
		return
	}
	key := p.Namespace + "/" + p.Name
	was := h.pods[key]
	if deleted {
		delete(h.pods, key)
		delete(h.readySince, key)
	} else {
		h.pods[key] = p
		if podReady(p) && (was == nil || !podReady(was)) {
			h.readySince[key] = h.now()
		}
	}
	if !h.on {
		return
	}
	for _, g := range h.peaks {
		h.peak[g.ID] = max(h.peak[g.ID], h.ready(g))
	}
	for _, g := range h.goals {
		if _, seen := h.first[g.ID]; seen {
			continue
		}
		if f := h.judge(g); f != nil {
			h.first[g.ID] = violation{at: h.now(), find: f}
		}
	}
}

// matching are the goal's pods in the store now, terminating ones too,
// by name.
func (h *history) matching(g *Goal) []*corev1.Pod {
	var out []*corev1.Pod
	for _, p := range h.pods {
		if p.Namespace == g.Namespace && g.sel.Matches(labels.Set(p.Labels)) {
			out = append(out, p)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// ready counts the goal's pods that are Ready and not being deleted.
func (h *history) ready(g *Goal) int {
	n := 0
	for _, p := range h.matching(g) {
		if p.DeletionTimestamp == nil && podReady(p) {
			n++
		}
	}
	return n
}

// peakFinding judges a peakReady goal at the end: enough pods were Ready
// at some moment.
func (h *history) peakFinding(g *Goal) *Finding {
	if n := h.peak[g.ID]; n < g.Min {
		return found("at most {1} pods of {2} Ready at once, fewer than {3}", n, g.Selector, g.Min)
	}
	return nil
}

func (h *history) judge(g *Goal) *Finding {
	pods := h.matching(g)
	switch g.Type {
	case "minAvailable":
		// Available as the ReplicaSet counts it: Ready and not being
		// deleted (controller.FilterActivePods), and with seconds, Ready
		// for that long (minReadySeconds: podutil.IsPodAvailable). The
		// count only rises between commits, so judging at each is enough.
		n := 0
		for _, p := range pods {
			since, ok := h.readySince[p.Namespace+"/"+p.Name]
			if p.DeletionTimestamp == nil && podReady(p) && (g.Seconds == 0 || ok && h.now()-since >= time.Duration(g.Seconds)*time.Second) {
				n++
			}
		}
		if n < g.Min && g.Seconds > 0 {
			return found("only {1} pods of {2} Ready for {3} s, fewer than {4}", n, g.Selector, g.Seconds, g.Min)
		}
		if n < g.Min {
			return found("only {1} pods of {2} available, fewer than {3}", n, g.Selector, g.Min)
		}
	case "maxPods":
		n := 0
		for _, p := range pods {
			if p.DeletionTimestamp == nil {
				n++
			}
		}
		if n > g.Max {
			return found("{1} pods of {2} at once, more than {3}", n, g.Selector, g.Max)
		}
	case "oneVersion":
		byImage := map[string]string{}
		var images []string
		for _, p := range pods {
			if len(p.Spec.Containers) == 0 || p.Status.Phase == corev1.PodSucceeded || p.Status.Phase == corev1.PodFailed {
				continue
			}
			img := p.Spec.Containers[0].Image
			if _, ok := byImage[img]; !ok {
				byImage[img] = p.Name
				images = append(images, img)
			}
		}
		if len(images) > 1 {
			sort.Strings(images)
			names := make([]string, len(images))
			for i, img := range images {
				names[i] = byImage[img] + " (" + img + ")"
			}
			return found("pods of two versions exist at once: {1}", strings.Join(names, ", "))
		}
	}
	return nil
}
