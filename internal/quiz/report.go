package quiz

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/l10n"
	"github.com/k8sexplain/k8sexplain/internal/report"
)

// FeedbackDoc is the feedback after one answer: the verdict; for a
// choice question the right option(s) and, for each wrong pick, why it is
// wrong; for free text the checklist of key points with the clause of the
// answer that stated each (quoted), the misconceptions and contradictions
// found; always the model answer and the `see:` command.
func FeedbackDoc(a *Answered, lang string) *report.Doc {
	d := &report.Doc{}
	r := a.Result
	// A free-text grader is a coach: it never says "Wrong." unless the
	// answer states a named misconception; what it did not recognise the
	// learner compares with the model answer and rates.
	coach := selfRated(a.Q)
	switch {
	case r.Reveal:
		d.Styled("note", msg(lang, "The model answer, as asked: compare and rate yourself."))
	case r.Verdict == Correct:
		d.Styled("ok", msg(lang, "Correct."))
	case r.Pass:
		d.Styled("ok", fmt.Sprintf("%s: %s", msg(lang, "A pass, not full marks"), percent(r.Score)))
	case coach && misconceived(r):
		d.Styled("bad", msg(lang, "Wrong: the answer states a misconception."))
	case coach && r.Verdict == Partial:
		d.Styled("warn", fmt.Sprintf("%s: %s", msg(lang, "Some key points recognised"), percent(r.Score)))
	case coach:
		d.Styled("warn", msg(lang, "No key point recognised: compare with the model answer."))
	case r.Verdict == Partial:
		d.Styled("warn", fmt.Sprintf("%s: %s", msg(lang, "Partly correct"), percent(r.Score)))
	default:
		d.Styled("bad", msg(lang, "Wrong."))
	}
	details(d, a, lang)
	if a.Rating != 0 && a.Auto != 0 && a.Rating != a.Auto {
		// a rating written with the answer ("2 #hard", rating: in an answers file)
		d.Styled("note", msgf(lang, "Your rating: {1} (suggested: {2}).", RatingName(a.Rating, lang), RatingName(a.Auto, lang)))
	}
	d.P(msg(lang, "Model answer") + ": " + a.Q.Explanation.In(lang))
	SeeBlocks(d, a.Q.See, lang)
	return d
}

// misconceived says a graded free-text answer states a named misconception.
func misconceived(r Result) bool {
	for _, c := range r.Checks {
		if c.State == Misconception {
			return true
		}
	}
	return false
}

// SeeBlocks adds the `see:` of a question: the command, what to look for
// in its output and the upstream page.
func SeeBlocks(d *report.Doc, s See, lang string) {
	d.Styled("note", msg(lang, "See it")+": "+s.Run)
	d.Styled("note", msg(lang, "Look for")+": "+s.Look.In(lang))
	d.Styled("note", msg(lang, "Docs")+": "+s.Doc)
}

// details adds why the answer could not be read, the type's review
// (Kind.Review) and the grader's note.
func details(d *report.Doc, a *Answered, lang string) {
	r := a.Result
	if r.Unreadable != "" {
		d.P(msgf(lang, "Could not read the answer: {1}", r.Unreadable))
	}
	KindOf(a.Q).Review(d, a, lang)
	if r.Note != "" {
		d.Styled("note", r.Note)
	}
}

// Data is the documented JSON form of a session report (--format json).
type Data struct {
	Lang        string           `json:"lang"`
	Exam        bool             `json:"exam"`
	Interrupted bool             `json:"interrupted"`
	TimeUp      bool             `json:"time_up,omitempty"`
	Verdict     string           `json:"verdict,omitempty"` // exam: the overall verdict against the senior bar
	Answered    int              `json:"answered"`
	Total       int              `json:"total"`
	Score       float64          `json:"score"` // mean score of the answered questions as rated (Answered.Score), 0..1
	Topics      []TopicScore     `json:"topics"`
	Questions   []QuestionResult `json:"questions"`
	Revisit     []string         `json:"revisit"` // ids rated below Good (a score below 0.8)
}

// TopicScore is one row of the per-topic report: the mean score as rated
// (the learner's confirmed ratings, Answered.Score). Verdict (exam only)
// compares it with the senior bar: "senior" at 0.8 or more, "borderline"
// from 0.6, "below" under it; an exam keeps the grader's own mean beside
// it (GraderScore).
type TopicScore struct {
	Topic       string   `json:"topic"`
	Questions   int      `json:"questions"`
	Score       float64  `json:"score"`
	Seconds     float64  `json:"seconds_per_question"`
	Verdict     string   `json:"verdict,omitempty"`
	GraderScore *float64 `json:"grader_score,omitempty"`
}

// The senior bar of the exam verdicts.
const (
	seniorBar     = 0.8
	borderlineBar = 0.6
)

// BarVerdict places a score against the senior bar.
func BarVerdict(score float64) string {
	switch {
	case score >= seniorBar:
		return "senior"
	case score >= borderlineBar:
		return "borderline"
	}
	return "below"
}

// QuestionResult is one graded question of the report: the rating
// recorded (the learner's, or the automatic one) with the verdict and
// score it stands for, and the grader's Result.
type QuestionResult struct {
	ID          string  `json:"id"`
	Topic       string  `json:"topic"`
	Type        string  `json:"type"`
	Answer      string  `json:"answer"`
	Seconds     float64 `json:"seconds"`
	Rating      string  `json:"rating"`
	Verdict     string  `json:"verdict"`
	Score       float64 `json:"score"`
	Result      Result  `json:"result"`
	Explanation string  `json:"explanation"`
	See         SeeIn   `json:"see"`
}

// revisitBelow is the score under which a question is listed to revisit:
// the lowest score rated Good (Rating, RatedScore).
const revisitBelow = 0.8

// Summarise computes the report data of a session.
func Summarise(out *Outcome, lang string, exam bool) *Data {
	d := &Data{Lang: lang, Exam: exam, Interrupted: out.Interrupted, TimeUp: out.TimeUp, Answered: len(out.Answers), Total: out.Total,
		Topics: []TopicScore{}, Questions: []QuestionResult{}, Revisit: []string{}}
	byTopic := map[string]*TopicScore{}
	grader := map[string]float64{}
	sum := 0.0
	for _, a := range out.Answers {
		r := a.Result
		r.Score = round3(r.Score)
		score := a.Score()
		d.Questions = append(d.Questions, QuestionResult{ID: a.Q.ID, Topic: a.Q.Topic, Type: a.Q.Type, Answer: a.Answer,
			Seconds: round3(a.Seconds), Rating: RatingWord(a.Rating), Verdict: a.Verdict(), Score: round3(score),
			Result: r, Explanation: a.Q.Explanation.In(lang), See: a.Q.See.In(lang)})
		sum += score
		t := byTopic[a.Q.Topic]
		if t == nil {
			t = &TopicScore{Topic: a.Q.Topic}
			byTopic[a.Q.Topic] = t
		}
		t.Questions++
		t.Score += score
		grader[a.Q.Topic] += a.Result.Score
		t.Seconds += a.Seconds
		if score < revisitBelow {
			d.Revisit = append(d.Revisit, a.Q.ID)
		}
	}
	if len(out.Answers) > 0 {
		d.Score = round3(sum / float64(len(out.Answers)))
	}
	for _, t := range byTopic {
		t.Score = round3(t.Score / float64(t.Questions))
		t.Seconds = round3(t.Seconds / float64(t.Questions))
		if exam {
			t.Verdict = BarVerdict(t.Score)
			g := round3(grader[t.Topic] / float64(t.Questions))
			t.GraderScore = &g
		}
		d.Topics = append(d.Topics, *t)
	}
	if exam && len(out.Answers) > 0 {
		// questions not reached count 0: running out of time is a verdict too
		d.Verdict = BarVerdict(sum / float64(max(out.Total, len(out.Answers))))
	}
	sort.Slice(d.Topics, func(i, j int) bool { return d.Topics[i].Topic < d.Topics[j].Topic })
	return d
}

// ReportDoc renders the end-of-session report. With detailed (exam and
// --answers mode) it walks through every answer with its model answer; an
// interactive session already gave that feedback. An exam also gives a
// verdict per area (topic) against the senior bar.
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
	if out.TimeUp {
		doc.Styled("warn", msgf(lang, "Time is up: {1:# question|# questions} not reached.", out.Total-len(out.Answers)))
	}
	doc.P(msgf(lang, "Score {1} over {2} of {3:# question|# questions}.", percent(data.Score), data.Answered, data.Total))
	if data.Answered == 0 {
		return doc
	}
	if exam {
		doc.Styled(verdictStyle(data.Verdict), msgf(lang, "Verdict against the senior bar (80%; unanswered questions count 0): {1}.", msg(lang, "verdict "+data.Verdict)))
	}
	header := []string{msg(lang, "Topic"), msg(lang, "Questions"), msg(lang, "Score"), msg(lang, "Time per question")}
	right := []bool{false, true, true, true}
	if exam {
		header, right = append(header, msg(lang, "Grader"), msg(lang, "Senior bar")), append(right, true, false)
	}
	tt := &report.Table{Header: header, Right: right}
	for _, t := range data.Topics {
		row := []string{t.Topic, fmt.Sprint(t.Questions), percent(t.Score), seconds(lang, t.Seconds)}
		if exam {
			row = append(row, percent(*t.GraderScore), msg(lang, "verdict "+t.Verdict))
		}
		tt.Rows = append(tt.Rows, row)
	}
	doc.T(tt)
	qt := &report.Table{Header: []string{"#", msg(lang, "Question"), msg(lang, "Verdict"), msg(lang, "Score"), msg(lang, "Time")},
		Right: []bool{true, false, false, true, true}}
	for i, a := range out.Answers {
		qt.Rows = append(qt.Rows, []string{fmt.Sprint(i + 1), a.Q.ID, msg(lang, a.Verdict()), percent(a.Score()), seconds(lang, a.Seconds)})
	}
	doc.T(qt)
	if detailed {
		if exam {
			doc.H(1, msg(lang, "Model answers"))
		}
		for i, a := range out.Answers {
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

// CountQuestions writes "1 question", "5 вопросов".
func CountQuestions(lang string, n int) string {
	return msgf(lang, "{1:# question|# questions}", n)
}

func verdictStyle(v string) string {
	switch v {
	case "senior":
		return "ok"
	case "borderline":
		return "warn"
	}
	return "bad"
}

func quoteAnswer(s string) string {
	if strings.TrimSpace(s) == "" {
		return "—"
	}
	return s
}

func percent(s float64) string { return fmt.Sprintf("%.0f%%", s*100) }

func seconds(lang string, s float64) string {
	if lang == "ru" {
		return l10n.Decimal(lang, s, 1) + " с"
	}
	return fmt.Sprintf("%.1fs", s)
}

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }

func trimFloat(x float64) string { return fmt.Sprintf("%g", x) }
