package cmd

import (
	"bufio"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/AlecAivazis/survey/v2"
	"github.com/AlecAivazis/survey/v2/terminal"
	"github.com/k8sexplain/k8sexplain/internal/clip"
	"github.com/k8sexplain/k8sexplain/internal/exitcode"
	"github.com/k8sexplain/k8sexplain/internal/quiz"
	"github.com/k8sexplain/k8sexplain/internal/readcap"
	"github.com/k8sexplain/k8sexplain/internal/report"
	"github.com/spf13/cobra"
)

// runAnswers grades an --answers file: every answer is graded, then a full
// report prints (what was wrong, the model answer, the command that shows
// it). The answers go to the learner's progress only with --record: a
// sheet is often someone else's, or a rehearsal.
func runAnswers(f *Factory, e *quizEnv, o *quizOptions) error {
	data, err := readcap.ReadFile(o.answers, readcap.Answers, "an --answers file")
	if err != nil {
		return exitcode.Inputf("--answers: %v", clip.Message(err.Error()))
	}
	sheet, err := quiz.ParseAnswers(data)
	if err != nil {
		return exitcode.Inputf("%s: %v", o.answers, err)
	}
	if len(sheet) == 0 {
		return exitcode.Inputf("%s: no answers", o.answers)
	}
	p := &quiz.ScriptedPrompter{Answers: map[string]string{}}
	var qs []*quiz.Question
	for _, a := range sheet {
		q := e.bank.Get(a.ID)
		if q == nil {
			return exitcode.Inputf("%s:%d: no question with id %q (see k8sexplain quiz list)", o.answers, a.Line, a.ID)
		}
		qs = append(qs, q)
		p.Answers[a.ID] = a.Answer
	}
	s := &quiz.Session{Questions: qs, Prompter: p, Lang: e.g.Lang, Seed: e.g.Seed, Exam: o.exam, Now: e.now}
	if o.record {
		s.Store = e.store
	}
	out, err := s.Run()
	if err != nil {
		return err
	}
	return f.Render(quiz.ReportDoc(out, e.g.Lang, o.exam, true))
}

func newCmdQuizStats(f *Factory, o *quizOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "stats",
		Short: "Show mastery per topic, the streak and what is due",
		Example: `  k8sexplain quiz stats
  k8sexplain quiz stats --format json
  k8sexplain quiz stats --reset --yes`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			e, err := newQuizEnv(f, o, true)
			if err != nil {
				return err
			}
			if o.reset {
				return resetProgress(f, e, o.yes)
			}
			st, err := e.store.Load()
			if err != nil {
				return fmt.Errorf("load progress: %w", err)
			}
			return f.Render(quiz.StatsDoc(quiz.ComputeStats(e.bank, st, e.now()), e.g.Lang))
		},
	}
	cmd.Flags().BoolVar(&o.reset, "reset", false, "delete all quiz progress (asks first)")
	cmd.Flags().BoolVar(&o.yes, "yes", false, "with --reset: do not ask")
	return cmd
}

// resetProgress deletes the progress after a confirmation: --yes, a survey
// prompt on a terminal, or a "y" line on stdin otherwise.
func resetProgress(f *Factory, e *quizEnv, yes bool) error {
	question := quiz.Msgf(e.g.Lang, "Delete all quiz progress in {1}?", e.store.Dir)
	if !yes {
		in, inOK := f.IO.In.(terminal.FileReader)
		out, outOK := f.IO.Out.(terminal.FileWriter)
		if f.IO.InTTY && f.IO.OutTTY && inOK && outOK {
			err := survey.AskOne(&survey.Confirm{Message: question}, &yes, survey.WithStdio(in, out, f.IO.ErrOut))
			if err == terminal.InterruptErr {
				return &exitcode.Error{Code: exitcode.Interrupted, Err: err}
			}
		} else {
			fmt.Fprintf(f.IO.ErrOut, "%s [y/N] ", question)
			line, err := bufio.NewReader(readcap.Lines(f.IO.In, "standard input", readcap.Line, "an answer line")).ReadString('\n')
			if errors.Is(err, readcap.ErrTooLarge) {
				return exitcode.Inputf("--reset confirmation: %v", err)
			}
			switch strings.ToLower(strings.TrimSpace(line)) {
			case "y", "yes", "д", "да":
				yes = true
			}
		}
	}
	if !yes {
		return exitcode.Inputf("not confirmed; nothing deleted (use --yes to skip the question)")
	}
	if err := e.store.Reset(); err != nil {
		return err
	}
	_, err := fmt.Fprintln(f.IO.Out, quiz.Msg(e.g.Lang, "Quiz progress deleted."))
	return err
}

type listItem struct {
	ID         string     `json:"id"`
	Topic      string     `json:"topic"`
	Difficulty string     `json:"difficulty"`
	Type       string     `json:"type"`
	Tags       []string   `json:"tags"`
	Prompt     string     `json:"prompt"`
	Choices    []string   `json:"choices,omitempty"`
	See        quiz.SeeIn `json:"see"`
}

func newCmdQuizList(f *Factory, o *quizOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "list",
		Short: "Browse the question bank",
		Example: `  k8sexplain quiz list --topic etcd
  k8sexplain quiz list --choices --lang ru`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			e, err := newQuizEnv(f, o, false)
			if err != nil {
				return err
			}
			return f.Render(listDoc(e, o))
		},
	}
	cmd.Flags().BoolVar(&o.choices, "choices", false, "show each question with its choices, numbered as the quiz shows them (same --seed)")
	return cmd
}

func listDoc(e *quizEnv, o *quizOptions) *report.Doc {
	lang := e.g.Lang
	qs := e.bank.Filter(o.topics, o.difficulty)
	items := []listItem{}
	d := &report.Doc{Title: quiz.Msg(lang, "Question bank")}
	d.P(quiz.CountQuestions(lang, len(qs)) + ".")
	t := &report.Table{Header: []string{"ID", quiz.Msg(lang, "Topic"), quiz.Msg(lang, "Difficulty"), quiz.Msg(lang, "Type"), quiz.Msg(lang, "Question")}}
	for _, q := range qs {
		p := quiz.Present(q, 0, 0, lang, e.g.Seed)
		it := listItem{ID: q.ID, Topic: q.Topic, Difficulty: q.Difficulty, Type: q.Type, Tags: q.Tags, Prompt: p.Prompt, See: q.See.In(lang)}
		if it.Tags == nil {
			it.Tags = []string{}
		}
		if o.choices {
			it.Choices = p.Choices
			d.H(2, q.ID)
			d.P(p.Prompt)
			if len(p.Choices) > 0 {
				d.Blocks = append(d.Blocks, report.Block{List: &report.List{Items: p.Choices, Numbered: true}})
			}
			quiz.SeeBlocks(d, q.See, lang)
		} else {
			t.Rows = append(t.Rows, []string{q.ID, q.Topic, q.Difficulty, q.Type, shorten(p.Prompt, 60)})
		}
		items = append(items, it)
	}
	if !o.choices {
		d.T(t)
	}
	d.Data = items
	return d
}

func shorten(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}
