package questions_test

import (
	"slices"
	"testing"
	"unicode/utf8"

	_ "github.com/k8sexplain/k8sexplain/internal/golden" // defines -update for `go test ./... -update`
	"github.com/k8sexplain/k8sexplain/internal/quiz"
	"github.com/k8sexplain/k8sexplain/questions"
)

// minQuestions is the size issue 6 asks of the bank.
const minQuestions = 100

func load(t *testing.T) *quiz.Bank {
	t.Helper()
	b, err := quiz.Load(questions.FS)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestBankLint checks every embedded question against the schema: both
// languages everywhere, valid type, topic and difficulty, answer data that
// fits the type, unique ids (Load rejects duplicates) and a `see:` line that
// names k8sexplain and a real subcommand. cmd's TestQuizSeeLinesParse also
// parses each `see:` with the real command tree.
func TestBankLint(t *testing.T) {
	b := load(t)
	if len(b.Questions) < minQuestions {
		t.Errorf("the bank has %d questions, want at least %d", len(b.Questions), minQuestions)
	}
	topics := map[string]int{}
	for _, q := range b.Questions {
		topics[q.Topic]++
		for _, err := range quiz.Validate(q) {
			t.Error(err)
		}
	}
	for _, topic := range quiz.Topics {
		if topics[topic] == 0 {
			t.Errorf("no question on topic %s", topic)
		}
	}
}

// TestBankTypesRegistered: every type the bank uses is in the registry of
// question types (an unknown one is also a file:line error from Validate),
// and every registered type has questions, so the model-answer check below
// exercises each type's presentation, model answer and grader.
func TestBankTypesRegistered(t *testing.T) {
	count := map[string]int{}
	for _, q := range load(t).Questions {
		count[q.Type]++
		if !slices.Contains(quiz.Types, q.Type) {
			t.Errorf("%s (%s): type %q is not registered (kinds in internal/quiz/kind.go)", q.File, q.ID, q.Type)
		}
	}
	for _, typ := range quiz.Types {
		if count[typ] == 0 {
			t.Errorf("no question of type %s in the bank", typ)
		}
	}
}

// TestBankModelAnswers grades the model answer of every question in both
// languages: the right choices, the steps in order, the value with its
// unit, and for free text the explanation itself, which must earn full
// credit from its own rubric. A non-answer must earn nothing.
func TestBankModelAnswers(t *testing.T) {
	for _, q := range load(t).Questions {
		for _, lang := range []string{"en", "ru"} {
			p := quiz.Present(q, 1, 1, lang, 1)
			r := quiz.Grade(q, p.Shown, quiz.ModelAnswer(p), lang)
			if r.Score < 1 {
				t.Errorf("%s (%s, %s): the model answer scores %.2f (missed %q)", q.File, q.ID, lang, r.Score, r.Missed)
			}
			if q.Type != quiz.TextAns {
				continue
			}
			for _, idk := range []string{"I don't know, sorry", "не знаю, извините", "it depends"} {
				if r := quiz.Grade(q, nil, idk, lang); r.Score > 0 {
					t.Errorf("%s (%s): %q earns %.2f: a synonym is too generic (found %q)", q.File, q.ID, idk, r.Score, r.Found)
				}
			}
		}
	}
}

// TestBankRubricsSpecific grades the model answer of every other question
// (any type) against each free-text rubric, in both languages: an answer
// to a different question must not earn full credit, or the rubric is too
// generic to tell a real answer from any Kubernetes text. The question's
// own explanation earning full credit is TestBankModelAnswers' job.
func TestBankRubricsSpecific(t *testing.T) {
	qs := load(t).Questions
	worst, worstAt := 0.0, ""
	for _, q := range qs {
		if q.Type != quiz.TextAns {
			continue
		}
		for _, lang := range []string{"en", "ru"} {
			for _, o := range qs {
				if o == q {
					continue
				}
				// In falls back to the other language; compare like with like.
				if (lang == "ru" && o.Explanation.Ru == "") || (lang == "en" && o.Explanation.En == "") {
					continue
				}
				r := quiz.Grade(q, nil, o.Explanation.In(lang), lang)
				if r.Score > worst {
					worst, worstAt = r.Score, q.ID+" <- "+o.ID+" ("+lang+")"
				}
				if r.Score >= 1 {
					t.Errorf("%s (%s, %s): the explanation of %s (%s) scores %.2f (found %q)", q.File, q.ID, lang, o.ID, o.File, r.Score, r.Found)
				}
			}
		}
	}
	t.Logf("worst cross-question score: %.2f (%s)", worst, worstAt)
}

// maxLongestRightShare caps how often the right option of a single-choice
// question may be its longest one (ties count as longest). A learner who
// always picks the longest option would otherwise score well without
// knowing anything; with 3 to 5 options chance is about 1/4, and 30 % lets
// a few answers be naturally long without rewarding the guess. Checked per
// language, since translations differ in length.
const maxLongestRightShare = 0.30

// TestBankLongestOptionNotAHint fails when the longest option of too many
// single-choice questions is the right one.
func TestBankLongestOptionNotAHint(t *testing.T) {
	qs := load(t).Questions
	for _, lang := range []string{"en", "ru"} {
		singles, longest := 0, []string{}
		for _, q := range qs {
			if q.Type != quiz.Single || len(q.Answer) != 1 {
				continue
			}
			singles++
			right := utf8.RuneCountInString(q.Choices[q.Answer[0]].In(lang))
			isLongest := true
			for i, c := range q.Choices {
				if i != q.Answer[0] && utf8.RuneCountInString(c.In(lang)) > right {
					isLongest = false
					break
				}
			}
			if isLongest {
				longest = append(longest, q.ID)
			}
		}
		share := float64(len(longest)) / float64(singles)
		t.Logf("%s: the right option is the longest in %d of %d single-choice questions (%.0f %%)", lang, len(longest), singles, 100*share)
		if share > maxLongestRightShare {
			t.Errorf("%s: the right option is the longest in %d of %d single-choice questions (%.0f %%, want at most %.0f %%): lengthen a distractor or shorten the answer in some of %v",
				lang, len(longest), singles, 100*share, 100*maxLongestRightShare, longest)
		}
	}
}
