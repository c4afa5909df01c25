package oracle

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
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
			t.Errorf("known_differences.json: pod-template-hash must match the recording; no entry may excuse it")
		}
	}
	return &tb
}

// TestSimulatorMatchesRecording replays every recorded scenario and the
// corpus dry runs and fails on each difference the table does not explain,
// and on each table entry that explains nothing.
func TestSimulatorMatchesRecording(t *testing.T) {
	table := loadTable(t)
	meta, err := LoadMeta(root)
	if err != nil {
		t.Fatalf("no recording for this version (%v): record it with oracle/ (README, \"Re-recording the oracle\")", err)
	}
	fixtures, err := LoadFixtures(root)
	if err != nil || len(fixtures) == 0 {
		t.Fatalf("no recorded scenarios under %s (%v)", Dir(), err)
	}
	dry, err := LoadDryRuns(root)
	if err != nil {
		t.Fatal(err)
	}
	rep := Report{Meta: meta, Fixtures: fixtures, DryRuns: dry, Table: table, Diffs: map[string][]Diff{}}
	var all []Diff
	for _, fx := range fixtures {
		run, err := RunScenario(root, fx)
		if err != nil {
			t.Errorf("%s: %v", fx.Scenario, err)
			continue
		}
		d := CompareScenario(fx, run, table)
		rep.Diffs[fx.Scenario] = d
		all = append(all, d...)
	}
	if _, err := os.Stat(corpusDir); err == nil {
		rep.Corpus = true
		for _, f := range sortedKeys(dry) {
			d := CompareDryRun(corpusDir, f, dry[f])
			rep.Diffs[f] = d
			all = append(all, d...)
		}
	} else {
		t.Logf("real-manifest corpus not available (%v): defaults and validation not compared", err)
	}
	unexplained, used, stale := table.Explain(all)
	rep.Used, rep.Unmatched = used, unexplained
	for _, d := range unexplained {
		t.Errorf("not in known_differences.json: %s", d)
	}
	for _, k := range stale {
		if !rep.Corpus && (k.Check == "default" || k.Check == "validation") {
			continue
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
	if !rep.Corpus {
		return // the page counts corpus differences it could not compute
	}
	got, err := os.ReadFile(path)
	if err != nil || string(got) != page {
		t.Errorf("docs/FIDELITY.md is out of date: run go test ./internal/oracle -update")
	}
}
