package render

import (
	"encoding/json"
	"fmt"
	"html"
	"io"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/k8sexplain/k8sexplain/internal/report"
)

// The HTML page is one self-contained file: inline CSS and script, SVG drawn
// here, no fonts, images or anything else fetched, so it opens from file://
// offline. The same input gives the same bytes (no timestamps, no random ids).

// htmlWords are the page's own few words, in both output languages.
var htmlWords = map[string]map[string]string{
	"en": {
		"hint":     "Click an arrow or a step to read its explanation; click a section title to fold it.",
		"sequence": "Sequence diagram",
		"steps":    "Steps",
		"expand":   "Expand all",
		"collapse": "Collapse all",
		"down":     "down",
		"side":     "side",
		"player":   "Player",
		"first":    "First step (Home)",
		"prev":     "Previous step (←)",
		"play":     "Play or pause (space)",
		"next":     "Next step (→)",
		"last":     "Last step (End)",
		"scrub":    "Step",
		"state":    "Cluster state",
		"at":       "The cluster at {t}, step {n} of {all}: what kubectl get would list; rows this step changed are highlighted.",
		"dropped":  "The state stops at the recording limit: {n} later changes were counted, not kept.",
		"more":     "… and {n} more",
		"tableCut": "Table left out: a page embeds the first 10,000 rows of step tables (the scheduler's filter and score tables); --format text or json has every one.",
	},
	"ru": {
		"hint":     "Нажмите на стрелку или шаг, чтобы прочитать пояснение; нажмите на заголовок раздела, чтобы свернуть его.",
		"sequence": "Диаграмма последовательности",
		"steps":    "Шаги",
		"expand":   "Развернуть всё",
		"collapse": "Свернуть всё",
		"down":     "недоступен",
		"side":     "сторона",
		"player":   "Проигрыватель",
		"first":    "Первый шаг (Home)",
		"prev":     "Предыдущий шаг (←)",
		"play":     "Пуск или пауза (пробел)",
		"next":     "Следующий шаг (→)",
		"last":     "Последний шаг (End)",
		"scrub":    "Шаг",
		"state":    "Состояние кластера",
		"at":       "Кластер в {t}, шаг {n} из {all}: то, что показал бы kubectl get; строки, изменённые на этом шаге, выделены.",
		"dropped":  "Состояние обрывается на пределе записи: ещё {n} изменений подсчитаны, но не сохранены.",
		"more":     "… и ещё {n}",
		"tableCut": "Таблица не встроена: страница содержит первые 10\u00a0000 строк таблиц шагов (фильтры и оценки планировщика); в --format text или json есть все.",
	},
}

// htmlWord returns one of the page's words in lang.
func htmlWord(lang, key string) string {
	if m, ok := htmlWords[lang]; ok {
		return m[key]
	}
	return htmlWords["en"][key]
}

// esc escapes text for HTML element content and attribute values, its
// control characters shown (ShowControls).
func esc(s string) string { return html.EscapeString(ShowControls(s)) }

// htmlStart writes the page head and opens the body: title, theme CSS and
// the hint line.
func htmlStart(b *strings.Builder, lang, title string) {
	if lang == "" {
		lang = "en"
	}
	b.WriteString("<!DOCTYPE html>\n<html lang=\"" + esc(lang) + "\">\n<head>\n<meta charset=\"utf-8\">\n")
	b.WriteString("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
	b.WriteString("<meta name=\"generator\" content=\"k8sexplain\">\n")
	b.WriteString("<title>" + esc(title) + "</title>\n<style>\n" + pageCSS + "</style>\n</head>\n<body>\n")
	b.WriteString("<header><h1>" + esc(title) + "</h1>\n<p class=\"hint\">" + esc(htmlWord(lang, "hint")) +
		" <button type=\"button\" data-fold=\"open\">" + esc(htmlWord(lang, "expand")) + "</button> <button type=\"button\" data-fold=\"close\">" +
		esc(htmlWord(lang, "collapse")) + "</button></p></header>\n<main>\n")
}

// htmlEnd closes the page and adds its script.
func htmlEnd(b *strings.Builder) {
	b.WriteString("</main>\n<script>\n" + pageJS + "</script>\n</body>\n</html>\n")
}

func renderHTML(w io.Writer, d *report.Doc, o Options) error {
	var b strings.Builder
	htmlStart(&b, o.Lang, d.Title)
	// One layout on every page: the figures the page is about first, then
	// the diagram in a column that stays in view beside the flow of steps
	// (or, without a timeline, the blocks) it illustrates.
	var lead, rest []report.Block
	var tl *report.Timeline
	for _, bl := range d.Blocks {
		switch {
		case bl.Figure != nil && bl.Figure.Lead:
			lead = append(lead, bl)
		case bl.Timeline != nil && tl == nil:
			tl = bl.Timeline
		case bl.Para != nil && bl.Para.Plain:
		default:
			rest = append(rest, bl)
		}
	}
	for _, bl := range lead {
		figureHTML(&b, bl.Figure)
	}
	switch {
	case tl != nil:
		layoutHTML(&b, tl.Diagram, d.Player, o.Lang, func() { timelineHTML(&b, tl, o.Lang); htmlBlocks(&b, rest, o.Lang) })
	case d.Sequence != nil && len(d.Sequence.Messages) > 0:
		layoutHTML(&b, d.Sequence, nil, o.Lang, func() { htmlBlocks(&b, rest, o.Lang) })
	default:
		htmlBlocks(&b, rest, o.Lang)
	}
	htmlEnd(&b)
	_, err := io.WriteString(w, b.String())
	return err
}

// layoutHTML writes the sequence diagram in a column that stays in view
// (CSS position:sticky on the column itself, as tall as the viewport, the
// diagram scrolling inside it) beside flow, the column that scrolls. With
// a player, the column starts with its controls and ends with the
// cluster's state, which the page script draws from the player's data.
func layoutHTML(b *strings.Builder, seq *report.Sequence, p *report.Player, lang string, flow func()) {
	b.WriteString("<div class=\"layout\">\n<div class=\"diagram\">\n")
	if p != nil {
		playerBar(b, p, lang)
	}
	if seq != nil {
		sequenceSVG(b, seq)
	}
	if p != nil {
		b.WriteString("<div class=\"state\" aria-live=\"polite\"></div>\n")
	}
	b.WriteString("</div>\n<div class=\"flow\">\n")
	flow()
	b.WriteString("</div>\n</div>\n")
	if p != nil {
		playerData(b, p, lang)
	}
}

// playerBar writes the player's controls: first, back, play, forward,
// last, a slider over the steps, the position, and the state toggle.
func playerBar(b *strings.Builder, p *report.Player, lang string) {
	btn := func(act, label, title string) {
		fmt.Fprintf(b, "<button type=\"button\" data-p=\"%s\" title=\"%s\" aria-label=\"%s\">%s</button>", act, esc(title), esc(title), label)
	}
	fmt.Fprintf(b, "<div class=\"player\" role=\"toolbar\" aria-label=\"%s\">", esc(htmlWord(lang, "player")))
	// Glyphs every common font has (DejaVu, Segoe UI, SF): « ‹ ▶ › ».
	btn("first", "«", htmlWord(lang, "first"))
	btn("prev", "‹", htmlWord(lang, "prev"))
	btn("play", "▶", htmlWord(lang, "play"))
	btn("next", "›", htmlWord(lang, "next"))
	btn("last", "»", htmlWord(lang, "last"))
	fmt.Fprintf(b, "<input type=\"range\" min=\"1\" max=\"%d\" value=\"1\" aria-label=\"%s\"><output class=\"pos\">0/%d</output>",
		len(p.Steps), esc(htmlWord(lang, "scrub")), len(p.Steps))
	fmt.Fprintf(b, "<button type=\"button\" data-p=\"state\" aria-pressed=\"false\">%s</button></div>\n", esc(htmlWord(lang, "state")))
}

// playerData embeds the player's data as JSON (encoding/json escapes <, >
// and &, so it cannot end the script element) with the page's words.
func playerData(b *strings.Builder, p *report.Player, lang string) {
	words := map[string]string{}
	for _, k := range []string{"at", "dropped", "more"} {
		words[k] = htmlWord(lang, k)
	}
	data, err := json.Marshal(struct {
		Words map[string]string `json:"words"`
		*report.Player
	}{words, p})
	if err != nil {
		return // only plain strings and numbers: cannot fail
	}
	b.WriteString("<script type=\"application/json\" id=\"k8x-player\">")
	b.Write(data)
	b.WriteString("</script>\n")
}

// MaxPageTableRows bounds the rows of step tables one page embeds: a
// scheduler cycle's score table has a row per scored node (420 of 1,000
// nodes), so a 30,000-pod page embedded 258,000 rows, 29 MB of its 40.
// Tables are embedded in step order while they fit; from the first that
// does not, each step says its table was left out (htmlWords "tableCut"
// names the limit), and the text and JSON outputs keep every one.
const MaxPageTableRows = 10000

// timelineHTML writes the timeline: one foldable section per group of
// steps, each step's explanation and fields shown on a click, its arrow
// and its line selected together.
func timelineHTML(b *strings.Builder, tl *report.Timeline, lang string) {
	left := MaxPageTableRows
	for _, sec := range tl.Sections {
		fmt.Fprintf(b, "<details class=\"sec phase\" open><summary><h2>%s</h2> <span class=\"fields\">(%d)</span></summary>\n<ol class=\"steps\">\n",
			prose(sec.Title), len(sec.Steps))
		for i := range sec.Steps {
			stepHTML(b, &sec.Steps[i], &left, lang)
		}
		b.WriteString("</ol>\n</details>\n")
	}
}

// stepHTML writes one step of a timeline: time, actor, message; its
// explanation and fields open on a click. Its table is embedded if its
// rows fit in what is left of MaxPageTableRows (left, -1 once one did not).
func stepHTML(b *strings.Builder, s *report.TimelineStep, left *int, lang string) {
	fmt.Fprintf(b, "<li class=\"step\" id=\"%s\" data-ref=\"%s\" tabindex=\"0\"><span class=\"t\">%s</span><span class=\"who\">%s</span><span class=\"msg\">%s</span>",
		s.ID, s.ID, s.Time, esc(s.Actor), prose(s.Text))
	b.WriteString("<div class=\"ex\">")
	if s.Explain != "" {
		b.WriteString(prose(s.Explain))
	}
	if s.Detail != "" {
		b.WriteString("<div class=\"fields\">" + esc(s.Detail) + "</div>")
	}
	b.WriteString("</div>")
	if s.Table != nil {
		if *left >= 0 && len(s.Table.Rows) <= *left {
			*left -= len(s.Table.Rows)
			htmlTable(b, s.Table)
		} else {
			*left = -1
			b.WriteString("<p class=\"note\">" + esc(htmlWord(lang, "tableCut")) + "</p>")
		}
	}
	b.WriteString("</li>\n")
}

// prose escapes running text and shows its `code spans` (the catalogue
// writes commands and field names the way Markdown does) as <code>, not
// as literal backticks. An unpaired backtick stays as it is.
func prose(s string) string {
	parts := strings.Split(s, "`")
	if len(parts) < 3 {
		return esc(s)
	}
	var b strings.Builder
	for i, p := range parts {
		switch {
		case i%2 == 0:
			b.WriteString(esc(p))
		case i == len(parts)-1: // an opening backtick with no closing one
			b.WriteString("`" + esc(p))
		default:
			b.WriteString("<code>" + esc(p) + "</code>")
		}
	}
	return b.String()
}

// htmlBlocks writes blocks as HTML; a level-1 heading opens a foldable
// section that runs to the next one.
func htmlBlocks(b *strings.Builder, blocks []report.Block, lang string) {
	open := false
	for _, bl := range blocks {
		switch {
		case bl.Heading != nil:
			if bl.Heading.Level <= 1 {
				if open {
					b.WriteString("</details>\n")
				}
				b.WriteString("<details class=\"sec\" open><summary><h2>" + prose(bl.Heading.Text) + "</h2></summary>\n")
				open = true
			} else {
				b.WriteString("<h3>" + prose(bl.Heading.Text) + "</h3>\n")
			}
		case bl.Para != nil:
			cls := ""
			if bl.Para.Style != "" {
				cls = " class=\"" + esc(bl.Para.Style) + "\""
			}
			b.WriteString("<p" + cls + ">" + strings.ReplaceAll(prose(bl.Para.Text), "\n", "<br>") + "</p>\n")
		case bl.List != nil:
			tag := "ul"
			if bl.List.Numbered {
				tag = "ol"
			}
			b.WriteString("<" + tag + ">\n")
			for _, it := range bl.List.Items {
				b.WriteString("<li>" + strings.ReplaceAll(prose(it), "\n", "<br>") + "</li>\n")
			}
			b.WriteString("</" + tag + ">\n")
		case bl.Table != nil:
			htmlTable(b, bl.Table)
		case bl.Bars != nil:
			barsSVG(b, bl.Bars, lang)
		case bl.Code != nil:
			codeHTML(b, bl.Code)
		case bl.Figure != nil:
			figureHTML(b, bl.Figure)
		}
	}
	if open {
		b.WriteString("</details>\n")
	}
}

// longCell is the length past which a table cell wraps its text (at
// spaces, at least 16rem wide); shorter cells never wrap, so a name such
// as node-a is never broken at its hyphen. A cell holding a word longer
// than longWord (a volume's pvc-<uid>) does not wrap either: it would
// break at the word's hyphens, so the table scrolls instead.
const (
	longCell = 40
	longWord = 30
)

// wrapsWell: c is long enough to wrap and each of its words fits the
// wrapped cell.
func wrapsWell(c string) bool {
	if utf8.RuneCountInString(c) <= longCell {
		return false
	}
	for _, w := range strings.Fields(c) {
		if utf8.RuneCountInString(w) > longWord {
			return false
		}
	}
	return true
}

// htmlTable writes a table; right-aligned columns and highlighted rows
// keep their meaning.
func htmlTable(b *strings.Builder, t *report.Table) {
	cls := func(i int) string {
		if i < len(t.Right) && t.Right[i] {
			return " class=\"num\""
		}
		return ""
	}
	b.WriteString("<div class=\"tw\"><table>\n<thead><tr>")
	for i, h := range t.Header {
		b.WriteString("<th" + cls(i) + ">" + esc(h) + "</th>")
	}
	b.WriteString("</tr></thead>\n<tbody>\n")
	for r, row := range t.Rows {
		if r < len(t.Highlight) && t.Highlight[r] {
			b.WriteString("<tr class=\"hl\">")
		} else {
			b.WriteString("<tr>")
		}
		for i := range t.Header {
			c := ""
			if i < len(row) {
				c = row[i]
			}
			attr := cls(i)
			if wrapsWell(c) {
				attr = " class=\"long\""
			}
			b.WriteString("<td" + attr + ">" + strings.ReplaceAll(esc(c), "\n", "<br>") + "</td>")
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</tbody></table></div>\n")
}

func codeHTML(b *strings.Builder, c *report.Code) {
	marked := map[int]bool{}
	for _, m := range c.Mark {
		marked[m] = true
	}
	b.WriteString("<pre><code>")
	for i, l := range strings.Split(strings.TrimRight(c.Text, "\n"), "\n") {
		if marked[i] {
			b.WriteString("<span class=\"hot\">" + esc(l) + "</span>\n")
		} else {
			b.WriteString(esc(l) + "\n")
		}
	}
	b.WriteString("</code></pre>\n")
}

// clip shortens s to at most n runes, ending in "…".
func clip(s string, n int) string {
	s = strings.ReplaceAll(s, "\n", " ")
	if n < 2 || utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// px formats a coordinate without a trailing ".0".
func px(v float64) string {
	if v == math.Trunc(v) {
		return fmt.Sprintf("%d", int64(v))
	}
	return fmt.Sprintf("%.1f", v)
}

// fold merges runs of alike neighbouring messages (same ends, arrow style
// and a non-empty Kind) into one message whose Count says how many it
// stands for; sections and notes without a Kind are never merged.
func fold(msgs []report.Message) []report.Message {
	var out []report.Message
	for _, m := range msgs {
		if m.Count == 0 {
			m.Count = 1
		}
		if n := len(out); n > 0 && !m.Section && m.Kind != "" {
			p := &out[n-1]
			if !p.Section && p.Kind == m.Kind && p.From == m.From && p.To == m.To && p.Reply == m.Reply && p.Note == m.Note {
				p.Count += m.Count
				continue
			}
		}
		out = append(out, m)
	}
	return out
}

// Sequence diagram geometry, in CSS pixels.
const (
	seqAxis  = 78  // the time axis on the left
	seqLane  = 136 // distance between lifelines
	seqHead  = 34  // participant boxes
	seqRow   = 26  // one message with a one-line label
	seqLine  = 12  // each further line of a wrapped label
	seqBand  = 28  // a section title
	seqCharW = 6.4 // average width of one character at 11px
)

// sequenceSVG draws a sequence diagram: one lifeline per participant,
// requests as solid arrows, replies and watch deliveries as dashed ones,
// notes as boxes on a lifeline, sections as bands across, times on the
// left axis. Alike neighbours are folded into one arrow labelled ×N.
// Elements that stand for a step carry data-ref, which the page script
// ties to the step's explanation.
func sequenceSVG(b *strings.Builder, s *report.Sequence) {
	parts := append([]report.Participant{}, s.Participants...)
	idx := map[string]int{}
	for i, p := range parts {
		idx[p.ID] = i
	}
	msgs := fold(s.Messages)
	for _, m := range msgs {
		for _, id := range []string{m.From, m.To} {
			if _, ok := idx[id]; !ok && id != "" && !m.Section {
				idx[id] = len(parts)
				parts = append(parts, report.Participant{ID: id, Label: id})
			}
		}
	}
	lx := func(id string) float64 { return seqAxis + seqLane/2 + float64(idx[id])*seqLane }
	width := float64(seqAxis + len(parts)*seqLane)
	height := float64(seqHead + 10)
	arrows, notes := 0, 0
	for _, m := range msgs {
		switch {
		case m.Section:
			height += seqBand
		default:
			height += rowHeight(m, lx)
			if m.Note || m.To == "" || m.To == m.From {
				notes++
			} else {
				arrows++
			}
		}
	}
	height += 10
	// The lane titles again, in a strip that stays on top while the
	// diagram scrolls under it.
	fmt.Fprintf(b, "<div class=\"seqwrap\"><svg class=\"seqhead\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%s\" height=\"%d\" viewBox=\"0 0 %s %d\" aria-hidden=\"true\">", px(width), seqHead, px(width), seqHead)
	for i, p := range parts {
		x := seqAxis + seqLane/2 + float64(i)*seqLane
		fmt.Fprintf(b, "<rect x=\"%s\" y=\"4\" width=\"%d\" height=\"%d\" rx=\"4\"/><text x=\"%s\" y=\"%d\">%s</text>",
			px(x-seqLane/2+6), seqLane-12, seqHead-8, px(x), seqHead/2+4, esc(clip(p.Label, chars(seqLane-16))))
	}
	b.WriteString("</svg>\n")
	fmt.Fprintf(b, "<svg class=\"seq\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%s\" height=\"%s\" viewBox=\"0 0 %s %s\" role=\"img\" data-lanes=\"%d\" data-arrows=\"%d\" data-notes=\"%d\">\n",
		px(width), px(height), px(width), px(height), len(parts), arrows, notes)
	b.WriteString("<defs><marker id=\"k8x-arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerUnits=\"userSpaceOnUse\" markerWidth=\"9\" markerHeight=\"9\" orient=\"auto-start-reverse\"><path d=\"M0,0L10,5L0,10z\" class=\"head\"/></marker></defs>\n")
	for i, p := range parts {
		x := seqAxis + seqLane/2 + float64(i)*seqLane
		fmt.Fprintf(b, "<g class=\"lane\"><line x1=\"%s\" y1=\"%d\" x2=\"%s\" y2=\"%s\"/><rect x=\"%s\" y=\"4\" width=\"%d\" height=\"%d\" rx=\"4\"/><text x=\"%s\" y=\"%d\">%s</text></g>\n",
			px(x), seqHead, px(x), px(height-4), px(x-seqLane/2+6), seqLane-12, seqHead-8, px(x), seqHead/2+4, esc(clip(p.Label, chars(seqLane-16))))
	}
	y := float64(seqHead + 10)
	label := func(m report.Message) string {
		if m.Count > 1 {
			return m.Text + " ×" + fmt.Sprint(m.Count)
		}
		return m.Text
	}
	ref := func(m report.Message) string {
		if m.Ref == "" {
			return ""
		}
		return " data-ref=\"" + esc(m.Ref) + "\" tabindex=\"0\""
	}
	for _, m := range msgs {
		if m.Section {
			fmt.Fprintf(b, "<g class=\"band\"><rect x=\"0\" y=\"%s\" width=\"%s\" height=\"%d\"/><text x=\"8\" y=\"%s\">%s</text></g>\n",
				px(y+2), px(width), seqBand-4, px(y+seqBand/2+4), esc(m.Text))
			y += seqBand
			continue
		}
		rh := rowHeight(m, lx)
		lines := wrapLabel(label(m), labelChars(m, lx))
		extra := float64(len(lines)-1) * seqLine
		mid := y + seqRow/2
		if m.Time != "" {
			fmt.Fprintf(b, "<text class=\"t\" x=\"4\" y=\"%s\">%s</text>\n", px(mid+4), esc(m.Time))
		}
		text := label(m)
		if m.Note || m.To == "" || m.To == m.From {
			x := lx(m.From)
			w := float64(seqLane - 8)
			fmt.Fprintf(b, "<g class=\"note\"%s><title>%s</title><rect x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" rx=\"3\"/>",
				ref(m), esc(text), px(x-w/2), px(y+3), px(w), px(seqRow-6+extra))
			svgLines(b, x, mid+4, lines)
			b.WriteString("</g>\n")
		} else {
			x1, x2 := lx(m.From), lx(m.To)
			cls := "arrow"
			if m.Reply {
				cls += " reply"
			}
			fmt.Fprintf(b, "<g class=\"%s\"%s><title>%s</title><line x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\" marker-end=\"url(#k8x-arrow)\"/>",
				cls, ref(m), esc(text), px(x1), px(mid+6+extra), px(x2), px(mid+6+extra))
			svgLines(b, (x1+x2)/2, mid, lines)
			b.WriteString("</g>\n")
		}
		y += rh
	}
	b.WriteString("</svg></div>\n")
}

// labelChars is how many characters of m's label fit on one line: the
// span between the arrow's ends, or a note's box.
func labelChars(m report.Message, lx func(string) float64) int {
	if m.Note || m.To == "" || m.To == m.From {
		return chars(seqLane - 16)
	}
	return chars(math.Abs(lx(m.To)-lx(m.From)) - 8)
}

// seqLabelLines is how many lines a diagram label may take: enough to
// tell the story without a click; the whole text is the element's title.
const seqLabelLines = 2

// rowHeight is the height of m's row: one line more for each line its
// label wraps onto.
func rowHeight(m report.Message, lx func(string) float64) float64 {
	text := m.Text
	if m.Count > 1 {
		text += " ×" + fmt.Sprint(m.Count)
	}
	return seqRow + float64(len(wrapLabel(text, labelChars(m, lx)))-1)*seqLine
}

// wrapLabel breaks s at spaces (or after / , -) into at most seqLabelLines lines of n
// runes; a word longer than a line is cut, and the last line ends in "…"
// when text is left over.
func wrapLabel(s string, n int) []string {
	s = strings.ReplaceAll(s, "\n", " ")
	if n < 2 || utf8.RuneCountInString(s) <= n {
		return []string{s}
	}
	var lines []string
	rest := []rune(s)
	for len(rest) > 0 && len(lines) < seqLabelLines {
		if len(rest) <= n {
			lines = append(lines, string(rest))
			rest = nil
			break
		}
		// Break at the last space, or after the last '/', ',' or '-'
		// (a path, a list), in the line's second half.
		cut := n
		for i := n; i > n/2; i-- {
			if rest[i] == ' ' || strings.ContainsRune("/,-", rest[i-1]) {
				cut = i
				break
			}
		}
		lines = append(lines, strings.TrimRight(string(rest[:cut]), " "))
		rest = []rune(strings.TrimLeft(string(rest[cut:]), " "))
	}
	if len(rest) > 0 {
		last := lines[len(lines)-1] + " " + string(rest)
		lines[len(lines)-1] = clip(last, n)
	}
	return lines
}

// svgLines writes a label's lines centred on x, the first at y.
func svgLines(b *strings.Builder, x, y float64, lines []string) {
	if len(lines) == 1 {
		fmt.Fprintf(b, "<text x=\"%s\" y=\"%s\">%s</text>", px(x), px(y), esc(lines[0]))
		return
	}
	fmt.Fprintf(b, "<text x=\"%s\" y=\"%s\">", px(x), px(y))
	for i, l := range lines {
		if i == 0 {
			fmt.Fprintf(b, "<tspan x=\"%s\">%s</tspan>", px(x), esc(l))
		} else {
			fmt.Fprintf(b, "<tspan x=\"%s\" dy=\"%d\">%s</tspan>", px(x), seqLine, esc(l))
		}
	}
	b.WriteString("</text>")
}

// barsSVG draws a horizontal bar chart with the values and notes beside.
func barsSVG(b *strings.Builder, bs *report.Bars, lang string) {
	const labelW, barW, rowH = 210.0, 320.0, 24.0
	max := 0.0
	for _, r := range bs.Rows {
		max = math.Max(max, r.Value)
	}
	if bs.Max > 0 {
		max = bs.Max
	}
	width := labelW + barW + 300
	height := rowH*float64(len(bs.Rows)) + 8
	b.WriteString("<div class=\"figwrap\">")
	fmt.Fprintf(b, "<svg class=\"bars\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%s\" height=\"%s\" viewBox=\"0 0 %s %s\" role=\"img\" data-bars=\"%d\">\n",
		px(width), px(height), px(width), px(height), len(bs.Rows))
	for i, r := range bs.Rows {
		y := 4 + float64(i)*rowH
		w := 0.0
		if max > 0 {
			w = math.Round(r.Value / max * barW)
		}
		if w == 0 && r.Value > 0 {
			w = 1
		}
		v := formatValue(lang, r.Value)
		if bs.Unit != "" {
			v += " " + bs.Unit
		}
		if r.Note != "" {
			v += "  " + r.Note
		}
		fmt.Fprintf(b, "<g class=\"bar\"><title>%s: %s</title><text class=\"lbl\" x=\"%s\" y=\"%s\">%s</text><rect x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" rx=\"2\"/><text x=\"%s\" y=\"%s\">%s</text></g>\n",
			esc(r.Label), esc(v), px(labelW-8), px(y+rowH/2+4), esc(clip(r.Label, chars(labelW-12))),
			px(labelW), px(y+3), px(w), px(rowH-6), px(labelW+w+6), px(y+rowH/2+4), esc(v))
	}
	b.WriteString("</svg></div>\n")
}

// figureHTML draws a figure.
func figureHTML(b *strings.Builder, f *report.Figure) {
	cls := ""
	if f.Lead {
		cls = " class=\"lead\""
	}
	b.WriteString("<figure" + cls + ">")
	if f.Lead && f.Title != "" {
		// The page's first picture says what it is before it shows it.
		b.WriteString("<figcaption>" + prose(f.Title) + "</figcaption>")
	}
	b.WriteString("<div class=\"figwrap\">")
	switch {
	case f.Graph != nil:
		graphSVG(b, f.Graph)
	case f.Chart != nil:
		chartSVG(b, f.Chart)
	case f.Sides != nil:
		sidesHTML(b, f.Sides)
	}
	b.WriteString("</div>")
	if f.Chart != nil {
		chartLegend(b, f.Chart)
	}
	if f.Title != "" && !f.Lead {
		b.WriteString("<figcaption>" + prose(f.Title) + "</figcaption>")
	}
	b.WriteString("</figure>\n")
}

func graphSVG(b *strings.Builder, g *report.Graph) {
	const colW, boxW, boxH, gapY = 320.0, 210.0, 30.0, 16.0
	layers := 0
	count := map[int]int{}
	pos := map[string][2]float64{}
	for _, n := range g.Nodes {
		if n.Layer+1 > layers {
			layers = n.Layer + 1
		}
		count[n.Layer]++
	}
	most := 0
	for _, c := range count {
		if c > most {
			most = c
		}
	}
	height := float64(most)*(boxH+gapY) + gapY
	width := float64(layers)*colW + 10
	seen := map[int]int{}
	for _, n := range g.Nodes {
		// Each layer is centred vertically.
		off := (height - float64(count[n.Layer])*(boxH+gapY) + gapY) / 2
		y := off + float64(seen[n.Layer])*(boxH+gapY)
		seen[n.Layer]++
		pos[n.ID] = [2]float64{10 + float64(n.Layer)*colW, y}
	}
	fmt.Fprintf(b, "<svg class=\"graph\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%s\" height=\"%s\" viewBox=\"0 0 %s %s\" role=\"img\" data-nodes=\"%d\" data-edges=\"%d\">\n",
		px(width), px(height), px(width), px(height), len(g.Nodes), len(g.Edges))
	for _, e := range g.Edges {
		a, ok1 := pos[e.From]
		z, ok2 := pos[e.To]
		if !ok1 || !ok2 {
			continue
		}
		x1, y1, x2, y2 := a[0]+boxW, a[1]+boxH/2, z[0], z[1]+boxH/2
		cls := "edge"
		if e.Hot {
			cls += " hot"
		}
		fmt.Fprintf(b, "<g class=\"%s\"><path d=\"M%s,%sC%s,%s %s,%s %s,%s\"/>", cls, px(x1), px(y1), px((x1+x2)/2), px(y1), px((x1+x2)/2), px(y2), px(x2), px(y2))
		if e.Label != "" {
			// The label sits on the curve's flat end, beside the target box:
			// above the line, or below it when the curve comes down from
			// above, so it never crosses the curve (issue 27 §3).
			ly := y2 - 5
			if y1 < y2-1 {
				ly = y2 + 13
			}
			fmt.Fprintf(b, "<text x=\"%s\" y=\"%s\" style=\"text-anchor:end\">%s</text>", px(x2-6), px(ly), esc(e.Label))
		}
		b.WriteString("</g>\n")
	}
	for _, n := range g.Nodes {
		p := pos[n.ID]
		cls := "node"
		if n.Hot {
			cls += " hot"
		}
		fmt.Fprintf(b, "<g class=\"%s\"><title>%s</title><rect x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" rx=\"4\"/><text x=\"%s\" y=\"%s\">%s</text></g>\n",
			cls, esc(n.Label), px(p[0]), px(p[1]), px(boxW), px(boxH), px(p[0]+boxW/2), px(p[1]+boxH/2+4), esc(clip(n.Label, chars(boxW-10))))
	}
	b.WriteString("</svg>\n")
}

func chartSVG(b *strings.Builder, c *report.Chart) {
	const w, h, left, bottom, top, right = 560.0, 240.0, 40.0, 34.0, 12.0, 16.0
	max := 1.0
	for _, s := range c.Series {
		for _, v := range s.Values {
			max = math.Max(max, v)
		}
	}
	n := len(c.X)
	plotW, plotH := w-left-right, h-top-bottom
	x := func(i int) float64 {
		if n <= 1 {
			return left
		}
		return left + float64(i)*plotW/float64(n-1)
	}
	y := func(v float64) float64 { return top + plotH - v/max*plotH }
	fmt.Fprintf(b, "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%s\" height=\"%s\" viewBox=\"0 0 %s %s\" role=\"img\" data-series=\"%d\">\n",
		px(w), px(h), px(w), px(h), len(c.Series))
	step := math.Max(1, math.Ceil(max/8))
	for v := 0.0; v <= max; v += step {
		fmt.Fprintf(b, "<g class=\"grid\"><line x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\"/><text x=\"%s\" y=\"%s\">%s</text></g>\n",
			px(left), px(y(v)), px(left+plotW), px(y(v)), px(left-6), px(y(v)+4), formatValue("en", v))
	}
	// Axis labels that would overlap are thinned to every k-th (and the
	// last when it has room): about 7 px a character at the axis' 11 px.
	every := 1
	if n > 1 {
		longest := 0
		for _, l := range c.X {
			if r := utf8.RuneCountInString(l); r > longest {
				longest = r
			}
		}
		every = int(math.Max(1, math.Ceil(float64(longest*7+8)/(plotW/float64(n-1)))))
	}
	for i, l := range c.X {
		if i%every == 0 || (i == n-1 && (n-1)%every*2 > every) {
			fmt.Fprintf(b, "<text class=\"xt\" x=\"%s\" y=\"%s\">%s</text>\n", px(x(i)), px(top+plotH+16), esc(l))
		}
	}
	if c.XLabel != "" {
		fmt.Fprintf(b, "<text class=\"xl\" x=\"%s\" y=\"%s\">%s</text>\n", px(left+plotW/2), px(h-2), esc(c.XLabel))
	}
	for si, s := range c.Series {
		var pts []string
		for i, v := range s.Values {
			if i > 0 {
				pts = append(pts, px(x(i))+","+px(y(s.Values[i-1])))
			}
			pts = append(pts, px(x(i))+","+px(y(v)))
		}
		fmt.Fprintf(b, "<g class=\"series s%d\"><title>%s</title><polyline points=\"%s\"/>", si%6, esc(s.Name), strings.Join(pts, " "))
		for i, v := range s.Values {
			fmt.Fprintf(b, "<circle cx=\"%s\" cy=\"%s\" r=\"3\"><title>%s %s: %s</title></circle>", px(x(i)), px(y(v)), esc(s.Name), esc(c.X[min(i, n-1)]), formatValue("en", v))
		}
		b.WriteString("</g>\n")
	}
	b.WriteString("</svg>\n")
}

// chartLegend names the chart's lines under it, as HTML text that wraps on
// a narrow screen (a legend inside the SVG would be clipped or scaled).
func chartLegend(b *strings.Builder, c *report.Chart) {
	b.WriteString("<ul class=\"legend\">")
	for si, s := range c.Series {
		fmt.Fprintf(b, "<li class=\"s%d\"><span class=\"sw\"></span>%s</li>", si%6, esc(s.Name))
	}
	b.WriteString("</ul>\n")
}

func sidesHTML(b *strings.Builder, s *report.Sides) {
	b.WriteString("<div class=\"sides\">\n")
	chip := func(m report.Member) {
		b.WriteString("<span class=\"member " + esc(m.Role) + "\">" + esc(m.Name) + "</span>")
	}
	for _, r := range s.Rows {
		b.WriteString("<div class=\"srow\"><div class=\"slabel\">" + esc(r.Label) + "</div>")
		for _, g := range r.Groups {
			b.WriteString("<div class=\"side\">")
			for _, m := range g {
				chip(m)
			}
			b.WriteString("</div>")
		}
		if len(r.Down) > 0 {
			b.WriteString("<div class=\"side down\">")
			for _, m := range r.Down {
				chip(m)
			}
			b.WriteString("</div>")
		}
		b.WriteString("</div>\n")
	}
	b.WriteString("</div>\n")
}

// chars is how many characters of 11px text fit in w pixels.
func chars(w float64) int { return int(w / seqCharW) }
