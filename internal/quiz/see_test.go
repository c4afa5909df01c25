package quiz

import (
	"strings"
	"testing"
	"testing/fstest"
)

// §3 `see:`: the schema is strict and the lint names each broken part.
func TestSeeValidate(t *testing.T) {
	good := See{Run: "k8sexplain trace crash --reason oom", Look: Text{En: "`OOMKilled`", Ru: "`OOMKilled`"},
		Doc: "https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle/"}
	q := func(s See) *Question {
		return &Question{ID: "q", Topic: "pods", Difficulty: "middle", Type: NumType, Numeric: &Numeric{Value: 1},
			Prompt: Text{En: "p", Ru: "п"}, Explanation: Text{En: "e", Ru: "о"}, See: s}
	}
	if errs := Validate(q(good)); len(errs) > 0 {
		t.Fatalf("a good see: is rejected: %v", errs)
	}
	for _, tc := range []struct {
		name, want string
		edit       func(*See)
	}{
		{"no look in Russian", "see.look needs both", func(s *See) { s.Look.Ru = "" }},
		{"not k8sexplain", "does not start with k8sexplain", func(s *See) { s.Run = "kubectl get pods" }},
		{"unknown command", "is not one of", func(s *See) { s.Run = "k8sexplain bogus" }},
		{"plain http", "not an https URL", func(s *See) { s.Doc = "http://kubernetes.io/docs/" }},
		{"no doc", "not an https URL", func(s *See) { s.Doc = "" }},
		{"not upstream", "not on an upstream site", func(s *See) { s.Doc = "https://medium.com/some/post" }},
		{"look-alike host", "not on an upstream site", func(s *See) { s.Doc = "https://kubernetes.io.evil.example/docs/" }},
		{"another GitHub org", "not on an upstream site", func(s *See) { s.Doc = "https://github.com/someone/fork/blob/main/x.md" }},
	} {
		s := good
		tc.edit(&s)
		errs := Validate(q(s))
		if len(errs) == 0 || !strings.Contains(errs[0].Error(), tc.want) {
			t.Errorf("%s: got %v, want an error with %q", tc.name, errs, tc.want)
		}
	}
	for _, ok := range []string{"https://etcd.io/docs/latest/faq/", "https://github.com/kubernetes/kubernetes/blob/master/pkg/kubelet/kubelet.go",
		"https://raft.github.io/"} {
		s := good
		s.Doc = ok
		if errs := Validate(q(s)); len(errs) > 0 {
			t.Errorf("%s is upstream, got %v", ok, errs)
		}
	}
}

// The old one-string form and unknown keys inside see: fail to load.
func TestSeeStrictDecoding(t *testing.T) {
	base := "- id: q\n  topic: pods\n  difficulty: middle\n  type: numeric\n  numeric: {value: 1}\n" +
		"  prompt: {en: p, ru: п}\n  explanation: {en: e, ru: о}\n"
	for name, see := range map[string]string{
		"string form": "  see: \"k8sexplain trace crash\"\n",
		"unknown key": "  see: {run: \"k8sexplain trace crash\", look: {en: a, ru: б}, doc: \"https://kubernetes.io/\", url: x}\n",
	} {
		_, err := Load(fstest.MapFS{"q.yaml": {Data: []byte(base + see)}})
		if err == nil {
			t.Errorf("%s: loaded", name)
		}
	}
	b, err := Load(fstest.MapFS{"q.yaml": {Data: []byte(base +
		"  see: {run: \"k8sexplain trace crash\", look: {en: a, ru: б}, doc: \"https://kubernetes.io/\"}\n")}})
	if err != nil {
		t.Fatal(err)
	}
	if s := b.Get("q").See; s.Run != "k8sexplain trace crash" || s.Look.Ru != "б" || s.Doc != "https://kubernetes.io/" {
		t.Errorf("decoded %+v", s)
	}
}

// The feedback shows the command, what to look for (in the learner's
// language) and the doc link.
func TestFeedbackShowsSee(t *testing.T) {
	q := &Question{ID: "q", Type: NumType, Numeric: &Numeric{Value: 1}, Explanation: Text{En: "e", Ru: "о"},
		See: See{Run: "k8sexplain trace crash --reason oom", Look: Text{En: "look for `OOMKilled`", Ru: "ищите `OOMKilled`"},
			Doc: "https://kubernetes.io/docs/x/"}}
	for lang, want := range map[string][]string{
		"en": {"See it: k8sexplain trace crash --reason oom", "Look for: look for `OOMKilled`", "Docs: https://kubernetes.io/docs/x/"},
		"ru": {"Посмотреть вживую: k8sexplain trace crash --reason oom", "Что искать: ищите `OOMKilled`", "Документация: https://kubernetes.io/docs/x/"},
	} {
		d := FeedbackDoc(&Answered{Q: q, Result: Result{Verdict: Correct, Score: 1}}, lang)
		var all []string
		for _, b := range d.Blocks {
			if b.Para != nil {
				all = append(all, b.Para.Text)
			}
		}
		text := strings.Join(all, "\n")
		for _, w := range want {
			if !strings.Contains(text, w) {
				t.Errorf("%s: feedback lacks %q:\n%s", lang, w, text)
			}
		}
	}
}
