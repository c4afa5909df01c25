package sim

import "testing"

// The kubelet reports when it acknowledged a pod (status.startTime) and
// when each container started (state.running.startedAt), as the real one
// does and the oracle recordings show; the start follows the
// acknowledgement.
func TestKubeletReportsStartTimes(t *testing.T) {
	c := runApply(t, 3, 6)
	for _, p := range c.Pods() {
		if p.Status.StartTime == nil {
			t.Errorf("pod %s: no status.startTime", p.Name)
			continue
		}
		for _, cs := range p.Status.ContainerStatuses {
			r := cs.State.Running
			if r == nil || r.StartedAt.IsZero() {
				t.Errorf("pod %s container %s: no running startedAt", p.Name, cs.Name)
				continue
			}
			if r.StartedAt.Before(p.Status.StartTime) {
				t.Errorf("pod %s: container started %s, before the pod was acknowledged %s", p.Name, r.StartedAt, p.Status.StartTime)
			}
		}
	}
}

// Init containers report when they started and, once done, when they
// exited (examples/init.yaml).
func TestKubeletReportsInitContainerTimes(t *testing.T) {
	c := exampleCluster(t, "init.yaml", Config{Seed: 1, Workers: 3})
	c.Run("t")
	n := 0
	for _, p := range c.Pods() {
		for _, cs := range p.Status.InitContainerStatuses {
			switch s := cs.State; {
			case s.Terminated != nil:
				n++
				if s.Terminated.StartedAt.IsZero() || s.Terminated.FinishedAt.Before(&s.Terminated.StartedAt) {
					t.Errorf("pod %s init %s: started %s, finished %s", p.Name, cs.Name, s.Terminated.StartedAt, s.Terminated.FinishedAt)
				}
			case s.Running != nil:
				n++
				if s.Running.StartedAt.IsZero() {
					t.Errorf("pod %s init %s: running without startedAt", p.Name, cs.Name)
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no init container ran or finished")
	}
}
