package trace

import (
	"fmt"
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/l10n"
	"github.com/k8sexplain/k8sexplain/internal/report"
)

// Entry is the text of one step kind in one language: Msg is the one-line
// account with {field} placeholders; Explain is the explanation shown the
// first time the kind appears, written for someone preparing for a senior
// interview. The catalogue files write a kind's two texts side by side;
// they are registered in the l10n.Catalog as kind and explain.kind.
type Entry struct {
	Msg     string
	Explain string
}

// catalogue holds every text of the package: step kinds (kind,
// explain.kind), the renderers' words (ui.*), table
// titles and headers (word.*), the scale section (scale.*) and the
// phrases field values are made of (phrase.*).
var catalogue = l10n.NewCatalog(
	flatten(catalogueEN, uiEN, prefixed("word.", wordsEN), scaleEN, prefixed("phrase.", phrasesEN)),
	flatten(catalogueRU, uiRU, prefixed("word.", wordsRU), scaleRU, prefixed("phrase.", phrasesRU)))

func prefixed(p string, m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[p+k] = v
	}
	return out
}

func flatten(steps map[string]Entry, more ...map[string]string) map[string]string {
	out := map[string]string{}
	put := func(k, v string) {
		if _, dup := out[k]; dup {
			panic(fmt.Sprintf("trace catalogue: key %s twice", k))
		}
		out[k] = v
	}
	for kind, e := range steps {
		put(kind, e.Msg)
		if e.Explain != "" {
			put("explain."+kind, e.Explain)
		}
	}
	for _, m := range more {
		for k, v := range m {
			put(k, v)
		}
	}
	return out
}

// T fills the catalogue's message key in lang (the command layer's texts
// about a trace, such as its progress line).
func T(lang, key string, args ...any) string { return catalogue.T(lang, key, args...) }

// Has reports whether kind has a text (in English; the catalogue test
// holds the languages to the same keys).
func Has(kind string) bool { return catalogue.Has("en", kind) }

// Lookup returns the catalogue entry of kind in lang (en when lang is
// unknown; a placeholder naming the kind when the kind is unknown, which
// the catalogue test forbids).
func Lookup(lang, kind string) Entry {
	msg, ok := catalogue.Msg(lang, kind)
	if !ok {
		return Entry{Msg: kind}
	}
	ex, _ := catalogue.Msg(lang, "explain."+kind)
	return Entry{Msg: msg, Explain: ex}
}

// Text returns the rendered one-line message of s in lang.
func Text(lang string, s *Step) string { return fill(lang, Lookup(lang, s.Kind).Msg, s) }

// UI strings of the renderers.
type ui struct {
	title, builtin, summary, allReady, notReady, pending, requests, watchEvents, revisions,
	events, dropped, unmodeled, failed, component, count, timeline, modelled, latencies, mermaidCut, lang string
	phases [9]string
	// stories are the titles of the other traces, by story name.
	stories map[string]string
}

func uiFor(lang string) ui {
	m := func(key string) string { s, _ := catalogue.Msg(lang, key); return s }
	u := ui{
		title: m("ui.title"), builtin: m("ui.builtin"), summary: m("ui.summary"), allReady: m("ui.allReady"),
		notReady: m("ui.notReady"), pending: m("ui.pending"), requests: m("ui.requests"), watchEvents: m("ui.watchEvents"),
		revisions: m("ui.revisions"), events: m("ui.events"), dropped: m("ui.dropped"), unmodeled: m("ui.unmodeled"),
		failed: m("ui.failed"), component: m("ui.component"), count: m("ui.count"), timeline: m("ui.timeline"),
		modelled: m("ui.modelled"), latencies: m("ui.latencies"), mermaidCut: m("ui.mermaidCut"), lang: m("ui.lang"),
		stories: map[string]string{},
	}
	for i := 1; i < len(u.phases); i++ {
		u.phases[i] = m(fmt.Sprintf("ui.phase.%d", i))
	}
	for _, story := range []string{"rollout", "delete", "crash", "node-failure"} {
		u.stories[story] = m("ui.story." + story)
	}
	return u
}

// scaleUI is the text of the scale section, with {placeholders}.
type scaleUI struct {
	title, watch, bytes, sched, slices, proxy, sampled, steps, stepsAll, count string
}

func scaleFor(lang string) scaleUI {
	m := func(key string) string { s, _ := catalogue.Msg(lang, "scale."+key); return s }
	return scaleUI{title: m("title"), watch: m("watch"), bytes: m("bytes"), sched: m("sched"), slices: m("slices"),
		proxy: m("proxy"), sampled: m("sampled"), steps: m("steps"), stepsAll: m("stepsAll"), count: m("count")}
}

// word translates a table title or header key.
func word(lang, key string) string {
	if v, ok := catalogue.Msg(lang, "word."+key); ok {
		return v
	}
	return key
}

// StepTable is a step's table in lang: the simulator writes its headers and
// verdicts as English words of the catalogue (word.*: "node", "fits"),
// which are translated here; names, plugin names, numbers and Kubernetes'
// own messages are not words of it and stay as they are. JSON keeps the
// table as recorded.
func StepTable(lang string, t *report.Table) *report.Table {
	if t == nil || lang == "en" {
		return t
	}
	out := *t
	out.Header = make([]string, len(t.Header))
	for i, h := range t.Header {
		out.Header[i] = word(lang, h)
	}
	out.Rows = make([][]string, len(t.Rows))
	for i, row := range t.Rows {
		out.Rows[i] = make([]string, len(row))
		for j, c := range row {
			out.Rows[i][j] = word(lang, c)
		}
	}
	return &out
}

// Phrase is a field value that is words, not data: a key of the
// catalogue's phrase.* messages with its arguments. English (JSON, the
// field lists) shows the English text; each language its own.
type Phrase struct {
	Key  string
	Args []any
}

// P makes a phrase of key (phrase.<key> in the catalogue).
func P(key string, args ...any) Phrase { return Phrase{Key: key, Args: args} }

// Localize writes the phrase in lang.
func (p Phrase) Localize(lang string) string {
	args := make([]any, len(p.Args))
	copy(args, p.Args)
	return catalogue.T(lang, "phrase."+p.Key, args...)
}

func (p Phrase) String() string { return p.Localize("en") }

// Phrases are field values written one after another with a separator.
type Phrases struct {
	Sep   string
	Items []any
}

// Localize writes every item in lang.
func (ps Phrases) Localize(lang string) string {
	out := make([]string, len(ps.Items))
	for i, it := range ps.Items {
		out[i] = l10n.Value(lang, it)
	}
	return strings.Join(out, ps.Sep)
}

func (ps Phrases) String() string { return ps.Localize("en") }
