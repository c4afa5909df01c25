package explain

import (
	"fmt"
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/l10n"
	"github.com/k8sexplain/k8sexplain/internal/render"
	"github.com/k8sexplain/k8sexplain/internal/report"
)

// MermaidMaxText is mermaid's default maxTextSize: a longer diagram is not
// drawn at all, only "Maximum text size in diagram exceeded" (mermaid's
// config schema, maxTextSize: 50000).
const MermaidMaxText = 50000

// mermaidSequence is the sequence diagram as --format mermaid (and the
// block in --format markdown) prints it, kept under MermaidMaxText:
// first the -v-only messages of a section fold into one arrow per kind of
// message with the count in its label; if that is still too long, every
// message with a kind folds so; if even that is too long, the diagram stops
// with a note that says how much was left out.
func mermaidSequence(page *report.Sequence, lang string) *report.Sequence {
	// Mermaid has no time axis: a step's time leads its label.
	full := &report.Sequence{Participants: page.Participants, Messages: make([]report.Message, len(page.Messages)), Untitled: true}
	for i, m := range page.Messages {
		if m.Time != "" {
			m.Text = m.Time + " " + m.Text
		}
		full.Messages[i] = m
	}
	var s *report.Sequence
	for _, all := range []bool{false, true} {
		s = &report.Sequence{Participants: full.Participants, Messages: summarise(full.Messages, all), Untitled: true}
		if mermaidLen(s) <= MermaidMaxText {
			return s
		}
	}
	// Keep the messages that fit, leaving room for the closing note: the
	// diagram is one line per participant and per message.
	var b strings.Builder
	_ = render.RenderSequence(&b, "", s)
	lines := strings.SplitAfter(b.String(), "\n")
	size, keep := 0, 0
	for i, l := range lines {
		size += len(l)
		if size > MermaidMaxText-400 {
			break
		}
		if i > len(s.Participants) {
			keep++
		}
	}
	msgs := s.Messages[:keep]
	left := len(s.Messages) - keep
	u := uiFor(lang)
	msgs = append(msgs, report.Message{Section: true, Text: l10n.Format(lang, u.MermaidCut, l10n.Vars{"n": left}.Lookup)})
	return &report.Sequence{Participants: s.Participants, Messages: msgs, Untitled: true}
}

func mermaidLen(s *report.Sequence) int {
	var b strings.Builder
	_ = render.RenderSequence(&b, "", s)
	return b.Len()
}

// summarise folds, within each section, the minor messages (or, with all,
// every message that has a kind) into one per kind, sender, receiver and
// arrow style, placed where the first of them was; a fold of several reads
// "first–last time kind ×N".
func summarise(msgs []report.Message, all bool) []report.Message {
	type key struct {
		kind, from, to string
		reply, note    bool
	}
	type fold struct {
		at, n int
		last  string
	}
	var out []report.Message
	var folds []*fold
	seen := map[key]*fold{}
	for _, m := range msgs {
		if m.Section {
			seen = map[key]*fold{}
			out = append(out, m)
			continue
		}
		if m.Kind == "" || !(m.Minor || all) {
			out = append(out, m)
			continue
		}
		k := key{m.Kind, m.From, m.To, m.Reply, m.Note}
		if f, ok := seen[k]; ok {
			f.n++
			f.last = m.Time
			continue
		}
		f := &fold{at: len(out), n: 1, last: m.Time}
		seen[k] = f
		folds = append(folds, f)
		out = append(out, m)
	}
	for _, f := range folds {
		if f.n > 1 {
			m := &out[f.at]
			m.Text = m.Time + "–" + f.last + " " + m.Kind + " ×" + fmt.Sprint(f.n)
			m.Count = f.n
		}
	}
	return out
}
