package quiz

import (
	"math"
	"testing"
)

// FuzzGradeText grades arbitrary text against every text question of the
// test bank: it must not panic and must return a score in [0, 1] with every
// rubric concept either found or missed. Seeds are in testdata/fuzz.
func FuzzGradeText(f *testing.F) {
	f.Add("a majority is needed")
	f.Add("нужно большинство")
	f.Add("")
	b := testBank(f)
	var qs []*Question
	for _, q := range b.Questions {
		if q.Type == TextAns {
			qs = append(qs, q)
		}
	}
	f.Fuzz(func(t *testing.T, answer string) {
		for _, q := range qs {
			r := Grade(q, nil, answer, "ru")
			if math.IsNaN(r.Score) || r.Score < 0 || r.Score > 1 {
				t.Fatalf("score %v for %q", r.Score, answer)
			}
			if len(r.Found)+len(r.Missed) != len(q.Rubric) && r.Unreadable == "" {
				t.Fatalf("concepts %d+%d != %d", len(r.Found), len(r.Missed), len(q.Rubric))
			}
		}
		// the numeric and choice parsers see the same input
		_, _, _ = ParseNumeric(answer)
		_, _ = ParseNumbers(answer, 5)
	})
}

// FuzzParseAnswers feeds arbitrary bytes to the answers-file parser: it
// must not panic, and what it accepts has non-empty, unique ids.
func FuzzParseAnswers(f *testing.F) {
	f.Add([]byte("- id: a\n  answer: 2\n"))
	f.Add([]byte("- {id: b, answer: [1, 3]}\n"))
	f.Add([]byte("- id: c\n  answer: |\n    multi\n    line\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		as, err := ParseAnswers(data)
		if err != nil {
			return
		}
		seen := map[string]bool{}
		for _, a := range as {
			if a.ID == "" || seen[a.ID] {
				t.Fatalf("accepted bad id %q in %q", a.ID, data)
			}
			seen[a.ID] = true
		}
	})
}

// FuzzParsePattern feeds arbitrary rubric patterns and answers to the
// pattern parser and matcher: no panic; an accepted pattern has at least
// two groups, each with at least one alternative of at least one word.
func FuzzParsePattern(f *testing.F) {
	f.Add("majority|quorum + commit|persist", "a write commits once a majority has it")
	f.Add("не|нет + добав + отказоустойч", "четвёртый член не добавляет отказоустойчивости")
	f.Add("floor(n/2)+1 + member", "floor(n/2)+1 members, not fewer; neither side (none) — ни одна")
	f.Add(" + ", "")
	f.Add("a||b + c", "requests > allocatable, нет ли taint'ов")
	f.Fuzz(func(t *testing.T, src, answer string) {
		p, err := parsePattern(src)
		if err != nil {
			return
		}
		if len(p.groups) < 2 {
			t.Fatalf("%q parsed with %d groups", src, len(p.groups))
		}
		for _, g := range p.groups {
			for _, a := range g {
				if len(a.words) == 0 {
					t.Fatalf("%q has an empty alternative", src)
				}
			}
		}
		for _, c := range clauses(answer) {
			if c.start < 0 || c.end > len(answer) || c.start > c.end || len(c.soft) != len(c.toks) {
				t.Fatalf("bad clause %+v of %q", c, answer)
			}
			m, ok := matchPattern(c, p, true)
			if ok && (m.lo < 0 || m.hi >= len(c.toks) || m.lo > m.hi) {
				t.Fatalf("bad match %+v", m)
			}
		}
	})
}
