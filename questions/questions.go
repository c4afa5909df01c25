// Package questions holds the quiz question bank: one YAML file per topic,
// each a list of questions in English and Russian, embedded into the binary.
// The schema is documented on quiz.Question (internal/quiz/question.go); the
// lint test in this directory checks every file against it.
package questions

import "embed"

// FS holds every questions/*.yaml file.
//
//go:embed *.yaml
var FS embed.FS
