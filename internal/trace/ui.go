package trace

// UI is the fixed text of a trace's document in one language: titles,
// section and summary labels, with {placeholders}. Package trace/explain
// builds the document with it; the words live in this package's catalogue
// beside the step texts.
type UI struct {
	Title, Builtin, Summary, AllReady, NotReady, Pending, Requests, WatchEvents, Revisions,
	Events, Dropped, Unmodeled, Failed, Component, Count, Timeline, Modelled, Latencies, MermaidCut, Lang string
	Phases [9]string
	// Stories are the titles of the other traces, by story name.
	Stories map[string]string
}

// UIFor returns the document text in lang (English unless "ru").
func UIFor(lang string) UI {
	u := uiFor(lang)
	return UI{Title: u.title, Builtin: u.builtin, Summary: u.summary, AllReady: u.allReady, NotReady: u.notReady,
		Pending: u.pending, Requests: u.requests, WatchEvents: u.watchEvents, Revisions: u.revisions, Events: u.events,
		Dropped: u.dropped, Unmodeled: u.unmodeled, Failed: u.failed, Component: u.component, Count: u.count,
		Timeline: u.timeline, Modelled: u.modelled, Latencies: u.latencies, MermaidCut: u.mermaidCut, Lang: u.lang,
		Phases: u.phases, Stories: u.stories}
}

// Word translates a table title, header or cell key of the words table;
// anything else is returned as it is.
func Word(lang, key string) string { return word(lang, key) }
