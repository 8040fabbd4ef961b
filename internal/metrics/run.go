// Package metrics runs the user's commands and reads numbers from what they
// print: the completion command's test-runner summary (ParseSummary) and the
// configured command metrics (Measure).
//
// It runs inside short-lived hook processes, so nothing is done at package
// initialisation: parsing is hand-written scanning, and the only regular
// expressions are the user's own, compiled when a metric is measured.
//
// A command runs under `sh -c` in its own process group with empty stdin;
// on timeout or cancellation the whole group is killed, and its combined
// output is kept bounded (the head and the tail, see Result.Output) while
// its test-runner summary is read from all of it (Result.Summary).
package metrics

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Output bounds: Run keeps the first headSize and the last tailSize bytes
// of a command's output unless told otherwise (OutputLimit).
const (
	headSize = 4 << 10
	tailSize = 16 << 10
)

// metricOutputLimit is the output Measure keeps of a metric's command: a
// whole JSON report, unless it is huge.
const metricOutputLimit = 4 << 20

// waitDelay is how long Run waits, once the command has exited or been
// killed, for processes that still hold its output open (a background
// grandchild) before closing the output and returning.
const waitDelay = 500 * time.Millisecond

// withTimeout is context.WithTimeout; tests replace it to fire a
// command's timeout at a moment of their choosing, not of the clock's.
var withTimeout = context.WithTimeout

// Result is the outcome of one command.
type Result struct {
	// ExitCode is the command's exit status; -1 when it was killed by a
	// signal (on timeout, for instance) or could not be run.
	ExitCode int
	// TimedOut reports that the command ran past its timeout and was killed.
	TimedOut bool
	// Duration is how long the command ran.
	Duration time.Duration
	// Output is the command's stdout and stderr, interleaved as written.
	// Beyond 20 KiB (see OutputLimit) only the first 4 KiB and the last
	// 16 KiB are kept, cut at line ends where possible, with a line in
	// between that says how many bytes were skipped.
	Output string
	// Skipped is the number of bytes of output left out of Output.
	Skipped int64
	// Summary is ParseSummary of the whole output, read as it streamed
	// in: unlike ParseSummary(Output), it counts the lines left out too
	// (every "--- PASS" of a long go test -v, every cargo test binary).
	Summary Summary
	// Err says why the command could not be run (no shell, no such
	// directory) or was stopped before its end because ctx was done.
	// A command that ran and failed has a nil Err and a non-zero ExitCode.
	Err error
}

// Tail returns the last n lines of the output, without the final newline.
func (r Result) Tail(n int) string {
	return tailLines(r.Output, n)
}

// tailLines returns the last n lines of s, without the final newline.
func tailLines(s string, n int) string {
	s = strings.TrimRight(s, "\n")
	if n <= 0 {
		return ""
	}
	i := len(s)
	for range n {
		j := strings.LastIndexByte(s[:i], '\n')
		if j < 0 {
			return s
		}
		i = j
	}
	return s[i+1:]
}

// Option changes how Run runs a command.
type Option func(*runOptions)

type runOptions struct {
	base  []string // the environment to start from; nil: this process's
	env   []string
	limit int
	tee   io.Writer
}

// OutputLimit sets how much of the output Run keeps in Result.Output:
// about n bytes (the first fifth and the last four fifths) instead of
// 20 KiB.
func OutputLimit(n int) Option {
	return func(o *runOptions) { o.limit = n }
}

// Env adds environment variables ("KEY=value") to the command's
// environment, which is otherwise this process's own. A later value of
// the same key wins.
func Env(vars ...string) Option {
	return func(o *runOptions) { o.env = append(o.env, vars...) }
}

// Environ makes env ("KEY=value" entries) the command's environment
// instead of this process's own; Env adds to it.
func Environ(env []string) Option {
	return func(o *runOptions) { o.base = env }
}

// Tee copies the command's combined output, all of it, to w as it is
// written (w is written by one goroutine at a time).
func Tee(w io.Writer) Option {
	return func(o *runOptions) { o.tee = w }
}

// Run runs command with `sh -c` in dir and waits for it, at most for
// timeout (none if timeout ≤ 0) and until ctx is done. Stdin is empty;
// stdout and stderr are captured together (see Result.Output). On timeout
// or cancellation the command's whole process group is killed; processes
// it left behind that still hold its output are killed too.
func Run(ctx context.Context, dir, command string, timeout time.Duration, opts ...Option) Result {
	o := runOptions{limit: headSize + tailSize}
	for _, opt := range opts {
		opt(&o)
	}
	if strings.TrimSpace(command) == "" {
		return Result{ExitCode: -1, Err: errors.New("running a command: the command is empty")}
	}
	if err := ctx.Err(); err != nil {
		return Result{ExitCode: -1, Err: fmt.Errorf("running `%s`: %w", command, err)}
	}
	runCtx, cancel := ctx, context.CancelFunc(func() {})
	if timeout > 0 {
		runCtx, cancel = withTimeout(ctx, timeout)
	}
	defer cancel()

	out := newBoundedBuffer(o.limit)
	out.sum = &summaryWriter{p: newSummaryParser()}
	cmd := exec.CommandContext(runCtx, "sh", "-c", command)
	cmd.Dir = dir
	cmd.Stdin = nil // the null device
	cmd.Stdout = out
	cmd.Stderr = out // the same writer: one pipe, writes in order
	base := o.base
	if base == nil {
		base = os.Environ()
	}
	cmd.Env = append(base[:len(base):len(base)], o.env...)
	out.tee = o.tee
	cmd.WaitDelay = waitDelay
	setGroup(cmd)
	var killed atomic.Bool
	cmd.Cancel = func() error {
		killed.Store(true)
		return killGroup(cmd)
	}

	start := time.Now()
	if err := cmd.Start(); err != nil {
		where := ""
		if dir != "" {
			where = fmt.Sprintf(" in %q", dir)
		}
		return Result{ExitCode: -1, Err: fmt.Errorf("running `%s`%s: %w", command, where, err)}
	}
	err := cmd.Wait()
	res := Result{Duration: time.Since(start), ExitCode: -1}
	if cmd.ProcessState != nil {
		res.ExitCode = cmd.ProcessState.ExitCode()
	}
	// Whatever the command left running in its group goes with it: one
	// holding its output (ErrWaitDelay), and a daemon that does not (its
	// output redirected), which would go on changing the tree after the
	// command was judged. The group outlives its leader while a member
	// lives, so its id is not another's.
	killGroup(cmd)
	res.Output, res.Skipped = out.text()
	out.mu.Lock()
	res.Summary = out.sum.summary()
	out.mu.Unlock()
	var exitErr *exec.ExitError
	switch {
	case killed.Load() && ctx.Err() != nil:
		res.Err = fmt.Errorf("running `%s`: stopped: %w", command, context.Cause(ctx))
	case killed.Load():
		res.TimedOut = true
	case err == nil, errors.Is(err, exec.ErrWaitDelay), errors.As(err, &exitErr):
	default:
		res.Err = fmt.Errorf("running `%s`: %w", command, err)
	}
	return res
}

// boundedBuffer keeps the first headMax bytes written to it and the last
// tailMax, in a ring, and counts the rest. With sum set, it also reads
// the test-runner summary of everything written.
type boundedBuffer struct {
	mu      sync.Mutex
	headMax int
	tailMax int
	head    []byte
	ring    []byte // allocated once the head is full
	pos     int    // next write position in ring
	full    bool   // ring has wrapped
	total   int64
	sum     *summaryWriter
	tee     io.Writer
}

// newBoundedBuffer returns a buffer that keeps about limit bytes: the
// first fifth and the last four fifths.
func newBoundedBuffer(limit int) *boundedBuffer {
	limit = max(limit, 64)
	return &boundedBuffer{headMax: limit / 5, tailMax: limit - limit/5}
}

// Write implements io.Writer; it never fails.
func (b *boundedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := len(p)
	b.total += int64(n)
	if b.sum != nil {
		b.sum.write(p)
	}
	if b.tee != nil {
		b.tee.Write(p)
	}
	if room := b.headMax - len(b.head); room > 0 {
		k := min(room, len(p))
		b.head = append(b.head, p[:k]...)
		p = p[k:]
	}
	if len(p) == 0 {
		return n, nil
	}
	if b.ring == nil {
		b.ring = make([]byte, b.tailMax)
	}
	if len(p) >= b.tailMax {
		copy(b.ring, p[len(p)-b.tailMax:])
		b.pos, b.full = 0, true
		return n, nil
	}
	k := copy(b.ring[b.pos:], p)
	if k < len(p) {
		copy(b.ring, p[k:])
		b.full = true
	}
	b.pos = (b.pos + len(p)) % b.tailMax
	if b.pos == 0 {
		b.full = true // filled up to the end exactly
	}
	return n, nil
}

// text returns the kept output and the number of bytes left out. When
// bytes were left out, the head ends and the tail starts at a line break
// where one is near enough, so no line is shown cut, and a marker line
// stands in for what was skipped.
func (b *boundedBuffer) text() (string, int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	var tail []byte
	if b.full {
		tail = append(append(make([]byte, 0, b.tailMax), b.ring[b.pos:]...), b.ring[:b.pos]...)
	} else {
		tail = b.ring[:b.pos]
	}
	skipped := b.total - int64(len(b.head)) - int64(len(tail))
	if skipped == 0 {
		return string(b.head) + string(tail), 0
	}
	head := b.head
	if i := lastLineBreak(head); i >= len(head)/2 {
		skipped += int64(len(head) - i - 1)
		head = head[:i+1]
	} else {
		cut := runeStart(head, len(head))
		skipped += int64(len(head) - cut)
		head = head[:cut]
	}
	if i := firstLineBreak(tail); i >= 0 && i < len(tail)/2 {
		skipped += int64(i + 1)
		tail = tail[i+1:]
	} else {
		cut := runeStart(tail, 0)
		skipped += int64(cut)
		tail = tail[cut:]
	}
	var s strings.Builder
	s.Grow(len(head) + len(tail) + 64)
	s.Write(head)
	if len(head) > 0 && head[len(head)-1] != '\n' {
		s.WriteByte('\n')
	}
	fmt.Fprintf(&s, "[... %d bytes of output skipped ...]\n", skipped)
	s.Write(tail)
	return s.String(), skipped
}

func lastLineBreak(p []byte) int {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] == '\n' {
			return i
		}
	}
	return -1
}

func firstLineBreak(p []byte) int {
	for i, c := range p {
		if c == '\n' {
			return i
		}
	}
	return -1
}

// runeStart returns the first index at or after i (at most 3 bytes on)
// that does not fall inside a UTF-8 sequence; for i == len(p), the start
// of a trailing incomplete sequence, if any.
func runeStart(p []byte, i int) int {
	if i == len(p) {
		// Drop a trailing incomplete sequence.
		for k := 1; k <= 3 && len(p)-k >= 0; k++ {
			c := p[len(p)-k]
			if c&0xC0 == 0x80 {
				continue // continuation byte
			}
			if c >= 0xC0 && seqLen(c) > k {
				return len(p) - k // a lead byte whose sequence is cut
			}
			break
		}
		return len(p)
	}
	for k := 0; k < 3 && i+k < len(p); k++ {
		if p[i+k]&0xC0 != 0x80 {
			return i + k
		}
	}
	return i
}

// seqLen is the length of the UTF-8 sequence led by c.
func seqLen(c byte) int {
	switch {
	case c >= 0xF0:
		return 4
	case c >= 0xE0:
		return 3
	case c >= 0xC0:
		return 2
	}
	return 1
}
