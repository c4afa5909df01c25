//go:build unix

package rendercheck

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/k8sexplain/k8sexplain/internal/golden"
)

// mermaidVersion is the mermaid release the render test uses (the same one
// the project's mermaid-check tool pins).
const mermaidVersion = "12.3.0"

// mermaidJS finds mermaid's browser bundle: $MERMAID_JS, the mermaid-check
// tool's cache, or this test's own cache, where npm installs it once.
func mermaidJS(t *testing.T) string {
	t.Helper()
	rel := filepath.Join("node_modules", "mermaid", "dist", "mermaid.min.js")
	var dirs []string
	if p := os.Getenv("MERMAID_JS"); p != "" {
		return p
	}
	cache, _ := os.UserCacheDir()
	if cache != "" {
		dirs = append(dirs, filepath.Join(cache, "mermaid-check"), filepath.Join(cache, "k8sexplain-test", "mermaid-"+mermaidVersion))
	}
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, rel)); err == nil {
			return filepath.Join(d, rel)
		}
	}
	npm, err := exec.LookPath("npm")
	if err != nil || cache == "" {
		t.Skip("mermaid not found and no npm to install it: the Mermaid render test needs node's npm (Debian: apt-get install npm) or MERMAID_JS=path/to/mermaid.min.js")
	}
	dir := filepath.Join(cache, "k8sexplain-test", "mermaid-"+mermaidVersion)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(npm, "install", "--no-audit", "--no-fund", "--loglevel=error", "--prefix", dir, "mermaid@"+mermaidVersion)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("npm install mermaid@%s failed (offline?): %v\n%s", mermaidVersion, err, out)
	}
	return filepath.Join(dir, rel)
}

var fencedMermaid = regexp.MustCompile("(?s)```mermaid\n(.*?)```")

// TestGoldenMermaidRenders draws every golden .mmd file, and every mermaid
// block of a golden .md file, with the real mermaid library in headless
// Chromium: no parse or render error, and never the "Maximum text size in
// diagram exceeded" picture mermaid draws instead of a too-long diagram.
func TestGoldenMermaidRenders(t *testing.T) {
	js := mermaidJS(t)
	type diagram struct{ Name, Text string }
	var ds []diagram
	mmd, _ := filepath.Glob(filepath.Join(golden.Dir(), "*", "*.mmd"))
	md, _ := filepath.Glob(filepath.Join(golden.Dir(), "*", "*.md"))
	for _, f := range append(mmd, md...) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(golden.Dir(), f)
		if strings.HasSuffix(f, ".mmd") {
			ds = append(ds, diagram{filepath.ToSlash(rel), string(b)})
			continue
		}
		for _, m := range fencedMermaid.FindAllStringSubmatch(string(b), -1) {
			ds = append(ds, diagram{filepath.ToSlash(rel) + " (mermaid block)", m[1]})
		}
	}
	if len(mmd) == 0 {
		t.Fatal("no golden Mermaid files")
	}
	// A control: the test must notice a diagram over the limit.
	ds = append(ds, diagram{"control: too long", "sequenceDiagram\n" + strings.Repeat("    a->>b: "+strings.Repeat("x", 90)+"\n", 600)})

	b := startBrowser(t)
	page := filepath.Join(t.TempDir(), "mermaid.html")
	src, _ := filepath.Abs(js)
	if err := os.WriteFile(page, []byte(`<!DOCTYPE html><html><head><meta charset="utf-8"><script src="file://`+filepath.ToSlash(src)+`"></script></head><body></body></html>`), 0o644); err != nil {
		t.Fatal(err)
	}
	b.navigate(t, "file://"+filepath.ToSlash(page))
	input, _ := json.Marshal(ds)
	var results []struct {
		Name, Err string
		Exceeded  bool
		SVG       int
	}
	b.eval(t, `(async () => {
  mermaid.initialize({startOnLoad: false, securityLevel: 'strict'});
  const out = [];
  const ds = `+string(input)+`;
  for (let i = 0; i < ds.length; i++) {
    const r = {Name: ds[i].Name, Err: '', Exceeded: false, SVG: 0};
    try {
      const {svg} = await mermaid.render('d' + i, ds[i].Text);
      r.SVG = svg.length;
      r.Exceeded = svg.includes('Maximum text size');
    } catch (e) { r.Err = String(e && e.message || e).split('\n').slice(0, 3).join(' | '); }
    out.push(r);
  }
  return out;
})()`, &results)
	if len(results) != len(ds) {
		t.Fatalf("%d results for %d diagrams", len(results), len(ds))
	}
	for _, r := range results {
		control := strings.HasPrefix(r.Name, "control:")
		switch {
		case control && !r.Exceeded:
			t.Errorf("the too-long control diagram was not flagged (err %q): the check is blind", r.Err)
		case control:
		case r.Err != "":
			t.Errorf("%s: mermaid could not render it: %s", r.Name, r.Err)
		case r.Exceeded:
			t.Errorf("%s: Maximum text size in diagram exceeded", r.Name)
		case r.SVG < 500:
			t.Errorf("%s: rendered only %d bytes of SVG", r.Name, r.SVG)
		}
	}
	t.Logf("mermaid %s rendered %d diagrams", mermaidVersion, len(results)-1)
	if errs := b.consoleErrors(); len(errs) > 0 {
		t.Logf("console while rendering: %s", strings.Join(errs, "\n"))
	}
}
