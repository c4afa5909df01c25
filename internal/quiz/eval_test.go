package quiz

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/k8sexplain/k8sexplain/questions"
	"gopkg.in/yaml.v3"
)

// evalAnswer is one labelled answer of testdata/eval/<split>/<id>.yaml.
type evalAnswer struct {
	Lang   string `yaml:"lang"`
	Kind   string `yaml:"kind"`
	Expect string `yaml:"expect"`
	Text   string `yaml:"text"`
}

var (
	// keywords, negation, misconception and empty are the kinds of the
	// first sets (dev, dev-old); stuffed and negated those of the sets
	// written blind (dev-blind, dev-blind2, dev-blind3, holdout)
	evalKinds   = []string{"correct", "jargon", "keywords", "negation", "misconception", "partial", "offtopic", "empty", "stuffed", "negated"}
	evalExpects = []string{"pass", "partial", "fail"}
	// negativeKinds must never be suggested as a pass
	negativeKinds = []string{"keywords", "negation", "misconception", "offtopic", "empty", "stuffed", "negated"}
)

// evalSplits are the labelled sets, in testdata/eval/<split>/<id>.yaml.
// dev: written by the grader's authors after reading the rubric; dev-old:
// the first holdout, used for tuning since, so dev now; dev-blind: written
// blind (only the question prompt seen, never the rubric, the model
// answer or the code; issue 22 §3), tuned on; dev-blind2: the second
// holdout, written blind by two other writers and scored once unread,
// tuned on since, so dev now; dev-blind3: the third holdout (820
// answers written blind), scored once unread, tuned on since, so dev
// now; holdout: a new blind set the lead adds at
// merge time, never read while tuning: graded and its figures printed,
// its text never. A split whose folder is missing or empty is skipped.
var evalSplits = []string{"dev", "dev-old", "dev-blind", "dev-blind2", "dev-blind3", "holdout"}

// devFloor are the levels the dev sets reach, per split and language: a
// regression below them fails. The targets on blind answers are
// correct-as-pass >= 70 %, correct marked contradicted <= 2 %, and a
// negative suggested as a pass <= 5 %; README ("How well the free-text
// grader does") gives the figures and how they were made.
var devFloor = map[string]evalFloor{
	"dev en":        {minCorrectPass: 0.99, maxContradicted: 0.005, maxNegativePass: 0.005},
	"dev ru":        {minCorrectPass: 0.99, maxContradicted: 0.005, maxNegativePass: 0.005},
	"dev-old en":    {minCorrectPass: 0.94, maxContradicted: 0.005, maxNegativePass: 0.005},
	"dev-old ru":    {minCorrectPass: 0.90, maxContradicted: 0.005, maxNegativePass: 0.005},
	"dev-blind en":  {minCorrectPass: 0.90, maxContradicted: 0.005, maxNegativePass: 0.02},
	"dev-blind ru":  {minCorrectPass: 0.86, maxContradicted: 0.005, maxNegativePass: 0.01},
	"dev-blind2 en": {minCorrectPass: 0.89, maxContradicted: 0.005, maxNegativePass: 0.005},
	"dev-blind2 ru": {minCorrectPass: 0.82, maxContradicted: 0.005, maxNegativePass: 0.005},
	"dev-blind3 en": {minCorrectPass: 0.73, maxContradicted: 0.005, maxNegativePass: 0.035},
	"dev-blind3 ru": {minCorrectPass: 0.72, maxContradicted: 0.005, maxNegativePass: 0.005},
}

type evalFloor struct{ minCorrectPass, maxContradicted, maxNegativePass float64 }

// evalStats counts one split in one language (or both).
type evalStats struct {
	answers                int
	correct, correctPass   int // correct and jargon answers; those suggested as a pass
	contradicted           int // correct answers with a check marked ✗ (a named misconception)
	negative, negativePass int // stuffed, negated, off-topic (and the old negative kinds); suggested as a pass
	partial, partialPass   int
	misgraded              []string
}

func (s evalStats) rate(n, of int) float64 {
	if of == 0 {
		return 0
	}
	return float64(n) / float64(of)
}

func (s evalStats) String() string {
	return fmt.Sprintf("%d answers: correct suggested as pass %d/%d = %.1f%%, correct marked contradicted %d/%d = %.1f%%, stuffed/negated/off-topic suggested as pass %d/%d = %.1f%%, partial as pass %d/%d",
		s.answers, s.correctPass, s.correct, 100*s.rate(s.correctPass, s.correct), s.contradicted, s.correct, 100*s.rate(s.contradicted, s.correct),
		s.negativePass, s.negative, 100*s.rate(s.negativePass, s.negative), s.partialPass, s.partial)
}

// loadEval reads every file of one split (none if the folder is absent).
// Holdout answers are graded but their text is never printed: nobody
// tunes on them.
func loadEval(t *testing.T, bank *Bank, split string) map[string][]evalAnswer {
	t.Helper()
	dir := path.Join("testdata", "eval", split)
	out := map[string][]evalAnswer{}
	names, err := fs.Glob(os.DirFS(dir), "*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		id := strings.TrimSuffix(name, ".yaml")
		q := bank.Get(id)
		if q == nil || q.Type != TextAns {
			t.Errorf("%s/%s: no free-text question %q in the bank", dir, name, id)
			continue
		}
		data, err := os.ReadFile(path.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		dec := yaml.NewDecoder(strings.NewReader(string(data)))
		dec.KnownFields(true)
		var as []evalAnswer
		if err := dec.Decode(&as); err != nil {
			t.Errorf("%s/%s: %v", dir, name, err)
			continue
		}
		for i, a := range as {
			if (a.Lang != "en" && a.Lang != "ru") || !slices.Contains(evalKinds, a.Kind) || !slices.Contains(evalExpects, a.Expect) {
				t.Errorf("%s/%s: answer %d: lang %q kind %q expect %q not valid", dir, name, i+1, a.Lang, a.Kind, a.Expect)
			}
		}
		out[id] = as
	}
	return out
}

// gradeEval grades a split per language ("" for both). A correct answer
// is one labelled pass of kind correct or jargon; a negative one of the
// negative kinds; pass is Result.Pass, the one pass definition the
// feedback and the FSRS suggestion use.
func gradeEval(bank *Bank, set map[string][]evalAnswer, show bool) map[string]*evalStats {
	by := map[string]*evalStats{"": {}, "en": {}, "ru": {}}
	ids := make([]string, 0, len(set))
	for id := range set {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		q := bank.Get(id)
		for i, a := range set[id] {
			r := Grade(q, nil, a.Text, a.Lang)
			bad := ""
			for _, s := range []*evalStats{by[""], by[a.Lang]} {
				s.answers++
				switch {
				case a.Expect == "pass" && (a.Kind == "correct" || a.Kind == "jargon"):
					s.correct++
					if r.Pass {
						s.correctPass++
					} else {
						bad = "FN"
					}
					if misconceived(r) {
						s.contradicted++
						bad = "CONTRA"
					}
				case slices.Contains(negativeKinds, a.Kind) && a.Expect != "pass":
					s.negative++
					if r.Pass {
						s.negativePass++
						bad = "FP"
					}
				case a.Kind == "partial":
					s.partial++
					if r.Pass {
						s.partialPass++
					}
				}
			}
			if bad != "" && show {
				var states []string
				for _, c := range r.Checks {
					st := c.State + " [" + c.Concept + "]"
					if c.Quote != "" {
						st += " «" + c.Quote + "»"
					}
					states = append(states, st)
				}
				by[""].misgraded = append(by[""].misgraded, fmt.Sprintf("%s %s#%d %s %s (expect %s) score %.2f: %q\n      %s",
					bad, id, i+1, a.Lang, a.Kind, a.Expect, r.Score, a.Text, strings.Join(states, "\n      ")))
			}
		}
	}
	return by
}

// TestEvalGrader grades the labelled sets and prints, per split and
// language, the share of correct answers suggested as a pass, of correct
// answers marked ✗ contradicted, and of stuffed, negated or off-topic
// answers suggested as a pass. It fails when a dev split falls below the
// levels reached (devFloor); the holdout is scored and printed, never
// asserted on (the lead scores it against the targets). With
// K8SEXPLAIN_EVAL_SHOW=1 the misgraded dev answers are logged.
func TestEvalGrader(t *testing.T) {
	bank, err := Load(questions.FS)
	if err != nil {
		t.Fatal(err)
	}
	show := os.Getenv("K8SEXPLAIN_EVAL_SHOW") != ""
	for _, split := range evalSplits {
		set := loadEval(t, bank, split)
		if len(set) == 0 {
			t.Logf("quiz eval: %s: no answers (testdata/eval/%s missing or empty), skipped", split, split)
			continue
		}
		by := gradeEval(bank, set, show && split != "holdout")
		for _, m := range by[""].misgraded {
			t.Log(m)
		}
		for _, lang := range []string{"", "en", "ru"} {
			name := split
			if lang != "" {
				name += " " + lang
			}
			fmt.Printf("quiz eval: %s: %s\n", name, by[lang])
			f, ok := devFloor[name]
			if !ok {
				continue
			}
			s := by[lang]
			if c := s.rate(s.correctPass, s.correct); c < f.minCorrectPass {
				t.Errorf("%s: correct suggested as pass %.1f%%, below %.0f%%", name, 100*c, 100*f.minCorrectPass)
			}
			if c := s.rate(s.contradicted, s.correct); c > f.maxContradicted {
				t.Errorf("%s: correct marked contradicted %.1f%%, above %.0f%%", name, 100*c, 100*f.maxContradicted)
			}
			if n := s.rate(s.negativePass, s.negative); n > f.maxNegativePass {
				t.Errorf("%s: stuffed/negated/off-topic suggested as pass %.1f%%, above %.0f%%", name, 100*n, 100*f.maxNegativePass)
			}
		}
	}
}
