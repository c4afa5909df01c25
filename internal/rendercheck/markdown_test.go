package rendercheck

import (
	"bytes"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/k8sexplain/k8sexplain/internal/golden"
	"github.com/k8sexplain/k8sexplain/internal/render"
	"github.com/k8sexplain/k8sexplain/internal/report"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
)

// gfm renders like GitHub: CommonMark plus tables, strikethrough, autolinks
// and task lists; raw HTML other than what we write ourselves is dropped
// (goldmark's default), so an unescaped "<tag>" would vanish here too.
var gfm = goldmark.New(goldmark.WithExtensions(extension.GFM))

var tagRE = regexp.MustCompile(`<[^>]*>`)

// renderedText is the text a reader sees: the HTML goldmark makes, without
// tags, entities decoded, whitespace collapsed.
func renderedText(t *testing.T, md string) string {
	t.Helper()
	var b bytes.Buffer
	if err := gfm.Convert([]byte(md), &b); err != nil {
		t.Fatal(err)
	}
	s := tagRE.ReplaceAllString(b.String(), " ")
	return strings.Join(strings.Fields(html.UnescapeString(s)), " ")
}

// sourceWords reads the Markdown the way our renderers write it and returns
// the words a reader must see: backslash escapes resolved, our own markup
// (heading, list and quote markers, **, *, `, table pipes, <br>) dropped,
// code spans and fenced blocks verbatim.
func sourceWords(md string) []string {
	var words []string
	fence := false
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(line, "```") {
			fence = !fence
			continue
		}
		if fence {
			words = append(words, strings.Fields(line)...)
			continue
		}
		if strings.HasPrefix(line, "|") && strings.Trim(line, "|-: ") == "" {
			continue // a table's delimiter row
		}
		line = strings.ReplaceAll(line, "<br>", " ")
		line = regexp.MustCompile(`^(#+ |> ?|- |\d+\. |\s+)`).ReplaceAllString(line, "")
		var b strings.Builder
		code := false
		for i := 0; i < len(line); i++ {
			c := line[i]
			switch {
			case c == '`':
				code = !code
				b.WriteByte(' ')
			case code:
				b.WriteByte(c)
			case c == '\\' && i+1 < len(line) && strings.IndexByte("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", line[i+1]) >= 0:
				b.WriteByte(line[i+1])
				i++
			case c == '*' || c == '|':
				b.WriteByte(' ')
			default:
				b.WriteByte(c)
			}
		}
		words = append(words, strings.Fields(b.String())...)
	}
	return words
}

// lostWords lists the words of md a reader would not see.
func lostWords(t *testing.T, md string) []string {
	text := " " + renderedText(t, md) + " "
	var lost []string
	for _, w := range sourceWords(md) {
		if !strings.Contains(text, w) {
			lost = append(lost, w)
		}
	}
	return lost
}

// TestGoldenMarkdownLosesNoText renders every golden Markdown file as
// GitHub would and checks every word of it is still there.
func TestGoldenMarkdownLosesNoText(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(golden.Dir(), "*", "*.md"))
	if len(files) == 0 {
		t.Fatal("no golden Markdown files")
	}
	for _, f := range files {
		rel, _ := filepath.Rel(golden.Dir(), f)
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if lost := lostWords(t, string(src)); len(lost) > 0 {
			if len(lost) > 10 {
				lost = lost[:10]
			}
			t.Errorf("%s: rendered Markdown lost %q", filepath.ToSlash(rel), lost)
		}
	}
}

// TestMDTextKeepsEveryCharacter puts every kind of troublesome text through
// the one escape function and the Markdown renderer: a reader sees it as
// it was written.
func TestMDTextKeepsEveryCharacter(t *testing.T) {
	nasty := []string{
		"a ReplicaSet named <deployment>-<hash>",
		"2 * 3 * 4 and _private_ and __dunder__",
		"[link](http://x) ![img](y) <https://example.com>",
		"# not a heading", "- not a list", "1. not a list", "> not a quote", "+ not a list", "=====",
		"a | b | c", `back\slash \* \<`, "&amp; &lt; &#35; AT&T", "~~strike~~ $x$ $$y$$",
		"use `kubectl rollout status` to wait", "a lone ` backtick", "ends with a star*",
	}
	d := &report.Doc{Title: "<title> *t*"}
	d.H(1, "# heading <h>")
	for _, s := range nasty {
		d.P(s)
	}
	d.L(nasty...)
	d.Styled("note", strings.Join(nasty[:3], "\n"))
	tb := &report.Table{Header: []string{"<h>", "a|b"}}
	for _, s := range nasty {
		tb.Rows = append(tb.Rows, []string{s, s})
	}
	d.T(tb)
	var b bytes.Buffer
	if err := render.Render(&b, d, render.Options{Format: render.Markdown}); err != nil {
		t.Fatal(err)
	}
	text := renderedText(t, b.String())
	for _, s := range append(nasty, "<title> *t*", "# heading <h>", "<h>", "a|b") {
		want := s
		if strings.Count(s, "`")%2 == 0 {
			want = strings.ReplaceAll(s, "`", "") // a code span shows without its backticks
		}
		want = strings.Join(strings.Fields(want), " ")
		if !strings.Contains(text, want) {
			t.Errorf("%q did not survive Markdown:\n%s", s, b.String())
		}
	}
	if lost := lostWords(t, b.String()); len(lost) > 0 {
		t.Errorf("lost %q", lost)
	}
}
