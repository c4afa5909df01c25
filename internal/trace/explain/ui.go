package explain

import (
	"fmt"

	"github.com/k8sexplain/k8sexplain/internal/trace"
)

// ui is the fixed text of a trace's document in one language, read from
// the trace catalogue (ui.*, scale.*): titles, section and summary labels,
// with {placeholders}.
type ui struct {
	Title, Builtin, Summary, AllReady, NotReady, Pending, Requests, WatchEvents, Revisions,
	Events, Dropped, Unmodeled, Failed, Component, Count, Timeline, Modelled, Latencies, MermaidCut, Lang string
	Phases [9]string
	// Stories are the titles of the other traces, by story name.
	Stories map[string]string
}

func uiFor(lang string) ui {
	m := func(key string) string { s, _ := trace.Texts(lang).Msg("ui." + key); return s }
	u := ui{
		Title: m("title"), Builtin: m("builtin"), Summary: m("summary"), AllReady: m("allReady"),
		NotReady: m("notReady"), Pending: m("pending"), Requests: m("requests"), WatchEvents: m("watchEvents"),
		Revisions: m("revisions"), Events: m("events"), Dropped: m("dropped"), Unmodeled: m("unmodeled"),
		Failed: m("failed"), Component: m("component"), Count: m("count"), Timeline: m("timeline"),
		Modelled: m("modelled"), Latencies: m("latencies"), MermaidCut: m("mermaidCut"), Lang: m("lang"),
		Stories: map[string]string{},
	}
	for i := 1; i < len(u.Phases); i++ {
		u.Phases[i] = m(fmt.Sprintf("phase.%d", i))
	}
	for _, story := range []string{"rollout", "delete", "crash", "node-failure", "drain", "preempt"} {
		u.Stories[story] = m("story." + story)
	}
	return u
}

// scaleUI is the text of the scale section, with {placeholders}.
type scaleUI struct {
	title, watch, bytes, sched, slices, proxy, sampled, steps, stepsAll, count string
}

func scaleFor(lang string) scaleUI {
	m := func(key string) string { s, _ := trace.Texts(lang).Msg("scale." + key); return s }
	return scaleUI{title: m("title"), watch: m("watch"), bytes: m("bytes"), sched: m("sched"), slices: m("slices"),
		proxy: m("proxy"), sampled: m("sampled"), steps: m("steps"), stepsAll: m("stepsAll"), count: m("count")}
}

// word translates a table title, header or cell that is a word of the
// catalogue (word.*); anything else (a name, a number, Kubernetes' own
// message) is returned as it is.
func word(lang, key string) string {
	if v, ok := trace.Texts(lang).Msg("word." + key); ok {
		return v
	}
	return key
}
