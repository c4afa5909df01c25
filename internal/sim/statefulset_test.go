package sim

import (
	"os"
	"strings"
	"testing"

	"github.com/k8sexplain/k8sexplain/internal/golden"
	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"github.com/k8sexplain/k8sexplain/internal/sim/simtest"
)

// examples/statefulset.yaml under OrderedReady: web-1 is created only after
// web-0 is Ready, web-2 after web-1; each pod's claim www-web-N is created
// just before it, and the pods carry the identity labels and hostname.
func TestStatefulSetOrderedStart(t *testing.T) {
	src, err := os.ReadFile(golden.Root() + "/examples/statefulset.yaml")
	if err != nil {
		t.Fatal(err)
	}
	objs := simtest.Parse(t, string(src))
	c, err := NewCluster(Config{Seed: 1, Workers: 3, StatefulSets: NeedsStatefulSets(objs), Volumes: NeedsVolumes(objs)})
	if err != nil {
		t.Fatal(err)
	}
	c.Apply(objs, []string{"statefulset.yaml"})
	tr := c.Run("t")
	var order []string
	ready := map[string]int{}
	for i, s := range tr.Steps {
		switch {
		case s.Kind == "event" && s.Get("reason") == "SuccessfulCreate" && strings.HasPrefix(s.Get("message"), "Create "):
			order = append(order, s.Get("message"))
		case s.Kind == "endpointslice.update" || s.Kind == "endpointslice.create":
			for _, pod := range []string{"web-0", "web-1", "web-2"} {
				if _, seen := ready[pod]; !seen && strings.Contains(s.Get("endpoints"), pod+", ready") {
					ready[pod] = i
				}
			}
		}
	}
	want := []string{
		"Create Claim www-web-0 Pod web-0 in StatefulSet web success", "Create Pod web-0 in StatefulSet web successful",
		"Create Claim www-web-1 Pod web-1 in StatefulSet web success", "Create Pod web-1 in StatefulSet web successful",
		"Create Claim www-web-2 Pod web-2 in StatefulSet web success", "Create Pod web-2 in StatefulSet web successful",
	}
	if strings.Join(order, "|") != strings.Join(want, "|") {
		t.Fatalf("events:\n%s\nwant:\n%s", strings.Join(order, "\n"), strings.Join(want, "\n"))
	}
	created := map[string]int{}
	for i, s := range tr.Steps {
		if s.Kind == "statefulset.create" {
			created[s.Get("pod")] = i
		}
	}
	for _, pair := range [][2]string{{"web-0", "web-1"}, {"web-1", "web-2"}} {
		r, ok1 := ready[pair[0]]
		cr, ok2 := created[pair[1]]
		if !ok1 || !ok2 || cr < r {
			t.Errorf("%s created at step %d, %s ready at step %d: want the create after Ready", pair[1], cr, pair[0], r)
		}
	}
	for _, p := range c.Pods() {
		if p.Labels["statefulset.kubernetes.io/pod-name"] != p.Name || p.Spec.Hostname != p.Name || p.Spec.Subdomain != "nginx" ||
			!strings.HasPrefix(p.Labels["controller-revision-hash"], "web-") {
			t.Errorf("pod %s: labels %v, hostname %q, subdomain %q", p.Name, p.Labels, p.Spec.Hostname, p.Spec.Subdomain)
		}
		claim := ""
		for _, v := range p.Spec.Volumes {
			if v.Name == "www" && v.PersistentVolumeClaim != nil {
				claim = v.PersistentVolumeClaim.ClaimName
			}
		}
		if claim != "www-"+p.Name {
			t.Errorf("pod %s: volume www → claim %q, want www-%s", p.Name, claim, p.Name)
		}
	}
	var claims []string
	for _, o := range c.Objects("persistentvolumeclaims") {
		claims = append(claims, apiserver.Meta(o).GetName())
	}
	if strings.Join(claims, ",") != "www-web-0,www-web-1,www-web-2" {
		t.Errorf("claims %v", claims)
	}
	if n := len(c.Objects("controllerrevisions")); n != 1 {
		t.Errorf("%d ControllerRevisions, want 1", n)
	}
}
