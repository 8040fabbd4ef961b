package state

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// An update's staged files and its own are synced at once, every sync
// before any rename, and renamed in the order written, the updated file
// last; each directory is synced once, after the renames.
func TestStageOrder(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "seen.json")
	files := []string{filepath.Join(root, "p", "a.yaml"), filepath.Join(root, "p", "b.yaml"), filepath.Join(root, "q", "c.yaml")}

	var mu sync.Mutex
	var events []string
	began := 0
	all := make(chan struct{})
	var alone []string
	oldSync, oldRename := syncFile, stageRename
	t.Cleanup(func() { syncFile, stageRename = oldSync, oldRename })
	syncFile = func(f *os.File) error {
		name := filepath.Base(f.Name())
		mu.Lock()
		began++
		n := began
		mu.Unlock()
		if !strings.HasPrefix(name, ".") { // a directory, after the renames
			mu.Lock()
			events = append(events, "dir "+name)
			mu.Unlock()
			return f.Sync()
		}
		if n == len(files)+1 {
			close(all)
		}
		// Each file's sync is held until every file's has begun: syncs
		// made one after another would hang here.
		select {
		case <-all:
		case <-time.After(time.Minute): // the hang is the failure; this only ends it
			mu.Lock()
			alone = append(alone, name)
			mu.Unlock()
		}
		mu.Lock()
		events = append(events, "sync")
		mu.Unlock()
		return f.Sync()
	}
	stageRename = func(from, to string) error {
		mu.Lock()
		events = append(events, "rename "+filepath.Base(to))
		mu.Unlock()
		return os.Rename(from, to)
	}
	err := UpdateStaged(path, func(old []byte, s *Stage) ([]byte, error) {
		for _, f := range files {
			if err := s.Write(f, []byte(filepath.Base(f)), 0o644); err != nil {
				return nil, err
			}
		}
		return []byte(`{"n":1}`), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(alone) > 0 {
		t.Fatalf("synced %q alone: the staged files one after another", alone)
	}
	want := []string{"sync", "sync", "sync", "sync", "rename a.yaml", "rename b.yaml", "rename c.yaml", "rename seen.json"}
	if len(events) < len(want) || !slices.Equal(events[:len(want)], want) {
		t.Fatalf("events %q, want %q then the directories", events, want)
	}
	dirs := slices.Clone(events[len(want):])
	slices.Sort(dirs)
	if wantDirs := []string{"dir " + filepath.Base(root), "dir p", "dir q"}; !slices.Equal(dirs, wantDirs) {
		t.Errorf("directories synced %q, want %q once each", dirs, wantDirs)
	}
	for _, f := range append(files, path) {
		if _, err := os.Stat(f); err != nil {
			t.Error(err)
		}
	}
	if left := temps(t, root); len(left) > 0 {
		t.Errorf("temp files left: %q", left)
	}
}

// A failed sync of any staged file renames none of them: every file stays
// as it was, and no temp file is left.
func TestStageSyncFails(t *testing.T) {
	for _, failing := range []string{"a.yaml", "seen.json"} {
		t.Run(failing, func(t *testing.T) {
			root := t.TempDir()
			path := filepath.Join(root, "seen.json")
			a := filepath.Join(root, "a.yaml")
			for _, f := range []string{path, a} {
				if err := os.WriteFile(f, []byte("old"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			old := syncFile
			t.Cleanup(func() { syncFile = old })
			syncFile = func(f *os.File) error {
				if strings.HasPrefix(filepath.Base(f.Name()), "."+failing+".tmp-") {
					return errors.New("disk full")
				}
				return f.Sync()
			}
			err := UpdateStaged(path, func(old []byte, s *Stage) ([]byte, error) {
				return []byte("new"), s.Write(a, []byte("new"), 0o644)
			})
			if err == nil || !strings.Contains(err.Error(), failing) || !strings.Contains(err.Error(), "disk full") {
				t.Fatalf("err = %v, want the failed sync of %s", err, failing)
			}
			for _, f := range []string{path, a} {
				if data, _ := os.ReadFile(f); string(data) != "old" {
					t.Errorf("%s = %q, want it as it was", filepath.Base(f), data)
				}
			}
			if left := temps(t, root); len(left) > 0 {
				t.Errorf("temp files left: %q", left)
			}
		})
	}
}

// An update whose fn fails writes nothing it staged.
func TestStageFnFails(t *testing.T) {
	root := t.TempDir()
	a := filepath.Join(root, "a.yaml")
	err := UpdateStaged(filepath.Join(root, "seen.json"), func(old []byte, s *Stage) ([]byte, error) {
		if err := s.Write(a, []byte("new"), 0o644); err != nil {
			return nil, err
		}
		return nil, errors.New("no")
	})
	if err == nil {
		t.Fatal("no error")
	}
	if ents, _ := os.ReadDir(root); len(ents) != 1 || ents[0].Name() != "seen.json.lock" {
		var got []string
		for _, e := range ents {
			got = append(got, e.Name())
		}
		t.Errorf("left %q, want only the lock", got)
	}
}

// temps lists the temp files under root.
func temps(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.Contains(d.Name(), ".tmp-") {
			out = append(out, p)
		}
		return nil
	})
	return out
}
