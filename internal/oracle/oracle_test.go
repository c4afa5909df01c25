package oracle

import (
	"encoding/json"
	"flag"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

var update = flag.Bool("update", false, "rewrite docs/FIDELITY.md")

const root = "../.."

// corpusDir is ../shared/manifests/real seen from the repository root.
var corpusDir = filepath.Join(root, "..", "shared", "manifests", "real")

func loadTable(t *testing.T) *Table {
	b, err := os.ReadFile("known_differences.json")
	if err != nil {
		t.Fatal(err)
	}
	var tb Table
	if err := json.Unmarshal(b, &tb); err != nil {
		t.Fatalf("known_differences.json: %v", err)
	}
	for _, k := range tb.Differences {
		if k.Reason == "" || k.Check == "" || k.Match == "" || k.Scenario == "" {
			t.Errorf("known_differences.json: entry %+v needs check, scenario, match and reason", *k)
		}
		if k.Check == "hash" {
			t.Errorf("known_differences.json: pod-template-hash must match upstream; no entry may excuse it")
		}
	}
	for _, u := range tb.Users {
		if u.Real == "" || u.Sim == "" || u.Reason == "" {
			t.Errorf("known_differences.json: user entry %+v needs real, sim and reason", u)
		}
	}
	return &tb
}

// TestSimulatorAgainstRealComponents holds the simulator to upstream:
// pod-template-hash against upstream's own ComputeHash (always), and, once
// a recording of this version exists, every recorded scenario and corpus
// dry run. It fails on each difference the known-differences table does
// not explain and on each entry of the table that explains nothing, and
// keeps docs/FIDELITY.md in step.
func TestSimulatorAgainstRealComponents(t *testing.T) {
	table := loadTable(t)
	rep := Report{Table: table, Diffs: map[string][]Diff{}}

	hashes, err := LoadUpstreamHashes(root, "hash.json")
	if err != nil {
		t.Fatalf("pod-template-hash of upstream's code not recorded (%v): cd oracle && go run . -hash-only (README)", err)
	}
	corpusHashes, err := LoadUpstreamHashes(root, "hash-corpus.json")
	if err != nil {
		t.Fatalf("pod-template-hash of the corpus not recorded (%v): cd oracle && go run . -hash-only (README)", err)
	}
	if len(hashes) == 0 || len(corpusHashes) == 0 {
		t.Fatal("hash.json or hash-corpus.json lists no Deployment")
	}
	_, corpusErr := os.Stat(corpusDir)
	rep.Hashes = hashes
	if corpusErr == nil {
		rep.CorpusHashes = corpusHashes
	}
	t.Run("pod-template-hash", func(t *testing.T) {
		check := func(dir string, h UpstreamHash) {
			names, err := SimReplicaSets(dir, h)
			if err != nil {
				t.Errorf("%s: %v", h.File, err)
				return
			}
			if want := h.Deployment + "-" + h.Hash; !slices.Contains(names, want) {
				t.Errorf("%s %s (image %q): the simulator created ReplicaSets %v, upstream's ComputeHash names it %s",
					h.File, h.Deployment, h.Image, names, want)
			}
		}
		for _, h := range hashes {
			check(root, h)
		}
		if corpusErr != nil {
			t.Logf("real-manifest corpus not available (%v): its %d Deployments' hashes not compared", corpusErr, len(corpusHashes))
			return
		}
		for _, h := range corpusHashes {
			check(corpusDir, h)
		}
	})

	var all []Diff
	if defs, err := LoadUpstreamDefaults(root); err != nil {
		t.Logf("NOTE: no defaults.json from upstream's defaulters (%v): defaulting is not compared with upstream's code", err)
	} else if corpusErr != nil {
		t.Logf("real-manifest corpus not available (%v): defaulting not compared", corpusErr)
	} else {
		rep.Defaults, rep.DefaultsCompared = defs, true
		for _, d := range defs {
			all = append(all, CompareUpstreamDefaults(corpusDir, d)...)
		}
	}

	meta, err := LoadMeta(root)
	if err == nil {
		rep.Meta, rep.Recorded = meta, true
		t.Run("recording", func(t *testing.T) { all = append(all, compareRecording(t, &rep)...) })
	} else {
		// Said out loud, in the test log and on the Fidelity page.
		t.Logf("NOTE: no recording of the real control plane for %s yet (%v): scenarios, defaults and validation are not compared; see README, \"Re-recording the oracle\"", Dir(), err)
	}

	if nm, nfx, err := LoadNodeFixtures(root); err == nil && len(nfx) > 0 {
		rep.NodeMeta, rep.NodeFixtures, rep.NodeRecorded = nm, nfx, true
		t.Run("node", func(t *testing.T) {
			for _, fx := range nfx {
				run, err := RunScenario(root, fx.Fixture)
				if err != nil {
					t.Errorf("%s: %v", fx.Scenario, err)
					continue
				}
				d := CompareNode(fx, run)
				rep.Diffs[fx.Scenario] = d
				all = append(all, d...)
			}
		})
	} else {
		t.Logf("NOTE: no recording of a real node for %s yet (%v): kubelet events, pod status, CRI calls and iptables are not compared; see README, \"Re-recording the oracle\"", Dir(), err)
	}

	unexplained, used, stale := table.Explain(all)
	rep.Used, rep.Unmatched = used, unexplained
	for _, d := range unexplained {
		t.Errorf("not in known_differences.json: %s", d)
	}
	for _, k := range stale {
		if nodeCheck(k.Check) {
			if !rep.NodeRecorded {
				continue
			}
		} else if k.Check == "upstream-default" {
			if !rep.DefaultsCompared {
				continue
			}
		} else if corpusCheck := k.Check == "default" || k.Check == "validation"; !rep.Recorded || (!rep.Corpus && corpusCheck) || (rep.Meta.Scenarios == 0 && !corpusCheck) {
			continue // nothing to compare it with here
		}
		t.Errorf("known difference no longer happens, remove it from known_differences.json: %s %s %q", k.Check, k.Scenario, k.Match)
	}

	page := Fidelity(rep)
	path := filepath.Join(root, "docs", "FIDELITY.md")
	if *update {
		if err := os.WriteFile(path, []byte(page), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if corpusErr != nil {
		return // the page counts corpus differences this run could not compute
	}
	if got, err := os.ReadFile(path); err != nil || string(got) != page {
		t.Errorf("docs/FIDELITY.md is out of date: run go test ./internal/oracle -update")
	}
}

func compareRecording(t *testing.T, rep *Report) []Diff {
	fixtures, err := LoadFixtures(root)
	if err != nil || len(fixtures) != rep.Meta.Scenarios {
		t.Fatalf("meta.json says %d scenarios, %s has %d (%v)", rep.Meta.Scenarios, Dir(), len(fixtures), err)
	}
	if len(fixtures) == 0 {
		t.Logf("NOTE: the recording of %s has the corpus dry run only: scenarios are not compared", Dir())
	}
	dry, err := LoadDryRuns(root)
	if err != nil {
		t.Fatal(err)
	}
	rep.Fixtures, rep.DryRuns = fixtures, dry
	var all []Diff
	for _, fx := range fixtures {
		run, err := RunScenario(root, fx)
		if err != nil {
			t.Errorf("%s: %v", fx.Scenario, err)
			continue
		}
		d := CompareScenario(fx, run, rep.Table)
		rep.Diffs[fx.Scenario] = d
		all = append(all, d...)
	}
	if _, err := os.Stat(corpusDir); err == nil {
		rep.Corpus = true
		for _, f := range slices.Sorted(maps.Keys(dry)) {
			d := CompareDryRun(corpusDir, f, dry[f])
			rep.Diffs[f] = d
			all = append(all, d...)
		}
	} else {
		t.Logf("real-manifest corpus not available (%v): defaults and validation not compared", err)
	}
	return all
}
