package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/k8sexplain/k8sexplain/internal/golden"
	"github.com/k8sexplain/k8sexplain/internal/trace/explain"
)

// With -v the diagram folds deliveries into counted arrows instead of
// growing past what Mermaid draws (these runs printed 54–107 KB before).
func TestVerboseMermaidStaysDrawable(t *testing.T) {
	inRoot(t)
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"trace-apply/app.verbose.en.mmd", []string{"-v", "-o", "mermaid", "trace", "apply", "examples/app.yaml"}},
		{"trace-rollout/default.verbose.en.mmd", []string{"-v", "-o", "mermaid", "trace", "rollout", "-f", "examples/app.yaml", "--image", "web=nginx:1.28"}},
		{"trace-node-failure/default.verbose.ru.mmd", []string{"-v", "--lang", "ru", "-o", "mermaid", "trace", "node-failure", "-f", "examples/app.yaml"}},
		{"trace-apply/app.verbose.en.md", []string{"-v", "-o", "markdown", "trace", "apply", "examples/app.yaml"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := runGolden(t, tc.name, tc.args...)
			if strings.HasSuffix(tc.name, ".mmd") && !strings.Contains(out, " ×") {
				t.Error("a -v diagram with no folded arrow")
			}
		})
	}
	files, _ := filepath.Glob(filepath.Join(golden.Dir(), "*", "*.mmd"))
	for _, f := range files {
		b, _ := os.ReadFile(f)
		if len(b) > explain.MermaidMaxText {
			t.Errorf("%s: %d characters, more than Mermaid's maxTextSize %d", f, len(b), explain.MermaidMaxText)
		}
	}
}

// Markdown carries the diagram as a fenced mermaid block.
func TestMarkdownEmbedsMermaid(t *testing.T) {
	inRoot(t)
	out, _, code := run(t, "", "-o", "markdown", "trace", "apply", "examples/app.yaml")
	if code != 0 || !strings.Contains(out, "\n```mermaid\nsequenceDiagram\n") || !strings.HasSuffix(out, "```\n") {
		t.Fatalf("no mermaid block at the end of the Markdown (exit %d)", code)
	}
}
