package quiz

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/report"
)

// FeedbackDoc is the feedback after one answer: the verdict, what was right
// and wrong, and for anything short of correct the model answer; the `see:`
// command always.
func FeedbackDoc(a *Answered, lang string) *report.Doc {
	d := &report.Doc{}
	r := a.Result
	switch r.Verdict {
	case Correct:
		d.Styled("ok", msg(lang, "Correct."))
	case Partial:
		d.Styled("warn", fmt.Sprintf("%s: %s", msg(lang, "Partly correct"), percent(r.Score)))
	default:
		d.Styled("bad", msg(lang, "Wrong."))
	}
	details(d, a, lang)
	if r.Verdict != Correct {
		d.P(msg(lang, "Model answer") + ": " + a.Q.Explanation.In(lang))
	}
	d.Styled("note", msg(lang, "See it")+": "+a.Q.See)
	return d
}

func details(d *report.Doc, a *Answered, lang string) {
	r := a.Result
	if r.Unreadable != "" {
		d.P(fmt.Sprintf(msg(lang, "Could not read the answer: %s"), r.Unreadable))
	}
	item := func(label string, xs []string) {
		if len(xs) > 0 {
			d.P(label + ": " + strings.Join(xs, "; "))
		}
	}
	item(msg(lang, "Found"), r.Found)
	item(msg(lang, "Missed"), r.Missed)
	item(msg(lang, "Not picked"), r.MissedPicks)
	item(msg(lang, "Wrong picks"), r.WrongPicks)
	item(msg(lang, "Out of place"), r.Misplaced)
	if a.Q.Type == Order && r.Verdict != Correct {
		// number the steps as they were shown, so "3) …" is what was typed
		shownAs := make([]int, len(a.Q.Choices))
		for i := range shownAs {
			shownAs[i] = i
		}
		if a.P != nil {
			for disp, orig := range a.P.Shown {
				shownAs[orig] = disp
			}
		}
		steps := make([]string, len(a.Q.Choices))
		for i, c := range a.Q.Choices {
			steps[i] = fmt.Sprintf("%d) %s", shownAs[i]+1, c.In(lang))
		}
		d.P(msg(lang, "Right order") + ": " + strings.Join(steps, " → "))
	}
	if a.Q.Type == NumType && r.Verdict != Correct && r.Unreadable == "" {
		got := "-"
		if r.Value != nil {
			got = trimFloat(*r.Value)
		}
		want := a.Q.Numeric
		exp := trimFloat(want.Value)
		if want.Tolerance > 0 {
			exp += " ± " + trimFloat(want.Tolerance)
		}
		d.P(fmt.Sprintf("%s: %s; %s: %s %s", msg(lang, "Your value"), got, msg(lang, "Expected"), exp, want.Unit.In(lang)))
	}
	if r.Note != "" {
		d.Styled("note", r.Note)
	}
}

// Data is the documented JSON form of a session report (--format json).
type Data struct {
	Lang        string           `json:"lang"`
	Exam        bool             `json:"exam"`
	Interrupted bool             `json:"interrupted"`
	Answered    int              `json:"answered"`
	Total       int              `json:"total"`
	Score       float64          `json:"score"` // mean score of the answered questions, 0..1
	Topics      []TopicScore     `json:"topics"`
	Questions   []QuestionResult `json:"questions"`
	Revisit     []string         `json:"revisit"` // ids scoring below 0.8
}

// TopicScore is one row of the per-topic report.
type TopicScore struct {
	Topic     string  `json:"topic"`
	Questions int     `json:"questions"`
	Score     float64 `json:"score"`
	Seconds   float64 `json:"seconds_per_question"`
}

// QuestionResult is one graded question of the report.
type QuestionResult struct {
	ID          string  `json:"id"`
	Topic       string  `json:"topic"`
	Type        string  `json:"type"`
	Answer      string  `json:"answer"`
	Seconds     float64 `json:"seconds"`
	Result      Result  `json:"result"`
	Explanation string  `json:"explanation"`
	See         string  `json:"see"`
}

// revisitBelow is the score under which a question is listed to revisit.
const revisitBelow = 0.8

// Summarise computes the report data of a session.
func Summarise(out *Outcome, lang string, exam bool) *Data {
	d := &Data{Lang: lang, Exam: exam, Interrupted: out.Interrupted, Answered: len(out.Answers), Total: out.Total,
		Topics: []TopicScore{}, Questions: []QuestionResult{}, Revisit: []string{}}
	byTopic := map[string]*TopicScore{}
	sum := 0.0
	for _, a := range out.Answers {
		r := a.Result
		r.Score = round3(r.Score)
		d.Questions = append(d.Questions, QuestionResult{ID: a.Q.ID, Topic: a.Q.Topic, Type: a.Q.Type, Answer: a.Answer,
			Seconds: round3(a.Seconds), Result: r, Explanation: a.Q.Explanation.In(lang), See: a.Q.See})
		sum += a.Result.Score
		t := byTopic[a.Q.Topic]
		if t == nil {
			t = &TopicScore{Topic: a.Q.Topic}
			byTopic[a.Q.Topic] = t
		}
		t.Questions++
		t.Score += a.Result.Score
		t.Seconds += a.Seconds
		if a.Result.Score < revisitBelow {
			d.Revisit = append(d.Revisit, a.Q.ID)
		}
	}
	if len(out.Answers) > 0 {
		d.Score = round3(sum / float64(len(out.Answers)))
	}
	for _, t := range byTopic {
		t.Score = round3(t.Score / float64(t.Questions))
		t.Seconds = round3(t.Seconds / float64(t.Questions))
		d.Topics = append(d.Topics, *t)
	}
	sort.Slice(d.Topics, func(i, j int) bool { return d.Topics[i].Topic < d.Topics[j].Topic })
	return d
}

// ReportDoc renders the end-of-session report. With detailed (exam and
// --answers mode) it walks through every answer short of correct with its
// model answer; an interactive session already gave that feedback.
func ReportDoc(out *Outcome, lang string, exam, detailed bool) *report.Doc {
	data := Summarise(out, lang, exam)
	title := msg(lang, "Quiz report")
	if exam {
		title = msg(lang, "Exam report")
	}
	doc := &report.Doc{Title: title, Data: data}
	if out.Interrupted {
		doc.Styled("warn", msg(lang, "Interrupted; the answers so far are saved."))
	}
	doc.P(fmt.Sprintf(msg(lang, "Score %s over %d of %d questions."), percent(data.Score), data.Answered, data.Total))
	if data.Answered == 0 {
		return doc
	}
	tt := &report.Table{Header: []string{msg(lang, "Topic"), msg(lang, "Questions"), msg(lang, "Score"), msg(lang, "Time per question")},
		Right: []bool{false, true, true, true}}
	for _, t := range data.Topics {
		tt.Rows = append(tt.Rows, []string{t.Topic, fmt.Sprint(t.Questions), percent(t.Score), seconds(t.Seconds)})
	}
	doc.T(tt)
	qt := &report.Table{Header: []string{"#", msg(lang, "Question"), msg(lang, "Verdict"), msg(lang, "Score"), msg(lang, "Time")},
		Right: []bool{true, false, false, true, true}}
	for i, a := range out.Answers {
		qt.Rows = append(qt.Rows, []string{fmt.Sprint(i + 1), a.Q.ID, msg(lang, a.Result.Verdict), percent(a.Result.Score), seconds(a.Seconds)})
	}
	doc.T(qt)
	if detailed {
		for i, a := range out.Answers {
			if a.Result.Verdict == Correct {
				continue
			}
			doc.H(2, fmt.Sprintf("%d. %s", i+1, a.Q.ID))
			doc.P(a.Q.Prompt.In(lang))
			doc.P(msg(lang, "Your answer") + ": " + quoteAnswer(a.Answer))
			fb := FeedbackDoc(a, lang)
			doc.Blocks = append(doc.Blocks, fb.Blocks...)
		}
	}
	if len(data.Revisit) > 0 {
		doc.H(1, msg(lang, "To revisit"))
		doc.L(data.Revisit...)
	}
	return doc
}

func quoteAnswer(s string) string {
	if strings.TrimSpace(s) == "" {
		return "—"
	}
	return s
}

func percent(s float64) string { return fmt.Sprintf("%.0f%%", s*100) }

func seconds(s float64) string { return fmt.Sprintf("%.1fs", s) }

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }

func trimFloat(x float64) string { return fmt.Sprintf("%g", x) }
