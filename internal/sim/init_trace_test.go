package sim

import (
	"fmt"
	"os"
	"testing"

	"github.com/k8sexplain/k8sexplain/internal/golden"
	"github.com/k8sexplain/k8sexplain/internal/sim/kubelet"
	"github.com/k8sexplain/k8sexplain/internal/sim/simtest"
	corev1 "k8s.io/api/core/v1"
)

// examples/init.yaml: migrate runs to completion, then the native sidecar
// starts and keeps running, then the app container; the status goes
// Init:0/2 → Init:1/2 → Running with Initialized=True.
func TestInitContainersInOrder(t *testing.T) {
	src, err := os.ReadFile(golden.Root() + "/examples/init.yaml")
	if err != nil {
		t.Fatal(err)
	}
	tr := applyTrace(t, 3, simtest.Parse(t, string(src)))
	if !tr.Summary.AllReady {
		t.Fatalf("%d of %d pods ready", tr.Summary.ReadyPods, tr.Summary.Pods)
	}
	pod := ""
	for _, s := range simtest.StepsOf(tr, "cri.StartContainer") {
		pod = s.Object
		break
	}
	var order []string
	var statuses []string
	for _, s := range tr.Steps {
		if s.Object != pod {
			continue
		}
		switch s.Kind {
		case "cri.StartContainer":
			order = append(order, "start "+s.Get("container"))
		case "runtime.initdone":
			order = append(order, "done "+s.Get("container"))
		case "kubelet.sidecar":
			order = append(order, "sidecar "+s.Get("container"))
		case "kubelet.initstatus":
			statuses = append(statuses, s.Get("status"))
		}
	}
	want := []string{"start migrate", "done migrate", "start log-shipper", "sidecar log-shipper", "start api"}
	if len(order) != len(want) {
		t.Fatalf("order %v, want %v", order, want)
	}
	for i := range want {
		if order[i] != want[i] {
			t.Fatalf("order %v, want %v", order, want)
		}
	}
	if len(statuses) != 2 || statuses[0] != "Init:0/2" || statuses[1] != "Init:1/2" {
		t.Fatalf("statuses %v, want [Init:0/2 Init:1/2]", statuses)
	}
	if s, ok := simtest.FirstAt(tr, "kubelet.running", "", ""); !ok || s.Get("containers") != "log-shipper, api" {
		t.Fatalf("running containers: %v", s.Fields)
	}
}

const failingInit = `apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  restartPolicy: %s
  initContainers:
  - {name: check, image: busybox:1.37, command: ["sh", "-c", "sleep 1; exit 3"]}
  containers:
  - {name: app, image: nginx:1.27}
`

// A failing init container: with restartPolicy Always it is restarted
// under the crash back-off (Init:Error, then Init:CrashLoopBackOff) and the
// app container never starts; with Never the pod fails.
func TestInitFailure(t *testing.T) {
	c := appliedCluster(t, Config{Seed: 1, Workers: 1}, "t.yaml", sprintf(failingInit, "Always"))
	tr := c.Run("t")
	p := c.Pods()[0]
	var init *corev1.PodCondition
	for i := range p.Status.Conditions {
		if p.Status.Conditions[i].Type == corev1.PodInitialized {
			init = &p.Status.Conditions[i]
		}
	}
	if init == nil || init.Status != corev1.ConditionFalse || init.Reason != "ContainersNotInitialized" || init.Message != "containers with incomplete status: [check]" {
		t.Fatalf("Initialized condition: %+v", init)
	}
	if got := kubelet.PodStatusColumn(p); got != "Init:CrashLoopBackOff" && got != "Init:Error" {
		t.Fatalf("kubectl STATUS %q", got)
	}
	if _, ok := simtest.FirstAt(tr, "cri.StartContainer", "container", "app"); ok {
		t.Fatal("app container started although its init container failed")
	}
	retries := simtest.StepsOf(tr, "kubelet.initretry")
	if len(retries) < 3 || retries[0].Get("status") != "Init:Error" || retries[1].Get("status") != "Init:CrashLoopBackOff" ||
		retries[1].Get("delay") != "10s" || retries[2].Get("delay") != "20s" {
		t.Fatalf("retries: %v", retries)
	}
	if _, ok := simtest.FirstAt(tr, "event", "reason", "BackOff"); !ok {
		t.Fatal("no BackOff event")
	}

	tr = applyTrace(t, 1, simtest.Parse(t, sprintf(failingInit, "Never")))
	if len(simtest.StepsOf(tr, "kubelet.initretry")) != 0 || len(simtest.StepsOf(tr, "kubelet.initnever")) != 1 {
		t.Fatal("restartPolicy Never: want one failure and no retry")
	}
	if _, ok := simtest.FirstAt(tr, "cri.StartContainer", "container", "app"); ok {
		t.Fatal("app container started")
	}
}
func sprintf(f string, a ...any) string { return fmt.Sprintf(f, a...) }

// examples/init.yaml at the end: the completed init container and the
// running sidecar are both ready (kubelet prober_manager.go UpdatePodStatus:
// an init container that exited 0 is ready; a started sidecar without a
// readiness probe is), and the ServiceAccount admission plugin mounted the
// token into the init containers as into the others (mountServiceAccountToken).
func TestInitContainerStatusesAndTokenMounts(t *testing.T) {
	cl := exampleCluster(t, "init.yaml", Config{Seed: 1, Workers: 3})
	cl.Settle()
	pods := cl.Pods()
	if len(pods) != 2 {
		t.Fatalf("%d pods", len(pods))
	}
	for _, p := range pods {
		if len(p.Status.InitContainerStatuses) != 2 {
			t.Fatalf("%s: init statuses %+v", p.Name, p.Status.InitContainerStatuses)
		}
		for _, st := range p.Status.InitContainerStatuses {
			if !st.Ready {
				t.Errorf("%s: init container %s not ready: %+v", p.Name, st.Name, st.State)
			}
		}
		for _, c := range append(append([]corev1.Container{}, p.Spec.InitContainers...), p.Spec.Containers...) {
			if n := len(c.VolumeMounts); n == 0 || c.VolumeMounts[n-1].MountPath != "/var/run/secrets/kubernetes.io/serviceaccount" {
				t.Errorf("%s: container %s has no token mount: %+v", p.Name, c.Name, c.VolumeMounts)
			}
		}
	}
}

// A running container without a readiness probe is ready at once (kubelet
// prober_manager.go UpdatePodStatus: no readinessProbe → always ready), so
// a Ready pod never lists a container with ready false.
func TestContainerWithoutProbeIsReady(t *testing.T) {
	cl := exampleCluster(t, "init.yaml", Config{Seed: 1, Workers: 3})
	cl.Settle()
	for _, p := range cl.Pods() {
		for _, st := range p.Status.ContainerStatuses {
			if !st.Ready {
				t.Errorf("%s: container %s not ready, though the pod is Ready and it has no probe", p.Name, st.Name)
			}
		}
	}
}
