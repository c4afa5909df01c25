package cmd

import (
	"bufio"
	"errors"
	"fmt"
	"strings"

	"github.com/AlecAivazis/survey/v2"
	"github.com/AlecAivazis/survey/v2/terminal"
	"github.com/k8sexplain/k8sexplain/internal/clip"
	"github.com/k8sexplain/k8sexplain/internal/exitcode"
	"github.com/k8sexplain/k8sexplain/internal/quiz"
	"github.com/k8sexplain/k8sexplain/internal/readcap"
	"github.com/k8sexplain/k8sexplain/internal/task"
	"github.com/spf13/cobra"
)

// runAnswers grades an --answers file: every answer is graded, then a full
// report prints (what was wrong, the model answer, the command that shows
// it). The answers go to the learner's progress only with --record: a
// sheet is often someone else's, or a rehearsal.
func answersRun(o *QuizOptions, e *quizEnv) error {
	data, err := readcap.ReadFile(o.Answers, readcap.Answers, "an --answers file")
	if err != nil {
		return exitcode.Inputf("--answers: %v", clip.Message(err.Error()))
	}
	sheet, err := quiz.ParseAnswers(data)
	if err != nil {
		return exitcode.Inputf("%s: %v", o.Answers, err)
	}
	if len(sheet) == 0 {
		return exitcode.Inputf("%s: no answers", o.Answers)
	}
	p := &quiz.ScriptedPrompter{Answers: map[string]string{}}
	var qs []*quiz.Question
	for _, a := range sheet {
		q := e.bank.Get(a.ID)
		if q == nil {
			return exitcode.Inputf("%s:%d: no question with id %q (see k8sexplain quiz list)", o.Answers, a.Line, a.ID)
		}
		qs = append(qs, q)
		p.Answers[a.ID] = a.AnswerLine()
	}
	s := &quiz.Session{Questions: qs, Prompter: p, Lang: e.g.Lang, Seed: e.g.Seed, Exam: o.Exam, Now: e.now}
	if o.Record {
		s.Store = e.store
	}
	out, err := s.Run()
	if err != nil {
		return err
	}
	return o.render(versioned("k8sexplain.quiz-answers/v1", quiz.ReportDoc(out, e.g.Lang, o.Exam, true)))
}

// QuizStatsOptions are the inputs of `quiz stats`.
type QuizStatsOptions struct {
	QuizScope
	// Reset deletes the progress; Yes without asking.
	Reset, Yes bool
}

// NewCmdQuizStats is `quiz stats`; scope holds quiz's persistent flags.
func NewCmdQuizStats(f *Factory, scope *QuizScope, runF func(*QuizStatsOptions) error) *cobra.Command {
	o := &QuizStatsOptions{}
	cmd := &cobra.Command{
		Use:   "stats",
		Short: "Show mastery per topic, the streak and what is due",
		Example: `  k8sexplain quiz stats
  k8sexplain quiz stats --format json
  k8sexplain quiz stats --reset --yes`,
		Args: noArgs,
		RunE: runE(f, o, runF, quizStatsRun, o.from(f, scope)),
	}
	cmd.Flags().BoolVar(&o.Reset, "reset", false, "delete all quiz progress (asks first)")
	cmd.Flags().BoolVar(&o.Yes, "yes", false, "with --reset: do not ask")
	return cmd
}

func quizStatsRun(o *QuizStatsOptions) error {
	e, err := newQuizEnv(&o.QuizScope, nil, true)
	if err != nil {
		return err
	}
	if o.Reset {
		return resetProgress(e, o.Yes)
	}
	st, err := e.store.Load()
	if err != nil {
		return fmt.Errorf("load progress: %w", err)
	}
	stats := quiz.ComputeStats(e.bank, st, e.now())
	tasks, err := task.All()
	if err != nil {
		return fmt.Errorf("tasks: %w", err)
	}
	items := make([]quiz.TaskItem, len(tasks))
	for i, t := range tasks {
		items[i] = quiz.TaskItem{ID: taskID(t.ID), Topic: t.Topic}
	}
	stats.AddTasks(st, items, e.now())
	return o.render(versioned("k8sexplain.quiz-stats/v1", quiz.StatsDoc(stats, e.g.Lang)))
}

// resetProgress deletes the progress after a confirmation: --yes, a survey
// prompt on a terminal, or a "y" line on stdin otherwise.
func resetProgress(e *quizEnv, yes bool) error {
	question := quiz.Msgf(e.g.Lang, "Delete all quiz progress in {1}?", e.store.Dir)
	if !yes {
		in, inOK := e.io.In.(terminal.FileReader)
		out, outOK := e.io.Out.(terminal.FileWriter)
		if e.io.InTTY && e.io.OutTTY && inOK && outOK {
			err := survey.AskOne(&survey.Confirm{Message: question}, &yes, survey.WithStdio(in, out, e.io.ErrOut))
			if err == terminal.InterruptErr {
				return &exitcode.Error{Code: exitcode.Interrupted, Err: err}
			}
		} else {
			fmt.Fprintf(e.io.ErrOut, "%s [y/N] ", question)
			line, err := bufio.NewReader(readcap.Lines(e.io.In, "standard input", readcap.Line, "an answer line")).ReadString('\n')
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
	_, err := fmt.Fprintln(e.io.Out, quiz.Msg(e.g.Lang, "Quiz progress deleted."))
	return err
}

// QuizListOptions are the inputs of `quiz list`.
type QuizListOptions struct {
	QuizScope
	// Choices shows every question with its numbered choices.
	Choices bool
}

// NewCmdQuizList is `quiz list`; scope holds quiz's persistent flags.
func NewCmdQuizList(f *Factory, scope *QuizScope, runF func(*QuizListOptions) error) *cobra.Command {
	o := &QuizListOptions{}
	cmd := &cobra.Command{
		Use:   "list",
		Short: "Browse the question bank",
		Example: `  k8sexplain quiz list --topic etcd
  k8sexplain quiz list --choices --lang ru`,
		Args: noArgs,
		RunE: runE(f, o, runF, quizListRun, o.from(f, scope)),
	}
	cmd.Flags().BoolVar(&o.Choices, "choices", false, "show each question with its choices, numbered as the quiz shows them (same --seed)")
	return cmd
}

func quizListRun(o *QuizListOptions) error {
	e, err := newQuizEnv(&o.QuizScope, nil, false)
	if err != nil {
		return err
	}
	return o.render(versioned("k8sexplain.quiz-list/v1", quiz.ListDoc(e.bank, o.Topics, o.Difficulty, o.Choices, e.g.Lang, e.g.Seed)))
}
