package quiz

import (
	"os"
	"testing"

	_ "github.com/k8sexplain/k8sexplain/internal/golden" // defines -update for `go test ./... -update`
)

func testBank(t testing.TB) *Bank {
	t.Helper()
	b, err := Load(os.DirFS("testdata"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestTestdataValid(t *testing.T) {
	for _, q := range testBank(t).Questions {
		for _, err := range Validate(q) {
			t.Error(err)
		}
	}
}

func TestGrade(t *testing.T) {
	b := testBank(t)
	for _, tc := range []struct {
		name, id, lang string
		shown          []int
		answer         string
		score          float64
		verdict        string
	}{
		{"single correct", "t-single-apiserver", "en", nil, "2", 1, Correct},
		{"single wrong", "t-single-apiserver", "en", nil, "1", 0, Wrong},
		{"single dot", "t-single-apiserver", "ru", nil, " 2. ", 1, Correct},
		{"single two numbers", "t-single-apiserver", "en", nil, "1 2", 0, Wrong},
		{"single out of range", "t-single-apiserver", "en", nil, "9", 0, Wrong},
		{"single shuffled", "t-single-apiserver", "en", []int{2, 1, 0}, "2", 1, Correct},
		{"multi all", "t-multi-ns", "en", nil, "1,2,3", 1, Correct},
		{"multi spaces any order", "t-multi-ns", "ru", nil, "3 1 2", 1, Correct},
		{"multi partial", "t-multi-ns", "en", nil, "1, 2", 2.0 / 3, Partial},
		{"multi one wrong pick", "t-multi-ns", "en", nil, "1 2 3 4", 0.5, Partial},
		{"multi everything", "t-multi-ns", "en", nil, "1 2 3 4 5", 0, Wrong},
		{"multi wrong only", "t-multi-apply", "en", nil, "2;4", 0, Wrong},
		{"order correct", "t-order-apply", "en", nil, "1 2 3 4 5", 1, Correct},
		{"order shuffled correct", "t-order-apply", "en", []int{3, 0, 4, 1, 2}, "2 4 5 1 3", 1, Correct},
		{"order one swap", "t-order-apply", "en", nil, "1 3 2 4 5", 0.9, Partial},
		{"order reversed", "t-order-apply", "ru", nil, "5 4 3 2 1", 0, Wrong},
		{"order incomplete", "t-order-shutdown", "en", nil, "1 2 3", 0.5, Partial},
		{"order repeated", "t-order-shutdown", "en", nil, "1 1 2 3", 0, Wrong},
		{"numeric bare", "t-num-quorum", "en", nil, "3", 1, Correct},
		{"numeric unit en", "t-num-quorum", "en", nil, "3 members", 1, Correct},
		{"numeric unit ru", "t-num-quorum", "ru", nil, "3 узла", 1, Correct},
		{"numeric unit ru other form", "t-num-quorum", "ru", nil, "3 узлов", 1, Correct},
		{"numeric wrong", "t-num-quorum", "en", nil, "2 nodes", 0, Wrong},
		{"numeric seconds short", "t-num-grace", "en", nil, "30s", 1, Correct},
		{"numeric minutes", "t-num-grace", "en", nil, "0.5 min", 1, Correct},
		{"numeric ms", "t-num-grace", "en", nil, "30 ms", 0, Wrong},
		{"numeric ru seconds", "t-num-grace", "ru", nil, "30 секунд", 1, Correct},
		{"numeric comma", "t-num-ndots", "ru", nil, "5,4", 1, Correct},
		{"numeric tolerance", "t-num-ndots", "en", nil, "6", 0, Wrong},
		{"numeric word en", "t-num-ndots", "en", nil, "five", 1, Correct},
		{"numeric word ru", "t-num-quorum", "ru", nil, "три узла", 1, Correct},
		{"numeric word ru yo", "t-num-quorum", "ru", nil, "Трёх", 1, Correct},
		{"numeric not a number", "t-num-ndots", "en", nil, "a few", 0, Wrong},
		{"numeric two numbers", "t-num-quorum", "en", nil, "3 5", 0, Wrong},
		{"numeric fraction", "t-num-ratio", "en", nil, "1/3", 1, Correct},
		{"numeric percent for a fraction", "t-num-ratio", "en", nil, "33%", 1, Correct},
		{"numeric percent decimal ru", "t-num-ratio", "ru", nil, "33,3 %", 1, Correct},
		{"numeric decimal fraction", "t-num-ratio", "en", nil, "0.333", 1, Correct},
		{"numeric wrong fraction", "t-num-ratio", "en", nil, "1/2", 0, Wrong},
		{"numeric thousands comma", "t-num-objects", "en", nil, "50,000", 1, Correct},
		{"numeric thousands space", "t-num-objects", "ru", nil, "50 000 подов", 1, Correct},
		{"numeric thousands k", "t-num-objects", "en", nil, "50k", 1, Correct},
		{"numeric thousands k unit", "t-num-objects", "en", nil, "50k pods", 1, Correct},
		{"numeric millicores m", "t-num-cpu", "en", nil, "700m", 1, Correct},
		{"numeric millicores word", "t-num-cpu", "ru", nil, "700 милликор", 1, Correct},
		{"numeric cores", "t-num-cpu", "en", nil, "0.7 cores", 1, Correct},
		{"numeric millicores wrong", "t-num-cpu", "en", nil, "1200m", 0, Wrong},
		{"numeric minutes still minutes", "t-num-grace", "en", nil, "0.5m", 1, Correct},
		{"text en full", "t-text-quorum", "en", nil, "Writes need a majority, and 4 members give the same fault tolerance as 3.", 1, Correct},
		{"text en paraphrase", "t-text-quorum", "en", nil, "because you need more than half to agree and an even cluster tolerates the same number of failures", 1, Correct},
		{"text en typo", "t-text-quorum", "en", nil, "you need a majorty; the same fault tolerence", 1, Correct},
		{"text en gap in phrase", "t-text-quorum", "en", nil, "more than a half must agree; you get the same fault tolerance", 1, Correct},
		{"text en gap too wide", "t-text-quorum", "en", nil, "more of them than any half; the same fault tolerance", 0.5, Partial},
		{"text en partial", "t-text-quorum", "en", nil, "you need a quorum", 0.5, Partial},
		{"text en keyword alone", "t-text-quorum", "en", nil, "quorum", 0, Wrong},
		{"text en keyword list", "t-text-quorum", "en", nil, "majority, quorum, same, fault tolerance", 0, Wrong},
		{"text en negation", "t-text-quorum", "en", nil, "etcd does not need a majority; the same fault tolerance", 0.5, Partial},
		{"text en double negation", "t-text-quorum", "en", nil, "no write commits without a quorum", 0.5, Partial},
		{"text en not until", "t-text-quorum", "en", nil, "a write isn't committed until a majority has it", 0.5, Partial},
		{"text en misconception", "t-text-quorum", "en", nil, "a write needs a majority, but any member can accept writes alone", 0, Wrong},
		{"text ru negation", "t-text-quorum", "ru", nil, "кворум для записи вовсе не нужен", 0, Wrong},
		{"text ru until", "t-text-quorum", "ru", nil, "запись не коммитится, пока большинство её не подтвердит", 0.5, Partial},
		{"text en wrong", "t-text-quorum", "en", nil, "it is faster", 0, Wrong},
		{"text ru full", "t-text-quorum", "ru", nil, "Нужно большинство голосов, а чётный кластер даёт ту же отказоустойчивость.", 1, Correct},
		{"text ru inflected", "t-text-quorum", "ru", nil, "без кворума запись невозможна", 0.5, Partial},
		{"text ru typo", "t-text-quorum", "ru", nil, "нужно большенство", 0.5, Partial},
		{"text ru wrong", "t-text-quorum", "ru", nil, "так быстрее", 0, Wrong},
		{"text mixed languages", "t-text-reconcile", "ru", nil, "сравнивает spec и status и приводит их", 1, Correct},
		{"text pass 2 of 3", "t-text-pending", "en", nil, "not enough memory on nodes, or a taint without toleration", 2.0 / 3, Partial},
		{"text ru pass", "t-text-pending", "ru", nil, "не хватает ресурсов, или нет подходящего под affinity", 2.0 / 3, Partial},
		{"text all 3", "t-text-pending", "en", nil, "not enough memory; a taint without toleration; an affinity no node matches", 1, Correct},
		{"text empty", "t-text-pending", "en", nil, "   ", 0, Revealed},
		{"text ?", "t-text-pending", "en", nil, " ? ", 0, Revealed},
		{"single ?", "t-single-apiserver", "en", nil, "?", 0, Revealed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := b.Get(tc.id)
			if q == nil {
				t.Fatalf("no question %s", tc.id)
			}
			r := Grade(q, tc.shown, tc.answer, tc.lang)
			if diff := r.Score - tc.score; diff > 1e-9 || diff < -1e-9 || r.Verdict != tc.verdict {
				t.Errorf("Grade(%q) = %.3f %s, want %.3f %s (%+v)", tc.answer, r.Score, r.Verdict, tc.score, tc.verdict, r)
			}
		})
	}
}

func TestGradeDetails(t *testing.T) {
	b := testBank(t)
	r := Grade(b.Get("t-order-apply"), nil, "1 3 2 4 5", "en")
	if len(r.Misplaced) != 1 {
		t.Errorf("misplaced = %q, want one step", r.Misplaced)
	}
	r = Grade(b.Get("t-multi-ns"), nil, "1 4", "ru")
	if len(r.MissedPicks) != 2 || len(r.WrongPicks) != 1 || r.WrongPicks[0] != "PID" {
		t.Errorf("multi details: %+v", r)
	}
	r = Grade(b.Get("t-text-pending"), nil, "A taint without toleration. Rest unknown.", "ru")
	if len(r.Found) != 1 || r.Found[0] != "taints" || len(r.Missed) != 2 || r.Pass {
		t.Errorf("text details: %+v", r)
	}
	if len(r.Checks) != 3 || r.Checks[1].State != Stated || r.Checks[1].Quote != "A taint without toleration" || r.Checks[0].State != Missing {
		t.Errorf("text checklist: %+v", r.Checks)
	}
	r = Grade(b.Get("t-text-pending"), nil, "not enough memory, or a taint without toleration", "en")
	if !r.Pass || r.Verdict != Partial || AutoRating(b.Get("t-text-pending"), r).String() != "Good" {
		t.Errorf("2 of 3 with pass 2 is a pass rated Good: %+v", r)
	}
	r = Grade(b.Get("t-text-quorum"), nil, "a write needs a majority, but any member can accept writes alone", "en")
	if r.Checks[0].State != Misconception || r.Checks[0].Misconception != "any single member can accept writes on its own" {
		t.Errorf("misconception not named: %+v", r.Checks)
	}
	r = Grade(b.Get("t-text-quorum"), nil, "etcd does not need a majority", "en")
	if r.Checks[0].State != Contradicted || r.Checks[0].Quote != "etcd does not need a majority" {
		t.Errorf("negation not a contradiction: %+v", r.Checks)
	}
	r = Grade(b.Get("t-num-quorum"), nil, "3 bananas", "en")
	if r.Score != 1 || r.Note == "" {
		t.Errorf("unknown unit should be noted: %+v", r)
	}
	for _, ans := range []string{"3 nodes", "3 узла", "3 реплики", "3 servers", "3 членов", "3 участника", "3 ноды"} {
		if r := Grade(b.Get("t-num-quorum"), nil, ans, "ru"); r.Score != 1 || r.Note != "" {
			t.Errorf("%q: a member is a node is a replica: %+v", ans, r)
		}
	}
	if r := Grade(b.Get("t-num-surge"), nil, "13 nodes", "en"); r.Score != 1 || r.Note == "" {
		t.Errorf("nodes are not pods: %+v", r)
	}
}

func TestRating(t *testing.T) {
	for s, want := range map[float64]string{0: "Again", 0.49: "Again", 0.5: "Hard", 0.8: "Good", 1: "Easy"} {
		if got := Rating(s).String(); got != want {
			t.Errorf("Rating(%v) = %s, want %s", s, got, want)
		}
	}
}

func TestWithinOneEdit(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"quorum", "quorum", true}, {"quorum", "qourum", true}, {"quorum", "quorm", true},
		{"quorum", "quorums", true}, {"quorum", "qurom", false}, {"кворум", "кворм", true}, {"", "ab", false},
	} {
		if got := withinOneEdit(tc.a, tc.b); got != tc.want {
			t.Errorf("withinOneEdit(%q, %q) = %v", tc.a, tc.b, got)
		}
	}
}

// A negation the pattern asks for does not reach across a comma: the
// first clause's "not" must not make the second clause's "adds fault
// tolerance" state "an even size adds no tolerance" (the real bank's
// question, as a learner would answer it wrongly).
func TestNegatorDoesNotReachAcrossComma(t *testing.T) {
	b, err := Load(os.DirFS("../../questions"))
	if err != nil {
		t.Fatal(err)
	}
	q := b.Get("etcd-odd-sizes")
	r := Grade(q, nil, "etcd does not need a majority, so an even number of members is fine and adds fault tolerance.", "en")
	for _, c := range r.Checks {
		if c.State == Stated {
			t.Errorf("a wrong answer states %q: %+v", c.Concept, c)
		}
	}
	r = Grade(q, nil, "A fourth member does not add fault tolerance: 4 members need 3 for quorum.", "en")
	if r.Checks[1].State != Stated {
		t.Errorf("the negation inside the clause is the concept itself: %+v", r.Checks[1])
	}
}
