package oracle

import (
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// A Diff is one way the simulator differs from the recording.
type Diff struct {
	Check    string // hash, write-missing, write-extra, order, event-missing, event-extra, field, default, validation
	Scenario string // scenario name, or the corpus file for default/validation
	What     string // what the known-differences table matches against
	Detail   string // real versus simulated, for the failure message
}

func (d Diff) String() string {
	return fmt.Sprintf("%s %s: %s (%s)", d.Scenario, d.Check, d.What, d.Detail)
}

// Known is one entry of the known-differences table.
type Known struct {
	Check    string `json:"check"`
	Scenario string `json:"scenario"` // a scenario or corpus file; "*" for all
	Match    string `json:"match"`    // Diff.What; "*" matches any run of characters
	Reason   string `json:"reason"`
	re       *regexp.Regexp
}

func (k *Known) matches(d Diff) bool {
	if k.Check != d.Check {
		return false
	}
	if k.Scenario != "*" && k.Scenario != d.Scenario {
		return false
	}
	if k.re == nil {
		k.re = regexp.MustCompile("^" + strings.ReplaceAll(regexp.QuoteMeta(k.Match), `\*`, ".*") + "$")
	}
	return k.re.MatchString(d.What)
}

// UserMap is a known difference of identity: a real user name and the
// simulator's (with "*"), replaced before write classes are compared.
type UserMap struct {
	Real   string `json:"real"`
	Sim    string `json:"sim"`
	Reason string `json:"reason"`
}

// Table is known_differences.json.
type Table struct {
	Users       []UserMap `json:"users"`
	Differences []*Known  `json:"differences"`
	// Unseen are differences the oracle cannot record (a trace's own
	// story, a model's assumption): listed with their reason, matched
	// against nothing.
	Unseen []Unseen `json:"unseen"`
}

// Unseen is a known difference outside the oracle's recordings.
type Unseen struct {
	What   string `json:"what"`
	Reason string `json:"reason"`
}

// simUser maps a simulator user to the real one where the table says so.
func (t *Table) simUser(class string) string {
	for _, u := range t.Users {
		re := regexp.MustCompile("^" + strings.ReplaceAll(regexp.QuoteMeta(u.Sim), `\*`, "[^ ]*") + " ")
		if re.MatchString(class) {
			return re.ReplaceAllString(class, u.Real+" ")
		}
	}
	return class
}

// CompareScenario lists the differences between a recording and the
// simulator's run of it.
func CompareScenario(fx Fixture, run *SimRun, t *Table) []Diff {
	var out []Diff
	add := func(check, what, detail string) {
		out = append(out, Diff{Check: check, Scenario: fx.Scenario, What: what, Detail: detail})
	}
	// pod-template-hash: the ReplicaSet names, byte for byte
	realRS, simRS := rsNames(fx.Objects), rsNames(run.Objects)
	if strings.Join(realRS, ",") != strings.Join(simRS, ",") {
		add("hash", "ReplicaSet names", fmt.Sprintf("real %v, simulated %v", realRS, simRS))
	}
	for i, st := range fx.Steps {
		if i >= len(run.Steps) {
			break
		}
		ss := run.Steps[i]
		prefix := st.Name + ": "
		simFirst := map[string]int{}
		for j, c := range ss.Writes {
			c = t.simUser(c)
			if _, ok := simFirst[c]; !ok {
				simFirst[c] = j
			}
		}
		real := map[string]bool{}
		for _, w := range st.Writes {
			real[w.Class] = true
			if _, ok := simFirst[w.Class]; !ok {
				add("write-missing", prefix+w.Class, fmt.Sprintf("real: %d-%d times, simulated: never", w.Min, w.Max))
			}
		}
		for _, c := range st.Sometimes {
			real[c] = true
		}
		for _, c := range slices.Sorted(maps.Keys(simFirst)) {
			if !real[c] {
				add("write-extra", prefix+c, "the real components never wrote this")
			}
		}
		for _, p := range st.Order {
			a, okA := simFirst[p[0]]
			b, okB := simFirst[p[1]]
			if okA && okB && a > b {
				add("order", prefix+p[0]+" < "+p[1], "the simulator wrote them the other way round")
			}
		}
		simEv := map[string]bool{}
		for _, e := range ss.Events {
			simEv[eventKey(e)] = true
		}
		realEv := map[string]bool{}
		for _, e := range st.Events {
			k := eventKey(e.Event)
			realEv[k] = true
			if !simEv[k] {
				add("event-missing", prefix+k, "recorded from "+e.Source+" ("+e.API+")")
			}
		}
		for _, k := range slices.Sorted(maps.Keys(simEv)) {
			if !realEv[k] {
				add("event-extra", prefix+k, "the real components never sent it")
			}
		}
	}
	out = append(out, compareObjects("field", fx.Scenario, fx.Objects, run.Objects)...)
	return out
}

// eventKey is "Type Reason Kind/name: message".
func eventKey(e Event) string {
	return fmt.Sprintf("%s %s %s: %s", e.Type, e.Reason, e.Object, e.Message)
}

func rsNames(objs []any) []string {
	var out []string
	for _, o := range objs {
		m, _ := o.(map[string]any)
		if m["kind"] != "ReplicaSet" {
			continue
		}
		md, _ := m["metadata"].(map[string]any)
		if n, ok := md["name"].(string); ok {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// objKey is Kind/name; pods share names after normalization, so they are
// paired in their sorted order.
func objKey(o any) string {
	m, _ := o.(map[string]any)
	md, _ := m["metadata"].(map[string]any)
	return fmt.Sprint(m["kind"], "/", md["name"])
}

// compareObjects pairs objects by Kind/name and lists each field that
// differs as "Kind path" (list indexes dropped).
func compareObjects(check, scope string, real, simulated []any) []Diff {
	group := func(objs []any) map[string][]any {
		g := map[string][]any{}
		for _, o := range objs {
			g[objKey(o)] = append(g[objKey(o)], o)
		}
		return g
	}
	rg, sg := group(real), group(simulated)
	seen := map[string]bool{}
	var out []Diff
	add := func(what, detail string) {
		if !seen[what] {
			seen[what] = true
			out = append(out, Diff{Check: check, Scenario: scope, What: what, Detail: detail})
		}
	}
	for _, k := range slices.Sorted(maps.Keys(rg)) {
		kind, _, _ := strings.Cut(k, "/")
		rs, ss := rg[k], sg[k]
		if len(ss) == 0 {
			add(kind+" (object)", k+" exists only in the real cluster")
			continue
		}
		for i, r := range rs {
			s := ss[min(i, len(ss)-1)]
			diffValue(kind, "", r, s, add)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(sg)) {
		if len(rg[k]) == 0 {
			kind, _, _ := strings.Cut(k, "/")
			add(kind+" (object)", k+" exists only in the simulator")
		}
	}
	return out
}

func diffValue(kind, path string, r, s any, add func(what, detail string)) {
	if r == Varies {
		return
	}
	what := kind + " " + strings.TrimPrefix(path, ".")
	switch rv := r.(type) {
	case map[string]any:
		sv, ok := s.(map[string]any)
		if !ok {
			add(what, fmt.Sprintf("real %s, simulated %s", short(r), short(s)))
			return
		}
		for _, k := range slices.Sorted(maps.Keys(rv)) {
			if sv2, ok := sv[k]; ok {
				diffValue(kind, path+"."+k, rv[k], sv2, add)
			} else if !empty(rv[k]) && rv[k] != Varies { // absent in some runs: the simulator may leave it out
				add(kind+" "+strings.TrimPrefix(path+"."+k, "."), fmt.Sprintf("real %s, simulated: absent", short(rv[k])))
			}
		}
		for _, k := range slices.Sorted(maps.Keys(sv)) {
			if _, ok := rv[k]; !ok && !empty(sv[k]) {
				add(kind+" "+strings.TrimPrefix(path+"."+k, "."), fmt.Sprintf("real: absent, simulated %s", short(sv[k])))
			}
		}
	case []any:
		sv, ok := s.([]any)
		if !ok || len(sv) != len(rv) {
			add(what, fmt.Sprintf("real %s, simulated %s", short(r), short(s)))
			return
		}
		for i := range rv {
			diffValue(kind, path+"[]", rv[i], sv[i], add)
		}
	default:
		if fmt.Sprint(r) != fmt.Sprint(s) {
			add(what, fmt.Sprintf("real %s, simulated %s", short(r), short(s)))
		}
	}
}

// empty is what JSON's omitempty would leave out, and {} or [].
func empty(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case map[string]any:
		return len(x) == 0
	case []any:
		return len(x) == 0
	case string:
		return x == ""
	}
	return false
}

func short(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 120 {
		return string(b[:117]) + "..."
	}
	return string(b)
}

// Explain splits diffs into those the table explains and those it does
// not, and lists the table entries that explained nothing.
func (t *Table) Explain(diffs []Diff) (unexplained []Diff, used map[*Known][]Diff, stale []*Known) {
	used = map[*Known][]Diff{}
	for _, d := range diffs {
		ok := false
		for _, k := range t.Differences {
			if k.matches(d) {
				used[k] = append(used[k], d)
				ok = true
				break
			}
		}
		if !ok {
			unexplained = append(unexplained, d)
		}
	}
	for _, k := range t.Differences {
		if len(used[k]) == 0 {
			stale = append(stale, k)
		}
	}
	return unexplained, used, stale
}
