// Package bench measures the hooks as agents run them, in a copy of the
// demo's sample project: one process per call, the event on stdin. It
// reports wall-clock latency percentiles and peak resident memory per kind
// of call, beside a floor (a no-op binary that only reads stdin), so the
// numbers mean the same on any machine.
package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/audit"
	"github.com/ralph-hooks/ralph-hooks/internal/config"
	"github.com/ralph-hooks/ralph-hooks/internal/demo"
	"github.com/ralph-hooks/ralph-hooks/internal/loop"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/treeview"
)

// Case is one event run many times.
type Case struct {
	Name   string
	Budget string // the DESIGN.md budget it is held to
	Tool   string
	Input  map[string]any // paths relative to the project
}

// Cases is the fixed event set.
var Cases = []Case{
	{"read (fast path)", "p50 ≤ 2 ms, p95 ≤ 4 ms", "Read", map[string]any{"file_path": "calc/calc.go"}},
	{"edit, ordinary file", "p50 ≤ 2 ms, p95 ≤ 4 ms", "Edit", map[string]any{"file_path": "calc/calc.go", "old_string": "a + b", "new_string": "b + a"}},
	{"bash, safe command", "p95 ≤ 5 ms", "Bash", map[string]any{"command": "go test ./... && go vet ./..."}},
	{"bash, destructive (denied)", "p95 ≤ 5 ms", "Bash", map[string]any{"command": `sudo bash -c "cd / && rm -rf --no-preserve-root *"`}},
	{"bash, test deletion (denied)", "p95 ≤ 5 ms", "Bash", map[string]any{"command": "find . -name '*_test.go' | xargs rm -f"}},
	{"bash, python one-liner", "p95 ≤ 5 ms", "Bash", map[string]any{"command": `python3 -c "import shutil; shutil.rmtree('tests')"`}},
	{"edit test file (checkpoint)", "p95 ≤ 10 ms", "Edit", map[string]any{"file_path": "calc/calc_test.go", "old_string": "5", "new_string": "5"}},
}

// PostCases are the post-tool-call events, in a project of Options.Files
// more files.
var PostCases = []Case{
	{"post-tool-call: edit of a test file", "p95 ≤ 10 ms", "Edit", map[string]any{"file_path": "calc/calc_test.go", "old_string": "5", "new_string": "5"}},
	{"post-tool-call: bash (test files re-indexed)", "-", "Bash", map[string]any{"command": "go test ./..."}},
}

// Result is the measurement of one case.
type Result struct {
	Name     string        `json:"name"`
	Budget   string        `json:"budget"`
	Floor    bool          `json:"floor,omitempty"` // a yardstick, not a hook
	Runs     int           `json:"runs"`
	P50      time.Duration `json:"p50_ns"`
	P95      time.Duration `json:"p95_ns"`
	P99      time.Duration `json:"p99_ns"`
	MaxRSSKB int64         `json:"max_rss_kib"`
	// X50 and X95 are P50 and P95 over the no-op floor's: the numbers to
	// compare across machines, whose process start-up differs by 5×.
	X50 float64 `json:"p50_x_floor,omitempty"`
	X95 float64 `json:"p95_x_floor,omitempty"`
	// long: seconds of work, for which a ratio to a process start means
	// nothing
	long bool
}

// Options say what to measure.
type Options struct {
	Bin     string // pre-tool-call executable
	Stop    string // stop executable; "" to skip the loop cases
	Post    string // post-tool-call executable; "" to skip its cases
	Files   int    // source files added to the project first (post-tool-call cases)
	Floor   string // no-op executable; "" to skip the floor
	Linked  string // the no-op with pre-tool-call's packages linked (internal/bench/linked); "" to skip it
	RSS     string // the rss launcher (internal/bench/rss); "" to skip memory
	Runs    int    // runs per case
	History int    // audit lines written to the log before measuring
	Iters   int    // iterations of loop history written before measuring stop
	Dir     string // project to run in (made by the caller)
	// Delete, when above zero, adds a directory of that many files once
	// the other cases are measured, and measures its deletion DeleteRuns
	// times: pre-tool-call's checkpoint before rm -rf, and ralph rollback
	// after it.
	Delete     int
	DeleteRuns int
	Ralph      string // the ralph executable, for the rollback
}

// rssRuns is how many runs per case measure memory, through the launcher.
const rssRuns = 20

// Run measures every case and the floor. The runs are interleaved (one
// of each case in turn), so a busy moment of the machine hits every case
// alike and the floor stays a fair yardstick.
func Run(o Options) ([]Result, error) {
	if o.Runs < 1 {
		return nil, fmt.Errorf("bench: runs must be at least 1")
	}
	log := filepath.Join(o.Dir, ".aiwg", "ralph", "hook-log.jsonl")
	scope, err := project.NewScope(o.Dir, "")
	if err != nil {
		return nil, err
	}
	if o.Files > 0 {
		if err := sprawl(o.Dir, o.Files); err != nil {
			return nil, err
		}
		// A repository's files were last changed before its loop starts, not
		// in the same moment: the hooks read again, at every call, what
		// changed less than treeview.Margin before their caches were taken.
		time.Sleep(treeview.Margin)
	}
	if o.Stop != "" {
		// Every call then belongs to a loop, whose stop hook judges an
		// iteration each time: its completion command fails at once.
		if scope, err = startLoop(o.Dir, o.Iters, loopCommand); err != nil {
			return nil, err
		}
		log = scope.Log()
		if o.Files > 0 {
			// The loop's index of the tree, written at its start, is
			// trusted by post-tool-call's mark once older than the margin,
			// as it is seconds into any loop: measure that, not the start.
			time.Sleep(treeview.Margin)
		}
	}
	if o.History > 0 {
		if err := fill(log, o.History); err != nil {
			return nil, err
		}
	}
	type job struct {
		bin   string
		args  []string
		fails bool // exits non-zero by design
		ev    []byte
		res   Result
		times []time.Duration
	}
	var pre, stop []*job
	if o.Floor != "" {
		pre = append(pre, &job{bin: o.Floor, ev: event(o.Dir, Cases[0]), res: Result{Name: "floor: no-op Go binary reading stdin", Budget: "-", Floor: true}})
	}
	if o.Linked != "" {
		// Not a floor: its ratio to the floor is what start-up of the
		// libraries costs, before any of ralph's code runs.
		pre = append(pre, &job{bin: o.Linked, ev: event(o.Dir, Cases[0]), res: Result{Name: "no-op with pre-tool-call's libraries linked", Budget: "-"}})
	}
	for _, c := range Cases {
		pre = append(pre, &job{bin: o.Bin, ev: event(o.Dir, c), res: Result{Name: c.Name, Budget: c.Budget}})
	}
	if o.Post != "" {
		for _, c := range PostCases {
			pre = append(pre, &job{bin: o.Post, ev: demo.PostEvent(o.Dir, "bench", c.Tool, c.Input), res: Result{Name: c.Name, Budget: c.Budget}})
		}
	}
	if o.Stop != "" {
		// The stop hook's fsyncs would slow the calls that follow them, so
		// it is measured in a round of its own.
		stop = append(stop,
			&job{bin: "sh", args: []string{"-c", loopCommand}, fails: true, res: Result{Name: "floor: the completion command alone", Budget: "-", Floor: true}},
			&job{bin: o.Stop, ev: demo.StopEvent(o.Dir, "bench"), res: Result{Name: "stop, iteration judged", Budget: "-"}})
	}
	for _, jobs := range [][]*job{pre, stop} {
		for i := -2; i < o.Runs; i++ { // two warm-up rounds
			for _, j := range jobs {
				start := time.Now()
				if _, err := run(o.Dir, j.ev, append([]string{j.bin}, j.args...)...); err != nil && !j.fails {
					return nil, fmt.Errorf("%s: %w", j.res.Name, err)
				}
				if i >= 0 {
					j.times = append(j.times, time.Since(start))
				}
			}
		}
	}
	var own *job // the stop hook's own cost, run by run: stop minus the command alone
	if len(stop) == 2 {
		own = &job{res: Result{Name: "stop, own cost (the command excluded)", Budget: "p95 ≤ 25 ms"}}
		for i, t := range stop[1].times {
			own.times = append(own.times, t-stop[0].times[i])
		}
	}
	var out []Result
	jobs := append(pre, stop...)
	if own != nil {
		jobs = append(jobs, own)
	}
	for _, j := range jobs {
		j.res.Runs, j.res.P50, j.res.P95, j.res.P99 = o.Runs, pct(j.times, 0.50), pct(j.times, 0.95), pct(j.times, 0.99)
		if j == own {
			out = append(out, j.res)
			continue
		}
		for k := 0; o.RSS != "" && k < rssRuns; k++ {
			if j.fails {
				break // the launcher cannot tell its failure from the command's
			}
			stderr, err := run(o.Dir, j.ev, append([]string{o.RSS, j.bin}, j.args...)...)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", j.res.Name, err)
			}
			var kb int64
			lines := strings.Split(strings.TrimSpace(stderr), "\n")
			if _, err := fmt.Sscanf(lines[len(lines)-1], "rss: %d", &kb); err != nil {
				return nil, fmt.Errorf("%s printed no rss line: %q", o.RSS, stderr)
			}
			j.res.MaxRSSKB = max(j.res.MaxRSSKB, kb)
		}
		out = append(out, j.res)
	}
	if o.Delete > 0 {
		rs, err := deletion(o, scope)
		if err != nil {
			return nil, err
		}
		out = append(out, rs...)
	}
	if o.Floor != "" {
		ratios(out, out[0])
	}
	return out, nil
}

// pct returns the p-th quantile of t, which it sorts.
func pct(t []time.Duration, p float64) time.Duration {
	if len(t) == 0 {
		return 0
	}
	sort.Slice(t, func(a, b int) bool { return t[a] < t[b] })
	return t[min(len(t)-1, int(p*float64(len(t))))]
}

// ratios sets X50 and X95 of every result but the floors, over floor's.
func ratios(rs []Result, floor Result) {
	for i := range rs {
		if !rs[i].Floor && !rs[i].long && floor.P50 > 0 && floor.P95 > 0 {
			rs[i].X50 = float64(rs[i].P50) / float64(floor.P50)
			rs[i].X95 = float64(rs[i].P95) / float64(floor.P95)
		}
	}
}

func event(dir string, c Case) []byte { return demo.Event(dir, "bench", c.Tool, c.Input) }

// run runs argv in dir with ev on stdin and returns its stderr.
func run(dir string, ev []byte, argv ...string) (string, error) {
	cmd := execCommand(dir, ev, argv...)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = io.Discard, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("%s: %v: %s", strings.Join(argv, " "), err, strings.TrimSpace(stderr.String()))
	}
	return stderr.String(), nil
}

// execCommand returns the command argv in dir, with ev on stdin and the
// hook's environment.
func execCommand(dir string, ev []byte, argv ...string) *exec.Cmd {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = env()
	cmd.Stdin = bytes.NewReader(ev)
	return cmd
}

// env is the hook's environment: the caller's, without an agent's project
// or loop, which would point the hook elsewhere.
func env() []string {
	var out []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "CLAUDE_PROJECT_DIR=") || strings.HasPrefix(kv, "RALPH_LOOP_ID=") {
			continue
		}
		out = append(out, kv)
	}
	return out
}

// fill writes n audit lines to the log at path.
func fill(path string, n int) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	enc := json.NewEncoder(f)
	t := time.Now().Add(-time.Hour)
	for i := 0; i < n; i++ {
		e := audit.Entry{Time: t, Hook: "pre-tool-call", Event: "PreToolUse", Tool: "Bash", Target: "go test ./...", Decision: "allow", DurationMS: 1.5}
		if err := enc.Encode(e); err != nil {
			return err
		}
	}
	return nil
}

// Print writes results as a table. When a floor was measured, two columns
// give each case's p50 and p95 as multiples of the floor's: the numbers to
// compare across machines (and moments), which the totals are not.
func Print(w io.Writer, rs []Result) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "case\tp50 ms\tp95 ms\tp99 ms\tp50 × floor\tp95 × floor\tpeak RSS MiB\tbudget\t")
	for _, r := range rs {
		rss, x50, x95 := "-", "-", "-"
		if r.MaxRSSKB > 0 {
			rss = fmt.Sprintf("%.1f", float64(r.MaxRSSKB)/1024)
		}
		if r.X50 > 0 {
			x50, x95 = fmt.Sprintf("%.2f", r.X50), fmt.Sprintf("%.2f", r.X95)
		}
		fmt.Fprintf(tw, "%s\t%.2f\t%.2f\t%.2f\t%s\t%s\t%s\t%s\t\n", r.Name, ms(r.P50), ms(r.P95), ms(r.P99), x50, x95, rss, r.Budget)
	}
	return tw.Flush()
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// loopCommand is the bench loop's completion command: it fails at once, so
// every Stop is judged and blocked, and the loop never ends.
const loopCommand = "exit 1"

// persistenceBlock is what startLoop adds to aiwg.yml.
const persistenceBlock = "agent_persistence:\n  recovery:\n    max_retries: 1000000000\n"

// startLoop starts a loop in dir, as ralph start would, with iters
// iterations of history behind it.
func startLoop(dir string, iters int, completion string) (project.Scope, error) {
	// Every run judges the same failing iteration again: the loop is soon
	// stuck, and after its recovery attempts it would wait at the human
	// gate, where a stop costs nothing. Keep it recovering instead, so that
	// every run measures a judged iteration.
	f, err := os.OpenFile(project.Layout{Root: dir}.Config(), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return project.Scope{}, err
	}
	_, err = f.WriteString(persistenceBlock)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return project.Scope{}, err
	}
	cfg, err := config.Load(project.Layout{Root: dir}.Config())
	if err != nil {
		return project.Scope{}, err
	}
	st, _, err := loop.Start(context.Background(), loop.Options{
		Root: dir, Config: cfg, Task: "bench the stop hook", Completion: completion,
		MaxIterations: 1 << 30, Owner: "bench", PID: os.Getpid(), Now: time.Now(),
	})
	if err != nil {
		return project.Scope{}, err
	}
	sc, _ := project.NewScope(dir, st.LoopID)
	return sc, loop.FakeHistory(sc, iters, time.Now())
}

// sprawl adds n small files to the project at dir, one in ten a Go test
// file, a hundred to a directory, as a larger repository would have.
func sprawl(dir string, n int) error {
	for i := range n {
		d := filepath.Join(dir, "pkg", fmt.Sprintf("p%03d", i/100))
		if i%100 == 0 {
			if err := os.MkdirAll(d, 0o755); err != nil {
				return err
			}
		}
		name, body := fmt.Sprintf("f%03d.go", i%100), fmt.Sprintf("package p%03d\n\nfunc F%d() int { return %d }\n", i/100, i, i)
		if i%10 == 0 {
			name = fmt.Sprintf("f%03d_test.go", i%100)
			body = fmt.Sprintf("package p%03d\n\nimport \"testing\"\n\nfunc TestF%d(t *testing.T) {\n\tif F%d() != %d {\n\t\tt.Fatal(\"wrong\")\n\t}\n}\n", i/100, i, i+1, i+1)
		}
		if err := os.WriteFile(filepath.Join(d, name), []byte(body), 0o644); err != nil {
			return err
		}
	}
	return nil
}
