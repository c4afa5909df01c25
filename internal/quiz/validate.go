package quiz

import (
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
)

var kebab = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`) })

// SeeCommands are the k8sexplain subcommands a `see:` line may name.
var SeeCommands = []string{"trace", "quorum", "dnat", "grpc-skew", "quiz"}

// Validate checks one question against the schema: both languages
// everywhere, a valid type, topic and difficulty, answer data consistent
// with the type (Kind.Validate, and only the answer fields the type uses),
// and a `see:` that starts like a real command line. It returns every
// problem found, each prefixed with the question's place.
func Validate(q *Question) []error {
	var errs []error
	bad := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s (%s): %s", q.File, q.ID, fmt.Sprintf(format, args...)))
	}
	if !kebab().MatchString(q.ID) {
		bad("id %q is not kebab-case", q.ID)
	}
	if !slices.Contains(Topics, q.Topic) {
		bad("topic %q is not one of %s", q.Topic, strings.Join(Topics, ", "))
	}
	if !slices.Contains(Difficulties, q.Difficulty) {
		bad("difficulty %q is not one of %s", q.Difficulty, strings.Join(Difficulties, ", "))
	}
	both := func(field string, t Text) { needBoth(bad, field, t) }
	both("prompt", q.Prompt)
	both("explanation", q.Explanation)
	for i, c := range q.Choices {
		both(fmt.Sprintf("choices[%d]", i), Text{En: c.En, Ru: c.Ru})
		if c.Why != nil {
			both(fmt.Sprintf("choices[%d].why", i), *c.Why)
		}
	}
	if _, err := SplitCommandLine(q.See.Run); err != nil {
		bad("see.run: %v", err)
	}
	both("see.look", q.See.Look)
	if q.See.Exit != 0 && q.See.Exit != 1 {
		bad("see.exit: %d; want 0 (success) or 1 (bad input: a refused request)", q.See.Exit)
	}
	if err := checkDocURL(q.See.Doc); err != nil {
		bad("see.doc: %v", err)
	}
	k := KindOf(q)
	k.Validate(q, bad)
	for _, f := range answerFields {
		if f.set(q) && !slices.Contains(k.About().Fields, f.name) {
			bad(f.only, usedBy(f.name))
		}
	}
	return errs
}

// needBoth reports field unless t is written in both languages.
func needBoth(bad func(string, ...any), field string, t Text) {
	if strings.TrimSpace(t.En) == "" || strings.TrimSpace(t.Ru) == "" {
		bad("%s needs both en and ru", field)
	}
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
