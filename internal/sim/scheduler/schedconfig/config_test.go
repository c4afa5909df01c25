package schedconfig

import (
	"os"
	"strings"
	"testing"

	"github.com/k8sexplain/k8sexplain/internal/sim/scheduler"
)

func TestExampleMostAllocated(t *testing.T) {
	c, err := Load("../../../../examples/scheduler-mostallocated.yaml")
	if err != nil {
		t.Fatal(err)
	}
	strategy, weights := c.Profile.Describe()
	if strategy != "MostAllocated (cpu 1, memory 1)" || weights != "TaintToleration ×3, NodeAffinity ×2, NodeResourcesFit ×5, InterPodAffinity ×2, NodeResourcesBalancedAllocation ×1, ImageLocality ×1" {
		t.Errorf("profile: %s; %s", strategy, weights)
	}
	if c.Profile.Name != "default-scheduler" || len(c.Profile.Filter) != 9 {
		t.Errorf("profile %q with %d filters", c.Profile.Name, len(c.Profile.Filter))
	}
}

func TestRequestedToCapacityRatioFile(t *testing.T) {
	c, err := Load("testdata/rtcr.yaml")
	if err != nil {
		t.Fatal(err)
	}
	p := c.Profile
	if p.Name != "bin-packer" || p.PercentageOfNodesToScore != 50 {
		t.Errorf("name %q, percentage %d", p.Name, p.PercentageOfNodesToScore)
	}
	var fit *scheduler.NodeResourcesFit
	for _, ws := range p.Score {
		if f, ok := ws.Plugin.(*scheduler.NodeResourcesFit); ok {
			fit = f
		}
		if ws.Plugin.Name() == scheduler.BalancedAllocationName {
			t.Error("NodeResourcesBalancedAllocation still scores")
		}
	}
	if fit == nil || fit.Strategy != scheduler.RequestedToCapacityRatio {
		t.Fatalf("fit %+v", fit)
	}
	// Scores 0..10 scaled to 0..100; a weight left out means 1.
	if got := []scheduler.ShapePoint{{Utilization: 0, Score: 0}, {Utilization: 100, Score: 100}}; len(fit.Shape) != 2 || fit.Shape[1] != got[1] {
		t.Errorf("shape %v", fit.Shape)
	}
	if len(fit.Resources) != 2 || fit.Resources[0].Weight != 3 || fit.Resources[1].Weight != 1 {
		t.Errorf("resources %v", fit.Resources)
	}
	for _, ws := range p.Score {
		if ip, ok := ws.Plugin.(scheduler.InterPodAffinity); ok && ip.HardPodAffinityWeight != 0 {
			t.Errorf("hardPodAffinityWeight %d", ip.HardPodAffinityWeight)
		}
	}
}

const head = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"

// Bad configurations: one line each, at file:line, in upstream's words
// where upstream has them.
func TestBadConfig(t *testing.T) {
	fit := func(strategy string) string {
		return head + "profiles:\n  - pluginConfig:\n      - name: NodeResourcesFit\n        args:\n          scoringStrategy:\n" + strategy
	}
	for _, tt := range []struct{ name, in, want string }{
		{"empty", "", "s.yaml: empty file: want a KubeSchedulerConfiguration"},
		{"syntax", head + "profiles: [\n", "s.yaml:3: YAML: "},
		{"not a config", "apiVersion: v1\nkind: Pod\n", `s.yaml:2: no kind "Pod" is registered for version "v1": want apiVersion: kubescheduler.config.k8s.io/v1, kind: KubeSchedulerConfiguration`},
		{"old version", "apiVersion: kubescheduler.config.k8s.io/v1beta3\nkind: KubeSchedulerConfiguration\n", `s.yaml:2: no kind "KubeSchedulerConfiguration" is registered for version "kubescheduler.config.k8s.io/v1beta3"`},
		{"no kind", "apiVersion: kubescheduler.config.k8s.io/v1\n", "s.yaml:1: Object 'Kind' is missing"},
		{"unknown field", head + "profiles:\n  - schedulerNme: x\n", `s.yaml:4: unknown field "profiles[0].schedulerNme"`},
		{"duplicate field", head + "profiles:\n  - schedulerName: a\n    schedulerName: b\n", `s.yaml:5: duplicate field "profiles[0].schedulerName"`},
		{"wrong type", head + "profiles:\n  - plugins:\n      score:\n        enabled:\n          - name: ImageLocality\n            weight: five\n", `s.yaml:8: wrong type for "profiles[0].plugins.score.enabled[0].weight": want an integer, got a str "five"`},
		{"overflow", head + "percentageOfNodesToScore: 99999999999\n", `s.yaml:3: invalid value for "percentageOfNodesToScore": 99999999999 does not fit in int32`},
		{"percentage", head + "profiles:\n  - percentageOfNodesToScore: 101\n", "s.yaml:4: profiles[0].percentageOfNodesToScore: Invalid value: 101: not in valid range [0-100]"},
		{"two profiles", head + "profiles:\n  - schedulerName: a\n  - schedulerName: b\n", "s.yaml:5: profiles: 2 profiles; the simulator runs one scheduler with one profile"},
		{"extenders", head + "extenders:\n  - urlPrefix: http://x\n", "s.yaml:3: extenders: not supported by the simulator"},
		{"unknown plugin", head + "profiles:\n  - plugins:\n      multiPoint:\n        enabled:\n          - name: Coscheduling\n", `s.yaml:7: profiles[0].plugins.multiPoint.enabled[0]: plugin "Coscheduling" does not exist (known: ImageLocality, InterPodAffinity, `},
		{"negative weight", head + "profiles:\n  - plugins:\n      score:\n        enabled:\n          - name: ImageLocality\n            weight: -1\n", "s.yaml:8: profiles[0].plugins.score.enabled[0].weight: Invalid value: -1: must not be negative"},
		{"unmodelled point", head + "profiles:\n  - plugins:\n      preScore:\n        disabled:\n          - name: InterPodAffinity\n", `s.yaml:7: profiles[0].plugins.preScore.disabled[0]: "InterPodAffinity" at preScore is not modelled by the simulator (the simulator runs a plugin's PreScore with its Score: configure score)`},
		{"unknown strategy", fit("            type: Balanced\n"), `s.yaml:8: profiles[0].pluginConfig[0].args.scoringStrategy.type: Unsupported value: "Balanced": supported values: "LeastAllocated", "MostAllocated", "RequestedToCapacityRatio"`},
		{"strategy weight", fit("            type: MostAllocated\n            resources:\n              - name: cpu\n                weight: 200\n"), "s.yaml:11: profiles[0].pluginConfig[0].args.scoringStrategy.resources[0].weight: Invalid value: 200: resource weight of cpu not in valid range (0, 100]"},
		{"no shape", fit("            type: RequestedToCapacityRatio\n"), "s.yaml:7: profiles[0].pluginConfig[0].args.scoringStrategy.requestedToCapacityRatio: Required value: must be specified when type is RequestedToCapacityRatio"},
		{"shape score", fit("            type: RequestedToCapacityRatio\n            requestedToCapacityRatio:\n              shape:\n                - utilization: 0\n                  score: 11\n"), "s.yaml:12: profiles[0].pluginConfig[0].args.scoringStrategy.requestedToCapacityRatio.shape[0].score: Invalid value: 11: not in valid range [0, 10]"},
		{"args field", fit("            typ: MostAllocated\n"), `s.yaml:8: unknown field "profiles[0].pluginConfig[0].args.scoringStrategy.typ"`},
		{"args kind", head + "profiles:\n  - pluginConfig:\n      - name: NodeResourcesFit\n        args:\n          kind: InterPodAffinityArgs\n", "s.yaml:7: profiles[0].pluginConfig[0].args.kind: want NodeResourcesFitArgs, got \"InterPodAffinityArgs\""},
		{"args not supported", head + "profiles:\n  - pluginConfig:\n      - name: PodTopologySpread\n        args: {}\n", "s.yaml:5: profiles[0].pluginConfig[0]: args of PodTopologySpread are not supported by the simulator"},
		{"args twice", head + "profiles:\n  - pluginConfig:\n      - name: NodeResourcesFit\n      - name: NodeResourcesFit\n", `s.yaml:6: profiles[0].pluginConfig[1]: Duplicate value: "NodeResourcesFit"`},
		{"two documents", head + "---\n" + head, "s.yaml:3: more than one YAML document"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("s.yaml", []byte(tt.in))
			if err == nil {
				t.Fatalf("no error, want %s", tt.want)
			}
			if !strings.HasPrefix(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("got  %s\nwant %s", err, tt.want)
			}
		})
	}
}

func TestMissingFile(t *testing.T) {
	_, err := Load("testdata/nope.yaml")
	if err == nil || err.Error() != "--scheduler-config testdata/nope.yaml: no such file or directory" {
		t.Errorf("got %v", err)
	}
	_, err = Load("testdata")
	if err == nil || err.Error() != "--scheduler-config testdata: is a directory" {
		t.Errorf("got %v", err)
	}
	big := make([]byte, MaxSize+1)
	p := t.TempDir() + "/big.yaml"
	if err := os.WriteFile(p, big, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err = Load(p); err == nil || !strings.HasSuffix(err.Error(), "larger than 1048576 bytes") {
		t.Errorf("got %v", err)
	}
}

// FuzzParse: whatever the input, Parse returns a profile or a one-line
// error, and the same answer twice.
func FuzzParse(f *testing.F) {
	for _, name := range []string{"testdata/rtcr.yaml", "../../../../examples/scheduler-mostallocated.yaml"} {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse("f.yaml", data)
		c2, err2 := Parse("f.yaml", data)
		if err != nil {
			if strings.Contains(err.Error(), "\n") || !strings.HasPrefix(err.Error(), "f.yaml") {
				t.Fatalf("error not one line at the file: %q", err)
			}
			if err2 == nil || err2.Error() != err.Error() {
				t.Fatalf("second parse: %v, first %v", err2, err)
			}
			return
		}
		if err2 != nil {
			t.Fatalf("second parse failed: %v", err2)
		}
		s1, w1 := c.Profile.Describe()
		s2, w2 := c2.Profile.Describe()
		if s1 != s2 || w1 != w2 || len(c.Profile.Filter) != len(c2.Profile.Filter) {
			t.Fatalf("not deterministic: %s %s vs %s %s", s1, w1, s2, w2)
		}
	})
}
