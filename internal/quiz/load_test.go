package quiz

import (
	"testing"
	"testing/fstest"

	"github.com/k8sexplain/k8sexplain/questions"
)

// BenchmarkLoadBank decodes the embedded question bank (what every quiz
// command does first; issue 26 §3).
func BenchmarkLoadBank(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if _, err := Load(questions.FS); err != nil {
			b.Fatal(err)
		}
	}
}

// The bank is parsed once, and a key that names no field is still an
// error with the file and line, at any depth (issue 26 §3 kept the
// strictness of the old three-pass decode).
func TestLoadRejectsUnknownFields(t *testing.T) {
	for _, tc := range []struct{ yaml, want string }{
		{"- id: a\n  explaination: {en: x, ru: y}\n", "x.yaml:1: line 2: field explaination not found in type quiz.Question"},
		{"- id: a\n  rubric:\n    - name: {en: x, ru: y}\n      sayz: {en: [], ru: []}\n", "x.yaml:1: line 4: field sayz not found in type quiz.Concept"},
		{"- id: a\n  choices:\n    - {en: x, ru: y, wy: {en: a, ru: b}}\n", "x.yaml:1: line 3: field wy not found in type quiz.Choice"},
		{"- id: a\n  see: {run: r, look: {en: x, ru: y, de: z}, doc: d}\n", "x.yaml:1: line 2: field de not found in type quiz.Text"},
	} {
		_, err := Load(fstest.MapFS{"x.yaml": {Data: []byte(tc.yaml)}})
		if err == nil || err.Error() != tc.want {
			t.Errorf("%q: %v, want %s", tc.yaml, err, tc.want)
		}
	}
	b, err := Load(fstest.MapFS{"x.yaml": {Data: []byte("- id: a\n  prompt: {en: x, ru: y}\n  pass: 2\n")}})
	if err != nil || b.Get("a").Prompt.Ru != "y" || b.Get("a").Pass != 2 || b.Get("a").File != "x.yaml:1" {
		t.Errorf("a valid question: %+v %v", b, err)
	}
}
