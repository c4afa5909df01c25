package quiz

import (
	"fmt"
	"sort"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/report"
	fsrs "github.com/open-spaced-repetition/go-fsrs/v3"
)

// Stats is the documented JSON form of `quiz stats`.
type Stats struct {
	Now      time.Time   `json:"now"`
	Reviews  int         `json:"reviews"`
	Streak   int         `json:"streak_days"`
	Due      int         `json:"due"`
	New      int         `json:"new"`
	Mastered int         `json:"mastered"`
	Total    int         `json:"total"`
	NextDue  *time.Time  `json:"next_due,omitempty"`
	Topics   []TopicStat `json:"topics"`
	// Tasks are the hands-on tasks (k8sexplain task) per topic: Questions
	// counts the tasks, Mastered those whose last check passed and whose
	// card has graduated, as for questions.
	Tasks []TopicStat `json:"tasks,omitempty"`
}

// TaskItem is a hands-on task as the stats count it: its card id in the
// store ("task/ID") and its topic.
type TaskItem struct{ ID, Topic string }

// AddTasks fills s.Tasks from the tasks' cards in st.
func (s *Stats) AddTasks(st *State, tasks []TaskItem, now time.Time) {
	by := map[string]*TopicStat{}
	sums := map[string]float64{}
	var order []string
	for _, t := range tasks {
		x := by[t.Topic]
		if x == nil {
			x = &TopicStat{Topic: t.Topic}
			by[t.Topic] = x
			order = append(order, t.Topic)
		}
		x.Questions++
		p := st.Cards[t.ID]
		if p == nil {
			continue
		}
		x.Seen++
		sums[t.Topic] += p.LastScore
		if p.Card.State == fsrs.Review && p.LastScore >= revisitBelow {
			x.Mastered++
		}
		if !p.Card.Due.After(now) {
			x.Due++
		}
	}
	sort.Strings(order)
	for _, topic := range order {
		x := by[topic]
		if x.Seen > 0 {
			x.LastScore = round3(sums[topic] / float64(x.Seen))
		}
		s.Tasks = append(s.Tasks, *x)
	}
}

// TopicStat is the mastery of one topic. A question is mastered when its
// FSRS card has graduated to the Review state and its last score was at
// least 0.8.
type TopicStat struct {
	Topic     string  `json:"topic"`
	Questions int     `json:"questions"`
	Seen      int     `json:"seen"`
	Mastered  int     `json:"mastered"`
	Due       int     `json:"due"`
	LastScore float64 `json:"mean_last_score"`
}

// ComputeStats summarises st against the bank at now.
func ComputeStats(b *Bank, st *State, now time.Time) *Stats {
	s := &Stats{Now: now, Streak: st.Streak(now), Topics: []TopicStat{}}
	by := map[string]*TopicStat{}
	sums := map[string]float64{}
	for _, q := range b.Questions {
		t := by[q.Topic]
		if t == nil {
			t = &TopicStat{Topic: q.Topic}
			by[q.Topic] = t
		}
		t.Questions++
		s.Total++
		p := st.Cards[q.ID]
		if p == nil {
			s.New++
			continue
		}
		t.Seen++
		s.Reviews += p.Reviews
		sums[q.Topic] += p.LastScore
		if p.Card.State == fsrs.Review && p.LastScore >= revisitBelow {
			t.Mastered++
			s.Mastered++
		}
		if !p.Card.Due.After(now) {
			t.Due++
			s.Due++
		} else if s.NextDue == nil || p.Card.Due.Before(*s.NextDue) {
			d := p.Card.Due
			s.NextDue = &d
		}
	}
	for topic, t := range by {
		if t.Seen > 0 {
			t.LastScore = round3(sums[topic] / float64(t.Seen))
		}
		s.Topics = append(s.Topics, *t)
	}
	sort.Slice(s.Topics, func(i, j int) bool { return s.Topics[i].Topic < s.Topics[j].Topic })
	return s
}

// StatsDoc renders the stats.
func StatsDoc(s *Stats, lang string) *report.Doc {
	d := &report.Doc{Title: msg(lang, "Quiz progress"), Data: s}
	d.P(msgf(lang, "{1:# review|# reviews}; streak {2:# day|# days}; {3} due now, {4} new, {5} of {6} mastered.",
		s.Reviews, s.Streak, s.Due, s.New, s.Mastered, s.Total))
	if s.NextDue != nil && s.Due == 0 {
		d.P(msg(lang, "Next review due") + ": " + s.NextDue.In(s.Now.Location()).Format("2006-01-02 15:04"))
	}
	t := &report.Table{Header: []string{msg(lang, "Topic"), msg(lang, "Questions"), msg(lang, "Seen"),
		msg(lang, "Mastered"), msg(lang, "Due"), msg(lang, "Last score")}, Right: []bool{false, true, true, true, true, true}}
	// a share of the topic's questions: a full bar is 100 %, not the best topic
	bars := &report.Bars{Unit: "%", Max: 100}
	for _, x := range s.Topics {
		score := "-"
		if x.Seen > 0 {
			score = percent(x.LastScore)
		}
		t.Rows = append(t.Rows, []string{x.Topic, fmt.Sprint(x.Questions), fmt.Sprint(x.Seen), fmt.Sprint(x.Mastered), fmt.Sprint(x.Due), score})
		bars.Rows = append(bars.Rows, report.Bar{Label: x.Topic, Value: math100(x.Mastered, x.Questions)})
	}
	d.T(t)
	if len(s.Tasks) > 0 {
		tt := &report.Table{Header: []string{msg(lang, "Topic"), msg(lang, "Tasks"), msg(lang, "Seen"),
			msg(lang, "Mastered"), msg(lang, "Due"), msg(lang, "Last score")}, Right: []bool{false, true, true, true, true, true}}
		for _, x := range s.Tasks {
			score := "-"
			if x.Seen > 0 {
				score = percent(x.LastScore)
			}
			tt.Rows = append(tt.Rows, []string{x.Topic, fmt.Sprint(x.Questions), fmt.Sprint(x.Seen), fmt.Sprint(x.Mastered), fmt.Sprint(x.Due), score})
		}
		d.H(1, msg(lang, "Hands-on tasks (k8sexplain task)"))
		d.T(tt)
	}
	d.H(1, msg(lang, "Mastery by topic"))
	d.B(bars)
	return d
}

func math100(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return round3(float64(a) * 100 / float64(b))
}
