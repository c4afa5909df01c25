// Command oracle records what a real Kubernetes control plane does, so that
// the simulator's tests (internal/oracle in the main module) can hold it to
// the real components. It is its own module: the main module never imports
// it and never needs the long build.
//
//	cd oracle && go run . [-runs 3] [-only SCENARIO[,SCENARIO...]]
//	cd oracle && go run . -hash-only   # only hash.json, from upstream's ComputeHash
//	cd oracle && go run . -dry-run-only   # only the corpus dry run (etcd, kube-apiserver, kubectl)
//	cd oracle && go run . -no-build -serve KUBECONFIG   # only bring it up, until Ctrl-C (live-test.sh)
//
// It builds (once, via build.sh) and starts etcd, kube-apiserver,
// kube-controller-manager, kube-scheduler and kwok on 127.0.0.1, replays
// every scenario and the dry run of the real-manifest corpus -runs times,
// keeps what held in every run, and writes testdata/<version>/.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"syscall"
	"time"
)

var (
	repoRoot string
	verbose  = true
)

func logv(format string, args ...any) {
	if verbose {
		fmt.Fprintf(os.Stderr, time.Now().UTC().Format("15:04:05 ")+format+"\n", args...)
	}
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "oracle:", err)
		os.Exit(1)
	}
}

func run() error {
	runs := flag.Int("runs", 3, "record every scenario this many times and keep what held in all")
	only := flag.String("only", "", "record only these scenarios (comma-separated) and rewrite only their fixtures")
	keep := flag.Bool("keep", false, "keep the temp dirs (logs, audit log) of every run")
	skipBuild := flag.Bool("no-build", false, "do not run build.sh (the binaries must be in the cache)")
	dryRunOnly := flag.Bool("dry-run-only", false, "record only the corpus dry run (etcd, kube-apiserver and kubectl; no scenarios)")
	hashOnly := flag.Bool("hash-only", false, "only write hash.json and defaults.json from upstream's own code (builds just hashcheck; no control plane)")
	flag.StringVar(&repoRoot, "repo", "..", "the repository root")
	corpus := flag.String("corpus", "", "the real-manifest corpus (default: REPO/../shared/manifests/real)")
	nodeRec := flag.Bool("node", false, "record the node scenarios on a real node (kubelet, containerd, runc, kube-proxy) in namespaces of its own: testdata/<version>/node/ (as root; issue 24)")
	nodeRunOut := flag.String("node-run-out", "", "internal: one node run inside the namespaces -node made, written to this file")
	nodeSmoke := flag.Bool("node-smoke", false, "run only the node (registry, containerd, runc, CNI, a standalone kubelet with app.yaml's pod as a static pod) until the pod answers; records nothing (as root)")
	nodeSmokeChild := flag.Bool("node-smoke-child", false, "internal: -node-smoke inside its namespaces")
	serve := flag.String("serve", "", "bring up the control plane with the default nodes, write its admin kubeconfig to this file and keep it running until SIGINT/SIGTERM (for trace apply --kubeconfig's integration test)")
	flag.Parse()
	var err error
	if repoRoot, err = filepath.Abs(repoRoot); err != nil {
		return err
	}
	if *corpus == "" {
		*corpus = filepath.Join(repoRoot, "..", "shared", "manifests", "real")
	}
	for _, name := range strings.Split(*only, ",") {
		if name != "" && !slices.ContainsFunc(append(slices.Clone(scenarios), nodeScenarios...), func(sc scenario) bool { return sc.Name == name }) {
			return fmt.Errorf("-only: no scenario %q", name)
		}
	}
	ver, err := k8sVersion()
	if err != nil {
		return err
	}
	cache := os.Getenv("K8SEXPLAIN_ORACLE_CACHE")
	if cache == "" {
		dir, err := os.UserCacheDir()
		if err != nil {
			return err
		}
		cache = filepath.Join(dir, "k8sexplain-oracle")
	}
	cache = filepath.Join(cache, ver)
	if *nodeRunOut != "" {
		if os.Getenv(nodeNSEnv) == "" {
			return fmt.Errorf("-node-run-out is the -node recorder's own child")
		}
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		return runNodeChild(ctx, cache, *only, *nodeRunOut, *keep)
	}
	if *nodeSmokeChild {
		if os.Getenv(nodeNSEnv) == "" {
			return fmt.Errorf("-node-smoke-child is the -node-smoke runner's own child")
		}
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		return runNodeSmoke(ctx, cache, *keep)
	}
	if (*nodeRec || *nodeSmoke) && os.Geteuid() != 0 {
		return fmt.Errorf("-node and -node-smoke need root (network and mount namespaces, cgroups)")
	}
	if !*skipBuild {
		t0 := time.Now()
		cmd := exec.Command("bash", filepath.Join(repoRoot, "oracle", "build.sh"), ver)
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		switch {
		case *hashOnly:
			cmd.Env = append(os.Environ(), "ORACLE_ONLY=hashcheck")
		case *dryRunOnly:
			cmd.Env = append(os.Environ(), "ORACLE_ONLY=hashcheck kube-apiserver kubectl etcd")
		case *nodeSmoke:
			cmd.Env = append(os.Environ(), "ORACLE_ONLY="+nodeRuntimeBinaries)
		case *nodeRec:
			cmd.Env = append(os.Environ(), "ORACLE_ONLY=etcd kube-apiserver kube-controller-manager kube-scheduler kubectl kube-proxy "+nodeRuntimeBinaries)
		}
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("build.sh: %w", err)
		}
		logv("binaries ready in %s", time.Since(t0).Round(time.Second))
	}
	if *nodeSmoke {
		args := []string{"-no-build", "-repo", repoRoot, "-node-smoke-child"}
		if *keep {
			args = append(args, "-keep")
		}
		return runNodeParent(args)
	}
	if *nodeRec {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		return runNodeRecording(ctx, ver, *only, *runs, *keep)
	}
	if *serve != "" {
		// Nothing is recorded: only the control plane, until interrupted.
		stages, err := kwokStages(cache)
		if err != nil {
			return err
		}
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		return serveCluster(ctx, cache, stages, *serve)
	}
	if err := writeHashes(ver, filepath.Join(cache, "bin", "hashcheck")); err != nil {
		return err
	}
	if err := writeDefaults(ver, filepath.Join(cache, "bin", "hashcheck"), *corpus); err != nil {
		return err
	}
	if err := writeCorpusHashes(ver, filepath.Join(cache, "bin", "hashcheck"), *corpus); err != nil {
		return err
	}
	if *hashOnly {
		return nil
	}
	var stages string
	if !*dryRunOnly {
		if stages, err = kwokStages(cache); err != nil {
			return err
		}
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	var all []map[string]*scenarioRun
	var dry []map[string]*dryRun
	t0 := time.Now()
	for i := 1; i <= *runs; i++ {
		logv("run %d of %d", i, *runs)
		sr, dr, err := oneRun(ctx, cache, stages, *corpus, *only, *keep, *dryRunOnly)
		if err != nil {
			return fmt.Errorf("run %d: %w", i, err)
		}
		all, dry = append(all, sr), append(dry, dr)
	}
	logv("recorded %d runs in %s", *runs, time.Since(t0).Round(time.Second))
	return writeFixtures(ver, *runs, all, dry, *dryRunOnly)
}

// serveCluster brings up a control plane with the default nodes, copies
// its admin kubeconfig to out, and keeps it up until ctx ends.
func serveCluster(ctx context.Context, cache, stages, out string) error {
	dir, err := os.MkdirTemp("", "k8sexplain-oracle-serve-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	c := &cluster{bin: filepath.Join(cache, "bin"), dir: dir, kwokStages: stages}
	defer c.stop()
	if err := c.up(ctx); err != nil {
		return err
	}
	if err := c.createNodes(ctx, defaultNodes()); err != nil {
		return err
	}
	kc, err := os.ReadFile(c.admin)
	if err != nil {
		return err
	}
	if err := os.WriteFile(out+".tmp", kc, 0o600); err != nil {
		return err
	}
	if err := os.Rename(out+".tmp", out); err != nil {
		return err
	}
	logv("serving %s; admin kubeconfig in %s", c.server, out)
	<-ctx.Done()
	os.Remove(out)
	return nil
}

// k8sVersion is v1.X.Y for the k8s.io/api v0.X.Y of the main module.
func k8sVersion() (string, error) {
	b, err := os.ReadFile(filepath.Join(repoRoot, "go.mod"))
	if err != nil {
		return "", err
	}
	for _, l := range strings.Split(string(b), "\n") {
		f := strings.Fields(l)
		if len(f) >= 2 && f[0] == "k8s.io/api" && strings.HasPrefix(f[1], "v0.") {
			return "v1." + strings.TrimPrefix(f[1], "v0."), nil
		}
	}
	return "", fmt.Errorf("%s/go.mod: no k8s.io/api requirement", repoRoot)
}

// kwokStages writes kwok's "fast" node and pod stages (from its module) and
// the lease heartbeat into one config file.
func kwokStages(cache string) (string, error) {
	cmd := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "sigs.k8s.io/kwok")
	cmd.Dir = filepath.Join(cache, "kwok")
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("find kwok's module in %s: %v", cmd.Dir, err)
	}
	dir := strings.TrimSpace(string(out))
	var docs []string
	for _, f := range []string{"node/fast/node-initialize.yaml", "node/heartbeat-with-lease/node-heartbeat-with-lease.yaml",
		"pod/fast/pod-ready.yaml", "pod/fast/pod-complete.yaml", "pod/fast/pod-delete.yaml"} {
		b, err := os.ReadFile(filepath.Join(dir, "kustomize", "stage", f))
		if err != nil {
			return "", err
		}
		docs = append(docs, strings.TrimSpace(string(b)))
	}
	path := filepath.Join(cache, "kwok-stages.yaml")
	return path, os.WriteFile(path, []byte(strings.Join(docs, "\n---\n")+"\n"), 0o644)
}

func oneRun(ctx context.Context, cache, stages, corpus, only string, keep, dryRunOnly bool) (map[string]*scenarioRun, map[string]*dryRun, error) {
	dir, err := os.MkdirTemp("", "k8sexplain-oracle-")
	if err != nil {
		return nil, nil, err
	}
	c := &cluster{bin: filepath.Join(cache, "bin"), dir: dir, kwokStages: stages, apiOnly: dryRunOnly}
	defer func() {
		c.stop()
		if !keep {
			os.RemoveAll(dir)
		} else {
			logv("kept %s", dir)
		}
	}()
	t0 := time.Now()
	if err := c.up(ctx); err != nil {
		return nil, nil, err
	}
	if dryRunOnly {
		logv("kube-apiserver up in %s", time.Since(t0).Round(time.Millisecond))
		dr, err := recordDryRun(ctx, c, corpus)
		return map[string]*scenarioRun{}, dr, err
	}
	if err := c.createNodes(ctx, defaultNodes()); err != nil {
		return nil, nil, err
	}
	logv("control plane up in %s", time.Since(t0).Round(time.Millisecond))
	var off int64
	res := map[string]*scenarioRun{}
	for _, sc := range scenarios {
		if only != "" && !slices.Contains(strings.Split(only, ","), sc.Name) {
			continue
		}
		t := time.Now()
		r, err := recordScenario(ctx, c, sc, &off)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", sc.Name, err)
		}
		res[sc.Name] = r
		logv("  %s recorded in %s", sc.Name, time.Since(t).Round(time.Millisecond))
	}
	var dr map[string]*dryRun
	if only == "" {
		if err := c.ensureNodes(ctx, nil); err != nil {
			return nil, nil, err
		}
		if dr, err = recordDryRun(ctx, c, corpus); err != nil {
			return nil, nil, err
		}
	}
	return res, dr, nil
}

// Fixture is one scenario as recorded: only what held in every run.
type Fixture struct {
	Scenario string        `json:"scenario"`
	Runs     int           `json:"runs"`
	Steps    []FixtureStep `json:"steps"`
	// Objects are the final objects of the namespace ("<varies>" marks a
	// value that differed between runs).
	Objects []any `json:"objects"`
}

// FixtureStep is one command of a scenario and what followed it.
type FixtureStep struct {
	Name    string `json:"name"`
	Command string `json:"command"`
	// Writes: every write class seen in every run, with the fewest and
	// most times it happened in one run.
	Writes []WriteCount `json:"writes"`
	// Sometimes: write classes seen in some runs only (conflicts, retries).
	Sometimes []string `json:"sometimes,omitempty"`
	// Order: [A, B] when the first A came before the first B in every run
	// (transitively reduced).
	Order  [][2]string  `json:"order"`
	Events []EventCount `json:"events"`
}

type WriteCount struct {
	Class string `json:"class"`
	Min   int    `json:"min"`
	Max   int    `json:"max"`
}

type EventCount struct {
	event
	Count int `json:"count"` // the fewest times it was created in one run
}

func mergeScenario(sc scenario, runs []map[string]*scenarioRun) Fixture {
	f := Fixture{Scenario: sc.Name, Runs: len(runs)}
	for si, st := range sc.Steps {
		fs := FixtureStep{Name: st.Name, Command: st.Command, Writes: []WriteCount{}, Order: [][2]string{}, Events: []EventCount{}}
		var seqs [][]string
		var evs [][]event
		for _, r := range runs {
			seqs = append(seqs, r[sc.Name].Steps[si].Writes)
			evs = append(evs, r[sc.Name].Steps[si].Events)
		}
		fs.Writes, fs.Sometimes = mergeWrites(seqs)
		fs.Order = mergeOrder(seqs, fs.Writes)
		fs.Events = mergeEvents(evs)
		f.Steps = append(f.Steps, fs)
	}
	var objs [][]any
	for _, r := range runs {
		objs = append(objs, r[sc.Name].Objects)
	}
	f.Objects = mergeList(objs)
	return f
}

func mergeWrites(seqs [][]string) ([]WriteCount, []string) {
	counts := make([]map[string]int, len(seqs))
	union := map[string]bool{}
	for i, s := range seqs {
		counts[i] = map[string]int{}
		for _, c := range s {
			counts[i][c]++
			union[c] = true
		}
	}
	var always []WriteCount
	var some []string
	for c := range union {
		wc := WriteCount{Class: c, Min: -1}
		in := true
		for _, m := range counts {
			n := m[c]
			if n == 0 {
				in = false
			}
			if wc.Min < 0 || n < wc.Min {
				wc.Min = n
			}
			wc.Max = max(wc.Max, n)
		}
		if in {
			always = append(always, wc)
		} else {
			some = append(some, c)
		}
	}
	sort.Slice(always, func(i, j int) bool { return always[i].Class < always[j].Class })
	sort.Strings(some)
	return always, some
}

// mergeOrder keeps [A, B] when A's first write preceded B's in every run,
// then drops the pairs implied by two others.
func mergeOrder(seqs [][]string, classes []WriteCount) [][2]string {
	first := make([]map[string]int, len(seqs))
	for i, s := range seqs {
		first[i] = map[string]int{}
		for j, c := range s {
			if _, ok := first[i][c]; !ok {
				first[i][c] = j
			}
		}
	}
	before := map[[2]string]bool{}
	for _, a := range classes {
		for _, b := range classes {
			if a.Class == b.Class {
				continue
			}
			ok := true
			for _, f := range first {
				if f[a.Class] >= f[b.Class] {
					ok = false
					break
				}
			}
			if ok {
				before[[2]string{a.Class, b.Class}] = true
			}
		}
	}
	var out [][2]string
	for p := range before {
		implied := false
		for _, m := range classes {
			if before[[2]string{p[0], m.Class}] && before[[2]string{m.Class, p[1]}] {
				implied = true
				break
			}
		}
		if !implied {
			out = append(out, p)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i][0] != out[j][0] {
			return out[i][0] < out[j][0]
		}
		return out[i][1] < out[j][1]
	})
	if out == nil {
		out = [][2]string{}
	}
	return out
}

func mergeEvents(runs [][]event) []EventCount {
	var counts []map[event]int
	for _, r := range runs {
		m := map[event]int{}
		for _, e := range r {
			m[e]++
		}
		counts = append(counts, m)
	}
	out := []EventCount{}
	if len(counts) == 0 {
		return out
	}
	for e, n := range counts[0] {
		for _, m := range counts[1:] {
			n = min(n, m[e])
		}
		if n > 0 {
			out = append(out, EventCount{event: e, Count: n})
		}
	}
	sort.Slice(out, func(i, j int) bool { return canon(out[i]) < canon(out[j]) })
	return out
}

const varies = "<varies>"

// mergeJSON keeps what is equal and marks the rest "<varies>".
func mergeJSON(a, b any) any {
	if canon(a) == canon(b) {
		return a
	}
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			return varies
		}
		out := map[string]any{}
		for k, v := range x {
			if w, ok := y[k]; ok {
				out[k] = mergeJSON(v, w)
			} else {
				out[k] = varies
			}
		}
		for k := range y {
			if _, ok := x[k]; !ok {
				out[k] = varies
			}
		}
		return out
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return varies
		}
		return mergeList([][]any{x, y})
	}
	return varies
}

// mergeList merges lists of the same length element by element (each list
// sorted the same way); lists of different lengths become "<varies>".
func mergeList(lists [][]any) []any {
	if len(lists) == 0 {
		return nil
	}
	out := append([]any(nil), lists[0]...)
	for _, l := range lists[1:] {
		if len(l) != len(out) {
			return []any{varies}
		}
		for i := range out {
			out[i] = mergeJSON(out[i], l[i])
		}
	}
	return out
}

func writeFixtures(ver string, runs int, all []map[string]*scenarioRun, dry []map[string]*dryRun, dryRunOnly bool) error {
	dir := filepath.Join(repoRoot, "oracle", "testdata", strings.Join(strings.Split(ver, ".")[:2], "."))
	if err := os.MkdirAll(filepath.Join(dir, "scenarios"), 0o755); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(dir, "dryrun"), 0o755); err != nil {
		return err
	}
	write := func(path string, v any) error {
		b, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			return err
		}
		return os.WriteFile(path, append(b, '\n'), 0o644)
	}
	meta := map[string]any{"kubernetes": ver, "runs": runs, "etcd": envOr("ETCD_VERSION", "v3.6.16"), "kwok": envOr("KWOK_VERSION", "v0.8.0"),
		"scenarios": len(scenarios)}
	if dryRunOnly {
		meta["scenarios"] = 0
		delete(meta, "kwok")
	}
	if err := write(filepath.Join(dir, "meta.json"), meta); err != nil {
		return err
	}
	for _, sc := range scenarios {
		if dryRunOnly {
			break
		}
		if len(all) == 0 || all[0][sc.Name] == nil {
			continue // not recorded this time (-only): its fixture stays
		}
		if err := write(filepath.Join(dir, "scenarios", sc.Name+".json"), mergeScenario(sc, all)); err != nil {
			return err
		}
	}
	if len(dry) == 0 || dry[0] == nil {
		return nil
	}
	for f := range dry[0] {
		merged := dry[0][f]
		for _, d := range dry[1:] {
			o := d[f]
			if o == nil {
				continue
			}
			m := mergeJSON(toAny(merged), toAny(o))
			b, _ := json.Marshal(m)
			var nd dryRun
			if json.Unmarshal(b, &nd) == nil {
				merged = &nd
			}
		}
		if err := write(filepath.Join(dir, "dryrun", f+".json"), merged); err != nil {
			return err
		}
	}
	return nil
}

func toAny(v any) any {
	b, _ := json.Marshal(v)
	var out any
	json.Unmarshal(b, &out)
	return out
}

func envOr(k, d string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return d
}

// hashFiles are the manifests whose Deployments hash.json covers: the
// examples and the scenarios' own manifests.
var hashFiles = []string{"examples/*.yaml", "oracle/scenarios/*.yaml"}

// writeHashes runs hashcheck (upstream's ComputeHash) over hashFiles, as is
// and after setting the first container's image to the rollouts' image.
func writeHashes(ver, hashcheck string) error {
	var files []string
	for _, g := range hashFiles {
		m, err := filepath.Glob(filepath.Join(repoRoot, g))
		if err != nil {
			return err
		}
		for _, f := range m {
			rel, _ := filepath.Rel(repoRoot, f)
			files = append(files, rel)
		}
	}
	sort.Strings(files)
	cmd := exec.Command(hashcheck, append([]string{"-image", "nginx:1.28"}, files...)...)
	cmd.Dir = repoRoot
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("hashcheck: %w", err)
	}
	dir := filepath.Join(repoRoot, "oracle", "testdata", strings.Join(strings.Split(ver, ".")[:2], "."))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	logv("wrote %s", filepath.Join(dir, "hash.json"))
	return os.WriteFile(filepath.Join(dir, "hash.json"), out, 0o644)
}

// writeCorpusHashes runs hashcheck over the real-manifest corpus, whose
// Deployments were written by nobody on the team: hash-corpus.json.
func writeCorpusHashes(ver, hashcheck, corpus string) error {
	files, err := corpusFiles(corpus)
	if err != nil {
		return err
	}
	cmd := exec.Command(hashcheck, files...)
	cmd.Dir = corpus
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("hashcheck over the corpus: %w", err)
	}
	dir := filepath.Join(repoRoot, "oracle", "testdata", strings.Join(strings.Split(ver, ".")[:2], "."))
	logv("wrote %s", filepath.Join(dir, "hash-corpus.json"))
	return os.WriteFile(filepath.Join(dir, "hash-corpus.json"), out, 0o644)
}

// writeDefaults runs hashcheck -defaults (upstream's registered defaulters)
// over every corpus file: defaults.json.
func writeDefaults(ver, hashcheck, corpus string) error {
	files, err := corpusFiles(corpus)
	if err != nil {
		return err
	}
	cmd := exec.Command(hashcheck, append([]string{"-defaults"}, files...)...)
	cmd.Dir = corpus
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("hashcheck -defaults: %w", err)
	}
	dir := filepath.Join(repoRoot, "oracle", "testdata", strings.Join(strings.Split(ver, ".")[:2], "."))
	logv("wrote %s", filepath.Join(dir, "defaults.json"))
	return os.WriteFile(filepath.Join(dir, "defaults.json"), out, 0o644)
}
