package explain

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/report"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	"k8s.io/apimachinery/pkg/util/duration"
)

// clockRE is a time as the trace prints it (trace.Clock): mm:ss.mmm.
var clockRE = regexp.MustCompile(`^(\d{1,3}):([0-5]\d)\.(\d{3})$`)

// StateAt is the cluster at one moment of the trace, as `kubectl get -A`
// would list it: at is a time as the trace prints it (00:01.500, since
// the story began) or a step number (the n-th step shown, as the HTML
// page numbers them, s1 to sN). The tables are replayed from the run's
// state log; a step's own changes are marked. A bad at is an error naming
// what --at accepts.
func StateAt(tr *trace.Trace, o Options, at string) (*report.Doc, error) {
	if tr.State == nil {
		return nil, fmt.Errorf("--at: this run kept no record of the cluster's state")
	}
	u := uiFor(o.Lang)
	m := func(key string) string { s, _ := trace.Texts(o.Lang).Msg("ui." + key); return s }
	groups, _ := sections(tr, o.Verbose, u)
	var shown []trace.Step
	for _, g := range groups {
		shown = append(shown, g...)
	}
	d := &report.Doc{}
	var n, from int
	var now time.Duration // the moment, on the run's clock (for AGE)
	if k, err := strconv.Atoi(at); err == nil {
		if k < 1 || k > len(shown) {
			return nil, fmt.Errorf("--at %s: no such step; this trace shows steps 1 to %d", at, len(shown))
		}
		st := player(tr, shown).Steps[k-1]
		n, from, now = st.N, st.P, shown[k-1].At
		d.Title = subst(m("stateAtStep"), "time", trace.Clock(now-tr.Start), "step", strconv.Itoa(k),
			"steps", strconv.Itoa(len(shown)), "command", tr.Command)
		d.Styled("note", m("stateNote"))
	} else {
		mm := clockRE.FindStringSubmatch(at)
		if mm == nil {
			return nil, fmt.Errorf("--at %q: want a time as the trace prints it (00:01.500) or a step number (1 to %d)", at, len(shown))
		}
		now = tr.Start + parseClock(mm)
		n = tr.State.UptoTime(now)
		from = n
		d.Title = subst(m("stateAtTime"), "time", trace.Clock(now-tr.Start), "command", tr.Command)
		d.Styled("note", m("stateNoteTime"))
	}
	if tr.State.Dropped > 0 && n >= len(tr.State.Changes) {
		d.Styled("warn", subst(m("stateDropped"), "n", strconv.Itoa(tr.State.Dropped)))
	}
	rows := tr.State.Upto(n, from)
	for _, kind := range trace.StateKinds {
		t := &report.Table{}
		namespaced := false
		for _, r := range rows {
			if r.Kind == kind.Kind && !r.Gone && strings.Contains(r.Name, "/") && slices.Contains(kind.Header, "NAME") {
				namespaced = true
			}
		}
		if namespaced {
			t.Header = append([]string{"NAMESPACE"}, kind.Header...)
		} else {
			t.Header = append([]string{}, kind.Header...)
		}
		for _, r := range rows {
			if r.Kind != kind.Kind || r.Gone { // kubectl lists no deleted object
				continue
			}
			var cells []string
			ns, name, ok := strings.Cut(r.Name, "/")
			if !ok {
				ns, name = "", r.Name
			}
			if namespaced {
				cells = append(cells, ns)
			}
			for i, h := range kind.Header {
				switch {
				case h == "NAME":
					cells = append(cells, name)
				case h == "AGE":
					cells = append(cells, duration.HumanDuration(now-r.Created)) // kubectl's AGE
				case h == "RESTARTS" && r.Restarted != 0 && i < len(r.Cols) && r.Cols[i] != "0":
					// printPod: "%d (%s ago)" from the last restart's finishedAt.
					cells = append(cells, r.Cols[i]+" ("+duration.HumanDuration(now-r.Restarted)+" ago)")
				case i < len(r.Cols):
					cells = append(cells, r.Cols[i])
				}
			}
			t.Rows = append(t.Rows, cells)
			t.Highlight = append(t.Highlight, r.Changed)
		}
		if len(t.Rows) > 0 {
			d.H(1, kind.TableTitle())
			d.T(t)
		}
	}
	return d, nil
}

func parseClock(mm []string) time.Duration {
	min, _ := strconv.Atoi(mm[1])
	sec, _ := strconv.Atoi(mm[2])
	milli, _ := strconv.Atoi(mm[3])
	return time.Duration(min)*time.Minute + time.Duration(sec)*time.Second + time.Duration(milli)*time.Millisecond
}
