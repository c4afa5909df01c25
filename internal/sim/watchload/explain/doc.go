package explain

import (
	"github.com/k8sexplain/k8sexplain/internal/k8sversion"
	"math"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/report"
	"github.com/k8sexplain/k8sexplain/internal/sim/watchload"
)

// Doc turns a run into the report `trace watch` prints.
func Doc(r *watchload.Result, lang string) *report.Doc {
	c := For(lang)
	cfg := r.Config
	d := &report.Doc{Title: c.F("title", c.N(int64(cfg.Controllers), "n.controller"), c.N(int64(cfg.Pods), "n.pod"),
		c.N(int64(cfg.Nodes), "n.node"), c.Dur(cfg.Duration))}
	d.P(c.F("modelled", k8sversion.MinorString))
	d.P(c.F("intro"))
	sizes(d, c, r)
	designs(d, c, r)
	run(d, c, r)
	change(d, c, r)
	throttling(d, c, r)
	memory(d, c, r)
	protect(d, c, r)
	sources(d, c, r)
	d.Sequence = sequence(c, r)
	d.Data = r
	return d
}

func sizes(d *report.Doc, c *Catalogue, r *watchload.Result) {
	s, cfg := r.Sizes, r.Config
	d.H(1, c.F("sizes.title"))
	d.P(c.F("sizes.how"))
	podRange := c.Bytes(s.Pod)
	if s.PodMin != s.PodMax {
		podRange += " (" + c.Int(s.PodMin) + "–" + c.Bytes(s.PodMax) + ")"
	}
	d.T(&report.Table{
		Header: []string{c.F("sizes.object"), c.F("sizes.json")},
		Right:  []bool{false, true},
		Rows: [][]string{
			{c.F("sizes.pod"), podRange},
			{c.F("sizes.node"), c.Bytes(s.Node)},
			{c.F("sizes.podlist", c.Int(int64(cfg.Pods))), c.Bytes(s.PodList)},
			{c.F("sizes.nodelist", c.Int(int64(cfg.Nodes))), c.Bytes(s.NodeList)},
			{c.F("sizes.podevent"), c.Bytes(s.PodEvent)},
			{c.F("sizes.nodeevent"), c.Bytes(s.NodeEvent)},
			{c.F("sizes.bookmark"), c.Bytes(s.Bookmark)},
			{c.F("sizes.podstream", c.Int(int64(cfg.Pods))), c.Bytes(s.PodStream)},
			{c.F("sizes.nodestream", c.Int(int64(cfg.Nodes))), c.Bytes(s.NodeStream)},
		},
	})
	d.P(c.F("sizes.serve", c.Bytes(watchload.ServeRate)+c.F("unit.perSec"), c.Int(int64(cfg.Pods)), c.Dur(r.ListTime), c.Dur(r.NodeListTime)))
}

func designs(d *report.Doc, c *Catalogue, r *watchload.Result) {
	cfg := r.Config
	d.H(1, c.F("designs.title"))
	d.L(c.F("designs.poll", c.Dur(cfg.PollInterval)),
		c.F("designs.informer"),
		c.F("designs.streaming"),
		c.F("designs.both", c.N(int64(cfg.Controllers), "n.controller")))
}

func run(d *report.Doc, c *Catalogue, r *watchload.Result) {
	p, i, st, dur := r.Polling, r.Informer, r.Streaming, r.Config.Duration
	d.H(1, c.F("run.title", c.Dur(dur)))
	perSec := func(n int) string { return c.Dec(float64(n)/dur.Seconds(), 1) }
	pair := func(a, b int) string { return c.Int(int64(a)) + " / " + c.Int(int64(b)) }
	peak := func(x watchload.Design) string { return c.Int(int64(x.PeakLists)) + " / " + c.Bytes(x.PeakBytes) }
	row := func(key, a, b, s string) []string { return []string{c.F(key), a, b, s} }
	d.T(&report.Table{
		Header: []string{"", c.F("design.poll"), c.F("design.informer"), c.F("design.streaming")},
		Right:  []bool{false, true, true, true},
		Rows: [][]string{
			row("run.requests", c.Int(int64(p.Requests)), c.Int(int64(i.Requests)), c.Int(int64(st.Requests))),
			row("run.rps", perSec(p.Requests), perSec(i.Requests), perSec(st.Requests)),
			row("run.lists", pair(p.PodLists, p.NodeLists), pair(i.PodLists, i.NodeLists), pair(st.PodLists, st.NodeLists)),
			row("run.watches", c.Int(int64(p.Watches)), c.Int(int64(i.Watches)), c.Int(int64(st.Watches))),
			row("run.events", c.Int(int64(p.Events)), c.Int(int64(i.Events)), c.Int(int64(st.Events))),
			row("run.initial", c.Int(int64(p.InitialEvents)), c.Int(int64(i.InitialEvents)), c.Int(int64(st.InitialEvents))),
			row("run.encoded", c.Bytes(p.Encoded), c.Bytes(i.Encoded), c.Bytes(st.Encoded)),
			row("run.encodedRate", c.Rate(p.Encoded, dur), c.Rate(i.Encoded, dur), c.Rate(st.Encoded, dur)),
			row("run.sent", c.Bytes(p.Sent), c.Bytes(i.Sent), c.Bytes(st.Sent)),
			row("run.throttled", c.Int(int64(p.Throttled)), c.Int(int64(i.Throttled)), c.Int(int64(st.Throttled))),
			row("run.peak", peak(p), peak(i), peak(st)),
			row("run.mean", c.Bytes(p.MeanBytes), c.Bytes(i.MeanBytes), c.Bytes(st.MeanBytes)),
		},
	})
	d.P(c.F("run.read", c.N(int64(i.PodLists), "n.time"), c.N(int64(p.PodLists), "n.time"), ratio(c, p.Encoded, i.Encoded)))
	nodes := int64(r.Config.Nodes)
	perMin := float64(nodes) * float64(time.Minute) / float64(watchload.NodeStatusReport)
	perMinText := c.Int(int64(math.Round(perMin)))
	if perMin < 10 && perMin != math.Trunc(perMin) {
		perMinText = c.Dec(perMin, 1)
	}
	d.P(c.F("run.events2", c.N(nodes, "n.node"), perMinText))
	d.H(2, c.F("timeline.title", c.Dur(dur/watchload.Slices)))
	var top int64
	for k := range p.Timeline {
		top = max(top, p.Timeline[k].Sent, i.Timeline[k].Sent, st.Timeline[k].Sent)
	}
	// The unit follows the largest slice, so small runs do not print 0 MB.
	unit, div := "unit.MB", 1e6
	switch {
	case top < 10e3:
		unit, div = "unit.B", 1
	case top < 10e6:
		unit, div = "unit.kB", 1e3
	}
	scale := func(n int64) float64 { return math.Round(float64(n) / div) }
	bars := &report.Bars{Unit: c.F(unit)}
	for k := range p.Timeline {
		from, to := p.Timeline[k].From, p.Timeline[k].From+dur/watchload.Slices
		span := c.F("timeline.span", c.Secs(from), c.Secs(to))
		bars.Rows = append(bars.Rows,
			report.Bar{Label: span + "  " + c.F("design.poll"), Value: scale(p.Timeline[k].Sent)},
			report.Bar{Label: span + "  " + c.F("design.informer"), Value: scale(i.Timeline[k].Sent)},
			report.Bar{Label: span + "  " + c.F("design.streaming"), Value: scale(st.Timeline[k].Sent)})
	}
	d.B(bars)
}

// ratio writes a/b with its noun: "47 times", "в 4,5 раза".
func ratio(c *Catalogue, a, b int64) string {
	v := float64(a) / float64(max(b, 1))
	if v >= 10 {
		return c.N(int64(math.Round(v)), "n.time")
	}
	// A fraction takes the second form in Russian (4,5 раза); in English
	// the plural (CLDR: a non-integer is "other" in English, "few" here).
	return c.F("n.time.frac", c.Dec(v, 1))
}

func change(d *report.Doc, c *Catalogue, r *watchload.Result) {
	p, i := r.Polling, r.Informer
	d.H(1, c.F("change.title", c.Dur(r.ChangeAt)))
	row := func(name string, x watchload.Design, how string) []string {
		return []string{name, c.Dur(x.NoticeMin), c.Dur(x.NoticeMean), c.Dur(x.NoticeMax), how}
	}
	d.T(&report.Table{
		Header: []string{"", c.F("change.first"), c.F("change.mean"), c.F("change.last"), c.F("change.how")},
		Right:  []bool{false, true, true, true, false},
		Rows: [][]string{
			row(c.F("design.poll"), p, c.F("change.how.poll")),
			row(c.F("design.informer"), i, c.F("change.how.informer")),
			row(c.F("design.streaming"), r.Streaming, c.F("change.how.streaming")),
		},
	})
	if p.Throttled == 0 {
		d.P(c.F("change.poll", c.Dur(r.Config.PollInterval), c.Dur(r.ListTime), c.Dur(r.NodeListTime),
			c.Dur(r.LoopTime()), c.Dur(r.LoopTime()/2), c.Dur(r.ExpectedNotice()), c.Dur(p.NoticeMean)))
	} else {
		d.P(c.F("change.poll.throttled", c.Dur(r.ExpectedNotice()), c.Dur(p.NoticeMean)))
	}
	d.P(c.F("change.informer", c.Dur(r.WatchLatency), c.Bytes(r.Sizes.PodEvent), c.N(int64(r.Config.Controllers), "n.watch")))
}

func throttling(d *report.Doc, c *Catalogue, r *watchload.Result) {
	p, cfg := r.Polling, r.Config
	d.H(1, c.F("throttle.title"))
	d.P(c.F("throttle.what", c.Dec(watchload.ClientQPS, 0), c.Int(watchload.ClientBurst)))
	perCtl := float64(p.Requests) / cfg.Duration.Seconds() / float64(cfg.Controllers)
	if p.Throttled == 0 {
		d.P(c.F("throttle.no", c.Dur(r.LoopTime()), c.Dec(perCtl, 1), c.Dec(watchload.ClientQPS, 0)))
	} else {
		d.Styled("warn", c.F("throttle.yes", c.Int(int64(p.Throttled)), c.Int(int64(p.Requests)), c.Dur(p.ThrottleWait),
			c.Dur((p.ThrottleWait/time.Duration(p.Throttled)).Round(time.Millisecond)),
			c.Dec(perCtl, 1), c.Dur(cfg.PollInterval)))
	}
	d.P(c.F("throttle.cap", c.Int(int64(cfg.Controllers)), c.Int(int64(cfg.Controllers)*watchload.ClientQPS),
		c.Int(int64(cfg.Pods)), c.Dec(watchload.ControllerManagerQPS, 0), c.Int(watchload.ControllerManagerBurst)))
	d.P(c.F("throttle.informer", c.Int(watchload.ClientBurst)))
}

func memory(d *report.Doc, c *Catalogue, r *watchload.Result) {
	p, i, dur := r.Polling, r.Informer, r.Config.Duration
	d.H(1, c.F("memory.title"))
	d.P(c.F("memory.model"))
	d.P(c.F("memory.poll", c.Bytes(p.MeanBytes), c.Bytes(p.PeakBytes), c.Int(int64(p.PeakLists)), c.Rate(p.Encoded, dur)))
	d.P(c.F("memory.informer", c.Bytes(i.PeakBytes), c.Int(int64(i.PeakLists)), c.Bytes(i.MeanBytes)))
	st := r.Streaming
	d.P(c.F("memory.streamed", c.Bytes(st.PeakBytes), c.Int(int64(st.PeakLists)), c.Bytes(st.Encoded), c.Bytes(i.Encoded)))
	d.P(c.F("memory.streaming"))
}

func protect(d *report.Doc, c *Catalogue, r *watchload.Result) {
	d.H(1, c.F("protect.title"))
	d.L(c.F("protect.cache"),
		c.F("protect.consistent", c.Int(int64(r.Config.Pods))),
		c.F("protect.bookmarks", c.Bytes(r.Sizes.Bookmark)),
		c.F("protect.gone"),
		c.F("protect.apf"))
}

func sources(d *report.Doc, c *Catalogue, r *watchload.Result) {
	d.H(1, c.F("sources.title"))
	d.L(c.F("sources.qps"), c.F("sources.reflector"), c.F("sources.cacher"), c.F("sources.kubelet"),
		c.F("sources.assumed", c.Bytes(watchload.ServeRate)+c.F("unit.perSec"), c.Dur(r.WatchLatency)),
		c.F("sources.left"))
}

func sequence(c *Catalogue, r *watchload.Result) *report.Sequence {
	s, cfg, p := r.Sizes, r.Config, r.Polling
	msg := func(from, to, text string, reply bool) report.Message {
		return report.Message{From: from, To: to, Text: text, Reply: reply}
	}
	note := func(over, text string) report.Message { return report.Message{From: over, Text: text, Note: true} }
	return &report.Sequence{
		Participants: []report.Participant{
			{ID: "poller", Label: c.F("seq.loop")},
			{ID: "api", Label: c.F("seq.api")},
			{ID: "inf", Label: c.F("seq.informer")},
		},
		Messages: []report.Message{
			{Section: true, Text: c.F("seq.start")},
			msg("poller", "api", "LIST /api/v1/pods", false),
			msg("api", "poller", c.F("seq.podlist", c.Int(int64(cfg.Pods)), c.Bytes(s.PodList)), true),
			msg("poller", "api", "LIST /api/v1/nodes", false),
			msg("api", "poller", c.F("seq.nodelist", c.Int(int64(cfg.Nodes)), c.Bytes(s.NodeList)), true),
			note("poller", c.F("seq.again", c.Dur(cfg.PollInterval), c.Int(int64(p.PodLists)), c.Dur(cfg.Duration))),
			msg("inf", "api", "LIST /api/v1/pods?resourceVersion=0", false),
			msg("api", "inf", c.F("seq.podlist.rv", c.Int(int64(cfg.Pods)), c.Bytes(s.PodList)), true),
			msg("inf", "api", "WATCH /api/v1/pods?resourceVersion=N&allowWatchBookmarks=true", false),
			{Section: true, Text: c.F("seq.change", c.Dur(r.ChangeAt))},
			msg("api", "inf", c.F("seq.event", c.Bytes(s.PodEvent), c.Dur(r.Informer.NoticeMean)), true),
			msg("poller", "api", c.F("seq.nextlist"), false),
			msg("api", "poller", c.F("seq.seen", c.Dur(p.NoticeMean)), true),
			note("inf", c.F("seq.resync")),
		},
	}
}
