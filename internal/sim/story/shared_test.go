package story

import (
	"os"
	"reflect"
	"testing"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/golden"
	"github.com/k8sexplain/k8sexplain/internal/sim"
	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"github.com/k8sexplain/k8sexplain/internal/sim/kubelet"
	"github.com/k8sexplain/k8sexplain/internal/sim/simtest"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// Watchers share the stored objects read-only, as the watch cache hands
// them out: no component may change an object after it was delivered (the
// kubelet, the scheduler and the apiserver's status paths copy on write).
// A test watcher keeps a deep copy of every object at its first delivery;
// after a story that exercises every writer, each must still equal it.
func TestDeliveredObjectsStayUnchanged(t *testing.T) {
	src, err := os.ReadFile(golden.Root() + "/examples/app.yaml")
	if err != nil {
		t.Fatal(err)
	}
	stories := map[string]func(c *Scene){
		"crash": func(c *Scene) {
			if err := c.Crash(c.Pods()[0], kubelet.CrashLiveness, 2); err != nil {
				t.Fatal(err)
			}
		},
		"delete": func(c *Scene) { c.DeletePod(c.Pods()[0]) },
		"rollout": func(c *Scene) {
			dep := c.Deployment("default", "web")
			if dep == nil {
				t.Fatal("no deployment web")
			}
			if err := c.SetImage(dep, dep.Spec.Template.Spec.Containers[0].Name, "nginx:1.28"); err != nil {
				t.Fatal(err)
			}
		},
	}
	stories["static-pod"] = func(c *Scene) {
		pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "agent", Namespace: "kube-system"},
			Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "agent", Image: "nginx:1.27"}}}}
		name, err := c.StaticPod("node-a", pod, "agent.yaml")
		if err != nil {
			t.Fatal(err)
		}
		c.RunFor(10 * time.Second)
		c.DeleteMirrorPod(c.Mirror("kube-system", name))
	}
	stories["node-failure"] = func(c *Scene) {
		if err := c.FailNode("node-b"); err != nil {
			t.Fatal(err)
		}
	}
	for name, story := range stories {
		t.Run(name, func(t *testing.T) {
			cl, err := sim.NewCluster(sim.Config{Seed: 1, Workers: 3, Heartbeats: name == "node-failure"})
			if err != nil {
				t.Fatal(err)
			}
			seen := map[runtime.Object]runtime.Object{}
			c := New(cl)
			w := cl.Observer("immutability-test")
			for _, plural := range []string{"pods", "replicasets", "deployments", "services", "endpointslices", "nodes", "leases"} {
				w.Watch(plural, func(ev apiserver.Event) {
					if _, ok := seen[ev.Obj]; !ok {
						seen[ev.Obj] = ev.Obj.DeepCopyObject()
					}
				})
			}
			c.Apply(simtest.Parse(t, string(src)), []string{"app.yaml"})
			if !c.Settle() {
				t.Fatal("app.yaml did not settle")
			}
			story(c)
			if name == "node-failure" {
				c.RunThrough(7 * time.Minute) // past the eviction, 300 s after the taint
			} else {
				c.RunFor(2 * time.Minute)
			}
			if len(seen) < 20 {
				t.Fatalf("only %d objects delivered", len(seen))
			}
			if name == "node-failure" {
				evicted := 0
				for _, p := range c.Pods() {
					if p.Spec.NodeName == "node-b" && p.DeletionTimestamp != nil {
						evicted++
					}
				}
				if evicted == 0 {
					t.Fatal("no pod of node-b was evicted")
				}
			}
			for obj, was := range seen {
				if !reflect.DeepEqual(obj, was) {
					t.Errorf("%s changed after it was delivered", apiserver.ObjectRef(obj))
				}
			}
		})
	}
}
