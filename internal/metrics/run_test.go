package metrics

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// long is the timeout of commands that must not time out: no machine is
// that slow, so no test depends on how busy this one is.
const long = 5 * time.Minute

func TestRun(t *testing.T) {
	dir := t.TempDir()
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	t.Setenv("RALPH_METRICS_INHERITED", "from-parent")
	tests := []struct {
		name     string
		command  string
		opts     []Option
		exitCode int
		output   string
	}{
		{"stdout and stderr in order", `printf 'a\n'; printf 'b\n' >&2; printf 'c\n'`, nil, 0, "a\nb\nc\n"},
		{"exit code", `echo failing; exit 3`, nil, 3, "failing\n"},
		{"stdin is empty", `read line; echo "rc=$? line=$line"`, nil, 0, "rc=1 line=\n"},
		{"runs in dir", `pwd`, nil, 0, dir + "\n"},
		{"inherits the environment", `printf %s "$RALPH_METRICS_INHERITED"`, nil, 0, "from-parent"},
		{"adds to the environment", `printf '%s %s' "$A" "$B"`, []Option{Env("A=1", "B=2"), Env("B=3")}, 0, "1 3"},
		{"a shell script", `for i in 1 2 3; do echo "n$i"; done | tail -n 1`, nil, 0, "n3\n"},
		{"no output", `true`, nil, 0, ""},
		{"killed by a signal", `kill -9 $$`, nil, -1, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Run(context.Background(), dir, tt.command, long, tt.opts...)
			if r.Err != nil || r.TimedOut || r.ExitCode != tt.exitCode || r.Output != tt.output || r.Skipped != 0 {
				t.Errorf("Run(%q) = exit %d, timed out %v, err %v, output %q (skipped %d); want exit %d, output %q",
					tt.command, r.ExitCode, r.TimedOut, r.Err, r.Output, r.Skipped, tt.exitCode, tt.output)
			}
			if r.Duration <= 0 || r.Duration > long {
				t.Errorf("Run(%q).Duration = %v", tt.command, r.Duration)
			}
		})
	}
}

func TestRunCannotStart(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing")
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name    string
		ctx     context.Context
		dir     string
		command string
		want    string // in the error
	}{
		{"no such directory", context.Background(), missing, "echo hi", "running `echo hi` in " + strconv.Quote(missing)},
		{"empty command", context.Background(), "", "  ", "the command is empty"},
		{"context already done", canceled, "", "echo hi", "context canceled"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Run(tt.ctx, tt.dir, tt.command, time.Second)
			if r.Err == nil || !strings.Contains(r.Err.Error(), tt.want) || r.ExitCode != -1 || r.Output != "" {
				t.Errorf("Run(%q in %q) = err %v, exit %d, output %q; want an error with %q and exit -1",
					tt.command, tt.dir, r.Err, r.ExitCode, r.Output, tt.want)
			}
		})
	}
}

// fireTimeouts makes Run's timeouts fire when the test closes the channel
// it returns, whatever the duration given.
func fireTimeouts(t *testing.T) chan struct{} {
	fire := make(chan struct{})
	old := withTimeout
	withTimeout = func(parent context.Context, _ time.Duration) (context.Context, context.CancelFunc) {
		ctx, cancel := context.WithCancel(parent)
		go func() {
			select {
			case <-fire:
				cancel()
			case <-ctx.Done():
			}
		}()
		return ctx, cancel
	}
	t.Cleanup(func() { withTimeout = old })
	return fire
}

// TestRunTimeout fires the timeout once the command has started: Run kills
// its whole process group and returns, even when the command ignores
// SIGTERM or leaves processes holding its output. The commands would run
// for a quarter of an hour otherwise: a Run that waited for them fails by
// the test binary's own timeout.
func TestRunTimeout(t *testing.T) {
	tests := []struct {
		name    string
		command string
	}{
		{"sleep", "echo started; echo >$FIFO; sleep 1000"},
		{"ignores SIGTERM", "trap '' TERM INT; echo started; echo >$FIFO; sleep 1000"},
		{"background child too", "sleep 1000 & echo started; echo >$FIFO; sleep 1000"},
		{"grandchild holds the output", "sh -c 'sleep 1000' & echo started; echo >$FIFO; wait"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fire := fireTimeouts(t)
			fifo, ok := started(t)
			go func() {
				<-ok
				close(fire)
			}()
			r := Run(context.Background(), "", tt.command, time.Second, Env("FIFO="+fifo))
			if !r.TimedOut || r.Err != nil || r.ExitCode != -1 || r.Output != "started\n" {
				t.Errorf("Run(%q) = timed out %v, err %v, exit %d, output %q; want timed out, exit -1, output \"started\\n\"",
					tt.command, r.TimedOut, r.Err, r.ExitCode, r.Output)
			}
		})
	}
}

// A background process that keeps the output open must not hold Run past
// waitDelay, and is killed.
func TestRunGrandchildHoldsOutput(t *testing.T) {
	r := Run(context.Background(), "", "sleep 1000 & echo $!", long)
	if r.Err != nil || r.TimedOut || r.ExitCode != 0 {
		t.Errorf("Run = err %v, timed out %v, exit %d; want a clean exit", r.Err, r.TimedOut, r.ExitCode)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(r.Output))
	if err != nil {
		t.Fatalf("output %q: want the pid of the background sleep", r.Output)
	}
	if runtime.GOOS == "linux" {
		waitGone(t, pid) // a sleep that was not killed would hold the test until its timeout
	}
}

// A background process that does not hold the output (a daemon started
// with its output redirected) is killed with the command's group too: left
// running, it would change the tree after the command was judged, and the
// stop hook and ralph run would take it for one the agent left running.
func TestRunBackgroundDaemon(t *testing.T) {
	r := Run(context.Background(), "", "sleep 1000 >/dev/null 2>&1 </dev/null & echo $!", long)
	if r.Err != nil || r.TimedOut || r.ExitCode != 0 {
		t.Errorf("Run = err %v, timed out %v, exit %d; want a clean exit", r.Err, r.TimedOut, r.ExitCode)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(r.Output))
	if err != nil {
		t.Fatalf("output %q: want the pid of the background sleep", r.Output)
	}
	if runtime.GOOS == "linux" {
		waitGone(t, pid) // a sleep that was not killed would hold the test until its timeout
	}
}

// TestRunCanceled cancels Run's context once the command has started.
func TestRunCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	fifo, ok := started(t)
	go func() {
		<-ok
		cancel()
	}()
	r := Run(ctx, "", "echo started; echo >$FIFO; sleep 1000", long, Env("FIFO="+fifo))
	if !errors.Is(r.Err, context.Canceled) || r.TimedOut || r.Output != "started\n" {
		t.Errorf("Run canceled = err %v, timed out %v, output %q; want context.Canceled, not timed out", r.Err, r.TimedOut, r.Output)
	}
}

func TestRunBoundsOutput(t *testing.T) {
	// seq 1 200000 prints about 1.3 MB; only the head and tail are kept,
	// at line boundaries.
	r := Run(context.Background(), "", "seq 1 200000", long)
	if r.Err != nil || r.ExitCode != 0 {
		t.Fatalf("Run(seq) = err %v, exit %d", r.Err, r.ExitCode)
	}
	total := 0
	for i := 1; i <= 200000; i++ {
		total += len(strconv.Itoa(i)) + 1
	}
	marker := fmt.Sprintf("[... %d bytes of output skipped ...]\n", r.Skipped)
	head, tail, ok := strings.Cut(r.Output, marker)
	if !ok {
		t.Fatalf("output has no marker %q:\n%s", marker, r.Tail(5))
	}
	if got := int64(len(head)+len(tail)) + r.Skipped; got != int64(total) {
		t.Errorf("kept %d + skipped %d = %d bytes, want %d", len(head)+len(tail), r.Skipped, got, total)
	}
	if len(head) > headSize || len(head) < headSize-16 || len(tail) > tailSize || len(tail) < tailSize-16 {
		t.Errorf("kept %d bytes of head and %d of tail, want about %d and %d", len(head), len(tail), headSize, tailSize)
	}
	if !strings.HasPrefix(head, "1\n2\n3\n") || !strings.HasSuffix(tail, "199999\n200000\n") {
		t.Errorf("output starts %q and ends %q", head[:10], tail[len(tail)-14:])
	}
	for _, part := range []string{head, tail} {
		for line := range strings.Lines(part) {
			if _, err := strconv.Atoi(strings.TrimSuffix(line, "\n")); err != nil || !strings.HasSuffix(line, "\n") {
				t.Fatalf("kept a cut line %q", line)
			}
		}
	}
}

func TestRunOutputLimit(t *testing.T) {
	r := Run(context.Background(), "", "seq 1 1000", long, OutputLimit(100))
	head, tail, ok := strings.Cut(r.Output, fmt.Sprintf("[... %d bytes of output skipped ...]\n", r.Skipped))
	if r.Err != nil || !ok || len(head) > 20 || len(tail) > 80 || !strings.HasPrefix(head, "1\n2\n") || !strings.HasSuffix(tail, "999\n1000\n") {
		t.Errorf("Run(seq 1 1000, OutputLimit(100)) = err %v, output %q", r.Err, r.Output)
	}
	r = Run(context.Background(), "", "seq 1 10000", long, OutputLimit(1<<20))
	if r.Skipped != 0 || !strings.HasSuffix(r.Output, "\n9999\n10000\n") || !strings.HasPrefix(r.Output, "1\n2\n") {
		t.Errorf("Run(seq 1 10000, OutputLimit(1 MiB)) skipped %d bytes", r.Skipped)
	}
}

// The summary counts every line, including those left out of Output.
func TestRunSummaryCountsAllOutput(t *testing.T) {
	dir, err := filepath.Abs("testdata/summary")
	if err != nil {
		t.Fatal(err)
	}
	r := Run(context.Background(), dir, "for i in $(seq 1 40); do cat go_v_fail.txt; done; cat pytest_fail.txt", long)
	if r.Err != nil || r.ExitCode != 0 || r.Skipped == 0 {
		t.Fatalf("Run = err %v, exit %d, skipped %d; want a clean run with output skipped", r.Err, r.ExitCode, r.Skipped)
	}
	want := Summary{
		Runner: "go,pytest", Passed: 40*6 + 6, Failed: 40*5 + 4, Skipped: 40 + 3, Found: true,
		Failing: []string{
			"TestDiv/even", "TestDiv/odd", "TestDiv/by_one", "TestMul",
			"tests/test_calc.py::test_sub", "tests/test_calc.py::test_add_cases[2-2-5]",
			"tests/test_text.py::TestText::test_split", "tests/test_calc.py::test_uses_fixture",
		},
	}
	if !reflect.DeepEqual(r.Summary, want) {
		t.Errorf("Run(...).Summary =\n  %+v\nwant\n  %+v", r.Summary, want)
	}
	if part := ParseSummary(r.Output); part.Passed >= want.Passed {
		t.Errorf("ParseSummary(Output).Passed = %d: the output was not cut as this test means it to be", part.Passed)
	}
}

// TestBoundedBuffer writes random chunks and compares with the whole
// text: no newlines, so the head and the tail are cut at exact sizes.
func TestBoundedBuffer(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	sizes := []int{0, 1, headSize - 1, headSize, headSize + 1, headSize + tailSize, headSize + tailSize + 1, 3 * tailSize, 200000}
	for _, size := range sizes {
		for _, maxChunk := range []int{1, 7, 4096, tailSize + 5, 1 << 20} {
			full := make([]byte, size)
			for i := range full {
				full[i] = byte('a' + i%26)
			}
			b := newBoundedBuffer(headSize + tailSize)
			for rest := full; len(rest) > 0; {
				n := min(1+rng.IntN(maxChunk), len(rest))
				if k, err := b.Write(rest[:n]); k != n || err != nil {
					t.Fatalf("Write(%d bytes) = %d, %v", n, k, err)
				}
				rest = rest[n:]
			}
			got, skipped := b.text()
			want, wantSkipped := string(full), int64(0)
			if size > headSize+tailSize {
				wantSkipped = int64(size - headSize - tailSize)
				want = string(full[:headSize]) + fmt.Sprintf("\n[... %d bytes of output skipped ...]\n", wantSkipped) + string(full[size-tailSize:])
			}
			if got != want || skipped != wantSkipped {
				t.Errorf("size %d in chunks ≤ %d: text() = %d bytes (skipped %d), want %d (skipped %d)", size, maxChunk, len(got), skipped, len(want), wantSkipped)
			}
		}
	}
}

func TestBoundedBufferKeepsRunesWhole(t *testing.T) {
	b := newBoundedBuffer(headSize + tailSize)
	b.Write([]byte("a" + strings.Repeat("é", 20000) + "b"))
	got, skipped := b.text()
	if !utf8.ValidString(got) || !strings.HasPrefix(got, "aé") || !strings.HasSuffix(got, "éb") {
		t.Errorf("text() = %q… (valid UTF-8: %v)", got[:8], utf8.ValidString(got))
	}
	kept := len(got) - len(fmt.Sprintf("\n[... %d bytes of output skipped ...]\n", skipped))
	if int64(kept)+skipped != 1+40000+1 {
		t.Errorf("kept %d + skipped %d, want %d in all", kept, skipped, 40002)
	}
}

// BenchmarkRun is the cost Run adds around the shortest command.
func BenchmarkRun(b *testing.B) {
	for b.Loop() {
		if r := Run(context.Background(), "", "true", time.Second); r.ExitCode != 0 {
			b.Fatalf("Run(true) = %+v", r)
		}
	}
}

func TestTail(t *testing.T) {
	tests := []struct {
		out  string
		n    int
		want string
	}{
		{"a\nb\nc\n", 2, "b\nc"},
		{"a\nb\nc", 2, "b\nc"},
		{"a\nb\nc\n", 5, "a\nb\nc"},
		{"a\nb\nc\n", 0, ""},
		{"", 3, ""},
		{"one line", 1, "one line"},
		{"a\n\n\n", 1, "a"},
	}
	for _, tt := range tests {
		if got := (Result{Output: tt.out}).Tail(tt.n); got != tt.want {
			t.Errorf("Result{Output: %q}.Tail(%d) = %q, want %q", tt.out, tt.n, got, tt.want)
		}
	}
}
