package bench

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/ralph-hooks/ralph-hooks/internal/project"
)

// trashDir is the directory of Options.Delete files, relative to the project.
const trashDir = "trash"

// trash adds n files of 1–4 KiB of Go-like text, every one different, a
// hundred to a directory, under trashDir in the project at dir.
func trash(dir string, n int) error {
	line := []byte("func TestX(t *testing.T) {}\n")
	for i := range n {
		d := filepath.Join(dir, trashDir, fmt.Sprintf("d%03d", i/100))
		if i%100 == 0 {
			if err := os.MkdirAll(d, 0o755); err != nil {
				return err
			}
		}
		size := 1024 + i%3072
		data := bytes.Repeat(line, size/len(line)+1)[:size]
		binary.BigEndian.PutUint64(data, uint64(i))
		if err := os.WriteFile(filepath.Join(d, fmt.Sprintf("f%04d.go", i)), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// deletion measures the deletion of the trash directory, o.DeleteRuns
// times: pre-tool-call judging `rm -rf trash` (the checkpoint of every
// file, into an empty store, as the first deletion of those files would
// be), then, the directory deleted, `ralph rollback --last`. Each run
// checks that the call was let through with a checkpoint and that the
// rollback brought every file back; a run whose checkpoint missed the
// hook's time is counted (the guard asks then, as it should) and has no
// rollback.
func deletion(o Options, sc project.Scope) ([]Result, error) {
	if o.Ralph == "" {
		return nil, fmt.Errorf("bench: measuring a deletion needs the ralph executable")
	}
	// Made now, after the other cases: their project is the size asked for.
	if err := trash(o.Dir, o.Delete); err != nil {
		return nil, err
	}
	runs := max(o.DeleteRuns, 1)
	cmd := "rm -rf " + trashDir
	ev := event(o.Dir, Case{Tool: "Bash", Input: map[string]any{"command": cmd}})
	var cp, rb []time.Duration
	asked := 0 // runs whose checkpoint missed the hook's time: the guard asked
	for range runs {
		if err := os.RemoveAll(sc.Checkpoints()); err != nil {
			return nil, err
		}
		start := time.Now()
		out, _, err := runOut(o.Dir, ev, o.Bin)
		cp = append(cp, time.Since(start))
		if err != nil {
			return nil, fmt.Errorf("pre-tool-call on %q: %w", cmd, err)
		}
		answer := gjson.GetBytes(out, "hookSpecificOutput")
		if d := answer.Get("permissionDecision").String(); d == "ask" && strings.Contains(answer.Get("permissionDecisionReason").String(), "could not save a rollback checkpoint") {
			asked++ // as it should on a machine too busy to store it in time
			continue
		} else if d == "deny" || d == "ask" {
			return nil, fmt.Errorf("pre-tool-call on %q answered %s, not allow with a checkpoint: %s", cmd, d, out)
		}
		ms, err := os.ReadDir(filepath.Join(sc.Checkpoints(), "manifests"))
		if err != nil || len(ms) != 1 {
			return nil, fmt.Errorf("pre-tool-call on %q took no checkpoint (%v): %s", cmd, err, out)
		}
		if err := os.RemoveAll(filepath.Join(o.Dir, trashDir)); err != nil {
			return nil, err
		}
		start = time.Now()
		_, stderr, err := runOut(o.Dir, nil, o.Ralph, "rollback", "--last")
		rb = append(rb, time.Since(start))
		if err != nil {
			return nil, fmt.Errorf("ralph rollback --last: %w: %s", err, stderr)
		}
		if n, err := count(filepath.Join(o.Dir, trashDir)); err != nil || n != o.Delete {
			return nil, fmt.Errorf("ralph rollback --last brought back %d of %d files (%v)", n, o.Delete, err)
		}
	}
	name := fmt.Sprintf("%s of %d files: ", cmd, o.Delete)
	cpName := name + "pre-tool-call (checkpoint)"
	if asked > 0 {
		cpName += fmt.Sprintf(" [%d of %d runs over the hook's time: asked]", asked, runs)
	}
	rs := []Result{{Name: cpName, Budget: "≤ 2 s", Runs: runs, P50: pct(cp, 0.5), P95: pct(cp, 0.95), P99: pct(cp, 0.99), long: true}}
	if len(rb) > 0 {
		rs = append(rs, Result{Name: name + "ralph rollback --last", Budget: "≤ 2 s", Runs: len(rb), P50: pct(rb, 0.5), P95: pct(rb, 0.95), P99: pct(rb, 0.99), long: true})
	}
	return rs, nil
}

// count returns how many regular files are under dir.
func count(dir string) (int, error) {
	n := 0
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			n++
		}
		return err
	})
	return n, err
}

// runOut runs argv in dir with ev on stdin and returns its stdout and
// stderr.
func runOut(dir string, ev []byte, argv ...string) (stdout []byte, stderr string, err error) {
	c := execCommand(dir, ev, argv...)
	var out, errb bytes.Buffer
	c.Stdout, c.Stderr = &out, &errb
	err = c.Run()
	return out.Bytes(), strings.TrimSpace(errb.String()), err
}
