package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"
)

// scenarioRun is what one run of one scenario left behind, normalized.
type scenarioRun struct {
	Steps   []stepRun
	Objects []any
	// Node is what the real node showed (node scenarios only).
	Node *nodeRun `json:",omitempty"`
	raw  [][]auditEvent
}

type stepRun struct {
	Writes []string // write classes in the order the audit log has them
	Events []event
}

// event is one Event a component created, in either API.
type event struct {
	API     string `json:"api"` // v1 or events.k8s.io/v1
	Type    string `json:"type"`
	Reason  string `json:"reason"`
	Message string `json:"message"`
	Object  string `json:"object"` // Kind/name of the object it is about
	Source  string `json:"source"` // source.component or reportingController
}

// dryRun is `kubectl apply --dry-run=server -o json -f FILE`.
type dryRun struct {
	Exit    int      `json:"exit"`
	Objects []any    `json:"objects"`
	Errors  []string `json:"errors"`
}

// finalKinds are the kinds whose final state a scenario keeps.
const finalKinds = "deployments,replicasets,pods,services,endpointslices,endpoints,limitranges,resourcequotas,statefulsets,controllerrevisions"

// recordScenario runs sc in a fresh namespace and returns its normalized run.
func recordScenario(ctx context.Context, c *cluster, sc scenario, off *int64) (*scenarioRun, error) {
	ns := "oracle-" + sc.Name
	if err := c.ensureNodes(ctx, sc.Nodes); err != nil {
		return nil, err
	}
	if _, err := c.kubectl(ctx, nil, "create", "namespace", ns); err != nil {
		return nil, err
	}
	if err := c.waitFor(ctx, 60*time.Second, "the ServiceAccount of "+ns, func() bool {
		_, err := c.kubectl(ctx, nil, "get", "serviceaccount", "default", "-n", ns, "-o", "name")
		return err == nil
	}); err != nil {
		return nil, err
	}
	// forget the namespace's own writes (its ServiceAccount, its ConfigMap)
	if _, o, err := readAudit(c.auditPath, *off); err == nil {
		*off = o
	}
	var raw [][]auditEvent
	for _, st := range sc.Steps {
		logv("  %s: %s", sc.Name, st.Command)
		if err := st.run(ctx, c, ns); err != nil {
			return nil, err
		}
		evs, err := c.settle(ctx, ns, off, sc.Quiet)
		if err != nil {
			return nil, err
		}
		raw = append(raw, evs)
	}
	if c.afterSteps != nil {
		if err := c.afterSteps(ctx, ns); err != nil {
			return nil, err
		}
	}
	out, err := c.kubectl(ctx, nil, "get", finalKinds, "-n", ns, "-o", "json")
	if err != nil {
		return nil, err
	}
	var list struct{ Items []any }
	if err := json.Unmarshal(out, &list); err != nil {
		return nil, err
	}
	n := newNormalizer(ns, raw)
	run := &scenarioRun{raw: raw}
	for _, evs := range raw {
		var sr stepRun
		for _, ev := range evs {
			sr.Writes = append(sr.Writes, writeClass(ev))
			if e, ok := n.event(ev); ok {
				sr.Events = append(sr.Events, e)
			}
		}
		run.Steps = append(run.Steps, sr)
	}
	for _, it := range list.Items {
		run.Objects = append(run.Objects, n.object(it))
	}
	sortObjects(run.Objects)
	if _, err := c.kubectl(ctx, nil, "delete", "namespace", ns, "--wait=true", "--timeout=120s"); err != nil {
		return nil, err
	}
	_, *off, _ = readAudit(c.auditPath, *off)
	if sc.Nodes != nil {
		// the scenario's own nodes may share the default workers' names:
		// drop every worker so the next scenario gets the default ones
		if err := c.ensureNodes(ctx, controlPlaneOnly()); err != nil {
			return nil, err
		}
	}
	return run, nil
}

// settle waits until the namespace has seen no write for quiet, and returns
// the writes in it since off.
func (c *cluster) settle(ctx context.Context, ns string, off *int64, quiet time.Duration) ([]auditEvent, error) {
	const least, most = 3 * time.Second, 120 * time.Second
	if quiet == 0 {
		quiet = 4 * time.Second
	}
	start, last := time.Now(), time.Now()
	var got []auditEvent
	for {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		evs, o, err := readAudit(c.auditPath, *off)
		if err != nil {
			return nil, err
		}
		*off = o
		for _, ev := range evs {
			if ev.ObjectRef.Namespace == ns {
				got = append(got, ev)
				last = time.Now()
			}
		}
		now := time.Now()
		if now.Sub(start) >= least && now.Sub(last) >= quiet {
			return got, nil
		}
		if now.Sub(start) > most {
			logv("  %s did not go quiet in %s; keeping what came", ns, most)
			return got, nil
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// ensureNodes makes the node set exactly want (nil: the default cluster).
func (c *cluster) ensureNodes(ctx context.Context, want []nodeSpec) error {
	if c.realNode {
		return nil
	}
	if want == nil {
		want = defaultNodes()
	}
	out, err := c.kubectl(ctx, nil, "get", "nodes", "-o", "name")
	if err != nil {
		return err
	}
	have := map[string]bool{}
	for _, n := range strings.Fields(string(out)) {
		have[strings.TrimPrefix(n, "node/")] = true
	}
	keep := map[string]bool{}
	var missing []nodeSpec
	for _, n := range want {
		keep[n.Name] = true
		if !have[n.Name] {
			missing = append(missing, n)
		}
	}
	for n := range have {
		if !keep[n] {
			if _, err := c.kubectl(ctx, nil, "delete", "node", n, "--wait=true"); err != nil {
				return err
			}
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return c.createNodes(ctx, missing)
}

// writeClass is "USER VERB RESOURCE[/SUB] CODE": who wrote what, how, and
// what the API server answered.
func writeClass(ev auditEvent) string {
	r := ev.ObjectRef.Resource
	if ev.ObjectRef.APIGroup != "" {
		r += "." + ev.ObjectRef.APIGroup
	}
	if ev.ObjectRef.Subresource != "" {
		r += "/" + ev.ObjectRef.Subresource
	}
	code := 0
	if ev.ResponseStatus != nil {
		code = ev.ResponseStatus.Code
	}
	return fmt.Sprintf("%s %s %s %d", ev.User.Username, ev.Verb, r, code)
}

// normalizer replaces what differs between runs by its role: the namespace
// by "default", generated name suffixes by xxxxx, UIDs, times and IPs.
type normalizer struct {
	ns      string
	names   map[string]string // generated name -> generateName + "xxxxx"
	ordered []string          // longest first, so no name is replaced inside another
}

var (
	apiAccess = regexp.MustCompile(`kube-api-access-[a-z0-9]{5}`)
	workerRE  = regexp.MustCompile(`\bnode-[a-z]\b`)
	// rejectedPod is the name the API server generated for a pod that
	// admission then refused (a FailedCreate message, the ReplicaFailure
	// condition): never created, so not among the names above. The
	// comparison (internal/oracle simrun.go) replaces it the same way.
	rejectedPod = regexp.MustCompile(`(pods "[a-z0-9.-]+-)[a-z0-9]{5}(" is forbidden)`)
)

func newNormalizer(ns string, steps [][]auditEvent) *normalizer {
	n := &normalizer{ns: ns, names: map[string]string{}}
	for _, evs := range steps {
		for _, ev := range evs {
			if ev.Verb != "create" || len(ev.ResponseObject) == 0 {
				continue
			}
			var o struct {
				Metadata struct{ Name, GenerateName string }
			}
			if json.Unmarshal(ev.ResponseObject, &o) == nil && generatedName(o.Metadata.Name, o.Metadata.GenerateName) {
				n.names[o.Metadata.Name] = o.Metadata.GenerateName + "xxxxx"
			}
		}
	}
	for k := range n.names {
		n.ordered = append(n.ordered, k)
	}
	sort.Slice(n.ordered, func(i, j int) bool { return len(n.ordered[i]) > len(n.ordered[j]) })
	return n
}

// generatedName: the API server made name from generateName (five
// characters after it: apiserver/pkg/storage/names SimpleNameGenerator). A
// StatefulSet's pods carry generateName "web-" beside the name "web-0"
// the controller chose (GetPodFromTemplate, then initIdentity): kept.
func generatedName(name, generateName string) bool {
	return generateName != "" && len(name) == len(generateName)+5 && strings.HasPrefix(name, generateName)
}

func (n *normalizer) str(s string) string {
	if _, err := time.Parse(time.RFC3339, s); err == nil {
		return "<time>"
	}
	if _, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return "<time>"
	}
	if ip := net.ParseIP(s); ip != nil {
		return ipRole(ip)
	}
	for _, k := range n.ordered {
		if strings.Contains(s, k) {
			s = strings.ReplaceAll(s, k, n.names[k])
		}
	}
	s = strings.ReplaceAll(s, n.ns, "default")
	s = rejectedPod.ReplaceAllString(s, "${1}xxxxx${2}")
	s = uidRE.ReplaceAllString(s, "<uid>")
	return apiAccess.ReplaceAllString(s, "kube-api-access-xxxxx")
}

func ipRole(ip net.IP) string {
	switch {
	case ip.IsLoopback():
		return "<nodeIP>"
	case ip.To4() != nil && ip.To4()[0] == 10 && ip.To4()[1] == 244:
		return "<podIP>"
	case ip.To4() != nil && ip.To4()[0] == 10 && ip.To4()[1] >= 96 && ip.To4()[1] < 112:
		return "<clusterIP>"
	}
	return "<IP>"
}

// dropKeys are removed wherever they appear: they differ in every run and
// say nothing about behaviour.
var dropKeys = map[string]bool{"managedFields": true, "resourceVersion": true, "selfLink": true}

func (n *normalizer) walk(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, val := range x {
			switch {
			case dropKeys[k]:
			case k == "uid":
				out[k] = "<uid>"
			default:
				out[n.str(k)] = n.walk(val)
			}
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = n.walk(e)
		}
		return out
	case string:
		return n.str(x)
	}
	return v
}

func (n *normalizer) object(v any) any { return n.walk(v) }

// event turns the creation of an Event (either API) into an event.
func (n *normalizer) event(ev auditEvent) (event, bool) {
	if ev.Verb != "create" || ev.ObjectRef.Resource != "events" || len(ev.RequestObject) == 0 {
		return event{}, false
	}
	var o struct {
		Type, Reason, Message, Note string
		InvolvedObject, Regarding   struct{ Kind, Name string }
		Source                      struct{ Component string }
		ReportingController         string
	}
	if json.Unmarshal(ev.RequestObject, &o) != nil {
		return event{}, false
	}
	e := event{API: "v1", Type: o.Type, Reason: o.Reason, Message: o.Message,
		Object: o.InvolvedObject.Kind + "/" + o.InvolvedObject.Name, Source: o.Source.Component}
	if ev.ObjectRef.APIGroup == "events.k8s.io" {
		e = event{API: "events.k8s.io/v1", Type: o.Type, Reason: o.Reason, Message: o.Note,
			Object: o.Regarding.Kind + "/" + o.Regarding.Name, Source: o.ReportingController}
	}
	e.Message = workerRE.ReplaceAllString(n.str(e.Message), "<node>")
	e.Object = n.str(e.Object)
	return e, true
}

func canon(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func sortObjects(objs []any) {
	key := func(o any) string {
		m, _ := o.(map[string]any)
		md, _ := m["metadata"].(map[string]any)
		return fmt.Sprint(m["kind"], "/", md["name"], " ", canon(o))
	}
	sort.SliceStable(objs, func(i, j int) bool { return key(objs[i]) < key(objs[j]) })
}

// recordDryRun runs every corpus file through the server's dry run.
func recordDryRun(ctx context.Context, c *cluster, corpus string) (map[string]*dryRun, error) {
	files, err := corpusFiles(corpus)
	if err != nil {
		return nil, err
	}
	// namespaced objects need their namespace to exist; a dry run creates none
	nsRE := regexp.MustCompile(`(?m)^\s+namespace:\s*"?([a-z0-9-]+)"?\s*$`)
	seen := map[string]bool{"default": true}
	for _, f := range files {
		b, _ := os.ReadFile(filepath.Join(corpus, f))
		for _, m := range nsRE.FindAllStringSubmatch(string(b), -1) {
			if !seen[m[1]] {
				seen[m[1]] = true
				c.kubectlErr(ctx, nil, "create", "namespace", m[1])
				if c.apiOnly {
					if err := c.ensureServiceAccount(ctx, m[1]); err != nil {
						return nil, err
					}
				}
			}
		}
	}
	out := map[string]*dryRun{}
	n := &normalizer{ns: "\x00no-namespace\x00", names: map[string]string{}}
	for _, f := range files {
		path := filepath.Join(corpus, f)
		stdout, stderr, err := c.kubectlErr(ctx, nil, "apply", "--dry-run=server", "-o", "json", "-f", path)
		dr := &dryRun{}
		if err != nil {
			if ee, ok := err.(*exec.ExitError); ok {
				dr.Exit = ee.ExitCode()
			} else {
				return nil, err
			}
		}
		dec := json.NewDecoder(bytes.NewReader(stdout))
		for {
			var v map[string]any
			if dec.Decode(&v) != nil {
				break
			}
			if v["kind"] == "List" {
				items, _ := v["items"].([]any)
				for _, it := range items {
					dr.Objects = append(dr.Objects, n.object(it))
				}
				continue
			}
			dr.Objects = append(dr.Objects, n.object(v))
		}
		for _, l := range strings.Split(strings.TrimSpace(string(stderr)), "\n") {
			if l = strings.TrimSpace(l); l != "" {
				dr.Errors = append(dr.Errors, strings.ReplaceAll(l, path, f))
			}
		}
		out[f] = dr
	}
	return out, nil
}

func corpusFiles(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		if !e.IsDir() && e.Name() != "SOURCES.md" {
			out = append(out, e.Name())
		}
	}
	sort.Strings(out)
	return out, nil
}
