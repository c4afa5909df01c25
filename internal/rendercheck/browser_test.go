//go:build unix

package rendercheck

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/k8sexplain/k8sexplain/internal/golden"
)

// artifactDir is where the screenshots go: $K8SEXPLAIN_TEST_ARTIFACTS, or
// a fixed folder under the system's temporary directory.
func artifactDir(t *testing.T) string {
	dir := os.Getenv("K8SEXPLAIN_TEST_ARTIFACTS")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "k8sexplain-test-artifacts")
	}
	dir = filepath.Join(dir, "html")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

var attrRE = regexp.MustCompile(`<svg class="seq"[^>]* data-lanes="(\d+)" data-arrows="(\d+)" data-notes="(\d+)"`)

// pageFacts is what the test reads from the loaded page.
type pageFacts struct {
	Lanes, Arrows, Notes, Bands int
	Steps, Phases               int
	Resources                   int
	Title                       string
}

const factsJS = `(() => {
  const q = s => document.querySelectorAll(s).length;
  return {Lanes: q('svg.seq g.lane'), Arrows: q('svg.seq g.arrow'), Notes: q('svg.seq g.note'), Bands: q('svg.seq g.band'),
    Steps: q('li.step'), Phases: q('details.phase'), Resources: performance.getEntriesByType('resource').length,
    Title: document.title};
})()`

// TestGoldenHTMLInChromium opens every golden HTML page in headless
// Chromium: no console errors, nothing fetched, the diagram has the lanes
// and arrows the renderer drew, a click on a step shows its explanation, a
// click on an arrow opens its step, a phase folds, the dark and print
// styles apply. A screenshot of each page is saved as an artefact.
func TestGoldenHTMLInChromium(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(golden.Dir(), "*", "*.html"))
	if len(files) == 0 {
		t.Fatal("no golden HTML files")
	}
	b := startBrowser(t)
	art := artifactDir(t)
	b.call(t, "Emulation.setDeviceMetricsOverride", map[string]any{"width": 1400, "height": 900, "deviceScaleFactor": 1, "mobile": false})
	for _, file := range files {
		rel, _ := filepath.Rel(golden.Dir(), file)
		t.Run(filepath.ToSlash(rel), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			abs, _ := filepath.Abs(file)
			b.call(t, "Emulation.setEmulatedMedia", map[string]any{"media": "", "features": []map[string]string{{"name": "prefers-color-scheme", "value": "light"}}})
			b.navigate(t, "file://"+filepath.ToSlash(abs))
			var f pageFacts
			b.eval(t, factsJS, &f)
			if f.Resources != 0 {
				t.Errorf("the page fetched %d resources; it must be self-contained", f.Resources)
			}
			if f.Title == "" {
				t.Error("no <title>")
			}
			if m := attrRE.FindSubmatch(src); m != nil {
				lanes, _ := strconv.Atoi(string(m[1]))
				arrows, _ := strconv.Atoi(string(m[2]))
				notes, _ := strconv.Atoi(string(m[3]))
				if f.Lanes != lanes || f.Arrows != arrows || f.Notes != notes {
					t.Errorf("diagram in the browser: %d lanes, %d arrows, %d notes; the renderer drew %d, %d, %d", f.Lanes, f.Arrows, f.Notes, lanes, arrows, notes)
				}
				if f.Lanes < 2 || f.Arrows == 0 {
					t.Errorf("diagram has %d lanes and %d arrows", f.Lanes, f.Arrows)
				}
			}
			if f.Steps > 0 {
				checkClicks(t, b, f)
			}
			checkThemes(t, b)
			b.eval(t, `window.scrollTo(0,0)`, nil)
			shot := filepath.Join(art, strings.ReplaceAll(strings.TrimSuffix(filepath.ToSlash(rel), ".html"), "/", "_")+".png")
			b.screenshot(t, shot)
			t.Logf("screenshot: %s", shot)
			if errs := b.consoleErrors(); len(errs) > 0 {
				t.Errorf("console errors:\n%s", strings.Join(errs, "\n"))
			}
		})
	}
}

type rect struct{ X, Y, Visible float64 }

// centre scrolls the element found by expr into view and returns the
// centre of its box in viewport coordinates.
func centre(t *testing.T, b *browser, expr string) rect {
	t.Helper()
	var r rect
	b.eval(t, `(() => { const e = `+expr+`; e.scrollIntoView({block:'center'}); const r = e.getBoundingClientRect();
      return {X: r.x + r.width/2, Y: r.y + r.height/2, Visible: r.width > 0 || r.height > 0 ? 1 : 0}; })()`, &r)
	if r.Visible == 0 {
		t.Fatalf("%s is not visible", expr)
	}
	return r
}

func checkClicks(t *testing.T, b *browser, f pageFacts) {
	t.Helper()
	// A step with an explanation: hidden before the click, shown after.
	const step = `[...document.querySelectorAll('li.step')].find(li => li.querySelector('.ex').textContent.trim() !== '')`
	var shown bool
	b.eval(t, `getComputedStyle(`+step+`.querySelector('.ex')).display !== 'none'`, &shown)
	if shown {
		t.Error("an explanation is shown before any click")
	}
	var id string
	b.eval(t, step+`.id`, &id)
	c := centre(t, b, step+`.querySelector('.msg')`)
	b.click(t, c.X, c.Y)
	var after struct {
		Shown bool
		Text  string
	}
	b.eval(t, `(() => { const ex = document.getElementById('`+id+`').querySelector('.ex');
      return {Shown: getComputedStyle(ex).display !== 'none' && ex.getBoundingClientRect().height > 0, Text: ex.innerText}; })()`, &after)
	if !after.Shown || strings.TrimSpace(after.Text) == "" {
		t.Errorf("clicking step %s did not show its explanation (shown %v, text %q)", id, after.Shown, after.Text)
	}
	// An arrow in the diagram: the click selects it and opens its step.
	if f.Arrows > 0 {
		const arrow = `document.querySelector('svg.seq g.arrow[data-ref]:not([data-ref="` + `X` + `"])')`
		a := strings.Replace(arrow, "X", id, 1)
		var ref string
		b.eval(t, a+`.getAttribute('data-ref')`, &ref)
		c := centre(t, b, a+`.querySelector('line')`)
		b.click(t, c.X, c.Y)
		var st struct{ Open, Sel bool }
		b.eval(t, `(() => { const li = document.getElementById('`+ref+`');
          return {Open: li.classList.contains('open') && getComputedStyle(li.querySelector('.ex')).display !== 'none',
            Sel: document.querySelector('svg.seq g.arrow[data-ref="`+ref+`"]').classList.contains('sel')}; })()`, &st)
		if !st.Open || !st.Sel {
			t.Errorf("clicking the arrow of %s: step opened %v, arrow selected %v", ref, st.Open, st.Sel)
		}
	}
	// A phase folds when its title is clicked, and opens again.
	if f.Phases > 0 {
		for _, want := range []bool{false, true} {
			c := centre(t, b, `document.querySelector('details.phase > summary')`)
			b.click(t, c.X, c.Y)
			var open bool
			b.eval(t, `document.querySelector('details.phase').open`, &open)
			if open != want {
				t.Errorf("clicking the first phase title: open=%v, want %v", open, want)
			}
		}
	}
}

// checkThemes switches the emulated colour scheme and print media and
// checks the page follows.
func checkThemes(t *testing.T, b *browser) {
	t.Helper()
	bg := func() string {
		var s string
		b.eval(t, `getComputedStyle(document.body).backgroundColor`, &s)
		return s
	}
	light := bg()
	b.call(t, "Emulation.setEmulatedMedia", map[string]any{"media": "", "features": []map[string]string{{"name": "prefers-color-scheme", "value": "dark"}}})
	dark := bg()
	if light == dark {
		t.Errorf("dark scheme: body background stays %s", light)
	}
	b.call(t, "Emulation.setEmulatedMedia", map[string]any{"media": "print", "features": []map[string]string{{"name": "prefers-color-scheme", "value": "dark"}}})
	var hint string
	b.eval(t, `getComputedStyle(document.querySelector('.hint')).display`, &hint)
	if hint != "none" || bg() != "rgb(255, 255, 255)" {
		t.Errorf("print media: hint display %q, background %s (want none, white)", hint, bg())
	}
	b.call(t, "Emulation.setEmulatedMedia", map[string]any{"media": "", "features": []map[string]string{{"name": "prefers-color-scheme", "value": "light"}}})
}
