package trace

import (
	"fmt"
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/l10n"
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
// It is built on first use.
var catalogue = l10n.LazyCatalog(func() (en, ru map[string]string) {
	simEN, simRU := simEN(), simRU()
	return flatten(merged(simEN, withLiveExplanations(liveEN(), simEN)), uiEN(), liveUIEN(), liveWordsEN(), prefixed("word.", wordsEN()), prefixed("word.", autoscaleWordsEN()), prefixed("word.", statefulSetWordsEN()), scaleEN(), prefixed("phrase.", phrasesEN()), prefixed("phrase.", volumesPhrasesEN())),
		flatten(merged(simRU, withLiveExplanations(liveRU(), simRU)), uiRU(), liveUIRU(), liveWordsRU(), prefixed("word.", wordsRU()), prefixed("word.", autoscaleWordsRU()), prefixed("word.", statefulSetWordsRU()), scaleRU(), prefixed("phrase.", phrasesRU()), prefixed("phrase.", volumesPhrasesRU()))
})

// simEN and simRU are the simulator's step kinds: the catalogue files'
// and the scenarios' own (catalogue_autoscale.go, catalogue_statefulset.go,
// catalogue_webhook.go, catalogue_static.go, the volumes' and DNS hosts').
func simEN() map[string]Entry {
	return merged(merged(merged(catalogueEN(), autoscaleEN()), statefulSetEN()), merged(merged(merged(webhookEN(), staticEN()), applyModesEN()), merged(volumesEN(), dnsHostsEN())))
}
func simRU() map[string]Entry {
	return merged(merged(merged(catalogueRU(), autoscaleRU()), statefulSetRU()), merged(merged(merged(webhookRU(), staticRU()), applyModesRU()), merged(volumesRU(), dnsHostsRU())))
}

// merged adds the entries of more to steps (a key in both is a bug).
func merged(steps, more map[string]Entry) map[string]Entry {
	for k, e := range more {
		if _, dup := steps[k]; dup {
			panic("trace catalogue: kind " + k + " twice")
		}
		steps[k] = e
	}
	return steps
}

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
func Has(kind Kind) bool { return catalogue.Has("en", string(kind)) }

// Lookup returns the catalogue entry of kind in lang (en when lang is
// unknown; a placeholder naming the kind when the kind is unknown, which
// the catalogue test forbids).
func Lookup(lang string, kind Kind) Entry {
	msg, ok := catalogue.Msg(lang, string(kind))
	if !ok {
		return Entry{Msg: string(kind)}
	}
	ex, _ := catalogue.Msg(lang, "explain."+string(kind))
	return Entry{Msg: msg, Explain: ex}
}

// Explanation returns the explanation of s's kind in lang with its
// {field} placeholders filled from s (an explanation that depends on the
// run, such as the Score weights of the profile in use), "" when the kind
// has none.
func Explanation(lang string, s *Step) string {
	ex := Lookup(lang, s.Kind).Explain
	if ex == "" || !strings.Contains(ex, "{") {
		return ex
	}
	return fill(lang, ex, s)
}

// Text returns the rendered one-line message of s in lang.
func Text(lang string, s *Step) string { return fill(lang, Lookup(lang, s.Kind).Msg, s) }

// Texts is the catalogue bound to lang: package trace/explain reads the
// document's words from it (ui.*, table words word.*, the scale section
// scale.*).
func Texts(lang string) l10n.Texts { return catalogue.In(lang) }

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
