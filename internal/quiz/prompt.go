package quiz

import (
	"bufio"
	"errors"
	"fmt"
	"github.com/k8sexplain/k8sexplain/internal/yamldoc"
	"io"
	"strings"
	"time"

	fsrs "github.com/open-spaced-repetition/go-fsrs/v3"
	"gopkg.in/yaml.v3"
)

// LinePrompter asks on a plain writer and reads one answer per line: the
// non-terminal mode (pipes, files, CI). The end of input ends the session;
// it never waits for a terminal that is not there. A last line without a
// newline still counts.
type LinePrompter struct {
	In  *bufio.Reader
	Out io.Writer
	// Interrupt, when set, ends the wait for a line with ErrInterrupted:
	// in this mode the terminal (if any) is not raw, so Ctrl-C is a SIGINT
	// the command turns into a receive here.
	Interrupt <-chan struct{}

	lines chan lineRead
}

type lineRead struct {
	s   string
	err error
}

// NewLinePrompter reads answers from in and writes questions to out.
func NewLinePrompter(in io.Reader, out io.Writer) *LinePrompter {
	return &LinePrompter{In: bufio.NewReader(in), Out: out}
}

// Ask prints the question and reads a line.
func (l *LinePrompter) Ask(p *Presentation) (string, error) {
	if _, err := io.WriteString(l.Out, FormatQuestion(p)); err != nil {
		return "", err
	}
	line, err := l.readLine()
	if errors.Is(err, ErrInterrupted) {
		fmt.Fprintln(l.Out)
		return "", err
	}
	if err != nil && !(errors.Is(err, io.EOF) && line != "") {
		fmt.Fprintln(l.Out)
		return "", err
	}
	line = strings.TrimRight(line, "\r\n")
	// echo the answer: stdin is not the terminal the questions go to
	fmt.Fprintf(l.Out, "%s\n\n", line)
	return line, nil
}

// readLine reads the next line, or returns ErrInterrupted when Interrupt
// fires first. With Interrupt set, a goroutine reads ahead one line at a
// time; it may stay blocked on the input after an interrupt, which ends the
// session (and, in the real command, the process).
func (l *LinePrompter) readLine() (string, error) {
	if l.Interrupt == nil {
		return l.In.ReadString('\n')
	}
	if l.lines == nil {
		l.lines = make(chan lineRead, 1)
		go func() {
			for {
				s, err := l.In.ReadString('\n')
				l.lines <- lineRead{s, err}
				if err != nil {
					return
				}
			}
		}()
	}
	select {
	case r := <-l.lines:
		return r.s, r.err
	case <-l.Interrupt:
		return "", ErrInterrupted
	}
}

// FormatQuestion renders a question as plain text with numbered choices and
// the answer format, ending in the "> " prompt.
func FormatQuestion(p *Presentation) string {
	var b strings.Builder
	if p.Retry != "" {
		fmt.Fprintf(&b, "%s\n", retryLine(p))
	} else {
		fmt.Fprintf(&b, "\n%s · %s · %s%s\n%s\n", msgf(p.Lang, "Question {1} of {2}", p.Number, p.Total), p.Q.Topic, p.Q.Difficulty, timeLeft(p), p.Prompt)
	}
	if p.Retry == "" {
		for i, c := range p.Choices {
			fmt.Fprintf(&b, "  %d) %s\n", i+1, c)
		}
	}
	hint := p.Hint
	if p.Unit != "" {
		hint += " (" + p.Unit + ")"
	}
	fmt.Fprintf(&b, "%s: %s\n> ", msg(p.Lang, "Answer"), hint)
	return b.String()
}

// retryLine says why an answer could not be read and what form is
// expected, for asking again.
func retryLine(p *Presentation) string {
	hint := p.Hint
	if p.Unit != "" {
		hint += " (" + p.Unit + ")"
	}
	return msgf(p.Lang, "Could not read the answer: {1}. Please answer with: {2}.", p.Retry, hint)
}

// timeLeft is the countdown shown in a timed exam's question header.
func timeLeft(p *Presentation) string {
	if p.Left <= 0 {
		return ""
	}
	return " · ⏱ " + msgf(p.Lang, "{1} left", p.Left.Round(time.Second))
}

// ScriptedPrompter answers from a prepared sheet by question id: the
// --answers mode, and the fake tests use. A question without an answer
// gets the empty answer (graded as unanswered); Stop, if set, makes the
// prompter return it before the question with that id.
type ScriptedPrompter struct {
	Answers map[string]string
	Stop    map[string]error
}

// Ask returns the prepared answer.
func (s *ScriptedPrompter) Ask(p *Presentation) (string, error) {
	if err := s.Stop[p.Q.ID]; err != nil {
		return "", err
	}
	return s.Answers[p.Q.ID], nil
}

// ScriptedAnswer is one entry of an answers file.
type ScriptedAnswer struct {
	ID     string
	Answer string
	// Rating is the entry's rating (0: none, the automatic one applies).
	Rating fsrs.Rating
	Line   int
}

// AnswerLine is the entry as an answer line: the answer, and its rating
// after " #" (SplitRating) when it has one.
func (a ScriptedAnswer) AnswerLine() string {
	if a.Rating == 0 {
		return a.Answer
	}
	return a.Answer + " #" + RatingWord(a.Rating)
}

// ParseAnswers reads an answers file: a YAML list of {id, answer} with an
// optional rating (again, hard, good or easy: the learner's verdict,
// see Session.Rate). The answer is a line in the answer format, or for
// choice questions a list of numbers ([1, 3] is "1 3"). Ids must be
// unique.
func ParseAnswers(data []byte) ([]ScriptedAnswer, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	if err := yamldoc.One(data); err != nil {
		return nil, err
	}
	if len(doc.Content) == 0 {
		return nil, nil
	}
	list := doc.Content[0]
	if list.Kind != yaml.SequenceNode {
		return nil, fmt.Errorf("line %d: want a list of {id, answer}", list.Line)
	}
	seen := map[string]int{}
	var out []ScriptedAnswer
	for _, n := range list.Content {
		if n.Kind != yaml.MappingNode {
			return nil, fmt.Errorf("line %d: want {id, answer}", n.Line)
		}
		a := ScriptedAnswer{Line: n.Line}
		hasAnswer := false
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			switch k.Value {
			case "id":
				if v.Kind != yaml.ScalarNode || v.Value == "" {
					return nil, fmt.Errorf("line %d: id must be a non-empty string", v.Line)
				}
				a.ID = v.Value
			case "answer":
				s, err := answerText(v)
				if err != nil {
					return nil, err
				}
				a.Answer, hasAnswer = s, true
			case "rating":
				r, ok := ParseRating(v.Value)
				if v.Kind != yaml.ScalarNode || !ok {
					return nil, fmt.Errorf("line %d: rating must be again, hard, good or easy", v.Line)
				}
				a.Rating = r
			default:
				return nil, fmt.Errorf("line %d: unknown field %q (want id, answer and an optional rating)", k.Line, k.Value)
			}
		}
		if a.ID == "" || !hasAnswer {
			return nil, fmt.Errorf("line %d: each entry needs id and answer", n.Line)
		}
		if first, dup := seen[a.ID]; dup {
			return nil, fmt.Errorf("line %d: id %q already answered on line %d", n.Line, a.ID, first)
		}
		seen[a.ID] = n.Line
		out = append(out, a)
	}
	return out, nil
}

func answerText(v *yaml.Node) (string, error) {
	switch v.Kind {
	case yaml.ScalarNode:
		return v.Value, nil
	case yaml.SequenceNode:
		parts := make([]string, 0, len(v.Content))
		for _, e := range v.Content {
			if e.Kind != yaml.ScalarNode {
				return "", fmt.Errorf("line %d: an answer list holds plain values", e.Line)
			}
			parts = append(parts, e.Value)
		}
		return strings.Join(parts, " "), nil
	}
	return "", fmt.Errorf("line %d: answer must be text, a number or a list of numbers", v.Line)
}
