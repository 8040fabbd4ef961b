//go:build browser

// The dashboard in a real browser: headless Chromium (Debian's package),
// driven over the Chrome DevTools Protocol by the small client below, on a
// project whose loop stopped at its gate. Run by make ui-test:
//
//	go test -tags browser -run TestBrowser ./internal/ui/
//
// Screenshots go to $RALPH_ARTIFACTS (default: a temp directory, named in
// the log); -screenshot also writes docs/dashboard.png for README.md.

package ui

import (
	"bufio"
	"context"
	"crypto/rand"
	"crypto/sha1"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/config"
	"github.com/ralph-hooks/ralph-hooks/internal/demo"
	"github.com/ralph-hooks/ralph-hooks/internal/event"
	"github.com/ralph-hooks/ralph-hooks/internal/hook"
	"github.com/ralph-hooks/ralph-hooks/internal/loop"
	"github.com/ralph-hooks/ralph-hooks/internal/pretool"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
)

var screenshot = flag.Bool("screenshot", false, "write docs/dashboard.png, the README's screenshot")

// ---------- a WebSocket client (RFC 6455), just what CDP needs ----------

type wsConn struct {
	c  net.Conn
	r  *bufio.Reader
	mu sync.Mutex // one writer at a time
}

func wsDial(raw string) (*wsConn, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, err
	}
	c, err := net.Dial("tcp", u.Host)
	if err != nil {
		return nil, err
	}
	key := make([]byte, 16)
	rand.Read(key)
	k := base64.StdEncoding.EncodeToString(key)
	fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n", u.RequestURI(), u.Host, k)
	r := bufio.NewReaderSize(c, 1<<16)
	res, err := http.ReadResponse(r, &http.Request{Method: "GET"})
	if err != nil {
		c.Close()
		return nil, err
	}
	sum := sha1.Sum([]byte(k + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"))
	if res.StatusCode != http.StatusSwitchingProtocols || res.Header.Get("Sec-WebSocket-Accept") != base64.StdEncoding.EncodeToString(sum[:]) {
		c.Close()
		return nil, fmt.Errorf("websocket handshake with %s: %s", raw, res.Status)
	}
	return &wsConn{c: c, r: r}, nil
}

// write sends one masked frame.
func (w *wsConn) write(op byte, payload []byte) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	hdr := []byte{0x80 | op}
	switch n := len(payload); {
	case n < 126:
		hdr = append(hdr, 0x80|byte(n))
	case n < 1<<16:
		hdr = append(hdr, 0x80|126, byte(n>>8), byte(n))
	default:
		hdr = append(hdr, 0x80|127)
		hdr = binary.BigEndian.AppendUint64(hdr, uint64(n))
	}
	mask := make([]byte, 4)
	rand.Read(mask)
	hdr = append(hdr, mask...)
	masked := make([]byte, len(payload))
	for i, b := range payload {
		masked[i] = b ^ mask[i%4]
	}
	_, err := w.c.Write(append(hdr, masked...))
	return err
}

// read returns the next text message, answering pings.
func (w *wsConn) read() ([]byte, error) {
	var msg []byte
	for {
		var h [2]byte
		if _, err := io.ReadFull(w.r, h[:]); err != nil {
			return nil, err
		}
		fin, op := h[0]&0x80 != 0, h[0]&0x0f
		n := uint64(h[1] & 0x7f)
		switch n {
		case 126:
			var b [2]byte
			if _, err := io.ReadFull(w.r, b[:]); err != nil {
				return nil, err
			}
			n = uint64(binary.BigEndian.Uint16(b[:]))
		case 127:
			var b [8]byte
			if _, err := io.ReadFull(w.r, b[:]); err != nil {
				return nil, err
			}
			n = binary.BigEndian.Uint64(b[:])
		}
		var mask []byte
		if h[1]&0x80 != 0 {
			mask = make([]byte, 4)
			if _, err := io.ReadFull(w.r, mask); err != nil {
				return nil, err
			}
		}
		data := make([]byte, n)
		if _, err := io.ReadFull(w.r, data); err != nil {
			return nil, err
		}
		if mask != nil {
			for i := range data {
				data[i] ^= mask[i%4]
			}
		}
		switch op {
		case 0x8:
			return nil, io.EOF
		case 0x9:
			w.write(0xA, data)
			continue
		case 0xA:
			continue
		}
		msg = append(msg, data...)
		if fin {
			return msg, nil
		}
	}
}

// ---------- the DevTools protocol ----------

type cdp struct {
	ws      *wsConn
	mu      sync.Mutex
	next    int
	waiting map[int]chan cdpReply
	events  chan cdpEvent
	session string
}

type cdpReply struct {
	Result json.RawMessage
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}
}

type cdpEvent struct {
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

func newCDP(ws *wsConn) *cdp {
	c := &cdp{ws: ws, waiting: map[int]chan cdpReply{}, events: make(chan cdpEvent, 1024)}
	go c.readLoop()
	return c
}

func (c *cdp) readLoop() {
	defer close(c.events)
	for {
		data, err := c.ws.read()
		if err != nil {
			c.mu.Lock()
			for id, ch := range c.waiting {
				ch <- cdpReply{Error: &struct {
					Code    int    `json:"code"`
					Message string `json:"message"`
				}{-1, "connection closed: " + err.Error()}}
				delete(c.waiting, id)
			}
			c.mu.Unlock()
			return
		}
		var m struct {
			ID int `json:"id"`
			cdpReply
			cdpEvent
		}
		if json.Unmarshal(data, &m) != nil {
			continue
		}
		if m.ID != 0 {
			c.mu.Lock()
			ch := c.waiting[m.ID]
			delete(c.waiting, m.ID)
			c.mu.Unlock()
			if ch != nil {
				ch <- m.cdpReply
			}
			continue
		}
		select {
		case c.events <- m.cdpEvent:
		default: // nobody reads that many events: drop
		}
	}
}

// call sends a command (to the attached page once there is one) and waits
// for its answer.
func (c *cdp) call(method string, params any, out any) error {
	c.mu.Lock()
	c.next++
	id := c.next
	ch := make(chan cdpReply, 1)
	c.waiting[id] = ch
	msg := map[string]any{"id": id, "method": method, "params": params}
	if c.session != "" {
		msg["sessionId"] = c.session
	}
	c.mu.Unlock()
	data, _ := json.Marshal(msg)
	if err := c.ws.write(0x1, data); err != nil {
		return err
	}
	r := <-ch
	if r.Error != nil {
		return fmt.Errorf("%s: %s", method, r.Error.Message)
	}
	if out != nil {
		return json.Unmarshal(r.Result, out)
	}
	return nil
}

// eval runs a JavaScript expression in the page, awaiting a promise, and
// returns its value as a string; an exception is an error.
func (c *cdp) eval(expr string) (string, error) {
	var out struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		Exception *struct {
			Text      string `json:"text"`
			Exception struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
	}
	if err := c.call("Runtime.evaluate", map[string]any{"expression": expr, "awaitPromise": true, "returnByValue": true}, &out); err != nil {
		return "", err
	}
	if out.Exception != nil {
		return "", fmt.Errorf("%s: %s %s", expr, out.Exception.Text, out.Exception.Exception.Description)
	}
	var s string
	if json.Unmarshal(out.Result.Value, &s) == nil {
		return s, nil
	}
	return string(out.Result.Value), nil
}

// until waits for a JavaScript condition to hold in the page: a promise
// that resolves at the first DOM change after which it does, so there is
// no polling and no clock.
func (c *cdp) until(cond string) (string, error) {
	return c.eval(`new Promise((resolve) => {
	  let obs;
	  const check = () => { let v; try { v = (` + cond + `); } catch (e) { v = false; }
	    if (v) { if (obs) obs.disconnect(); resolve(String(v)); return true; } return false; };
	  if (!check()) { obs = new MutationObserver(check); obs.observe(document, {subtree: true, childList: true, attributes: true, characterData: true}); }
	})`)
}

// click clicks the middle of the element selector names, as a mouse would.
func (c *cdp) click(selector string) error {
	box, err := c.eval(`(() => { const el = document.querySelector(` + jsString(selector) + `);
	  if (!el) throw new Error("no element " + ` + jsString(selector) + `);
	  el.scrollIntoView({block: "center"}); const r = el.getBoundingClientRect();
	  return JSON.stringify({x: r.x + r.width / 2, y: r.y + r.height / 2}); })()`)
	if err != nil {
		return err
	}
	var p struct{ X, Y float64 }
	if err := json.Unmarshal([]byte(box), &p); err != nil {
		return err
	}
	for _, typ := range []string{"mouseMoved", "mousePressed", "mouseReleased"} {
		ev := map[string]any{"type": typ, "x": p.X, "y": p.Y}
		if typ != "mouseMoved" {
			ev["button"], ev["clickCount"] = "left", 1
		}
		if err := c.call("Input.dispatchMouseEvent", ev, nil); err != nil {
			return err
		}
	}
	return nil
}

// shot writes a PNG of the whole page to path.
func (c *cdp) shot(path string) error { return c.shotTop(path, 0) }

// shotTop writes a PNG of the page's top, at most height CSS pixels of it
// (0: all of it), to path.
func (c *cdp) shotTop(path string, height float64) error {
	var m struct {
		Content struct{ Width, Height float64 } `json:"cssContentSize"`
	}
	if err := c.call("Page.getLayoutMetrics", nil, &m); err != nil {
		return err
	}
	if height > 0 && m.Content.Height > height {
		m.Content.Height = height
	}
	var out struct{ Data string }
	err := c.call("Page.captureScreenshot", map[string]any{"format": "png", "captureBeyondViewport": true,
		"clip": map[string]any{"x": 0, "y": 0, "width": m.Content.Width, "height": m.Content.Height, "scale": 1}}, &out)
	if err != nil {
		return err
	}
	png, err := base64.StdEncoding.DecodeString(out.Data)
	if err != nil {
		return err
	}
	return os.WriteFile(path, png, 0o644)
}

func jsString(s string) string { b, _ := json.Marshal(s); return string(b) }

// chromium starts headless Chromium and connects to its page.
func chromium(t *testing.T) (*cdp, *consoleLog) {
	t.Helper()
	bin := os.Getenv("CHROMIUM")
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if bin == "" {
			bin, _ = exec.LookPath(name)
		}
	}
	if bin == "" {
		t.Fatal("no Chromium: apt-get install chromium (or set CHROMIUM to a Chrome binary)")
	}
	profile := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-extensions",
		"--user-data-dir="+profile, "--remote-debugging-port=0", "--window-size=1280,900", "about:blank")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); cmd.Wait() })
	// Chromium says where its DevTools listen once it does.
	sc := bufio.NewScanner(stderr)
	var wsURL string
	for wsURL == "" && sc.Scan() {
		if u, ok := strings.CutPrefix(sc.Text(), "DevTools listening on "); ok {
			wsURL = u
		}
	}
	if wsURL == "" {
		t.Fatalf("Chromium did not start its DevTools: %v", sc.Err())
	}
	go io.Copy(io.Discard, stderr)
	ws, err := wsDial(wsURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.c.Close() })
	c := newCDP(ws)
	var target struct{ TargetID string }
	if err := c.call("Target.createTarget", map[string]any{"url": "about:blank"}, &target); err != nil {
		t.Fatal(err)
	}
	var att struct{ SessionID string }
	if err := c.call("Target.attachToTarget", map[string]any{"targetId": target.TargetID, "flatten": true}, &att); err != nil {
		t.Fatal(err)
	}
	c.session = att.SessionID
	log := &consoleLog{}
	go log.collect(c.events)
	for _, m := range []string{"Page.enable", "Runtime.enable", "Log.enable"} {
		if err := c.call(m, nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.call("Emulation.setDeviceMetricsOverride", map[string]any{"width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": false}, nil); err != nil {
		t.Fatal(err)
	}
	return c, log
}

// consoleLog keeps the page's console errors, warnings and uncaught
// exceptions.
type consoleLog struct {
	mu   sync.Mutex
	errs []string
}

func (l *consoleLog) collect(events <-chan cdpEvent) {
	for ev := range events {
		var msg string
		switch ev.Method {
		case "Runtime.consoleAPICalled":
			var p struct {
				Type string
				Args []struct {
					Value       any
					Description string
				}
			}
			json.Unmarshal(ev.Params, &p)
			if p.Type == "error" || p.Type == "warning" || p.Type == "assert" {
				msg = "console." + p.Type + ": " + fmt.Sprint(p.Args)
			}
		case "Runtime.exceptionThrown":
			msg = "exception: " + string(ev.Params)
		case "Log.entryAdded":
			var p struct {
				Entry struct{ Level, Text, URL string }
			}
			json.Unmarshal(ev.Params, &p)
			if p.Entry.Level == "error" || p.Entry.Level == "warning" {
				msg = "log " + p.Entry.Level + ": " + p.Entry.Text + " " + p.Entry.URL
			}
		}
		if msg != "" {
			l.mu.Lock()
			l.errs = append(l.errs, msg)
			l.mu.Unlock()
		}
	}
}

func (l *consoleLog) list() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.errs...)
}

// ---------- the story ----------

// story makes a project whose loop went three iterations, each a little
// better, with the agent's denied shortcuts in its audit log, and then
// deleted a test: it waits at gate-004.
func story(t *testing.T) (root, id, file string) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is needed for the loop's snapshots")
	}
	root = t.TempDir()
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	// go.mod: a project marker, without which a loop takes no snapshot.
	os.WriteFile(filepath.Join(root, "go.mod"), []byte("module example.com/calc\n"), 0o644)
	file = filepath.Join(root, "calc", "calc_test.go")
	os.MkdirAll(filepath.Dir(file), 0o755)
	os.WriteFile(file, []byte(calcTest), 0o644)
	calc := filepath.Join(root, "calc", "calc.go")
	os.WriteFile(calc, []byte("package calc\n\nfunc Add(a, b int) int { return a + b }\n\nfunc Sub(a, b int) int { return a + b }\n"), 0o644)
	cfg, err := config.Default()
	if err != nil {
		t.Fatal(err)
	}
	// Each "// step" in calc.go is one more test passing, of 4.
	completion := `p=$(grep -c '// step' calc/calc.go); echo "$p passed, $((4 - p)) failed"; [ "$p" -ge 4 ]`
	st, _, err := loop.Start(context.Background(), loop.Options{Root: root, Config: cfg, Task: "Make calc's subtraction tests pass",
		Completion: completion, MaxIterations: 12, Owner: "demo", PID: os.Getpid(), Now: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	id = st.LoopID
	pre := &hook.Hook{Name: "pre-tool-call", Event: event.PreToolUse, Handle: pretool.Handle, Getenv: func(k string) string {
		if k == "CLAUDE_PROJECT_DIR" || k == "RALPH_LOOP_ID" {
			return ""
		}
		return os.Getenv(k)
	}}
	call := func(tool string, input map[string]any) {
		var out, errb strings.Builder
		if code := pre.Main(nil, strings.NewReader(string(demo.Event(root, "s1", tool, input))), &out, &errb); code != 0 {
			t.Fatalf("pre-tool-call: %d %s", code, errb.String())
		}
	}
	s := &loop.Stop{Config: cfg, Session: "s1", Now: time.Now}
	s.Scope, _ = project.NewScope(root, id)
	words := []string{"reading the tests, then Sub by hand", "Sub returning a - b", "an edge case of Sub"}
	for i, w := range words {
		call("Read", map[string]any{"file_path": "calc/calc.go"})
		if i == 0 {
			call("Bash", map[string]any{"command": "rm -rf calc/calc_test.go"})
			call("Bash", map[string]any{"command": "git reset --hard"})
		}
		call("Edit", map[string]any{"file_path": "calc/calc.go", "old_string": "x", "new_string": "y"})
		f, _ := os.OpenFile(calc, os.O_APPEND|os.O_WRONLY, 0)
		fmt.Fprintf(f, "\n// step %d\n", i+1)
		f.Close()
		s.Message = reflected(w)
		if _, err := s.End(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	call("Bash", map[string]any{"command": "sed -i '/TestSub/,$d' calc/calc_test.go"})
	os.WriteFile(file, []byte(oneTest), 0o644)
	s.Message = reflected("removing TestSub, which cannot pass")
	res, err := s.End(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if res.Iteration == nil || res.Iteration.Decision != loop.Gated {
		t.Fatalf("iteration 4 did not stop at the gate: %+v", res.Answer)
	}
	return root, id, file
}

// TestBrowser: the human opens the dashboard, sees the loop at its gate
// with the deleted test and its diff, presses Reject and confirms: the
// test file is back, the loop goes on; the page shows no console error.
func TestBrowser(t *testing.T) {
	root, id, file := story(t)
	s, _ := serve(t, root)
	artifacts := os.Getenv("RALPH_ARTIFACTS")
	if artifacts == "" {
		artifacts = t.TempDir()
	}
	if err := os.MkdirAll(artifacts, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshots in %s", artifacts)
	c, console := chromium(t)
	if err := c.call("Page.navigate", map[string]any{"url": s.URL()}, nil); err != nil {
		t.Fatal(err)
	}
	must := func(v string, err error) string {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	must(c.until(`document.body.dataset.ready === "1" && document.querySelector("#gate-patch")`))
	if got := must(c.eval(`document.querySelector("#gate h2").textContent`)); !strings.Contains(got, "gate-004") {
		t.Errorf("gate heading: %q", got)
	}
	if got := must(c.eval(`document.querySelector("#gate-deleted").textContent`)); !strings.Contains(got, "TestSub") {
		t.Errorf("deleted tests: %q", got)
	}
	if got := must(c.eval(`document.querySelector("#gate-patch").textContent`)); !strings.Contains(got, "-func TestSub(t *testing.T) {") {
		t.Errorf("diff: %q", got)
	}
	if got := must(c.eval(`String(document.querySelectorAll("svg.chart circle.pt").length)`)); got != "4" {
		t.Errorf("chart points: %s, want 4", got)
	}
	if got := must(c.until(`document.querySelectorAll("#log tbody tr").length >= 3 && document.querySelector("#log").textContent`)); !strings.Contains(got, "test-delete") {
		t.Errorf("audit log: %q", got)
	}
	// An iteration opens on a click, with its reflection.
	if err := c.click(`tr[data-iteration="2"]`); err != nil {
		t.Fatal(err)
	}
	if got := must(c.until(`document.querySelector("tr.detail") && document.querySelector("tr.detail").textContent`)); !strings.Contains(got, "Sub returning a - b") {
		t.Errorf("iteration 2's reflection: %q", got)
	}
	if err := c.shot(filepath.Join(artifacts, "1-gate.png")); err != nil {
		t.Fatal(err)
	}
	if *screenshot {
		if err := c.click(`tr[data-iteration="2"]`); err != nil { // closed again, for a tidy page
			t.Fatal(err)
		}
		must(c.until(`!document.querySelector("tr.detail")`))
		if err := c.shotTop(filepath.Join("..", "..", "docs", "dashboard.png"), 1560); err != nil {
			t.Fatal(err)
		}
	}
	// Reject asks first; nothing is decided before the confirmation.
	if err := c.click("#gate-reject"); err != nil {
		t.Fatal(err)
	}
	must(c.until(`document.querySelector("#gate-confirm")`))
	if st, _, _ := loop.Read(root, id); st.Status != loop.Waiting {
		t.Fatalf("decided before the confirmation: %s", st.Status)
	}
	if err := c.shot(filepath.Join(artifacts, "2-confirm.png")); err != nil {
		t.Fatal(err)
	}
	if err := c.click("#gate-confirm"); err != nil {
		t.Fatal(err)
	}
	result := must(c.until(`document.querySelector("#gate-result") && document.querySelector("#gate").textContent`))
	if d := must(c.eval(`document.body.dataset.decided || ""`)); d != "reject" {
		t.Fatalf("the page did not take the decision: %q", result)
	}
	if !strings.Contains(result, "gate-004 rejected: the files are back as they were before iteration 4") || !strings.Contains(result, "AGGRESSIVE") {
		t.Errorf("decision shown: %q", result)
	}
	must(c.until(`document.querySelector("nav .loop.selected .badge").textContent === "running"`))
	if err := c.shot(filepath.Join(artifacts, "3-rejected.png")); err != nil {
		t.Fatal(err)
	}
	// The test file is back, and the loop goes on: the next stop judges
	// iteration 5, AGGRESSIVE, with no regression.
	if got, _ := os.ReadFile(file); string(got) != calcTest {
		t.Errorf("the test file is not back:\n%s", got)
	}
	cfg, _ := config.Default()
	stop := &loop.Stop{Config: cfg, Session: "s2", Now: time.Now, Message: reflected("Sub with its tests back")}
	stop.Scope, _ = project.NewScope(root, id)
	res, err := stop.End(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if it := res.Iteration; it == nil || it.N != 5 || it.Decision != loop.Continue || it.Level != loop.Aggressive || len(it.Regressions) != 0 {
		t.Errorf("the iteration after reject: %+v", res.Iteration)
	}
	must(c.until(`document.querySelectorAll("svg.chart circle.pt").length === 5`))
	if errs := console.list(); len(errs) > 0 {
		t.Errorf("the page logged errors:\n%s", strings.Join(errs, "\n"))
	}
	// The same page refuses to work without its token: a fetch without it
	// is turned away (and says so only to the network, not the console).
	code := must(c.eval(`fetch("/api/loops").then((r) => String(r.status))`))
	if code != "401" {
		t.Errorf("fetch without the token: %s", code)
	}
}
