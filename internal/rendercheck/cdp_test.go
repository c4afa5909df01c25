//go:build unix

package rendercheck

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/net/websocket"
)

// browser is a headless Chromium driven over the Chrome DevTools Protocol
// (https://chromedevtools.github.io/devtools-protocol/): JSON messages
// {id, method, params} over a WebSocket to one page target.
type browser struct {
	cmd    *exec.Cmd
	ws     *websocket.Conn
	id     int
	events []cdpMsg
}

type cdpMsg struct {
	ID     int             `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Message string `json:"message"`
	} `json:"error"`
}

// deadline is how long a browser call may wait: until shortly before the
// test binary's own -timeout (go test's default is 10 minutes), not a fixed
// number of seconds, so a loaded machine makes the test slow, not flaky. A
// hung browser still fails the test with the call it hung in.
func deadline(t *testing.T) time.Time {
	if d, ok := t.Deadline(); ok {
		return d.Add(-10 * time.Second)
	}
	return time.Now().Add(10 * time.Minute)
}

// chromiumPath finds Debian's chromium (or another Chromium/Chrome).
func chromiumPath() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

var devtoolsRE = regexp.MustCompile(`DevTools listening on (ws://[^\s]+)`)

// startBrowser starts Chromium with a fresh profile and no background
// traffic, and connects to its one page. The test skips without Chromium.
func startBrowser(t *testing.T) *browser {
	t.Helper()
	path := chromiumPath()
	if path == "" {
		t.Skip("chromium not found: the HTML browser test needs headless Chromium (Debian: apt-get install chromium); .ci/run installs it where apt-get works")
	}
	cmd := exec.Command(path, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--no-first-run", "--disable-default-apps", "--mute-audio",
		"--user-data-dir="+t.TempDir(), "--remote-debugging-port=0", "--remote-allow-origins=*",
		"--window-size=1400,1000", "about:blank")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", path, err)
	}
	b := &browser{cmd: cmd}
	t.Cleanup(b.close)
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		sent := false
		for sc.Scan() {
			if m := devtoolsRE.FindStringSubmatch(sc.Text()); m != nil && !sent {
				found <- m[1]
				sent = true
			}
		}
		if !sent {
			close(found)
		}
	}()
	var wsURL string
	select {
	case u, ok := <-found:
		if !ok {
			t.Fatalf("%s exited without a DevTools endpoint", path)
		}
		wsURL = u
	case <-time.After(time.Until(deadline(t))):
		t.Fatalf("%s: no DevTools endpoint before the test's deadline", path)
	}
	// The browser endpoint's host:port also serves /json/list, which
	// names the page target's own WebSocket.
	host := strings.TrimPrefix(wsURL, "ws://")
	host = host[:strings.IndexByte(host, '/')]
	var pageWS string
	for i := 0; i < 50 && pageWS == ""; i++ {
		resp, err := http.Get("http://" + host + "/json/list")
		if err == nil {
			var targets []struct{ Type, WebSocketDebuggerURL string }
			_ = json.NewDecoder(resp.Body).Decode(&targets)
			resp.Body.Close()
			for _, tg := range targets {
				if tg.Type == "page" {
					pageWS = tg.WebSocketDebuggerURL
					break
				}
			}
		}
		if pageWS == "" {
			time.Sleep(100 * time.Millisecond)
		}
	}
	if pageWS == "" {
		t.Fatal("chromium has no page target")
	}
	ws, err := websocket.Dial(pageWS, "", "http://"+host)
	if err != nil {
		t.Fatalf("connect to %s: %v", pageWS, err)
	}
	b.ws = ws
	for _, m := range []string{"Page.enable", "Runtime.enable", "Log.enable"} {
		b.call(t, m, nil)
	}
	return b
}

func (b *browser) close() {
	if b.ws != nil {
		b.ws.Close()
	}
	if b.cmd != nil && b.cmd.Process != nil {
		// Only the process group this test started.
		_ = syscall.Kill(-b.cmd.Process.Pid, syscall.SIGKILL)
		_ = b.cmd.Wait()
	}
}

// read receives one message, keeping events for later inspection.
func (b *browser) read(t *testing.T, deadline time.Time) cdpMsg {
	t.Helper()
	_ = b.ws.SetReadDeadline(deadline)
	var m cdpMsg
	if err := websocket.JSON.Receive(b.ws, &m); err != nil {
		t.Fatalf("devtools: %v", err)
	}
	if m.Method != "" {
		b.events = append(b.events, m)
	}
	return m
}

// call sends one command and waits for its result.
func (b *browser) call(t *testing.T, method string, params any) json.RawMessage {
	t.Helper()
	b.id++
	id := b.id
	msg := map[string]any{"id": id, "method": method}
	if params != nil {
		msg["params"] = params
	}
	if err := websocket.JSON.Send(b.ws, msg); err != nil {
		t.Fatalf("devtools %s: %v", method, err)
	}
	end := deadline(t)
	for {
		m := b.read(t, end)
		if m.ID == id {
			if m.Error != nil {
				t.Fatalf("devtools %s: %s", method, m.Error.Message)
			}
			return m.Result
		}
	}
}

// navigate loads url and waits for its load event.
func (b *browser) navigate(t *testing.T, url string) {
	t.Helper()
	b.events = nil
	b.call(t, "Page.navigate", map[string]any{"url": url})
	end := deadline(t)
	for _, e := range b.events {
		if e.Method == "Page.loadEventFired" {
			return
		}
	}
	for {
		if m := b.read(t, end); m.Method == "Page.loadEventFired" {
			return
		}
	}
}

// eval runs a JavaScript expression and decodes its value into out.
func (b *browser) eval(t *testing.T, expr string, out any) {
	t.Helper()
	res := b.call(t, "Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true, "awaitPromise": true})
	var r struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		ExceptionDetails *struct {
			Text      string `json:"text"`
			Exception struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
	}
	if err := json.Unmarshal(res, &r); err != nil {
		t.Fatal(err)
	}
	if r.ExceptionDetails != nil {
		t.Fatalf("evaluate %s: %s %s", expr, r.ExceptionDetails.Text, r.ExceptionDetails.Exception.Description)
	}
	if out != nil {
		if err := json.Unmarshal(r.Result.Value, out); err != nil {
			t.Fatalf("evaluate %s: %v (%s)", expr, err, r.Result.Value)
		}
	}
}

// click presses and releases the left mouse button at page point (x, y),
// as a user's click would.
func (b *browser) click(t *testing.T, x, y float64) {
	t.Helper()
	for _, typ := range []string{"mousePressed", "mouseReleased"} {
		b.call(t, "Input.dispatchMouseEvent", map[string]any{"type": typ, "x": x, "y": y, "button": "left", "clickCount": 1})
	}
}

// screenshot saves a PNG of the viewport.
func (b *browser) screenshot(t *testing.T, path string) {
	t.Helper()
	res := b.call(t, "Page.captureScreenshot", map[string]any{"format": "png"})
	var r struct {
		Data []byte `json:"data"` // base64 in JSON, decoded by encoding/json
	}
	if err := json.Unmarshal(res, &r); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, r.Data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// consoleErrors lists console errors, uncaught exceptions and browser log
// errors (a failed load, a CSP refusal) seen since the last navigate.
func (b *browser) consoleErrors() []string {
	var out []string
	for _, e := range b.events {
		switch e.Method {
		case "Runtime.exceptionThrown":
			out = append(out, "exception: "+string(e.Params))
		case "Runtime.consoleAPICalled":
			var p struct {
				Type string `json:"type"`
			}
			_ = json.Unmarshal(e.Params, &p)
			if p.Type == "error" || p.Type == "assert" {
				out = append(out, "console."+p.Type+": "+string(e.Params))
			}
		case "Log.entryAdded":
			var p struct {
				Entry struct{ Level, Text, URL string } `json:"entry"`
			}
			_ = json.Unmarshal(e.Params, &p)
			if p.Entry.Level == "error" {
				out = append(out, fmt.Sprintf("log: %s %s", p.Entry.Text, p.Entry.URL))
			}
		}
	}
	return out
}
