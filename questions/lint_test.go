package questions_test

import (
	"testing"

	_ "github.com/k8sexplain/k8sexplain/internal/golden" // defines -update for `go test ./... -update`
	"github.com/k8sexplain/k8sexplain/internal/quiz"
	"github.com/k8sexplain/k8sexplain/questions"
)

// TestBankLint checks every embedded question against the schema: both
// languages everywhere, valid type, topic and difficulty, answer data that
// fits the type, unique ids (Load rejects duplicates) and a `see:` line that
// names k8sexplain and a real subcommand. cmd's TestQuizSeeLinesParse also
// parses each `see:` with the real command tree.
func TestBankLint(t *testing.T) {
	b, err := quiz.Load(questions.FS)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Questions) == 0 {
		t.Fatal("the bank is empty")
	}
	for _, q := range b.Questions {
		for _, err := range quiz.Validate(q) {
			t.Error(err)
		}
	}
}
