package cmd

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/clip"
	"github.com/k8sexplain/k8sexplain/internal/exitcode"
	"github.com/k8sexplain/k8sexplain/internal/quiz"
	"github.com/k8sexplain/k8sexplain/internal/render"
	"github.com/k8sexplain/k8sexplain/internal/task"
	fsrs "github.com/open-spaced-repetition/go-fsrs/v3"
	"github.com/spf13/cobra"
)

// taskShort is the summary root --help lists.
const taskShort = "Hands-on tasks: write manifests, graded on the state the simulated cluster ends in"

const taskLong = `Hands-on tasks in the style of a practical exam. "task start ID" describes a starting cluster
(nodes, objects, sometimes a failure to come) and a goal; you write manifests; "task check ID FILE..."
applies them to the simulated cluster from that starting state, lets the task's action play out (a
rollout, a hung container) and grades the state the cluster ends in, and for goals about a process the
changes it went through (e.g. "never fewer than 4 pods available"), on the objects the API server
stores. A failed condition says when it failed and shows the trace steps that explain it: the
scheduler's FailedScheduling event, the quota's refusal, the probe's failure.

Progress goes to the quiz's store (quiz stats shows tasks per topic; spaced repetition brings a task
back). The reference solution is shown after a first check ("task solution ID"). A manifest that
touches what the task forbids (the nodes, the quota, a starting object) is refused with the rule it
breaks (exit 1). A check that runs exits 0 whether the solution passed or not; --format json says
"passed".`

// TaskOptions are the inputs of the task commands.
type TaskOptions struct {
	Common
	ID    string
	Files []string
	Hint  bool
	// Write is where `task start` writes the starter manifest ("" prints it).
	Write string
	// Now is --now (or K8SEXPLAIN_NOW), RFC3339; "" for the clock.
	Now      string
	StateDir string
	verb     string
}

// NewCmdTask is `task` with list, start, check and solution.
func NewCmdTask(f *Factory, runF func(*TaskOptions) error) *cobra.Command {
	o := &TaskOptions{}
	from := func(verb string) func(*cobra.Command, []string) {
		return func(_ *cobra.Command, args []string) {
			o.verb = verb
			o.Now, o.StateDir = f.Config.GetString("now"), f.Setting("quiz.state-dir")
			if len(args) > 0 {
				o.ID, o.Files = args[0], append(o.Files, args[1:]...)
			}
		}
	}
	cmd := &cobra.Command{
		Use:   "task",
		Short: taskShort,
		Long:  taskLong,
		Example: `  k8sexplain task list
  k8sexplain task start sched-gpu-nodes --write trainer.yaml
  k8sexplain task check sched-gpu-nodes trainer.yaml
  k8sexplain task check rollout-no-downtime web.yaml --hint --format json
  k8sexplain task solution sched-gpu-nodes`,
		Args: noArgs,
	}
	pf := cmd.PersistentFlags()
	pf.String("now", "", "the current time in RFC3339 (for tests and reproducible progress)")
	_ = pf.MarkHidden("now")
	ids := func(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveDefault
		}
		return task.IDs(), cobra.ShellCompDirectiveNoFileComp
	}
	list := &cobra.Command{
		Use:     "list",
		Short:   "List the tasks with their topic, level and your status",
		Example: "  k8sexplain task list\n  k8sexplain task list --format json",
		Args:    noArgs,
		RunE:    runE(f, o, runF, taskRun, from("list")),
	}
	start := &cobra.Command{
		Use:   "start ID",
		Short: "Describe a task: the starting cluster, what happens next, the goal and its conditions",
		Example: `  k8sexplain task start sched-gpu-nodes
  k8sexplain task start sched-gpu-nodes --write trainer.yaml --lang ru`,
		Args:              exactArgs(1, "a task id (see task list)"),
		ValidArgsFunction: ids,
		RunE:              runE(f, o, runF, taskRun, from("start")),
	}
	start.Flags().StringVar(&o.Write, "write", "", "write the starter manifest to this file (it must not exist yet)")
	start.Flags().BoolVar(&o.Hint, "hint", false, "show the hint too")
	check := &cobra.Command{
		Use:   "check ID FILE...",
		Short: "Run your manifests from the task's starting state and grade the cluster they produce",
		Example: `  k8sexplain task check sched-gpu-nodes trainer.yaml
  k8sexplain task check quota-fit -f web.yaml --hint
  k8sexplain task check rollout-no-downtime web.yaml --format json`,
		Args:              minArgs(1, "a task id and your manifest files"),
		ValidArgsFunction: ids,
		RunE:              runE(f, o, runF, taskRun, from("check")),
	}
	check.Flags().StringArrayVarP(&o.Files, "filename", "f", nil, "manifest file, directory or - (repeatable)")
	check.Flags().BoolVar(&o.Hint, "hint", false, "show the hint with the result")
	solution := &cobra.Command{
		Use:               "solution ID",
		Short:             "Show the reference solution, after your first check",
		Example:           "  k8sexplain task solution sched-gpu-nodes",
		Args:              exactArgs(1, "a task id (see task list)"),
		ValidArgsFunction: ids,
		RunE:              runE(f, o, runF, taskRun, from("solution")),
	}
	cmd.AddCommand(list, start, check, solution)
	return cmd
}

// exactArgs and minArgs are cobra's checks with a usage error that says
// what is wanted.
func exactArgs(n int, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != n {
			return exitcode.Usagef("%s: want %s, got %d argument(s)", cmd.CommandPath(), what, len(args))
		}
		return nil
	}
}

func minArgs(n int, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) < n {
			return exitcode.Usagef("%s: want %s", cmd.CommandPath(), what)
		}
		return nil
	}
}

// taskID is the key of a task's card in the quiz store.
func taskID(id string) string { return "task/" + id }

func taskRun(o *TaskOptions) error {
	g := o.Settings
	if g.Format == render.Mermaid || g.Format == render.HTML {
		return exitcode.Inputf("--format %s: a task draws no diagram; use text, markdown or json", g.Format)
	}
	all, err := task.All()
	if err != nil {
		return fmt.Errorf("tasks: %w", err)
	}
	var t *task.Task
	if o.verb != "list" {
		if t, err = task.Get(o.ID); err != nil {
			return err
		} else if t == nil {
			return exitcode.Inputf("unknown task %q; see k8sexplain task list", clip.Value(o.ID))
		}
	}
	now := o.Clock()
	if o.Now != "" {
		if now, err = time.Parse(time.RFC3339, o.Now); err != nil {
			return exitcode.Inputf("invalid --now/K8SEXPLAIN_NOW %q: want RFC3339 (2026-03-01T09:00:00Z)", clip.Value(o.Now))
		}
		if err := quiz.CheckTime(now); err != nil {
			return exitcode.Inputf("invalid --now/K8SEXPLAIN_NOW: %v", err)
		}
	}
	store := func() (*quiz.Store, error) {
		dir, err := quiz.StateDir(o.StateDir, o.IO.Getenv)
		if err != nil {
			return nil, exitcode.AsInput(err)
		}
		return &quiz.Store{Dir: dir, Warn: func(w string) { fmt.Fprintf(o.IO.ErrOut, "k8sexplain: warning: %s\n", w) }}, nil
	}
	switch o.verb {
	case "list":
		s, err := store()
		if err != nil {
			return err
		}
		st, err := s.Load()
		if err != nil {
			return fmt.Errorf("load progress: %w", err)
		}
		status := map[string]task.Status{}
		for _, tk := range all {
			status[tk.ID] = taskStatus(st, tk.ID, now)
		}
		return o.render(versioned("k8sexplain.task-list/v1", task.ListDoc(all, status, g.Lang)))
	case "start":
		return taskStart(o, t)
	case "check":
		return taskCheck(o, t, store, now)
	default:
		s, err := store()
		if err != nil {
			return err
		}
		st, err := s.Load()
		if err != nil {
			return fmt.Errorf("load progress: %w", err)
		}
		if st.Cards[taskID(t.ID)] == nil {
			return exitcode.Inputf("task %s: the reference solution is shown after a first check, so that you try first: run k8sexplain task check %s FILE", t.ID, t.ID)
		}
		return o.render(task.SolutionDoc(t, g.Lang))
	}
}

// taskStatus is the task's place in the learner's progress at now.
func taskStatus(st *quiz.State, id string, now time.Time) task.Status {
	p := st.Cards[taskID(id)]
	switch {
	case p == nil:
		return task.New
	case !p.Card.Due.After(now):
		return task.Due
	case p.LastScore >= 1:
		return task.Passed
	}
	return task.Failed
}

func taskStart(o *TaskOptions, t *task.Task) error {
	checkCmd := "k8sexplain task check " + t.ID + " FILE"
	if o.Write != "" {
		checkCmd = "k8sexplain task check " + t.ID + " " + o.Write
		if t.Starter == "" {
			return exitcode.Inputf("task %s has no starter manifest: write yours from the goal", t.ID)
		}
		f, err := os.OpenFile(o.Write, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, os.ErrExist) {
			return exitcode.Inputf("--write %s: the file exists; k8sexplain does not overwrite it (choose another name)", o.Write)
		}
		if err != nil {
			return err
		}
		if _, err := f.WriteString(t.Starter); err != nil {
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
	}
	d := task.StartDoc(t, o.Settings.Lang, o.Write, checkCmd)
	if o.Write == "" && t.Starter != "" {
		d.P(task.Word(o.Settings.Lang, "Starter manifest (task start --write FILE writes it to a file):"))
		d.C("yaml", strings.TrimSpace(t.Starter))
	}
	if o.Hint {
		d.H(1, task.Word(o.Settings.Lang, "Hint"))
		d.P(t.Hint.In(o.Settings.Lang))
	}
	return o.render(d)
}

func taskCheck(o *TaskOptions, t *task.Task, store func() (*quiz.Store, error), now time.Time) error {
	if len(o.Files) == 0 {
		return exitcode.Usagef("task check %s: no manifest: give FILE arguments or -f FILE", t.ID)
	}
	objs, err := loadManifests(o.IO, o.Files)
	if err != nil {
		return err
	}
	if err := refuseUnmodelled(objs); err != nil {
		return err
	}
	if len(objs) == 0 {
		return exitcode.Inputf("%s: no objects to apply", strings.Join(o.Files, ", "))
	}
	res, err := task.Check(t, objs, o.Files, task.Options{Seed: o.Settings.Seed})
	var refused *task.Refusal
	if errors.As(err, &refused) {
		return exitcode.Inputf("%s: %s: the task forbids it (rule %s): %s", refused.Where, refused.Object, refused.Rule, refused.Text.In(o.Settings.Lang))
	}
	if err != nil {
		return exitcode.AsInput(err)
	}
	s, err := store()
	if err != nil {
		return err
	}
	score, rating := 0.0, fsrs.Again
	if res.Passed() {
		score, rating = 1, fsrs.Good
	}
	if _, err := s.Record(quiz.Review{ID: taskID(t.ID), Topic: t.Topic, At: now, Score: score, Rating: int(rating)}); err != nil {
		return fmt.Errorf("save progress: %w", err)
	}
	return o.render(versioned("k8sexplain.task-check/v1", task.CheckDoc(res, o.Settings.Lang, o.Hint)))
}
