package quiz

import (
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
)

var kebab = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// SeeCommands are the k8sexplain subcommands a `see:` line may name.
var SeeCommands = []string{"trace", "quorum", "dnat", "grpc-skew", "quiz"}

// Validate checks one question against the schema: both languages
// everywhere, a valid type, topic and difficulty, answer data consistent
// with the type, and a `see:` that starts like a real command line. It
// returns every problem found, each prefixed with the question's place.
func Validate(q *Question) []error {
	var errs []error
	bad := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s (%s): %s", q.File, q.ID, fmt.Sprintf(format, args...)))
	}
	if !kebab.MatchString(q.ID) {
		bad("id %q is not kebab-case", q.ID)
	}
	if !slices.Contains(Topics, q.Topic) {
		bad("topic %q is not one of %s", q.Topic, strings.Join(Topics, ", "))
	}
	if !slices.Contains(Difficulties, q.Difficulty) {
		bad("difficulty %q is not one of %s", q.Difficulty, strings.Join(Difficulties, ", "))
	}
	both := func(field string, t Text) {
		if strings.TrimSpace(t.En) == "" || strings.TrimSpace(t.Ru) == "" {
			bad("%s needs both en and ru", field)
		}
	}
	both("prompt", q.Prompt)
	both("explanation", q.Explanation)
	for i, c := range q.Choices {
		both(fmt.Sprintf("choices[%d]", i), Text{En: c.En, Ru: c.Ru})
		if c.Why != nil {
			both(fmt.Sprintf("choices[%d].why", i), *c.Why)
			if q.Type == Order {
				bad("choices[%d].why: order steps have no why", i)
			}
		}
	}
	if _, err := SplitCommandLine(q.See.Run); err != nil {
		bad("see.run: %v", err)
	}
	both("see.look", q.See.Look)
	if err := checkDocURL(q.See.Doc); err != nil {
		bad("see.doc: %v", err)
	}
	switch q.Type {
	case Single, Multi:
		if len(q.Choices) < 2 {
			bad("%s needs at least 2 choices", q.Type)
		}
		if q.Type == Single && len(q.Answer) != 1 {
			bad("single needs exactly one answer index, got %v", q.Answer)
		}
		if q.Type == Multi && len(q.Answer) < 1 {
			bad("multi needs at least one answer index")
		}
		seen := map[int]bool{}
		for _, a := range q.Answer {
			if a < 0 || a >= len(q.Choices) {
				bad("answer index %d out of range 0..%d", a, len(q.Choices)-1)
			}
			if seen[a] {
				bad("answer index %d repeated", a)
			}
			seen[a] = true
		}
	case Order:
		if len(q.Choices) < 3 {
			bad("order needs at least 3 steps")
		}
	case NumType:
		if q.Numeric == nil {
			bad("numeric needs numeric: {value, tolerance, unit}")
		} else if q.Numeric.Tolerance < 0 {
			bad("numeric tolerance must not be negative")
		}
	case TextAns:
		if len(q.Rubric) == 0 {
			bad("text needs a rubric")
		}
		for i, c := range q.Rubric {
			both(fmt.Sprintf("rubric[%d].name", i), c.Name)
			patterns := func(field string, w Words) {
				if len(w.En) == 0 || len(w.Ru) == 0 {
					bad("%s needs patterns in both en and ru", field)
				}
				for _, s := range append(append([]string{}, w.En...), w.Ru...) {
					if _, err := parsePattern(s); err != nil {
						bad("%s: %v", field, err)
					}
				}
			}
			patterns(fmt.Sprintf("rubric[%d].says", i), c.Says)
			for j, m := range c.Wrong {
				both(fmt.Sprintf("rubric[%d].wrong[%d].name", i, j), m.Name)
				patterns(fmt.Sprintf("rubric[%d].wrong[%d].says", i, j), m.Says)
			}
		}
		if q.Pass < 0 || q.Pass > len(q.Rubric) {
			bad("pass %d out of range 0..%d", q.Pass, len(q.Rubric))
		}
	default:
		bad("type %q is not one of %s", q.Type, strings.Join(Types, ", "))
	}
	if q.Type != Single && q.Type != Multi && len(q.Answer) > 0 {
		bad("answer is only for single and multi")
	}
	if q.Type != Single && q.Type != Multi && q.Type != Order && len(q.Choices) > 0 {
		bad("choices are only for single, multi and order")
	}
	if q.Type != NumType && q.Numeric != nil {
		bad("numeric is only for numeric questions")
	}
	if q.Type != TextAns && (len(q.Rubric) > 0 || q.Pass != 0) {
		bad("rubric and pass are only for text questions")
	}
	return errs
}

// SplitCommandLine splits a `see:` command line into words (single and
// double quotes group words) and checks it names k8sexplain and one of
// SeeCommands.
func SplitCommandLine(s string) ([]string, error) {
	var args []string
	var cur strings.Builder
	inWord := false
	var quote rune
	for _, r := range s {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == ' ' || r == '\t':
			if inWord {
				args = append(args, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("unterminated quote in %q", s)
	}
	if inWord {
		args = append(args, cur.String())
	}
	if len(args) < 2 || args[0] != "k8sexplain" {
		return nil, fmt.Errorf("%q does not start with k8sexplain <command>", s)
	}
	if !slices.Contains(SeeCommands, args[1]) {
		return nil, fmt.Errorf("%q: command %q is not one of %s", s, args[1], strings.Join(SeeCommands, ", "))
	}
	return args, nil
}

// DocHosts are the upstream sites a `see.doc` may link: Kubernetes,
// etcd, the Kubernetes and etcd GitHub organisations, gRPC, Envoy, the
// kernel's netfilter and the CNI and CRI specifications.
var DocHosts = []string{"kubernetes.io", "etcd.io", "github.com/kubernetes/", "github.com/kubernetes-sigs/",
	"github.com/etcd-io/", "github.com/containernetworking/", "grpc.io", "github.com/grpc/", "www.envoyproxy.io",
	"wiki.nftables.org", "raft.github.io"}

func checkDocURL(s string) error {
	u, err := url.Parse(s)
	if err != nil || u.Scheme != "https" || u.Host == "" {
		return fmt.Errorf("%q is not an https URL", s)
	}
	host := strings.ToLower(u.Host)
	for _, h := range DocHosts {
		site, prefix, inRepo := strings.Cut(h, "/")
		if host != site && (inRepo || !strings.HasSuffix(host, "."+site)) {
			continue // a host of its own (subdomains count), or exactly github.com
		}
		if !inRepo || strings.HasPrefix(u.Path, "/"+prefix) {
			return nil
		}
	}
	return fmt.Errorf("%q is not on an upstream site (%s)", s, strings.Join(DocHosts, ", "))
}
