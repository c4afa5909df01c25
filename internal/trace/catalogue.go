package trace

// Entry is the text of one step kind in one language: Msg is the one-line
// account with {field} placeholders; Explain is the explanation shown the
// first time the kind appears, written for someone preparing for a senior
// interview.
type Entry struct {
	Msg     string
	Explain string
}

// Lookup returns the catalogue entry of kind in lang (en when lang is
// unknown; a placeholder naming the kind when the kind is unknown, which
// the catalogue test forbids).
func Lookup(lang, kind string) Entry {
	cat := catalogueEN
	if lang == "ru" {
		cat = catalogueRU
	}
	if e, ok := cat[kind]; ok {
		return e
	}
	return Entry{Msg: kind}
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
	if lang == "ru" {
		return uiRU
	}
	return uiEN
}

// word translates a table title or header key.
func word(lang, key string) string {
	w := wordsEN
	if lang == "ru" {
		w = wordsRU
	}
	if v, ok := w[key]; ok {
		return v
	}
	return key
}
