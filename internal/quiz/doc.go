// Package quiz is the interview trainer behind `k8sexplain quiz`: the
// question bank model and its validation, graders for the five question
// types, question selection and sessions, prompters (terminal, plain lines,
// scripted), spaced repetition with FSRS and the progress store.
//
// The model: a Question (loaded from YAML, see Question for the schema) is
// shown as a Presentation, the learner's answer comes back as one line of
// text in a documented format (the same format the non-terminal mode reads
// and the --answers file holds), a grader turns it into a Result with a score
// in [0, 1], and the score becomes an FSRS rating that schedules the next
// review. Every graded answer is appended to the review log before anything
// else happens, so an interrupted session loses nothing.
//
// Deliberately left out: networked sync, per-user parameter optimisation of
// FSRS (the default weights are used), and natural-language understanding
// beyond rubric concepts — the free-text grader looks for key concepts
// (stemmed, typo-tolerant), it does not judge the argument.
package quiz
