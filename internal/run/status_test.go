package run

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/task"
)

// TestStatusCache checks that the cache gives what the files say: a file
// rewritten (ralph's way, or in place) is read again, odd characters
// survive, a removed file goes, and a broken cache is ignored.
func TestStatusCache(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "tasks")
	p := filepath.Join(dir, task.Approved, "a.md")
	write := func(data string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := task.Write(p, []byte(data)); err != nil {
			t.Fatal(err)
		}
	}
	row := func() Row {
		t.Helper()
		_, rows, err := Status(root, dir, true)
		if err != nil || len(rows) != 1 {
			t.Fatalf("Status = %v, %v", rows, err)
		}
		return rows[0]
	}
	odd := "tab\there, newline\\n, back\\\\slash"
	write("---\nid: a\nstate: Approved\npersistence_loop:\n  iteration: 2\n  checkpoint:\n    state_data:\n      attempt: 1\n      last_error: \"" + strings.ReplaceAll(odd, "\t", "\\t") + "\"\n---\n")
	cache := filepath.Join(root, ".aiwg", "ralph", "tasks", "status-cache.json")
	fresh := row()
	before, _ := fileKey(cache)
	cached := row() // from the cache, which is not written again
	if fresh != cached || fresh.Iteration != 2 || fresh.Note != "resumes at try 2: tab here, newline , back\\slash" {
		t.Fatalf("read %+v\ncached %+v", fresh, cached)
	}
	if after, _ := fileKey(cache); after != before || before == "" {
		t.Errorf("the cache was written again with nothing changed (%q → %q)", before, after)
	}
	write("---\nid: a\nstate: Approved\npersistence_loop:\n  iteration: 3\n---\n")
	if r := row(); r.Iteration != 3 || r.Note != "resumes from its checkpoint" {
		t.Fatalf("after a rewrite: %+v", r)
	}
	// In place, same size, a later time.
	data, _ := os.ReadFile(p)
	os.WriteFile(p, []byte(strings.Replace(string(data), "iteration: 3", "iteration: 4", 1)), 0o644)
	later := time.Now().Add(time.Hour)
	os.Chtimes(p, later, later)
	if r := row(); r.Iteration != 4 {
		t.Fatalf("after an edit in place: %+v", r)
	}
	os.WriteFile(p, []byte("---\nid: a\n"), 0o644)
	if r := row(); !strings.HasPrefix(r.Note, "invalid: "+p+":3: the front matter has no closing") {
		t.Fatalf("a broken file: %+v", r)
	}
	os.WriteFile(cache, []byte("ralph status cache 1\nnot\tenough\n"), 0o644)
	if r := row(); !strings.HasPrefix(r.Note, "invalid: ") {
		t.Fatalf("with a broken cache: %+v", r)
	}
	os.Remove(p)
	if _, rows, err := Status(root, dir, true); err != nil || len(rows) != 0 {
		t.Fatalf("after removal: %v %v", rows, err)
	}
}
