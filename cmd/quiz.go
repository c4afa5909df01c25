package cmd

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"slices"
	"strings"
	"time"

	"github.com/AlecAivazis/survey/v2/terminal"
	"github.com/k8sexplain/k8sexplain/internal/clip"
	"github.com/k8sexplain/k8sexplain/internal/exitcode"
	"github.com/k8sexplain/k8sexplain/internal/iostreams"
	"github.com/k8sexplain/k8sexplain/internal/quiz"
	"github.com/k8sexplain/k8sexplain/internal/readcap"
	"github.com/k8sexplain/k8sexplain/internal/render"
	"github.com/k8sexplain/k8sexplain/questions"
	"github.com/spf13/cobra"
)

// quizBank is the question bank the quiz reads; tests swap in a fixed bank
// so their golden files do not change as the real bank grows.
var quizBank fs.FS = questions.FS

// QuizScope is what every quiz command reads: the persistent flags of
// quiz (--topic, --difficulty, the hidden --now) and the settings that are
// no flag of their own.
type QuizScope struct {
	Common
	Topics     []string
	Difficulty string
	// Now is --now (or K8SEXPLAIN_NOW), RFC3339; "" for the clock.
	Now string
	// SeedSet: --seed was given, so a session's new questions come in its
	// order rather than one from the clock.
	SeedSet bool
	// StateDir is the quiz.state-dir setting ("" for the XDG default).
	StateDir string
}

// from fills the scope of a quiz command (runE's before): quiz's persistent
// flags, parsed into shared, and the settings that are no flag.
func (s *QuizScope) from(f *Factory, shared *QuizScope) func(*cobra.Command, []string) {
	return func(*cobra.Command, []string) {
		s.Topics, s.Difficulty = shared.Topics, shared.Difficulty
		s.Now, s.SeedSet, s.StateDir = f.Config.GetString("now"), f.Config.IsSet("seed"), f.Setting("quiz.state-dir")
	}
}

// QuizOptions are the inputs of a session: `quiz` and `quiz review`.
type QuizOptions struct {
	QuizScope
	Count int
	Exam  bool
	// Answers is an answers file to grade; Record saves its grades.
	Answers string
	Record  bool
	// DueOnly asks only what spaced repetition says is due (quiz review).
	DueOnly bool
	// drills
	IDs, Types             []string
	Weakest, Mistakes, New bool
	TimeLimit              time.Duration
}

const quizLong = `An interview trainer for Kubernetes internals: it asks, grades (free text too, offline),
explains the model answer, names the k8sexplain command that shows it, and schedules what to
review next with FSRS spaced repetition.

On a terminal the questions are interactive menus. Otherwise answers are read from stdin, one line
per question; the end of input ends the session:
{answer formats}
Numbers may be written 1/3, 33%, 50,000, 50k or 1200m (millicores) where the unit allows. An
answer that cannot be read is asked again with the expected form; an empty line or ? shows the
model answer. A free-text answer may take several lines on a terminal (Enter on two empty lines
finishes it). After the feedback (the model answer; for free text the checklist of key points) you
confirm or change the suggested rating: any rating for free text, only a lower one ("Hard — I
guessed") for a right choice, order or number. The rating you confirm is the verdict: spaced
repetition, the report, --mistakes, --weakest and stats. In line mode and answers files a rating
may end the answer: "2 #hard", "etcd commits on a majority #good" (again, hard, good, easy), or
"rating: hard" in an answers entry; without one the suggestion stands.

Choices are shuffled, and reshuffled each time a question comes back. --answers FILE grades a
prepared sheet, a YAML list of {id, answer}, whose choice and step numbers are those
"quiz list --choices" shows with the same --seed, and an optional rating; it does not touch your
progress unless --record.

Drills: --weakest (weakest topics first), --mistakes (questions you got wrong), --new (never
answered), --id ID,... and --type text,numeric,... A session's new questions are drawn with a
seed from the clock unless --seed is given. --exam is a mock interview: no feedback until the end,
then a verdict per topic against the senior bar and every model answer; --time-limit 30m adds a
countdown: in each question's header, and on a terminal live on the top row, ticking while you type.
When the time runs out mid-answer, the answer in progress is dropped (that question and the rest count
as not reached); in line mode the time is checked between answers.

Progress (an append-only review log and the state derived from it) is kept in
$XDG_STATE_HOME/k8sexplain, else ~/.local/state/k8sexplain; set quiz.state-dir in the config or
K8SEXPLAIN_QUIZ_STATE_DIR to move it. Ctrl-C saves, prints a summary and exits with 130.`

// quizShort is the summary root --help lists.
const quizShort = "Practise Kubernetes interview questions with grading and spaced repetition"

// NewCmdQuiz is `quiz` with its subcommands review (the same session,
// due questions only), stats and list.
func NewCmdQuiz(f *Factory, runF func(*QuizOptions) error) *cobra.Command {
	scope, o := &QuizScope{}, &QuizOptions{}
	dueOnly := func(due bool) func(*cobra.Command, []string) {
		return func(*cobra.Command, []string) { o.DueOnly = due }
	}
	cmd := &cobra.Command{
		Use:   "quiz",
		Short: quizShort,
		Long:  strings.Replace(quizLong, "{answer formats}", answerFormats(), 1),
		Example: `  k8sexplain quiz
  k8sexplain quiz --topic etcd,services --count 5
  k8sexplain quiz --exam --count 15 --time-limit 30m
  k8sexplain quiz --weakest --type text
  k8sexplain quiz --mistakes
  k8sexplain quiz review
  k8sexplain quiz stats
  k8sexplain quiz list --topic dns
  k8sexplain quiz --answers answers.yaml --format markdown`,
		Args: noArgs,
		RunE: runE(f, o, runF, quizRun, o.from(f, scope), dueOnly(false)),
	}
	pf := cmd.PersistentFlags()
	pf.StringSliceVar(&scope.Topics, "topic", nil, "only these topics (comma-separated)")
	pf.StringVar(&scope.Difficulty, "difficulty", "", "only this difficulty: middle, senior or staff")
	pf.String("now", "", "the current time in RFC3339 (for tests and reproducible stats)")
	_ = pf.MarkHidden("now")
	_ = cmd.RegisterFlagCompletionFunc("topic", fixedCompletion(quiz.Topics...))
	_ = cmd.RegisterFlagCompletionFunc("difficulty", fixedCompletion(quiz.Difficulties...))
	sessionFlags(cmd, o)
	cmd.Flags().StringVar(&o.Answers, "answers", "", "grade a prepared answers file (YAML list of {id, answer}) and print a report")
	cmd.Flags().BoolVar(&o.Record, "record", false, "with --answers: save the graded answers to your progress")
	review := &cobra.Command{
		Use:     "review",
		Short:   "Ask only the questions spaced repetition says are due",
		Example: "  k8sexplain quiz review --count 20",
		Args:    noArgs,
		RunE:    runE(f, o, runF, quizRun, o.from(f, scope), dueOnly(true)),
	}
	sessionFlags(review, o)
	cmd.AddCommand(review, NewCmdQuizStats(f, scope, nil), NewCmdQuizList(f, scope, nil))
	return cmd
}

// answerFormats lists how each question type is answered in line mode,
// from the registry of types.
func answerFormats() string {
	var b strings.Builder
	for i, u := range quiz.Usages() {
		if i > 0 {
			b.WriteByte('\n')
		}
		if u.Example == "" {
			fmt.Fprintf(&b, "  %-17s%s", u.Label, u.Form)
		} else {
			fmt.Fprintf(&b, "  %-17s%-35s%s", u.Label, u.Form, u.Example)
		}
	}
	return b.String()
}

func sessionFlags(cmd *cobra.Command, o *QuizOptions) {
	cmd.Flags().IntVar(&o.Count, "count", 10, "number of questions (0 for all)")
	cmd.Flags().BoolVar(&o.Exam, "exam", false, "mock interview: no feedback until the end, then a verdict per topic against the senior bar and the model answers")
	cmd.Flags().DurationVar(&o.TimeLimit, "time-limit", 0, "end the session after this long, with a live countdown (e.g. 30m); an answer in progress when time runs out is dropped")
	cmd.Flags().StringSliceVar(&o.IDs, "id", nil, "ask exactly these questions (comma-separated ids, see quiz list)")
	cmd.Flags().StringSliceVar(&o.Types, "type", nil, "only these question types: "+strings.Join(quiz.Types, ", "))
	cmd.Flags().BoolVar(&o.Weakest, "weakest", false, "weakest topics first (last scores weighted by FSRS retrievability; unanswered count 0)")
	cmd.Flags().BoolVar(&o.Mistakes, "mistakes", false, "only questions whose last answer scored below 80%")
	cmd.Flags().BoolVar(&o.New, "new", false, "only questions never answered")
	_ = cmd.RegisterFlagCompletionFunc("type", fixedCompletion(quiz.Types...))
}

// quizEnv is what every quiz subcommand needs.
type quizEnv struct {
	io    *iostreams.Streams
	g     Globals
	bank  *quiz.Bank
	store *quiz.Store
	now   func() time.Time
}

// newQuizEnv checks the shared flags (and a session's, when o is one) and
// loads the bank; withStore also resolves the progress directory (`quiz
// list` needs none).
func newQuizEnv(s *QuizScope, o *QuizOptions, withStore bool) (*quizEnv, error) {
	g := s.Settings
	if g.Format == render.Mermaid {
		return nil, exitcode.Inputf("--format mermaid: the quiz draws no diagram; use text, markdown or json")
	}
	for _, t := range s.Topics {
		if !slices.Contains(quiz.Topics, t) {
			return nil, exitcode.Inputf("unknown --topic %q; topics: %v", t, quiz.Topics)
		}
	}
	if s.Difficulty != "" && !slices.Contains(quiz.Difficulties, s.Difficulty) {
		return nil, exitcode.Inputf("invalid --difficulty %q: want middle, senior or staff", o.Difficulty)
	}
	if o != nil {
		if err := o.validate(); err != nil {
			return nil, err
		}
	}
	bank, err := quiz.Load(quizBank)
	if err != nil {
		return nil, fmt.Errorf("question bank: %w", err)
	}
	e := &quizEnv{io: s.IO, g: g, bank: bank, now: s.Clock}
	if s.Now != "" {
		t, err := time.Parse(time.RFC3339, s.Now)
		if err != nil {
			return nil, exitcode.Inputf("invalid --now/K8SEXPLAIN_NOW %q: want RFC3339 (2026-03-01T09:00:00Z)", clip.Value(s.Now))
		}
		if err := quiz.CheckTime(t); err != nil {
			return nil, exitcode.Inputf("invalid --now/K8SEXPLAIN_NOW: %v", err)
		}
		e.now = func() time.Time { return t }
	}
	if !withStore {
		return e, nil
	}
	dir, err := quiz.StateDir(s.StateDir, s.IO.Getenv)
	if err != nil {
		return nil, exitcode.AsInput(err)
	}
	e.store = &quiz.Store{Dir: dir, Warn: func(w string) { fmt.Fprintf(s.IO.ErrOut, "k8sexplain: warning: %s\n", w) }}
	return e, nil
}

// validate checks a session's own flags.
func (o *QuizOptions) validate() error {
	if o.Count < 0 {
		return exitcode.Inputf("invalid --count %d: want 0 (all) or more", o.Count)
	}
	for _, t := range o.Types {
		if !slices.Contains(quiz.Types, t) {
			return exitcode.Inputf("unknown --type %q; types: %v", t, quiz.Types)
		}
	}
	if o.TimeLimit < 0 {
		return exitcode.Inputf("invalid --time-limit %s: want a positive duration such as 30m", o.TimeLimit)
	}
	return nil
}

func quizRun(o *QuizOptions) error {
	e, err := newQuizEnv(&o.QuizScope, o, true)
	if err != nil {
		return err
	}
	if o.Answers != "" {
		return answersRun(o, e)
	}
	if o.Record {
		return exitcode.Inputf("--record only applies to --answers")
	}
	for _, id := range o.IDs {
		if e.bank.Get(id) == nil {
			return exitcode.Inputf("unknown --id %q (see k8sexplain quiz list)", id)
		}
	}
	st, err := e.store.Load()
	if err != nil {
		return fmt.Errorf("load progress: %w", err)
	}
	// The seed of the new questions' order: --seed if given, else one from
	// the clock and the progress, so that sessions differ.
	pick := e.g.Seed
	if !o.SeedSet {
		pick = quiz.SessionSeed(e.now(), st)
	}
	qs := quiz.Select(e.bank, st, quiz.Selection{Topics: o.Topics, Difficulty: o.Difficulty, Count: o.Count,
		DueOnly: o.DueOnly, Seed: pick, Now: e.now(), IDs: o.IDs, Types: o.Types, Weakest: o.Weakest,
		Mistakes: o.Mistakes, NewOnly: o.New})
	if len(qs) == 0 {
		if e.g.Format != render.Text {
			return o.render(versioned("k8sexplain.quiz-answers/v1", quiz.ReportDoc(&quiz.Outcome{}, e.g.Lang, o.Exam, false)))
		}
		fmt.Fprintln(o.IO.Out, quiz.Msg(e.g.Lang, "Nothing to ask: no question is due and none matches."))
		if next := quiz.ComputeStats(e.bank, st, e.now()).NextDue; next != nil {
			fmt.Fprintf(o.IO.Out, "%s: %s\n", quiz.Msg(e.g.Lang, "Next review due"), next.In(e.now().Location()).Format("2006-01-02 15:04"))
		}
		return nil
	}
	// Prompts and feedback go to stdout in text mode; with --format markdown
	// or json they go to stderr so that stdout holds only the report.
	talk := o.IO.Out
	if e.g.Format != render.Text {
		talk = o.IO.ErrOut
	}
	s := &quiz.Session{Questions: qs, Prompter: newPrompter(o.IO, talk, e.g.Color), Store: e.store, Lang: e.g.Lang,
		Seed: e.g.Seed, Exam: o.Exam, Now: e.now, Reask: true,
		Salt: func(q *quiz.Question) int64 {
			if p := st.Cards[q.ID]; p != nil {
				return int64(p.Reviews)
			}
			return 0
		},
		Feedback: func(a *quiz.Answered) error {
			err := render.Render(talk, quiz.FeedbackDoc(a, e.g.Lang), render.Options{Format: render.Text, Color: e.g.Color})
			if err == nil {
				_, err = fmt.Fprintln(talk)
			}
			return err
		}}
	if o.TimeLimit > 0 {
		s.Deadline = e.now().Add(o.TimeLimit)
	}
	// On a terminal the learner confirms or changes a free-text answer's
	// rating; in line mode the automatic rating stands.
	if sp, ok := s.Prompter.(*quiz.SurveyPrompter); ok {
		s.Rate = sp.Rate
	}
	if lp, ok := s.Prompter.(*quiz.LinePrompter); ok {
		stop := make(chan struct{})
		lp.Interrupt = stop
		sig := make(chan os.Signal, 1)
		signal.Notify(sig, os.Interrupt)
		finished := make(chan struct{})
		defer func() { signal.Stop(sig); close(finished) }()
		go func() {
			select {
			case <-sig:
				close(stop)
			case <-finished:
			}
		}()
	}
	out, err := s.Run()
	if err != nil {
		return err
	}
	if !o.Exam && len(out.Answers) > 0 && talk == o.IO.Out {
		fmt.Fprintln(o.IO.Out)
	}
	if rerr := o.render(versioned("k8sexplain.quiz-answers/v1", quiz.ReportDoc(out, e.g.Lang, o.Exam, o.Exam))); rerr != nil {
		return rerr
	}
	if out.Interrupted {
		return &exitcode.Error{Code: exitcode.Interrupted, Err: errors.New("interrupted; the answers so far are saved")}
	}
	return nil
}

// newPrompter picks survey when stdin and stdout are both terminals (and
// real files, as survey needs their descriptors), plain lines otherwise.
func newPrompter(s *iostreams.Streams, talk io.Writer, color bool) quiz.Prompter {
	in, inOK := s.In.(terminal.FileReader)
	out, outOK := s.Out.(terminal.FileWriter)
	if s.InTTY && s.OutTTY && inOK && outOK {
		return &quiz.SurveyPrompter{Stdio: terminal.Stdio{In: in, Out: out, Err: s.ErrOut}, NoColor: !color}
	}
	return quiz.NewLinePrompter(readcap.Lines(s.In, "standard input", readcap.Line, "an answer line"), talk)
}
