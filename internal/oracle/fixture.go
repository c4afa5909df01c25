// Package oracle holds the simulator to a real control plane: it replays
// the scenarios recorded by the oracle/ module (real etcd, kube-apiserver,
// kube-controller-manager, kube-scheduler, kwok) in the simulator and lists
// every difference. Its test fails on a difference that the known-
// differences table (known_differences.json, beside this file) does not
// explain, and on an entry of that table that no longer happens.
//
// Nothing here needs the real binaries: the recordings are committed under
// oracle/testdata/v1.<minor>/.
package oracle

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/k8sversion"
)

// Varies marks a value that differed between the recorded runs.
const Varies = "<varies>"

// Fixture is one recorded scenario (oracle/main.go writes it).
type Fixture struct {
	Scenario string `json:"scenario"`
	Runs     int    `json:"runs"`
	Steps    []Step `json:"steps"`
	Objects  []any  `json:"objects"`
}

// Step is one command and what the real components wrote after it.
type Step struct {
	Name      string       `json:"name"`
	Command   string       `json:"command"`
	Writes    []WriteCount `json:"writes"`
	Sometimes []string     `json:"sometimes"`
	Order     [][2]string  `json:"order"`
	Events    []EventCount `json:"events"`
}

// WriteCount is a write class ("USER VERB RESOURCE[/SUB] CODE") seen in
// every run, with the fewest and most times in one run.
type WriteCount struct {
	Class string `json:"class"`
	Min   int    `json:"min"`
	Max   int    `json:"max"`
}

// Event is one Event a component created.
type Event struct {
	API     string `json:"api"`
	Type    string `json:"type"`
	Reason  string `json:"reason"`
	Message string `json:"message"`
	Object  string `json:"object"`
	Source  string `json:"source"`
}

// EventCount is an event seen in every run, Count times at least.
type EventCount struct {
	Event
	Count int `json:"count"`
}

// DryRun is `kubectl apply --dry-run=server -o json -f FILE` on the real
// API server: the defaulted objects, or its error lines.
type DryRun struct {
	Exit    int      `json:"exit"`
	Objects []any    `json:"objects"`
	Errors  []string `json:"errors"`
}

// Meta describes a recording.
type Meta struct {
	Kubernetes string `json:"kubernetes"`
	Runs       int    `json:"runs"`
	Etcd       string `json:"etcd"`
	Kwok       string `json:"kwok"`
	// Scenarios is how many scenarios were recorded; 0 for a recording of
	// the corpus dry run alone (oracle -dry-run-only).
	Scenarios int `json:"scenarios"`
}

// Dir is the recording of the version the simulator models, relative to
// the repository root.
func Dir() string {
	return filepath.Join("oracle", "testdata", fmt.Sprintf("v1.%d", k8sversion.Minor))
}

// LoadMeta reads meta.json of the recording under root.
func LoadMeta(root string) (Meta, error) {
	var m Meta
	return m, readJSON(filepath.Join(root, Dir(), "meta.json"), &m)
}

// LoadFixtures reads every recorded scenario, in name order.
func LoadFixtures(root string) ([]Fixture, error) {
	files, err := filepath.Glob(filepath.Join(root, Dir(), "scenarios", "*.json"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var out []Fixture
	for _, f := range files {
		var fx Fixture
		if err := readJSON(f, &fx); err != nil {
			return nil, err
		}
		out = append(out, fx)
	}
	return out, nil
}

// LoadDryRuns reads the recorded dry runs by corpus file name.
func LoadDryRuns(root string) (map[string]DryRun, error) {
	files, err := filepath.Glob(filepath.Join(root, Dir(), "dryrun", "*.json"))
	if err != nil {
		return nil, err
	}
	out := map[string]DryRun{}
	for _, f := range files {
		var d DryRun
		if err := readJSON(f, &d); err != nil {
			return nil, err
		}
		out[strings.TrimSuffix(filepath.Base(f), ".json")] = d
	}
	return out, nil
}

func readJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	return nil
}
