package quiz

import (
	"testing"

	"github.com/k8sexplain/k8sexplain/questions"
)

// Every topic and level of the question bank has a Russian heading, and
// English headings keep the ids.
func TestHeadingsNameEveryTopicAndLevelInRussian(t *testing.T) {
	bank, err := Load(questions.FS)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range bank.Questions {
		if topicName("ru", q.Topic) == q.Topic && q.Topic != "etcd" && q.Topic != "watch" && q.Topic != "dns" {
			t.Errorf("%s: topic %q has no Russian name", q.ID, q.Topic)
		}
		if levelName("ru", q.Difficulty) == q.Difficulty {
			t.Errorf("%s: level %q has no Russian name", q.ID, q.Difficulty)
		}
		if topicName("en", q.Topic) != q.Topic || levelName("en", q.Difficulty) != q.Difficulty {
			t.Errorf("%s: the English heading changes the ids", q.ID)
		}
	}
}
