package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"
)

// A scenario is what a user types against a fresh namespace, step by step.
// The simulator's comparison test (internal/oracle) replays the same steps.
type scenario struct {
	Name string
	// Nodes the cluster has before the first step (nil: the default cluster).
	Nodes []nodeSpec
	// Quiet is how long the namespace must see no write before a step is
	// over (0: settle's default).
	Quiet time.Duration
	Steps []step
}

type step struct {
	Name    string
	Command string // what a user would type, for the fixture and the docs
	run     func(ctx context.Context, c *cluster, ns string) error
}

func applyStep(file string) step {
	return step{Name: "apply", Command: "kubectl apply -f " + file, run: func(ctx context.Context, c *cluster, ns string) error {
		b, err := os.ReadFile(filepath.Join(repoRoot, file))
		if err != nil {
			return err
		}
		_, err = c.kubectl(ctx, intoNamespace(b, ns), "apply", "-n", ns, "-f", "-")
		return err
	}}
}

// namespaceDoc finds a kind: Namespace document's name.
var namespaceDoc = regexp.MustCompile(`(?m)^kind: Namespace[ \t]*$[\s\S]*?^  name: (\S+)[ \t]*$`)

// intoNamespace moves a manifest that brings its own Namespace (as
// examples/quota.yaml does) into the scenario's fresh namespace: the
// Namespace document is dropped and "namespace: NAME" becomes ns, so every
// scenario runs in one namespace, which the fixture calls default. The
// simulator's replay does the same (internal/oracle simrun.go).
func intoNamespace(manifest []byte, ns string) []byte {
	docs := regexp.MustCompile(`(?m)^---\s*$`).Split(string(manifest), -1)
	var keep []string
	var names []string
	for _, d := range docs {
		if m := namespaceDoc.FindStringSubmatch(d); m != nil {
			names = append(names, m[1])
			continue
		}
		keep = append(keep, d)
	}
	out := strings.Join(keep, "\n---\n")
	for _, n := range names {
		out = regexp.MustCompile(`(?m)^([ \t]*namespace: )`+regexp.QuoteMeta(n)+`[ \t]*$`).ReplaceAllString(out, "${1}"+ns)
	}
	return []byte(out)
}

func setImageStep(deploy, container, image string) step {
	return step{Name: "set-image", Command: fmt.Sprintf("kubectl set image deployment/%s %s=%s", deploy, container, image),
		run: func(ctx context.Context, c *cluster, ns string) error {
			_, err := c.kubectl(ctx, nil, "set", "image", "-n", ns, "deployment/"+deploy, container+"="+image)
			return err
		}}
}

func scaleStep(deploy string, n int) step {
	return step{Name: "scale", Command: fmt.Sprintf("kubectl scale deployment/%s --replicas=%d", deploy, n),
		run: func(ctx context.Context, c *cluster, ns string) error {
			_, err := c.kubectl(ctx, nil, "scale", "-n", ns, "deployment/"+deploy, fmt.Sprintf("--replicas=%d", n))
			return err
		}}
}

// deletePodStep deletes the pod that sorts first by name.
func deletePodStep() step {
	return step{Name: "delete-pod", Command: "kubectl delete pod <first pod>", run: func(ctx context.Context, c *cluster, ns string) error {
		out, err := c.kubectl(ctx, nil, "get", "pods", "-n", ns, "-o", "name")
		if err != nil {
			return err
		}
		names := strings.Fields(string(out))
		if len(names) == 0 {
			return fmt.Errorf("no pod to delete in %s", ns)
		}
		sort.Strings(names)
		_, err = c.kubectl(ctx, nil, "delete", "-n", ns, names[0], "--wait=false")
		return err
	}}
}

// drainStep runs kubectl drain on the node of the pod that sorts first by
// name (issue 28: the Eviction API, a PodDisruptionBudget's 429 and
// kubectl's retry). The scenario brings its own nodes (defaultNodes), so
// the cordoned node is replaced by a fresh one after it.
func drainStep(timeout string) step {
	return step{Name: "drain", Command: "kubectl drain <node of first pod> --ignore-daemonsets --timeout=" + timeout,
		run: func(ctx context.Context, c *cluster, ns string) error {
			_, node, err := c.firstPod(ctx, ns, "{.spec.nodeName}")
			if err != nil {
				return err
			}
			if node == "" {
				return fmt.Errorf("no bound pod to drain the node of in %s", ns)
			}
			// a drain that times out against the budget exits 1: that is
			// the scenario, not a failure of the recorder
			_, stderr, err := c.kubectlErr(ctx, nil, "drain", node, "--ignore-daemonsets", "--timeout="+timeout)
			if err != nil && !strings.Contains(string(stderr), "global timeout reached") {
				return fmt.Errorf("kubectl drain %s: %v: %s", node, err, stderr)
			}
			return nil
		}}
}

func controlPlaneOnly() []nodeSpec { return defaultNodes()[:1] }

var scenarios = []scenario{
	{Name: "apply-app", Steps: []step{applyStep("examples/app.yaml")}},
	{Name: "apply-init", Steps: []step{applyStep("examples/init.yaml")}},
	{Name: "apply-quota", Steps: []step{applyStep("examples/quota.yaml")}},
	{Name: "apply-tainted-nodes", Nodes: controlPlaneOnly(), Steps: []step{applyStep("examples/tainted-nodes.yaml")}},
	{Name: "apply-unschedulable", Steps: []step{applyStep("examples/unschedulable.yaml")}},
	{Name: "rollout-default", Steps: []step{applyStep("examples/app.yaml"), setImageStep("web", "web", "nginx:1.28")}},
	{Name: "rollout-surge", Steps: []step{applyStep("oracle/scenarios/surge.yaml"), setImageStep("web", "web", "nginx:1.28")}},
	{Name: "rollout-recreate", Steps: []step{applyStep("oracle/scenarios/recreate.yaml"), setImageStep("web", "web", "nginx:1.28")}},
	{Name: "delete-pod", Steps: []step{applyStep("examples/app.yaml"), deletePodStep()}},
	{Name: "scale-up", Steps: []step{applyStep("examples/app.yaml"), scaleStep("web", 5)}},
	{Name: "statefulset", Quiet: 6 * time.Second, Steps: []step{applyStep("oracle/scenarios/statefulset.yaml")}},
	{Name: "preemption", Steps: []step{applyStep("examples/preemption.yaml"), applyStep("oracle/scenarios/preemptor.yaml")}},
	{Name: "drain", Nodes: defaultNodes(), Steps: []step{applyStep("examples/app.yaml"), drainStep("60s")}},
	{Name: "drain-pdb", Nodes: defaultNodes(), Steps: []step{applyStep("examples/app.yaml"), applyStep("oracle/scenarios/pdb-all.yaml"), drainStep("12s")}},
	{Name: "quota", Steps: []step{applyStep("oracle/scenarios/quota-limits.yaml"), applyStep("oracle/scenarios/quota-app.yaml")}},
}

// firstPod is the name of the namespace's pod that sorts first and the
// value of field (a jsonpath such as {.spec.nodeName}) on it.
func (c *cluster) firstPod(ctx context.Context, ns, field string) (name, value string, err error) {
	out, err := c.kubectl(ctx, nil, "get", "pods", "-n", ns, "-o", `jsonpath={range .items[*]}{.metadata.name} `+field+`{"\n"}{end}`)
	if err != nil {
		return "", "", err
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	sort.Strings(lines)
	f := strings.Fields(lines[0])
	if len(f) == 0 {
		return "", "", fmt.Errorf("no pod in %s", ns)
	}
	if len(f) == 1 {
		return f[0], "", nil
	}
	return f[0], f[1], nil
}
