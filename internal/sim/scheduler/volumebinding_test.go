package scheduler

import (
	"math/rand/v2"
	"testing"

	corev1 "k8s.io/api/core/v1"
	storagev1 "k8s.io/api/storage/v1"
)

type fakeVolumes struct {
	claims  map[string]*corev1.PersistentVolumeClaim
	volumes map[string]*corev1.PersistentVolume
	classes map[string]*storagev1.StorageClass
}

func (f fakeVolumes) Claim(_, name string) (*corev1.PersistentVolumeClaim, bool) {
	c, ok := f.claims[name]
	return c, ok
}
func (f fakeVolumes) Volume(name string) (*corev1.PersistentVolume, bool) {
	v, ok := f.volumes[name]
	return v, ok
}
func (f fakeVolumes) Class(name string) (*storagev1.StorageClass, bool) {
	c, ok := f.classes[name]
	return c, ok
}

func claim(name, class string, ann map[string]string) *corev1.PersistentVolumeClaim {
	c := &corev1.PersistentVolumeClaim{}
	c.Name, c.Namespace, c.Annotations = name, "default", ann
	if class != "-" {
		c.Spec.StorageClassName = &class
	}
	return c
}

func withClaim(p *corev1.Pod, name string) *corev1.Pod {
	p.Spec.Volumes = append(p.Spec.Volumes, corev1.Volume{Name: name,
		VolumeSource: corev1.VolumeSource{PersistentVolumeClaim: &corev1.PersistentVolumeClaimVolumeSource{ClaimName: name}}})
	return p
}

// The VolumeBinding plugin's verdicts, with upstream's texts.
func TestVolumeBinding(t *testing.T) {
	wffc := storagev1.VolumeBindingWaitForFirstConsumer
	immediate := storagev1.VolumeBindingImmediate
	lister := fakeVolumes{
		classes: map[string]*storagev1.StorageClass{
			"standard":  {Provisioner: "rancher.io/local-path", VolumeBindingMode: &wffc},
			"immediate": {Provisioner: "rancher.io/local-path", VolumeBindingMode: &immediate},
			"static":    {Provisioner: NotSupportedClass, VolumeBindingMode: &wffc},
		},
		claims: map[string]*corev1.PersistentVolumeClaim{
			"new":      claim("new", "standard", nil),
			"selected": claim("selected", "standard", map[string]string{AnnSelectedNode: "b"}),
			"none":     claim("none", "", nil),
			"unset":    claim("unset", "-", nil),
			"missing":  claim("missing", "fast", nil),
			"imm":      claim("imm", "immediate", nil),
			"static":   claim("static", "static", nil),
			"bound":    claim("bound", "standard", map[string]string{AnnBindCompleted: "yes"}),
		},
		volumes: map[string]*corev1.PersistentVolume{"pv-a": {Spec: corev1.PersistentVolumeSpec{NodeAffinity: &corev1.VolumeNodeAffinity{
			Required: &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchExpressions: []corev1.NodeSelectorRequirement{
				{Key: corev1.LabelHostname, Operator: corev1.NodeSelectorOpIn, Values: []string{"a"}}}}}}}}}},
	}
	lister.claims["bound"].Spec.VolumeName = "pv-a"
	cases := []struct {
		claim, want string // want: "a b" feasible nodes, or the message
	}{
		{"", "a b"},
		{"new", "a b"},
		{"selected", "b"},
		{"bound", "a"},
		{"static", "0/2 nodes are available: 2 node(s) didn't find available persistent volumes to bind. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling."},
		{"none", "0/2 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling."},
		{"unset", "0/2 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling."},
		{"missing", "0/2 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling."},
		{"imm", "0/2 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling."},
		{"gone", `0/2 nodes are available: persistentvolumeclaim "gone" not found. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.`},
	}
	for _, tc := range cases {
		c := NewCluster()
		c.AddNode(node("a", "4", "8Gi"))
		c.AddNode(node("b", "4", "8Gi"))
		s := New()
		if s.Profile().SetVolumeLister(lister) == nil {
			t.Fatal("the default profile has no VolumeBinding plugin")
		}
		p := pod("p", "100m", "")
		if tc.claim != "" {
			withClaim(p, tc.claim)
		}
		res := s.Schedule(p, c, rand.New(rand.NewPCG(1, 1)), nil)
		got := res.Message
		if res.Node != "" {
			got = ""
			for _, v := range res.Filtered {
				if v.Plugin == "" {
					got += " " + v.Node
				}
			}
			got = got[1:]
		}
		if got != tc.want {
			t.Errorf("claim %q: got %q\nwant %q", tc.claim, got, tc.want)
		}
	}
}
