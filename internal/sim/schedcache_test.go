package sim

import "testing"

// The scheduler's cache follows the pod informer as upstream's does
// (cache.go updatePod): after the run every cached pod is the informer's
// newest object, not the copy assumed before the bind nor an older version,
// and every pod is counted once, on its node.
func TestSchedulerCacheHoldsInformerPods(t *testing.T) {
	c := runApply(t, 5, 40)
	n := 0
	for _, ni := range c.sched.cache.Nodes() {
		for _, p := range ni.Pods {
			n++
			cur, ok := c.sched.pods.Get(p.Namespace, p.Name)
			if !ok {
				t.Errorf("cached pod %s/%s is not in the informer", p.Namespace, p.Name)
				continue
			}
			if cur != p {
				t.Errorf("cached pod %s/%s is not the informer's object (rv %s, informer rv %s)", p.Namespace, p.Name, p.ResourceVersion, cur.ResourceVersion)
			}
			if p.Spec.NodeName != ni.Name() {
				t.Errorf("pod %s on %s cached under %s", p.Name, p.Spec.NodeName, ni.Name())
			}
		}
	}
	if want := c.sched.pods.Len(); n < 40 || n != want {
		t.Errorf("cache holds %d pods, informer %d", n, want)
	}
}
