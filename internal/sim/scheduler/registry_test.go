package scheduler

import (
	"fmt"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
)

// pointNames lists a profile's plugins per extension point, score plugins
// with their weights.
func pointNames(p Profile) (pre, filter, score string) {
	var a, b, c []string
	for _, pl := range p.PreFilter {
		a = append(a, pl.Name())
	}
	for _, pl := range p.Filter {
		b = append(b, pl.Name())
	}
	for _, ws := range p.Score {
		c = append(c, fmt.Sprintf("%s×%d", ws.Plugin.Name(), ws.Weight))
	}
	return strings.Join(a, " "), strings.Join(b, " "), strings.Join(c, " ")
}

// The default profile is upstream's default multiPoint list (v1.37
// default_plugins.go) expanded by the interfaces each plugin implements,
// reduced to the plugins modelled here.
func TestDefaultProfile(t *testing.T) {
	pre, filter, score := pointNames(DefaultProfile())
	if want := "NodeAffinity NodePorts NodeResourcesFit VolumeBinding PodTopologySpread InterPodAffinity"; pre != want {
		t.Errorf("PreFilter %s\nwant      %s", pre, want)
	}
	if want := "NodeName NodeUnschedulable TaintToleration NodeAffinity NodePorts NodeResourcesFit VolumeBinding PodTopologySpread InterPodAffinity"; filter != want {
		t.Errorf("Filter %s\nwant   %s", filter, want)
	}
	if want := "TaintToleration×3 NodeAffinity×2 NodeResourcesFit×1 PodTopologySpread×2 InterPodAffinity×2 NodeResourcesBalancedAllocation×1 ImageLocality×1"; score != want {
		t.Errorf("Score %s\nwant  %s", score, want)
	}
	if DefaultProfile().Name != "default-scheduler" {
		t.Errorf("name %q", DefaultProfile().Name)
	}
}

// Profiles merge with the defaults as kube-scheduler's configuration does.
func TestNewProfile(t *testing.T) {
	tests := []struct {
		name               string
		spec               ProfileSpec
		pre, filter, score string // "" skips the check
		err                string
	}{
		{name: "disable a score plugin at score keeps its filter",
			spec:   ProfileSpec{Score: PluginSet{Disabled: []string{PodTopologySpreadName}}},
			filter: "NodeName NodeUnschedulable TaintToleration NodeAffinity NodePorts NodeResourcesFit VolumeBinding PodTopologySpread InterPodAffinity",
			score:  "TaintToleration×3 NodeAffinity×2 NodeResourcesFit×1 InterPodAffinity×2 NodeResourcesBalancedAllocation×1 ImageLocality×1"},
		{name: "multiPoint re-weights in place",
			spec:  ProfileSpec{MultiPoint: PluginSet{Enabled: []PluginRef{{NodeResourcesFitName, 5}}}},
			score: "TaintToleration×3 NodeAffinity×2 NodeResourcesFit×5 PodTopologySpread×2 InterPodAffinity×2 NodeResourcesBalancedAllocation×1 ImageLocality×1"},
		{name: "a weight set at score wins over multiPoint and moves the plugin first",
			spec: ProfileSpec{MultiPoint: PluginSet{Enabled: []PluginRef{{NodeResourcesFitName, 5}}},
				Score: PluginSet{Enabled: []PluginRef{{ImageLocalityName, 7}}}},
			score: "ImageLocality×7 TaintToleration×3 NodeAffinity×2 NodeResourcesFit×5 PodTopologySpread×2 InterPodAffinity×2 NodeResourcesBalancedAllocation×1"},
		// An entry at score without a weight means 1, even for a plugin
		// whose multiPoint weight is 3 (runtime getValidScoreWeights: the
		// score entry is met first).
		{name: `"*" disables every default at the point`,
			spec:  ProfileSpec{Score: PluginSet{Disabled: []string{"*"}, Enabled: []PluginRef{{ImageLocalityName, 0}, {TaintToleration{}.Name(), 0}}}},
			pre:   "NodeAffinity NodePorts NodeResourcesFit VolumeBinding PodTopologySpread InterPodAffinity",
			score: "ImageLocality×1 TaintToleration×1"},
		{name: "multiPoint disabled removes a plugin everywhere",
			spec:   ProfileSpec{MultiPoint: PluginSet{Disabled: []string{NodeAffinityName}}},
			pre:    "NodePorts NodeResourcesFit VolumeBinding PodTopologySpread InterPodAffinity",
			filter: "NodeName NodeUnschedulable TaintToleration NodePorts NodeResourcesFit VolumeBinding PodTopologySpread InterPodAffinity"},
		{name: "plugins not modelled are accepted",
			spec:  ProfileSpec{MultiPoint: PluginSet{Disabled: []string{"VolumeBinding"}}, Filter: PluginSet{Enabled: []PluginRef{{"VolumeZone", 0}}}},
			score: "TaintToleration×3 NodeAffinity×2 NodeResourcesFit×1 PodTopologySpread×2 InterPodAffinity×2 NodeResourcesBalancedAllocation×1 ImageLocality×1"},
		{name: "unknown plugin",
			spec: ProfileSpec{Score: PluginSet{Enabled: []PluginRef{{"NodeResourcesMostAllocated", 1}}}},
			err:  `plugins.score.enabled[0]: plugin "NodeResourcesMostAllocated" does not exist (known: ImageLocality, `},
		{name: "a filter-only plugin at score",
			spec: ProfileSpec{Score: PluginSet{Enabled: []PluginRef{{NodePortsName, 1}}}},
			err:  `plugins.score.enabled[0]: plugin "NodePorts" does not extend ScorePlugin plugin`},
		{name: "twice at one point",
			spec: ProfileSpec{Filter: PluginSet{Enabled: []PluginRef{{NodePortsName, 0}, {NodePortsName, 0}}}},
			err:  `plugins.filter.enabled[1]: plugin "NodePorts" already registered as "FilterPlugin"`},
		{name: "twice in multiPoint",
			spec: ProfileSpec{MultiPoint: PluginSet{Disabled: []string{"*"}, Enabled: []PluginRef{{NodePortsName, 0}, {NodePortsName, 0}}}},
			err:  `plugins.multiPoint: plugin "NodePorts" already registered as "PreFilterPlugin"`},
		{name: "negative weight",
			spec: ProfileSpec{MultiPoint: PluginSet{Enabled: []PluginRef{{ImageLocalityName, -2}}}},
			err:  `plugins.multiPoint.enabled[0].weight: Invalid value: -2: must not be negative`},
		{name: "bad args",
			spec: ProfileSpec{Args: map[string]any{InterPodAffinityName: &InterPodAffinityArgs{HardPodAffinityWeight: ptr[int32](101)}}},
			err:  `initializing plugin "InterPodAffinity": hardPodAffinityWeight: Invalid value: 101: not in valid range [0, 100]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := InTree().NewProfile(tt.spec)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v\nwant %s", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			pre, filter, score := pointNames(p)
			for _, c := range []struct{ got, want string }{{pre, tt.pre}, {filter, tt.filter}, {score, tt.score}} {
				if c.want != "" && c.got != c.want {
					t.Errorf("got  %s\nwant %s", c.got, c.want)
				}
			}
		})
	}
}

// A profile without a plugin really runs without it: with PodTopologySpread
// disabled at score, its column is gone from the cycle's scores.
func TestProfileChangesTheCycle(t *testing.T) {
	p, err := InTree().NewProfile(ProfileSpec{Score: PluginSet{Disabled: []string{TaintTolerationName}}})
	if err != nil {
		t.Fatal(err)
	}
	c := cluster(t, nil)
	for _, n := range names("n", 2) {
		c.AddNode(node(n, "4", "8Gi"))
	}
	r := NewWithProfile(p).Schedule(pod("p", "100m", "100Mi"), c, rng(1), nil)
	if _, ok := scoresOf(r)["n0"][TaintTolerationName]; ok || len(r.Scores) != 2 {
		t.Errorf("TaintToleration still scored: %+v", r.Scores)
	}
}

// CycleState is a keyed store: each key reads back what was written under
// it, and nothing under a key never written.
func TestCycleStateKeys(t *testing.T) {
	a, b := NewStateKey("test-a"), NewStateKey("test-b")
	var st CycleState
	if _, ok := st.Read(a); ok {
		t.Fatal("empty state has a value")
	}
	st.Write(b, 2)
	if _, ok := st.Read(a); ok {
		t.Error("a is set after writing b")
	}
	if v, ok := st.Read(b); !ok || v.(int) != 2 {
		t.Errorf("b = %v, %v", v, ok)
	}
	if s := stateOf[fitState](&st, a); s != stateOf[fitState](&st, a) {
		t.Error("stateOf does not keep the state it created")
	}
	if a.String() != "test-a" {
		t.Errorf("key name %q", a.String())
	}
}

// fewerPods is a plugin written the way a new one is: its own type, state
// key and extension points in one file, plus one registry entry. It scores
// nodes by how few pods they run.
type fewerPods struct{}

var fewerPodsKey = NewStateKey("PreScoreFewerPods")

type fewerPodsState struct{ most int }

func (fewerPods) Name() string { return "FewerPods" }

func (fewerPods) PreScore(st *CycleState, _ *corev1.Pod, feasible []*NodeInfo) *Status {
	s := stateOf[fewerPodsState](st, fewerPodsKey)
	s.most = 0
	for _, n := range feasible {
		s.most = max(s.most, len(n.Pods))
	}
	return nil
}

func (fewerPods) Score(st *CycleState, _ *corev1.Pod, n *NodeInfo) int64 {
	v, _ := st.Read(fewerPodsKey)
	return int64(v.(*fewerPodsState).most - len(n.Pods))
}

// A plugin added to a registry is enabled by a profile like an in-tree one,
// with its weight, and runs in the cycle.
func TestAddedPlugin(t *testing.T) {
	r := InTree()
	r["FewerPods"] = Registration{New: func(any) (Plugin, error) { return fewerPods{}, nil }}
	p, err := r.NewProfile(ProfileSpec{MultiPoint: PluginSet{Enabled: []PluginRef{{"FewerPods", 4}}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, score := pointNames(p); !strings.HasSuffix(score, "ImageLocality×1 FewerPods×4") {
		t.Fatalf("score plugins %s", score)
	}
	c := cluster(t, []*corev1.Node{node("a", "4", "8Gi"), node("b", "4", "8Gi")},
		bound(pod("x", "", ""), "a"), bound(pod("y", "", ""), "a"))
	got := scoresOf(NewWithProfile(p).Schedule(pod("p", "100m", "100Mi"), c, rng(1), nil))
	if got["a"]["FewerPods"].Weighted != 0 || got["b"]["FewerPods"].Weighted != 8 {
		t.Errorf("FewerPods: a %+v, b %+v", got["a"]["FewerPods"], got["b"]["FewerPods"])
	}
	if _, err := InTree().NewProfile(ProfileSpec{MultiPoint: PluginSet{Enabled: []PluginRef{{"FewerPods", 4}}}}); err == nil {
		t.Error("the plugin is known without its registry entry")
	}
}
