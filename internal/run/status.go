package run

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/gofrs/flock"

	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/state"
	"github.com/ralph-hooks/ralph-hooks/internal/task"
)

// Row is one task in `ralph run --status`.
type Row struct {
	ID         string    `json:"id"`
	File       string    `json:"file"`
	State      string    `json:"state"` // its folder
	Iteration  int       `json:"iteration"`
	Max        int       `json:"max_iterations,omitempty"`
	Step       string    `json:"current_step,omitempty"`
	Checkpoint time.Time `json:"checkpoint,omitzero"`
	Loop       string    `json:"loop_id,omitempty"`
	Running    bool      `json:"running"` // a ralph run holds it now
	Note       string    `json:"note,omitempty"`
}

// Status reads every task of the tasks directory dir (project root root):
// its state, progress and what waits on it.
//
// Parsing a thousand front matters takes tens of milliseconds, so what
// each file says is cached in .aiwg/ralph/tasks/status-cache.json, keyed by
// its path, size, modification time and inode (ralph replaces a file by
// renaming a new one over it, so each write is a new inode): only the files
// that changed since are read again.
//
// Done tasks are counted, not read, unless all is set: they need nothing
// more, and most of a long-lived queue is done.
func Status(root, dir string, all bool) (Counts, []Row, error) {
	var paths []string
	counts := Counts{}
	for _, s := range task.States {
		l, err := task.List(dir, s)
		if err != nil {
			return counts, nil, err
		}
		counts[s] = len(l)
		if s == task.Done && !all {
			continue
		}
		paths = append(paths, l...)
	}
	cacheFile := filepath.Join(project.Layout{Root: root}.Ralph(), "tasks", "status-cache.json")
	old := readCache(cacheFile)
	cache := make(statusCache, len(paths))
	rows := make([]Row, len(paths))
	// A stat per file, a read of those that changed, a lock test per
	// approved task: system calls, spread over a few goroutines.
	var mu sync.Mutex
	var wg sync.WaitGroup
	changed := false
	next := make(chan int, len(paths))
	for i := range paths {
		next <- i
	}
	close(next)
	for range min(statusWorkers, len(paths)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				p := paths[i]
				e, hit := old[p]
				if key, ok := fileKey(p); !ok || !hit || e.Key != key {
					e, hit = readEntry(p), false
				}
				rows[i] = rowOf(root, p, e)
				mu.Lock()
				cache[p] = e
				changed = changed || !hit
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if !all {
		for p, e := range old {
			if _, ok := cache[p]; !ok && task.StateOf(p) == task.Done {
				cache[p] = e // not read this time: kept for a later --all
			}
		}
	}
	if changed || len(old) != len(cache) {
		writeCache(cacheFile, cache) // best effort: the next Status reads again
	}
	for _, r := range rows {
		if r.Running {
			counts["running"]++
		}
	}
	return counts, rows, nil
}

// Counts are the task files per folder, and the tasks running now.
type Counts map[string]int

// statusCache maps a task file's path to what it said.
type statusCache map[string]cacheEntry

// cacheEntry is one file of the cache: its identity when read, and its
// glance or why it could not be read.
type cacheEntry struct {
	Key   string
	G     task.Glance
	Error string
}

// The cache is a text file, a line per task file of tab-separated fields
// (decoding it as JSON cost more than a thousand stats).
const cacheHeader = "ralph status cache 1"

func readCache(path string) statusCache {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	head, rest, _ := strings.Cut(string(data), "\n")
	if head != cacheHeader {
		return nil
	}
	c := statusCache{}
	for len(rest) > 0 {
		var line string
		line, rest, _ = strings.Cut(rest, "\n")
		f := strings.Split(line, "\t")
		if len(f) != 18 {
			return nil
		}
		for i := range f {
			f[i] = unescape(f[i])
		}
		atoi := func(s string) int { n, _ := strconv.Atoi(s); return n }
		ts, _ := time.Parse(time.RFC3339Nano, f[10])
		c[f[0]] = cacheEntry{Key: f[1], Error: f[2], G: task.Glance{
			ID: f[3], State: f[4], MaxIterations: atoi(f[5]), HasLoop: f[6] == "1", Iteration: atoi(f[7]), LoopMax: atoi(f[8]),
			CurrentStep: f[9], Timestamp: ts, LoopID: f[11], Gate: f[12], Attempt: atoi(f[13]), LastError: f[14],
			ExitReason: f[15], FailureClass: f[16], FailureReason: f[17],
		}}
	}
	return c
}

func writeCache(path string, files statusCache) {
	var b strings.Builder
	b.WriteString(cacheHeader + "\n")
	for p, e := range files {
		g := e.G
		ts := ""
		if !g.Timestamp.IsZero() {
			ts = g.Timestamp.Format(time.RFC3339Nano)
		}
		loop := "0"
		if g.HasLoop {
			loop = "1"
		}
		f := []string{p, e.Key, e.Error, g.ID, g.State, strconv.Itoa(g.MaxIterations), loop, strconv.Itoa(g.Iteration), strconv.Itoa(g.LoopMax),
			g.CurrentStep, ts, g.LoopID, g.Gate, strconv.Itoa(g.Attempt), g.LastError, g.ExitReason, g.FailureClass, g.FailureReason}
		for i, x := range f {
			if i > 0 {
				b.WriteByte('\t')
			}
			b.WriteString(escape(x))
		}
		b.WriteByte('\n')
	}
	if os.MkdirAll(filepath.Dir(path), 0o755) == nil {
		state.WriteFile(path, []byte(b.String()), 0o644)
	}
}

var (
	escaper   = strings.NewReplacer("\\", "\\\\", "\t", "\\t", "\n", "\\n", "\r", "\\r")
	unescaper = strings.NewReplacer("\\\\", "\\", "\\t", "\t", "\\n", "\n", "\\r", "\r")
)

func escape(s string) string {
	if !strings.ContainsAny(s, "\\\t\n\r") {
		return s
	}
	return escaper.Replace(s)
}

func unescape(s string) string {
	if !strings.Contains(s, "\\") {
		return s
	}
	return unescaper.Replace(s)
}

// fileKey identifies the version of a file on disk.
func fileKey(path string) (string, bool) {
	fi, err := os.Lstat(path)
	if err != nil {
		return "", false
	}
	return fmt.Sprintf("%d %d %d", fi.Size(), fi.ModTime().UnixNano(), inode(fi)), true
}

// readEntry reads one task file for the cache.
func readEntry(path string) cacheEntry {
	key, _ := fileKey(path)
	t, err := task.Read(path)
	if err != nil {
		return cacheEntry{Key: key, Error: err.Error()}
	}
	k2, _ := fileKey(path)
	if k2 != key {
		key = "" // changed while read: do not trust the cache with it
	}
	return cacheEntry{Key: key, G: t.Glance()}
}

// rowOf builds the row of the file at path from what it said.
func rowOf(root, path string, e cacheEntry) Row {
	row := Row{File: path, State: task.StateOf(path)}
	if e.Error != "" {
		row.ID = strings.TrimSuffix(filepath.Base(path), ".md")
		row.Note = "invalid: " + e.Error
		return row
	}
	g := e.G
	row.ID, row.Max = g.ID, g.MaxIterations
	if g.HasLoop {
		row.Iteration, row.Max, row.Loop = g.Iteration, g.LoopMax, g.LoopID
		row.Step, row.Checkpoint = g.CurrentStep, g.Timestamp
	}
	switch {
	case g.State != row.State && row.State == task.Approved:
		row.Note = fmt.Sprintf("its front matter says %s: a move an earlier run began (the next ralph run finishes it)", g.State)
	case row.State != task.Approved && (g.State != row.State || g.HasLoop && g.LoopID != "" && g.ExitReason == "" && g.FailureReason == ""):
		row.Note = fmt.Sprintf("its front matter says %s, but ralph run did not put it in %s/ (moved by hand or by an agent): the next ralph run takes it back to Approved/", g.State, row.State)
	case row.State == task.Done && g.ExitReason != "":
		row.Note = g.ExitReason
	case row.State == task.Rejected && g.FailureReason != "":
		row.Note = g.FailureClass + ": " + oneLine(g.FailureReason)
	case row.State == task.Approved:
		row.Running = held(root, g.ID)
		row.Note = approvedNote(g, row.Running)
	}
	return row
}

// approvedNote says where an approved task is.
func approvedNote(g task.Glance, running bool) string {
	switch {
	case running:
		return "running now"
	case !g.HasLoop:
		return "not started"
	case g.Gate != "":
		return fmt.Sprintf("waits at the human gate (%s): ralph gate %s approve|reject|abort", g.Gate, g.LoopID)
	case g.Attempt > 0:
		return fmt.Sprintf("resumes at try %d: %s", g.Attempt+1, oneLine(g.LastError))
	}
	return "resumes from its checkpoint"
}

// held reports whether a ralph run holds the lock of task id.
func held(root, id string) bool {
	l := flock.New(filepath.Join(project.Layout{Root: root}.Ralph(), "tasks", id, "run.lock"))
	ok, err := l.TryRLock()
	if err != nil {
		return false // no lock file: nobody runs it
	}
	if ok {
		l.Unlock()
	}
	return !ok
}

// PrintStatus writes the counts, then rows as a table.
func PrintStatus(w io.Writer, counts Counts, rows []Row) error {
	total := counts[task.Approved] + counts[task.Done] + counts[task.Rejected]
	fmt.Fprintf(w, "%d tasks: %d approved (%d running now), %d done, %d rejected\n", total, counts[task.Approved], counts["running"], counts[task.Done], counts[task.Rejected])
	if len(rows) == 0 {
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TASK\tSTATE\tITERATION\tSTEP\tCHECKPOINT\tNOTE")
	for _, r := range rows {
		it := "-"
		if r.Max > 0 {
			it = fmt.Sprintf("%d/%d", r.Iteration, r.Max)
		}
		cp := "-"
		if !r.Checkpoint.IsZero() {
			cp = r.Checkpoint.UTC().Format("2006-01-02 15:04:05")
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", r.ID, r.State, it, dash(r.Step), cp, r.Note)
	}
	return tw.Flush()
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// statusWorkers read the task files of Status at once.
const statusWorkers = 4
