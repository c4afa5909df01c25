package quiz

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/k8sexplain/k8sexplain/questions"
)

func TestZZDebug(t *testing.T) {
	id := os.Getenv("Q")
	if id == "" {
		t.Skip()
	}
	bank, _ := Load(questions.FS)
	q := bank.Get(id)
	set := loadEval(t, bank, os.Getenv("SPLIT"))
	ccs := compiledRubric(q)
	for i, a := range set[id] {
		if a.Lang != os.Getenv("LNG") || !(a.Kind == "correct" || a.Kind == "jargon") {
			continue
		}
		r := Grade(q, nil, a.Text, a.Lang)
		if r.Pass && os.Getenv("ALL") == "" {
			continue
		}
		fmt.Printf("=== #%d %s pass=%v %.2f\n%s\n", i+1, a.Kind, r.Pass, r.Score, a.Text)
		cls := clauses(a.Text)
		for _, c := range cls {
			var ws []string
			for _, tk := range c.toks {
				w := tk.raw
				if tk.alias != nil {
					w += "=" + tk.alias.raw
				}
				ws = append(ws, w)
			}
			fmt.Printf("  clause list=%v: %s\n", c.list, strings.Join(ws, " "))
		}
		for ci, ch := range r.Checks {
			if ch.State == Stated {
				continue
			}
			fmt.Printf("  -- %s: %s %q\n", ch.State, ch.Concept, ch.Quote)
			for _, p := range ccs[ci].says {
				if strings.Contains(p.src, " / ") {
					continue
				}
				for _, c := range cls {
					n, miss := 0, -1
					for gi, g := range p.groups {
						hit := false
						for _, ph := range g {
							if len(phraseMatches(c.toks, ph)) > 0 {
								hit = true
							}
						}
						if hit {
							n++
						} else {
							miss = gi
						}
					}
					if n == len(p.groups)-1 && n > 0 || n == len(p.groups) {
						var ws []string
						for _, tk := range c.toks {
							ws = append(ws, tk.raw)
						}
						gs := "ALL"
						if miss >= 0 {
							gs = fmt.Sprint(miss)
						}
						fmt.Printf("      miss g%s of %s\n         in: %s\n", gs, p.src, strings.Join(ws, " "))
					}
				}
			}
		}
	}
}
