package run

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// TestDisplay checks both displays: plain lines when not on a terminal,
// and on one a live block redrawn under the lines.
func TestDisplay(t *testing.T) {
	e := Event{Task: "t1", Iteration: 2, Max: 10, Step: "2/3 fix", Action: "retry", Result: "transient: 429", Duration: 1500 * time.Millisecond, Next: "retry 1 of 2 in 1.07s"}
	if got, want := e.Line(), "t1 iteration 2/10 step 2/3 fix: retry: transient: 429 (1.5s) → retry 1 of 2 in 1.07s"; got != want {
		t.Errorf("Line = %q, want %q", got, want)
	}

	var plain bytes.Buffer
	d := NewDisplay(&plain, false)
	d.Start(3)
	d.Running("t1", 1, 10, "", 1)
	d.Event(e)
	d.Finish(Outcome{ID: "t1", Result: ResDone})
	d.Close()
	if got := plain.String(); got != "ralph run: "+e.Line()+"\n" {
		t.Errorf("plain display wrote %q", got)
	}

	var live bytes.Buffer
	d = NewDisplay(&live, true)
	d.now = func() time.Time { return time.Date(2026, 1, 27, 10, 0, 0, 0, time.UTC) }
	d.Start(3)
	d.Running("t1", 1, 10, "1/3 read", 1)
	d.Waiting("t2", 2*time.Second, "API Error: 429")
	d.Event(e)
	d.Finish(Outcome{ID: "t1", Result: ResDone})
	d.Finish(Outcome{ID: "t3", Result: ResGated})
	out := live.String()
	for _, want := range []string{
		"── 0 done, 0 rejected, 0 running, 3 to go\n",
		"   t1: iteration 1/10 step 1/3 read, agent run 1 since 10:00:00\n",
		"   t2: retry in 2.00s (API Error: 429)\n",
		"\x1b[3A\x1b[Jralph run: " + e.Line() + "\n── 0 done, 0 rejected, 2 running, 1 to go\n",
		"── 1 done, 0 rejected, 1 running, 0 to go, 1 gated\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("live display lacks %q in:\n%q", want, out)
		}
	}
	d.Close()
	if !strings.HasSuffix(live.String(), "\x1b[2A\x1b[J") {
		t.Errorf("Close did not erase the block: %q", live.String()[len(out):])
	}
}
