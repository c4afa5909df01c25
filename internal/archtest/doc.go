// Package archtest holds no code: its test checks the import rules of
// docs/ARCHITECTURE.md on the source tree (models compute, explain packages
// build documents, renderers render), so a change that breaks the layering
// fails `go test ./...` with the file that broke it.
package archtest
