package cmd

import (
	"fmt"
	"strings"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/iostreams"
	"github.com/k8sexplain/k8sexplain/internal/l10n"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	"github.com/spf13/cobra"
)

// progressDelay is how long a run stays silent before it reports
// progress; progressEvery is how often the line is redrawn after that
// (counting the pods costs a pass over them, so it is done only then).
const (
	progressDelay = time.Second
	progressEvery = 200 * time.Millisecond
)

// progress returns the sim.Config.Progress of a run and a function that
// clears the line when the run is over. It reports only on a terminal
// stderr and only after progressDelay of wall time, so short runs, pipes,
// CI logs and golden files never see it: one line, rewritten in place,
// with the virtual time, pods Running and an estimate of the time left.
func progress(io *iostreams.Streams, lang string) (func(now time.Duration, count func() (running, pods int)), func()) {
	if io == nil || !io.ErrTTY {
		return nil, func() {}
	}
	start := time.Now()
	shown := false
	var last time.Duration
	report := func(now time.Duration, count func() (running, pods int)) {
		el := time.Since(start)
		if el < progressDelay || (shown && el-last < progressEvery) {
			return
		}
		last = el
		running, pods := count()
		shown = true
		fmt.Fprint(io.ErrOut, "\r\x1b[K"+progressLine(lang, now, running, pods, el))
	}
	done := func() {
		if shown {
			fmt.Fprint(io.ErrOut, "\r\x1b[K")
			shown = false
		}
	}
	return report, done
}

// progressLine is "simulating: 00:12.345 virtual, 812 of 3,000 pods
// Running, about 4s left" (the estimate assumes pods keep starting at the
// rate so far).
func progressLine(lang string, now time.Duration, running, pods int, elapsed time.Duration) string {
	var b strings.Builder
	b.WriteString(trace.T(lang, "ui.progress", trace.Clock(now), l10n.Num(running), l10n.Num(pods)))
	if running > 0 && running < pods {
		eta := (elapsed * time.Duration(pods-running) / time.Duration(running)).Round(time.Second)
		b.WriteString(trace.T(lang, "ui.progressLeft", eta))
	}
	return b.String()
}

// pagedCommands are the commands whose output goes through the pager on
// a terminal; the quiz's interactive session and the completion scripts
// never do.
var pagedCommands = []string{"k8sexplain trace", "k8sexplain dnat", "k8sexplain quorum", "k8sexplain grpc-skew", "k8sexplain quiz list", "k8sexplain quiz stats"}

// startPager pages the output of cmd on a terminal.
func startPager(cmd *cobra.Command, f *Factory) {
	if f.IO == nil {
		return
	}
	p := cmd.CommandPath()
	for _, c := range pagedCommands {
		if p == c || strings.HasPrefix(p, c+" ") {
			f.IO.StartPager()
			return
		}
	}
}
