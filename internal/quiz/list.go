package quiz

import (
	"unicode/utf8"

	"github.com/k8sexplain/k8sexplain/internal/report"
)

// ListItem is one question of `quiz list --format json`.
type ListItem struct {
	ID         string   `json:"id"`
	Topic      string   `json:"topic"`
	Difficulty string   `json:"difficulty"`
	Type       string   `json:"type"`
	Tags       []string `json:"tags"`
	Prompt     string   `json:"prompt"`
	Choices    []string `json:"choices,omitempty"`
	See        SeeIn    `json:"see"`
}

// ListDoc is the question bank as `quiz list` shows it: a table of the
// questions of topics and difficulty (every one when empty), or with choices
// each question with its choices numbered as a session with seed shows them.
func ListDoc(b *Bank, topics []string, difficulty string, choices bool, lang string, seed int64) *report.Doc {
	qs := b.Filter(topics, difficulty)
	items := []ListItem{}
	d := &report.Doc{Title: Msg(lang, "Question bank")}
	d.P(CountQuestions(lang, len(qs)) + ".")
	t := &report.Table{Header: []string{"ID", Msg(lang, "Topic"), Msg(lang, "Difficulty"), Msg(lang, "Type"), Msg(lang, "Question")}}
	for _, q := range qs {
		p := Present(q, 0, 0, lang, seed)
		it := ListItem{ID: q.ID, Topic: q.Topic, Difficulty: q.Difficulty, Type: q.Type, Tags: q.Tags, Prompt: p.Prompt, See: q.See.In(lang)}
		if it.Tags == nil {
			it.Tags = []string{}
		}
		if choices {
			it.Choices = p.Choices
			d.H(2, q.ID)
			d.P(p.Prompt)
			if len(p.Choices) > 0 {
				d.Blocks = append(d.Blocks, report.Block{List: &report.List{Items: p.Choices, Numbered: true}})
			}
			SeeBlocks(d, q.See, lang)
		} else {
			t.Rows = append(t.Rows, []string{q.ID, q.Topic, q.Difficulty, q.Type, shorten(p.Prompt, 60)})
		}
		items = append(items, it)
	}
	if !choices {
		d.T(t)
	}
	d.Data = items
	return d
}

// shorten keeps the first n-1 runes of s and "…" when s is longer than n
// runes: a Russian prompt is cut between letters.
func shorten(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}
