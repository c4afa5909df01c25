//go:build unix

package rendercheck

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/k8sexplain/k8sexplain/internal/golden"
)

// The layout tests look at every golden page the way a person does: on a
// laptop screen scrolled to the middle and to the end, and on a phone.
// Screenshots of each view are saved as artefacts (artifactDir).

// viewport sets the emulated screen; mobile turns on the phone's meta
// viewport handling (a page wider than the screen would be zoomed out).
func viewport(t *testing.T, b *browser, w, h int, mobile bool) {
	t.Helper()
	b.call(t, "Emulation.setDeviceMetricsOverride", map[string]any{"width": w, "height": h, "deviceScaleFactor": 1, "mobile": mobile})
	b.call(t, "Emulation.setEmulatedMedia", map[string]any{"media": "", "features": []map[string]string{{"name": "prefers-color-scheme", "value": "light"}}})
}

// settle waits for two animation frames, so a scroll or a click has been
// laid out and painted before the test measures it (no fixed sleeps).
func settle(t *testing.T, b *browser) {
	t.Helper()
	b.eval(t, `new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`, nil)
}

func shotName(t *testing.T, rel, view string) string {
	return filepath.Join(artifactDir(t), strings.ReplaceAll(strings.TrimSuffix(filepath.ToSlash(rel), ".html"), "/", "_")+"."+view+".png")
}

func goldenPages(t *testing.T) []string {
	files, _ := filepath.Glob(filepath.Join(golden.Dir(), "*", "*.html"))
	if len(files) == 0 {
		t.Fatal("no golden HTML files")
	}
	return files
}

type box struct{ Top, Bottom, Left, Right, Height float64 }

// diagramBox is the viewport box of the diagram's visible part, and the
// viewport height.
const diagramJS = `(() => { const d = document.querySelector('.layout > .diagram'); if (!d) return null;
  const r = d.getBoundingClientRect(); return {Top: r.top, Bottom: r.bottom, Left: r.left, Right: r.right, Height: innerHeight}; })()`

// TestPagesKeepTheDiagramInView: at 1280×800, scrolled to the middle and
// to the end of the page, the diagram (the sequence diagram in its column)
// is inside the viewport; a click on a step deep in the list brings its
// arrow into the diagram's view, and a click on an arrow does not move the
// diagram away; #step=sN opens with that step on screen.
func TestPagesKeepTheDiagramInView(t *testing.T) {
	b := startBrowser(t)
	for _, file := range goldenPages(t) {
		rel, _ := filepath.Rel(golden.Dir(), file)
		t.Run(filepath.ToSlash(rel), func(t *testing.T) {
			abs, _ := filepath.Abs(file)
			viewport(t, b, 1280, 800, false)
			b.navigate(t, "file://"+filepath.ToSlash(abs))
			var has bool
			b.eval(t, `!!document.querySelector('.layout > .diagram svg.seq')`, &has)
			if !has {
				t.Fatal("the page has no diagram column")
			}
			for _, at := range []struct {
				name string
				frac float64
			}{{"middle", 0.5}, {"end", 1}} {
				b.eval(t, fmt.Sprintf(`window.scrollTo(0, (document.documentElement.scrollHeight - innerHeight) * %g)`, at.frac), nil)
				settle(t, b)
				var d box
				b.eval(t, diagramJS, &d)
				if d.Top < -1 || d.Bottom > d.Height+1 || d.Bottom-d.Top < 200 {
					t.Errorf("scrolled to the %s: the diagram is at %.0f–%.0f px of an %.0f px viewport", at.name, d.Top, d.Bottom, d.Height)
				}
				b.screenshot(t, shotName(t, rel, "1280-"+at.name))
			}
			checkDeepClicks(t, b)
			checkFragment(t, b, abs)
		})
	}
}

// inDiagram reports whether the element with data-ref ref in the diagram
// is visible inside the diagram's scrolling box, and the box inside the
// viewport.
func inDiagram(t *testing.T, b *browser, ref string) (bool, string) {
	t.Helper()
	var r struct {
		OK   bool
		Says string
	}
	b.eval(t, `(() => { const e = document.querySelector('svg.seq [data-ref="`+ref+`"]'); if (!e) return {OK: true, Says: 'no arrow'};
      const w = e.closest('.seqwrap').getBoundingClientRect(), a = e.getBoundingClientRect();
      const ok = a.top >= w.top - 1 && a.bottom <= w.bottom + 1 && a.right > w.left && a.left < w.right && w.top >= -1 && w.bottom <= innerHeight + 1;
      return {OK: ok, Says: 'arrow ' + Math.round(a.top) + '–' + Math.round(a.bottom) + ', diagram box ' + Math.round(w.top) + '–' + Math.round(w.bottom) + ', viewport ' + innerHeight}; })()`, &r)
	return r.OK, r.Says
}

func checkDeepClicks(t *testing.T, b *browser) {
	t.Helper()
	var n int
	b.eval(t, `document.querySelectorAll('li.step').length`, &n)
	if n == 0 {
		return
	}
	// A step near the end of the list whose arrow is drawn.
	var ref string
	b.eval(t, `(() => { const ls = [...document.querySelectorAll('li.step')].filter(li => document.querySelector('svg.seq [data-ref="' + li.id + '"]'));
      return ls[Math.floor(ls.length * 0.9)].id; })()`, &ref)
	c := centre(t, b, `document.getElementById('`+ref+`').querySelector('.msg')`)
	b.click(t, c.X, c.Y)
	settle(t, b)
	if ok, says := inDiagram(t, b, ref); !ok {
		t.Errorf("clicking step %s deep in the list: its arrow is not in the diagram's view (%s)", ref, says)
	}
	// An arrow near the top of the diagram: its step opens and comes into
	// view; the diagram column stays where it was.
	var before, after box
	b.eval(t, `(() => { const w = document.querySelector('.seqwrap'); w.scrollTop = 0; w.scrollLeft = 0; return true; })()`, nil)
	settle(t, b)
	b.eval(t, diagramJS, &before)
	var aref string
	b.eval(t, `document.querySelectorAll('svg.seq g.arrow[data-ref]')[1].getAttribute('data-ref')`, &aref)
	var p rect
	b.eval(t, `(() => { const l = document.querySelectorAll('svg.seq g.arrow[data-ref]')[1].querySelector('line'), w = l.closest('.seqwrap');
      w.scrollTop += l.getBoundingClientRect().top - w.getBoundingClientRect().top - w.clientHeight / 2; return true; })()`, nil)
	settle(t, b)
	b.eval(t, diagramJS, &before)
	b.eval(t, `(() => { const r = document.querySelectorAll('svg.seq g.arrow[data-ref]')[1].querySelector('line').getBoundingClientRect();
      return {X: r.x + r.width/2, Y: r.y + r.height/2, Visible: r.width > 0 ? 1 : 0}; })()`, &p)
	b.click(t, p.X, p.Y)
	settle(t, b)
	b.eval(t, diagramJS, &after)
	var st struct{ Open, Visible bool }
	b.eval(t, `(() => { const li = document.getElementById('`+aref+`'), r = li.getBoundingClientRect();
      return {Open: li.classList.contains('open'), Visible: r.top >= -1 && r.top < innerHeight}; })()`, &st)
	if !st.Open || !st.Visible {
		t.Errorf("clicking the arrow of %s: step opened %v, on screen %v", aref, st.Open, st.Visible)
	}
	if after.Top < -1 || after.Bottom > after.Height+1 || after.Top-before.Top > 1 || before.Top-after.Top > 1 {
		t.Errorf("clicking an arrow moved the diagram from %.0f–%.0f to %.0f–%.0f px", before.Top, before.Bottom, after.Top, after.Bottom)
	}
}

// checkFragment opens page.html#step=sN for a step past the first screen.
func checkFragment(t *testing.T, b *browser, abs string) {
	t.Helper()
	var ref string
	b.eval(t, `(() => { const ls = document.querySelectorAll('li.step'); return ls.length ? ls[Math.floor(ls.length * 0.6)].id : ''; })()`, &ref)
	if ref == "" {
		return
	}
	b.navigate(t, "about:blank")
	b.navigate(t, "file://"+filepath.ToSlash(abs)+"#step="+ref)
	settle(t, b)
	var st struct{ Open, Visible bool }
	b.eval(t, `(() => { const li = document.getElementById('`+ref+`'), r = li.getBoundingClientRect();
      return {Open: li.classList.contains('open'), Visible: r.top >= -1 && r.top < innerHeight - 20}; })()`, &st)
	if !st.Open || !st.Visible {
		t.Errorf("#step=%s: step opened %v, on screen %v", ref, st.Open, st.Visible)
	}
	if ok, says := inDiagram(t, b, ref); !ok {
		t.Errorf("#step=%s: its arrow is not in the diagram's view (%s)", ref, says)
	}
}

// narrowJS measures the page on a phone: how wide the document lays out,
// the smallest font size of text a person reads (paragraphs, list items,
// steps, table cells, code), and the elements wider than the screen.
const narrowJS = `(() => {
  document.querySelectorAll('details').forEach(d => d.open = true);
  let min = 100, where = '';
  for (const e of document.querySelectorAll('body p, body li, td, th, pre, summary, figcaption, .msg, .member')) {
    if (!e.getClientRects().length) continue;
    const fs = parseFloat(getComputedStyle(e).fontSize);
    if (fs < min) { min = fs; where = e.tagName + '.' + e.className; }
  }
  const wide = [...document.body.querySelectorAll('*')].filter(e => { const r = e.getBoundingClientRect(); return r.right > innerWidth + 1 && !e.closest('.tw, .figwrap, .seqwrap, pre'); })
    .slice(0, 5).map(e => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right));
  return {Width: document.documentElement.scrollWidth, Inner: innerWidth, MinFont: min, Where: where, Wide: wide};
})()`

// TestPagesFitAPhone: at 400 px wide with a phone's viewport handling,
// nothing makes the page scroll sideways (wide diagrams, tables and code
// scroll inside their own boxes) and no text a person reads is smaller
// than 12 px.
func TestPagesFitAPhone(t *testing.T) {
	b := startBrowser(t)
	for _, file := range goldenPages(t) {
		rel, _ := filepath.Rel(golden.Dir(), file)
		t.Run(filepath.ToSlash(rel), func(t *testing.T) {
			abs, _ := filepath.Abs(file)
			viewport(t, b, 400, 800, true)
			b.navigate(t, "file://"+filepath.ToSlash(abs))
			settle(t, b)
			b.screenshot(t, shotName(t, rel, "400-top"))
			var m struct {
				Width, Inner int
				MinFont      float64
				Where        string
				Wide         []string
			}
			b.eval(t, narrowJS, &m)
			if m.Width > 400 || m.Inner > 400 {
				t.Errorf("at 400 px the page lays out %d px wide (window %d px); too wide: %v", m.Width, m.Inner, m.Wide)
			}
			if m.MinFont < 12 {
				t.Errorf("text of %.1f px (%s) on a phone; want at least 12 px", m.MinFont, m.Where)
			}
			b.eval(t, `window.scrollTo(0, (document.documentElement.scrollHeight - innerHeight) * 0.5)`, nil)
			settle(t, b)
			b.screenshot(t, shotName(t, rel, "400-middle"))
		})
	}
}

// cellsJS finds table cells narrower than their longest word (a table
// that wraps "node-a" letter by letter), measuring each word in the cell's
// own font.
const cellsJS = `(() => {
  document.querySelectorAll('details').forEach(d => d.open = true);
  document.querySelectorAll('li.step').forEach(li => li.classList.add('open'));
  const ctx = document.createElement('canvas').getContext('2d'), bad = [];
  let n = 0;
  for (const c of document.querySelectorAll('td, th')) {
    if (!c.getClientRects().length) continue;
    n++;
    const cs = getComputedStyle(c);
    ctx.font = cs.fontWeight + ' ' + cs.fontSize + ' ' + cs.fontFamily;
    const inner = c.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
    const word = c.innerText.split(/\s+/).reduce((a, w) => ctx.measureText(w).width > ctx.measureText(a).width ? w : a, '');
    if (ctx.measureText(word).width > inner + 1) bad.push(JSON.stringify(word) + ' in ' + Math.round(inner) + ' px');
  }
  return {Cells: n, Bad: bad.slice(0, 5), Count: bad.length};
})()`

// TestTableCellsHoldTheirWords: no table cell, on a laptop or a phone, is
// narrower than its longest word; a table wider than its column scrolls.
func TestTableCellsHoldTheirWords(t *testing.T) {
	b := startBrowser(t)
	for _, file := range goldenPages(t) {
		rel, _ := filepath.Rel(golden.Dir(), file)
		t.Run(filepath.ToSlash(rel), func(t *testing.T) {
			abs, _ := filepath.Abs(file)
			for _, w := range []int{1280, 400} {
				viewport(t, b, w, 800, w < 600)
				b.navigate(t, "file://"+filepath.ToSlash(abs))
				var r struct {
					Cells, Count int
					Bad          []string
				}
				b.eval(t, cellsJS, &r)
				if r.Count > 0 {
					t.Errorf("at %d px, %d of %d table cells are narrower than a word: %s", w, r.Count, r.Cells, strings.Join(r.Bad, "; "))
				}
			}
		})
	}
}

// TestQuorumFigureMatchesTheSimulation: each quorum page's member boxes
// (one row per state snapshot) say what the simulation's states in the
// JSON of the same run say: the same members, each with its role, down
// members in the down box and live ones never there.
func TestQuorumFigureMatchesTheSimulation(t *testing.T) {
	pages, _ := filepath.Glob(filepath.Join(golden.Dir(), "quorum", "*.html"))
	var pairs [][2]string
	for _, p := range pages {
		if j := strings.TrimSuffix(p, ".html") + ".json"; fileExists(j) {
			pairs = append(pairs, [2]string{p, j})
		}
	}
	if len(pairs) == 0 {
		t.Fatal("no quorum page with its JSON in golden/quorum")
	}
	b := startBrowser(t)
	viewport(t, b, 1280, 800, false)
	for _, pr := range pairs {
		rel, _ := filepath.Rel(golden.Dir(), pr[0])
		t.Run(filepath.ToSlash(rel), func(t *testing.T) {
			raw, err := os.ReadFile(pr[1])
			if err != nil {
				t.Fatal(err)
			}
			var data struct {
				Story struct {
					Events []struct {
						Kind   string `json:"kind"`
						States []struct {
							ID   int    `json:"id"`
							Role string `json:"role"`
						} `json:"states"`
					} `json:"events"`
				} `json:"story"`
			}
			if err := json.Unmarshal(raw, &data); err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, e := range data.Story.Events {
				if e.Kind != "state" {
					continue
				}
				var row []string
				for _, s := range e.States {
					row = append(row, fmt.Sprintf("etcd-%d=%s", s.ID, s.Role))
				}
				want = append(want, strings.Join(row, " "))
			}
			abs, _ := filepath.Abs(pr[0])
			b.navigate(t, "file://"+filepath.ToSlash(abs))
			var got []string
			b.eval(t, `[...document.querySelectorAll('.srow')].map(r => [...r.querySelectorAll('.member')].map(m => {
              const down = !!m.closest('.side.down'), role = [...m.classList].find(c => c !== 'member');
              if (down !== (role === 'down')) return m.textContent + '=MISPLACED';
              return m.textContent.split(' ')[0] + '=' + role; }).sort((a, b) => a.localeCompare(b, 'en', {numeric: true})).join(' '))`, &got)
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("member boxes on the page:\n%s\nthe simulation's states:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// TestPlayerPlaysTheStory drives each page's player as a learner would:
// the keys move between steps (→, ←, End, Home), space plays and pauses,
// the slider jumps, #step=sN opens there, and the state beside the diagram
// is the cluster at that step: at the last step every pod the story ends
// with is listed, and the position reads N/N.
func TestPlayerPlaysTheStory(t *testing.T) {
	b := startBrowser(t)
	n := 0
	for _, file := range goldenPages(t) {
		src, _ := os.ReadFile(file)
		if !strings.Contains(string(src), `id="k8x-player"`) {
			continue
		}
		n++
		rel, _ := filepath.Rel(golden.Dir(), file)
		t.Run(filepath.ToSlash(rel), func(t *testing.T) {
			abs, _ := filepath.Abs(file)
			viewport(t, b, 1280, 800, false)
			b.navigate(t, "file://"+filepath.ToSlash(abs))
			type pos struct {
				Pos, Sel, Play string
				Steps          int
				State          string
				StateVisible   bool
			}
			read := func() pos {
				var p pos
				b.eval(t, `(() => { const s = document.querySelector('.diagram .state'), r = s.getBoundingClientRect();
                  return {Pos: document.querySelector('.player .pos').textContent.split(' ')[0],
                    Sel: (document.querySelector('li.step.sel') || {}).id || '', Play: document.querySelector('[data-p="play"]').getAttribute('aria-pressed'),
                    Steps: document.querySelectorAll('li.step').length, State: s.innerText,
                    StateVisible: r.height > 100 && r.top >= 0 && r.bottom <= innerHeight + 1}; })()`, &p)
				return p
			}
			key := func(k, code string) {
				for _, typ := range []string{"keyDown", "keyUp"} {
					b.call(t, "Input.dispatchKeyEvent", map[string]any{"type": typ, "key": k, "code": code, "windowsVirtualKeyCode": map[string]int{"ArrowRight": 39, "ArrowLeft": 37, "Home": 36, "End": 35, " ": 32}[k]})
				}
				settle(t, b)
			}
			p := read()
			if p.Pos != fmt.Sprintf("1/%d", p.Steps) {
				t.Errorf("on opening: position %q, want 1/%d", p.Pos, p.Steps)
			}
			key("ArrowRight", "ArrowRight")
			if p = read(); p.Sel != "s2" || p.Pos != fmt.Sprintf("2/%d", p.Steps) {
				t.Errorf("→: selected %q at %q, want s2 at 2/%d", p.Sel, p.Pos, p.Steps)
			}
			key("End", "End")
			if p = read(); p.Sel != fmt.Sprintf("s%d", p.Steps) || !strings.Contains(p.State, "Pods (") || !p.StateVisible {
				t.Errorf("End: selected %q, state panel in the viewport %v, state:\n%s", p.Sel, p.StateVisible, p.State)
			}
			key("ArrowLeft", "ArrowLeft")
			if p = read(); p.Sel != fmt.Sprintf("s%d", p.Steps-1) {
				t.Errorf("←: selected %q, want s%d", p.Sel, p.Steps-1)
			}
			key("Home", "Home")
			if p = read(); p.Sel != "s1" {
				t.Errorf("Home: selected %q, want s1", p.Sel)
			}
			key(" ", "Space")
			if p = read(); p.Play != "true" {
				t.Errorf("space: play pressed %q, want true", p.Play)
			}
			key(" ", "Space")
			if p = read(); p.Play != "false" {
				t.Errorf("space again: play pressed %q, want false", p.Play)
			}
			b.eval(t, `(() => { const r = document.querySelector('.player input'); r.value = 3; r.dispatchEvent(new Event('input')); return true; })()`, nil)
			settle(t, b)
			if p = read(); p.Sel != "s3" {
				t.Errorf("slider to 3: selected %q", p.Sel)
			}
			b.screenshot(t, shotName(t, rel, "player"))
		})
	}
	if n == 0 {
		t.Fatal("no golden page has a player")
	}
}
