package checkpoint

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// setup returns an empty project root and a store outside it.
func setup(t *testing.T) (string, Store) {
	t.Helper()
	return t.TempDir(), Store{Dir: filepath.Join(t.TempDir(), "checkpoints")}
}

// writeFile writes a file under root with exactly the given mode, creating
// its parents.
func writeFile(t *testing.T, root, rel, data string, mode fs.FileMode) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil {
		t.Fatal(err)
	}
}

func mkdir(t *testing.T, root, rel string, mode fs.FileMode) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, root, target, rel string) {
	t.Helper()
	if err := os.Symlink(target, filepath.Join(root, filepath.FromSlash(rel))); err != nil {
		t.Fatal(err)
	}
}

// snapshot describes every path under root: its kind, mode, and contents
// or link target.
func snapshot(t *testing.T, root string) map[string]string {
	t.Helper()
	m := make(map[string]string)
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			link, err := os.Readlink(p)
			if err != nil {
				return err
			}
			m[filepath.ToSlash(rel)] = "symlink -> " + link
		case fi.IsDir():
			m[filepath.ToSlash(rel)] = fmt.Sprintf("dir %v", fi.Mode().Perm())
		default:
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			m[filepath.ToSlash(rel)] = fmt.Sprintf("file %v %q", fi.Mode().Perm(), data)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// diff reports how snapshot got differs from want.
func diff(t *testing.T, got, want map[string]string) {
	t.Helper()
	for _, k := range slices.Sorted(maps.Keys(want)) {
		if got[k] != want[k] {
			t.Errorf("after restore, %s = %q, want %q", k, got[k], want[k])
		}
	}
	for _, k := range slices.Sorted(maps.Keys(got)) {
		if _, ok := want[k]; !ok {
			t.Errorf("after restore, %s = %q, want nothing", k, got[k])
		}
	}
}

func abs(root string, rels ...string) []string {
	var ps []string
	for _, rel := range rels {
		ps = append(ps, filepath.Join(root, filepath.FromSlash(rel)))
	}
	return ps
}

func changeStrings(cs []Change) []string {
	ss := []string{}
	for _, c := range cs {
		ss = append(ss, c.String())
	}
	return ss
}

func countFiles(t *testing.T, dir string) int {
	t.Helper()
	n := 0
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err == nil && d.Type().IsRegular() {
			n++
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestRestoreModifiedFile(t *testing.T) {
	root, s := setup(t)
	writeFile(t, root, "src/a.go", "package a\n", 0o644)
	want := snapshot(t, root)

	m, err := s.Create(root, abs(root, "src/a.go"), Meta{Tool: "Edit"}, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, root, "src/a.go", "package a // changed\n", 0o644)

	changes, err := s.Restore(root, m, false)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := changeStrings(changes), []string{"restore src/a.go"}; !slices.Equal(got, want) {
		t.Errorf("Restore changes = %q, want %q", got, want)
	}
	diff(t, snapshot(t, root), want)

	changes, err = s.Restore(root, m, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(changes) != 0 {
		t.Errorf("second Restore changes = %q, want none", changeStrings(changes))
	}
}

func TestRestoreDeletedTree(t *testing.T) {
	root, s := setup(t)
	outside := filepath.Join(t.TempDir(), "secret.txt")
	writeFile(t, filepath.Dir(outside), "secret.txt", "outside the project", 0o600)

	writeFile(t, root, "src/main.go", "package main\n", 0o644)
	writeFile(t, root, "src/pkg/deep/data.bin", "\x00\x01\x02\xff\x00binary\x00", 0o640)
	writeFile(t, root, "src/run.sh", "#!/bin/sh\necho hi\n", 0o755)
	writeFile(t, root, "src/empty.txt", "", 0o600)
	mkdir(t, root, "src/pkg", 0o750)
	mkdir(t, root, "src/emptydir", 0o700)
	symlink(t, root, outside, "src/out-link")
	symlink(t, root, "pkg/deep", "src/rel-link")
	symlink(t, root, "missing/target", "src/dangling")
	writeFile(t, root, "src/readonly/file.txt", "in a read-only directory", 0o444)
	mkdir(t, root, "src/readonly", 0o555)
	t.Cleanup(func() { os.Chmod(filepath.Join(root, "src", "readonly"), 0o755) })
	writeFile(t, root, "keep.txt", "not in the checkpoint", 0o644)
	want := snapshot(t, root)

	m, err := s.Create(root, abs(root, "src"), Meta{Tool: "Bash", Target: "rm -rf src"}, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	os.Chmod(filepath.Join(root, "src", "readonly"), 0o755)
	if err := os.RemoveAll(filepath.Join(root, "src")); err != nil {
		t.Fatal(err)
	}

	changes, err := s.Restore(root, m, false)
	if err != nil {
		t.Fatal(err)
	}
	diff(t, snapshot(t, root), want)
	if got, want := len(changes), len(m.Entries); got != want {
		t.Errorf("Restore made %d changes (%q), want %d", got, changeStrings(changes), want)
	}
	for _, c := range changes {
		if c.Action != ActionRecreate {
			t.Errorf("Restore change %q, want action %q", c, ActionRecreate)
		}
	}
	if data, err := os.ReadFile(outside); err != nil || string(data) != "outside the project" {
		t.Errorf("symlink target outside the project = %q, %v; want it untouched", data, err)
	}
}

func TestRestoreRemovesAbsent(t *testing.T) {
	root, s := setup(t)
	m, err := s.Create(root, abs(root, "new.txt", "gen/out", "gen"), Meta{}, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range m.Entries {
		if e.Kind != KindAbsent {
			t.Errorf("entry %s kind = %q, want %q", e.Path, e.Kind, KindAbsent)
		}
	}
	want := snapshot(t, root)
	writeFile(t, root, "new.txt", "created later", 0o644)
	writeFile(t, root, "gen/out", "created later", 0o644)

	changes, err := s.Restore(root, m, false)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := changeStrings(changes), []string{"remove new.txt", "remove gen/out", "remove gen"}; !slices.Equal(got, want) {
		t.Errorf("Restore changes = %q, want %q", got, want)
	}
	diff(t, snapshot(t, root), want)
}

func TestRestoreRefusesNonEmptyDir(t *testing.T) {
	root, s := setup(t)
	m, err := s.Create(root, abs(root, "out", "a.txt"), Meta{}, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, root, "out/x.txt", "user data", 0o644)
	writeFile(t, root, "a.txt", "created later", 0o644)
	want := snapshot(t, root)

	_, err = s.Restore(root, m, false)
	if err == nil || !strings.Contains(err.Error(), `"out"`) {
		t.Errorf("Restore error = %v, want one naming \"out\"", err)
	}
	diff(t, snapshot(t, root), want)
}

func TestDryRun(t *testing.T) {
	root, s := setup(t)
	writeFile(t, root, "edited.go", "original", 0o644)
	writeFile(t, root, "deleted.go", "deleted later", 0o644)
	writeFile(t, root, "chmod.sh", "same contents", 0o755)
	writeFile(t, root, "target-a", "a", 0o644)
	symlink(t, root, "target-a", "link")
	mkdir(t, root, "dir", 0o755)
	writeFile(t, root, "file-then-link", "was a file", 0o644)
	want := snapshot(t, root)

	m, err := s.Create(root, abs(root, "edited.go", "deleted.go", "chmod.sh", "link", "dir", "created.go", "file-then-link"), Meta{}, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, root, "edited.go", "changed", 0o644)
	os.Remove(filepath.Join(root, "deleted.go"))
	os.Chmod(filepath.Join(root, "chmod.sh"), 0o644)
	os.Remove(filepath.Join(root, "link"))
	symlink(t, root, "elsewhere", "link")
	os.Chmod(filepath.Join(root, "dir"), 0o700)
	writeFile(t, root, "created.go", "new", 0o644)
	os.Remove(filepath.Join(root, "file-then-link"))
	symlink(t, root, "target-a", "file-then-link")
	changed := snapshot(t, root)

	wantChanges := []string{
		"remove created.go",
		"mode chmod.sh",
		"recreate deleted.go",
		"mode dir",
		"restore edited.go",
		"restore file-then-link",
		"relink link",
	}
	dry, err := s.Restore(root, m, true)
	if err != nil {
		t.Fatal(err)
	}
	if got := changeStrings(dry); !slices.Equal(got, wantChanges) {
		t.Errorf("Restore dry run changes = %q, want %q", got, wantChanges)
	}
	diff(t, snapshot(t, root), changed)

	real, err := s.Restore(root, m, false)
	if err != nil {
		t.Fatal(err)
	}
	if got := changeStrings(real); !slices.Equal(got, wantChanges) {
		t.Errorf("Restore changes = %q, want %q", got, wantChanges)
	}
	diff(t, snapshot(t, root), want)
}

func TestRestoreReplacesSymlink(t *testing.T) {
	root, s := setup(t)
	outside := filepath.Join(t.TempDir(), "victim")
	writeFile(t, filepath.Dir(outside), "victim", "do not touch", 0o644)
	writeFile(t, root, "a_test.go", "package a", 0o644)
	want := snapshot(t, root)

	m, err := s.Create(root, abs(root, "a_test.go"), Meta{}, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(root, "a_test.go"))
	symlink(t, root, outside, "a_test.go")

	if _, err := s.Restore(root, m, false); err != nil {
		t.Fatal(err)
	}
	diff(t, snapshot(t, root), want)
	if data, err := os.ReadFile(outside); err != nil || string(data) != "do not touch" {
		t.Errorf("file behind the symlink = %q, %v; want it untouched", data, err)
	}
}

func TestRestoreDirReplacedBySymlink(t *testing.T) {
	root, s := setup(t)
	writeFile(t, root, "src/a.go", "package a", 0o644)
	writeFile(t, root, "other/a.go", "package a", 0o644)
	want := snapshot(t, root)

	m, err := s.Create(root, abs(root, "src"), Meta{}, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(filepath.Join(root, "src"))
	symlink(t, root, "other", "src")

	changes, err := s.Restore(root, m, false)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := changeStrings(changes), []string{"recreate src", "recreate src/a.go"}; !slices.Equal(got, want) {
		t.Errorf("Restore changes = %q, want %q", got, want)
	}
	diff(t, snapshot(t, root), want)
}

func TestDedup(t *testing.T) {
	root, s := setup(t)
	writeFile(t, root, "a.txt", "same contents", 0o644)
	writeFile(t, root, "b/c.txt", "same contents", 0o600)
	var objs []os.FileInfo
	for range 2 {
		m, err := s.Create(root, abs(root, "a.txt", "b"), Meta{}, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(s.object(m.Entries[0].SHA256))
		if err != nil {
			t.Fatal(err)
		}
		objs = append(objs, fi)
	}
	if !os.SameFile(objs[0], objs[1]) {
		t.Errorf("second checkpoint of the same contents rewrote the object, want it left alone")
	}
	if got := countFiles(t, filepath.Join(s.Dir, "objects")); got != 1 {
		t.Errorf("objects after two checkpoints of one content = %d, want 1", got)
	}
	if got := countFiles(t, filepath.Join(s.Dir, "manifests")); got != 2 {
		t.Errorf("manifests after two checkpoints = %d, want 2", got)
	}
}

func TestCreateConcurrent(t *testing.T) {
	root, s := setup(t)
	writeFile(t, root, "a.txt", strings.Repeat("same contents\n", 1000), 0o644)
	want := snapshot(t, root)

	const n = 8
	ms := make([]*Manifest, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			ms[i], errs[i] = s.Create(root, abs(root, "a.txt"), Meta{}, Limits{})
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("concurrent Create %d: %v", i, err)
		}
	}
	if got := countFiles(t, filepath.Join(s.Dir, "objects")); got != 1 {
		t.Errorf("objects after %d concurrent checkpoints of one content = %d, want 1", n, got)
	}
	if list, err := s.List(); err != nil || len(list) != n {
		t.Errorf("List after %d concurrent checkpoints = %d, %v; want %d, nil", n, len(list), err, n)
	}
	writeFile(t, root, "a.txt", "changed", 0o644)
	if _, err := s.Restore(root, ms[n-1], false); err != nil {
		t.Fatal(err)
	}
	diff(t, snapshot(t, root), want)
}

func TestCreateSkips(t *testing.T) {
	root := t.TempDir()
	s := Store{Dir: filepath.Join(root, ".aiwg", "ralph", "checkpoints")}
	writeFile(t, root, "src/a.go", "package a", 0o644)
	writeFile(t, root, "src/node_modules/x/index.js", "x", 0o644)
	writeFile(t, root, "src/build/out.o", "x", 0o644)
	writeFile(t, root, "src/build.sh", "a file named like a regenerable dir", 0o755)
	writeFile(t, root, "dist/app.js", "x", 0o644)
	writeFile(t, root, ".git/HEAD", "ref: refs/heads/main", 0o644)
	writeFile(t, root, ".aiwg/ralph/registry.json", "{}", 0o644)

	tests := []struct {
		name        string
		paths       []string
		wantEntries []string
		wantSkipped []string
	}{
		{
			name:        "walk",
			paths:       abs(root, "src"),
			wantEntries: []string{"src", "src/a.go", "src/build.sh"},
			wantSkipped: []string{"src/build/ (regenerable)", "src/node_modules/ (regenerable)"},
		},
		{
			name:        "direct",
			paths:       abs(root, "dist", ".aiwg", "src/a.go"),
			wantEntries: []string{"dist", "dist/app.js", "src/a.go"},
			wantSkipped: []string{".aiwg/ (ralph state)"},
		},
		{
			name:        "root",
			paths:       []string{root},
			wantEntries: []string{".", "src", "src/a.go", "src/build.sh"},
			wantSkipped: []string{".aiwg/ (ralph state)", ".git/ (version control)", "dist/ (regenerable)", "src/build/ (regenerable)", "src/node_modules/ (regenerable)"},
		},
		{
			name:        "git directly",
			paths:       abs(root, ".git"),
			wantEntries: []string{".git", ".git/HEAD"},
		},
		{
			name:        "overlapping",
			paths:       abs(root, "src/a.go", "src", "src/", "src/a.go", "src/build/out.o"),
			wantEntries: []string{"src", "src/a.go", "src/build.sh", "src/build/out.o"},
			wantSkipped: []string{"src/build/ (regenerable)", "src/node_modules/ (regenerable)"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := s.Create(root, tt.paths, Meta{}, Limits{})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range m.Entries {
				got = append(got, e.Path)
			}
			if !slices.Equal(got, tt.wantEntries) {
				t.Errorf("Create(%q) entries = %q, want %q", tt.paths, got, tt.wantEntries)
			}
			if !slices.Equal(m.Skipped, tt.wantSkipped) {
				t.Errorf("Create(%q) skipped = %q, want %q", tt.paths, m.Skipped, tt.wantSkipped)
			}
		})
	}
}

func TestCreateTooLarge(t *testing.T) {
	tests := []struct {
		name string
		lim  Limits
	}{
		{"files", Limits{MaxFiles: 3}},
		{"bytes", Limits{MaxBytes: 20}},
		{"late", Limits{Deadline: time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root, s := setup(t)
			writeFile(t, root, "src/a", "0123456789", 0o644)
			writeFile(t, root, "src/b", "0123456789", 0o644)
			writeFile(t, root, "src/c", "0123456789", 0o644)

			_, err := s.Create(root, abs(root, "src"), Meta{}, tt.lim)
			var tl *TooLargeError
			if !errors.As(err, &tl) {
				t.Fatalf("Create with %+v = %v, want a *TooLargeError", tt.lim, err)
			}
			if late := !tt.lim.Deadline.IsZero(); tl.Late != late || late && !strings.Contains(err.Error(), "0 of 3 files") {
				t.Errorf("Create with %+v = %v (Late %v), want Late %v", tt.lim, err, tl.Late, late)
			}
			if n := countFiles(t, s.Dir); n != 0 {
				t.Errorf("files in the store after a failed Create = %d, want 0", n)
			}
		})
	}

	root, s := setup(t)
	writeFile(t, root, "src/a", "0123456789", 0o644)
	if _, err := s.Create(root, abs(root, "src"), Meta{}, Limits{MaxFiles: 2, MaxBytes: 10}); err != nil {
		t.Errorf("Create at exactly the limits: %v", err)
	}
}

// TestManyFiles checkpoints and restores 600 files, stored by several
// workers at once: every one comes back byte for byte, and the memory
// allocated stays a small multiple of the data (a compressor per file, as
// before, allocated over a megabyte each: 760 MiB here).
func TestManyFiles(t *testing.T) {
	root, s := setup(t)
	for i := range 600 {
		rel := fmt.Sprintf("data/d%d/f%03d.txt", i/50, i)
		writeFile(t, root, rel, strings.Repeat(fmt.Sprintf("line %d of file %d\n", i%7, i), 50+i%40), fs.FileMode(0o600|i%2*0o044))
	}
	want := snapshot(t, root)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	m, err := s.Create(root, abs(root, "data"), Meta{}, Limits{})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 64<<20 {
		t.Errorf("a checkpoint of 600 files allocated %d MiB, want at most 64", got>>20)
	}
	if len(m.Entries) != 600+13 {
		t.Errorf("checkpoint holds %d entries, want 613", len(m.Entries))
	}
	if err := os.RemoveAll(filepath.Join(root, "data")); err != nil {
		t.Fatal(err)
	}
	changes, err := s.Restore(root, m, false)
	if err != nil || len(changes) != 613 {
		t.Fatalf("Restore = %d changes, %v; want 613", len(changes), err)
	}
	diff(t, snapshot(t, root), want)
}

// TestPutAllFirstError: of several files that cannot be read, the error
// names the first, whichever worker met it.
func TestPutAllFirstError(t *testing.T) {
	root, s := setup(t)
	var es []Entry
	for i := range 40 {
		rel := fmt.Sprintf("src/f%02d", i)
		if i != 7 && i != 21 && i != 33 { // these are gone since they were listed
			writeFile(t, root, rel, "x", 0o644)
		}
		es = append(es, Entry{Path: rel, Kind: KindFile})
	}
	for range 5 {
		err := s.putAll(mustOpenRoot(t, root), slices.Clone(es), time.Time{})
		if err == nil || !strings.Contains(err.Error(), `"src/f07"`) {
			t.Fatalf("putAll = %v, want an error naming src/f07", err)
		}
	}
}

func TestCreateRejectsOutsidePaths(t *testing.T) {
	root, s := setup(t)
	other := t.TempDir()
	for _, p := range []string{other, filepath.Join(root, ".."), "src/a.go", filepath.Join(root, "..", filepath.Base(other))} {
		_, err := s.Create(root, []string{p}, Meta{}, Limits{})
		if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("%q", p)) {
			t.Errorf("Create(%q) = %v, want an error naming the path", p, err)
		}
	}
}

var fixedTime = time.Date(2026, 11, 21, 15, 23, 1, 0, time.FixedZone("CET", 3600))

func TestNewID(t *testing.T) {
	id := newID(fixedTime)
	if want := "cp-20261121T142301-"; !strings.HasPrefix(id, want) || !ValidID(id) {
		t.Errorf("newID(%v) = %q, want a valid ID starting with %q", fixedTime, id, want)
	}
	if other := newID(fixedTime); other == id {
		t.Errorf("newID(%v) twice = %q, want different IDs", fixedTime, id)
	}
}

func TestValidID(t *testing.T) {
	tests := []struct {
		id   string
		want bool
	}{
		{"cp-20261121T152301-3f9a1c2b", true},
		{newID(fixedTime), true},
		{"", false},
		{"cp-20261121T152301-3f9a1c2", false},
		{"cp-20261121T152301-3f9a1c2b0", false},
		{"cp-20261121T152301-3F9A1C2B", false},
		{"cp-20261121-152301-3f9a1c2b", false},
		{"cp-20261121T152301-3f9a1c2b.json", false},
		{"../cp-20261121T152301-3f9a1c2b", false},
		{"cp-20261121T152301-3f9a1c2b/../../x", false},
		{"cp-20261121T152301-3f9a1c2b\n", false},
	}
	for _, tt := range tests {
		if got := ValidID(tt.id); got != tt.want {
			t.Errorf("ValidID(%q) = %v, want %v", tt.id, got, tt.want)
		}
	}
}

func TestLoadRefusesInvalidID(t *testing.T) {
	_, s := setup(t)
	for _, id := range []string{"../../etc/passwd", "cp-x", ""} {
		if _, err := s.Load(id); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("%q", id)) {
			t.Errorf("Load(%q) = %v, want an error naming the ID", id, err)
		}
		if _, err := s.Restore(t.TempDir(), &Manifest{ID: id}, true); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("%q", id)) {
			t.Errorf("Restore of manifest %q = %v, want an error naming the ID", id, err)
		}
	}
	_, err := s.Load("cp-20261121T152301-3f9a1c2b")
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Load of a missing checkpoint = %v, want fs.ErrNotExist", err)
	}
}

func TestLoadAndList(t *testing.T) {
	root, s := setup(t)
	if ms, err := s.List(); err != nil || len(ms) != 0 {
		t.Fatalf("List of a new store = %d, %v; want 0, nil", len(ms), err)
	}
	writeFile(t, root, "a.txt", "a", 0o644)
	var made []*Manifest
	for i := range 3 {
		m, err := s.Create(root, abs(root, "a.txt"), Meta{Tool: "Edit", Target: fmt.Sprint(i)}, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		made = append(made, m)
	}
	// A temporary file left by an interrupted write is not a checkpoint.
	writeFile(t, s.Dir, "manifests/.cp-20261121T152301-3f9a1c2b.json.tmp-1", "{", 0o644)

	ms, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	var got, want []string
	for _, m := range ms {
		got = append(got, m.Target)
	}
	for _, m := range slices.Backward(made) {
		want = append(want, m.Target)
	}
	if !slices.Equal(got, want) {
		t.Errorf("List targets = %q, want %q (newest first)", got, want)
	}

	m, err := s.Load(made[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if m.ID != made[0].ID || !m.Created.Equal(made[0].Created) || m.Meta != made[0].Meta || !slices.Equal(m.Entries, made[0].Entries) {
		t.Errorf("Load(%s) = %+v, want %+v", made[0].ID, m, made[0])
	}
}

func TestRestoreRejectsBadEntries(t *testing.T) {
	sum := strings.Repeat("a", 64)
	tests := []struct {
		name string
		e    Entry
	}{
		{"parent", Entry{Path: "../x", Kind: KindFile, SHA256: sum}},
		{"inner parent", Entry{Path: "a/../../x", Kind: KindFile, SHA256: sum}},
		{"absolute", Entry{Path: "/tmp/x", Kind: KindFile, SHA256: sum}},
		{"empty", Entry{Path: "", Kind: KindDir}},
		{"unclean", Entry{Path: "a//b", Kind: KindDir}},
		{"trailing slash", Entry{Path: "a/", Kind: KindDir}},
		{"root as file", Entry{Path: ".", Kind: KindFile, SHA256: sum}},
		{"kind", Entry{Path: "a", Kind: "fifo"}},
		{"sum", Entry{Path: "a", Kind: KindFile, SHA256: "../../../../etc/passwd"}},
		{"link", Entry{Path: "a", Kind: KindSymlink}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root, s := setup(t)
			m := &Manifest{ID: "cp-20261121T152301-3f9a1c2b", Entries: []Entry{
				{Path: "ok", Kind: KindDir, Mode: 0o755},
				tt.e,
			}}
			_, err := s.Restore(root, m, false)
			if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("%q", tt.e.Path)) {
				t.Errorf("Restore of entry %+v = %v, want an error naming its path", tt.e, err)
			}
			if got := snapshot(t, root); len(got) != 1 {
				t.Errorf("Restore of a bad manifest changed the project: %q", got)
			}
		})
	}
}

func TestRestoreStaysInsideRoot(t *testing.T) {
	root, s := setup(t)
	outside := t.TempDir()
	writeFile(t, root, "dir/a.txt", "a", 0o644)
	m, err := s.Create(root, abs(root, "dir/a.txt"), Meta{}, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(filepath.Join(root, "dir"))
	symlink(t, root, outside, "dir")

	if _, err := s.Restore(root, m, false); err == nil {
		t.Errorf("Restore through a symlink out of the project succeeded, want an error")
	}
	if _, err := os.Lstat(filepath.Join(outside, "a.txt")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Restore wrote outside the project: %v", err)
	}
}

func TestRestoreBadBlob(t *testing.T) {
	gz := func(s string) string {
		var b bytes.Buffer
		zw := gzip.NewWriter(&b)
		zw.Write([]byte(s))
		zw.Close()
		return b.String()
	}
	full := gz("original contents")
	tests := []struct {
		name string
		blob *string // nil: removed
		want string
	}{
		{"missing", nil, "is missing"},
		{"other contents", ptr(gz("other contents")), "is corrupt"},
		{"not gzip", ptr("garbage"), "is corrupt"},
		{"truncated", ptr(full[:len(full)-6]), "is corrupt"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root, s := setup(t)
			writeFile(t, root, "a.txt", "original contents", 0o644)
			m, err := s.Create(root, abs(root, "a.txt"), Meta{}, Limits{})
			if err != nil {
				t.Fatal(err)
			}
			sum := m.Entries[0].SHA256
			if tt.blob == nil {
				err = os.Remove(s.object(sum))
			} else {
				err = os.WriteFile(s.object(sum), []byte(*tt.blob), 0o600)
			}
			if err != nil {
				t.Fatal(err)
			}
			writeFile(t, root, "a.txt", "changed", 0o644)
			want := snapshot(t, root)

			for _, dry := range []bool{true, false} {
				_, err := s.Restore(root, m, dry)
				if err == nil || !strings.Contains(err.Error(), sum) || !strings.Contains(err.Error(), `"a.txt"`) || !strings.Contains(err.Error(), tt.want) {
					t.Errorf("Restore(dryRun=%v) = %v, want an error naming blob %s and \"a.txt\", saying %q", dry, err, sum, tt.want)
				}
			}
			diff(t, snapshot(t, root), want)
		})
	}
}

func TestCopyObjectDetectsCorruption(t *testing.T) {
	// Restore checks blobs before it writes; this checks the second line of
	// defence, when a blob goes bad between that check and the write.
	root, s := setup(t)
	writeFile(t, root, "a.txt", "original contents", 0o644)
	m, err := s.Create(root, abs(root, "a.txt"), Meta{}, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(root, "a.txt"))
	rs := &restorer{s: s, r: mustOpenRoot(t, root), u: newUnpacker(s)}
	var zw bytes.Buffer
	gw := gzip.NewWriter(&zw)
	gw.Write([]byte("tampered"))
	gw.Close()
	if err := os.WriteFile(s.object(m.Entries[0].SHA256), zw.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := rs.writeFile(rs.u, &dirCache{r: rs.r}, m.Entries[0]); err == nil || !strings.Contains(err.Error(), "corrupt") {
		t.Errorf("writeFile with a corrupt blob = %v, want an error saying it is corrupt", err)
	}
	if got := snapshot(t, root); len(got) != 1 {
		t.Errorf("writeFile with a corrupt blob left %q, want nothing", got)
	}
}

func mustOpenRoot(t *testing.T, dir string) *os.Root {
	t.Helper()
	r, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

func ptr[T any](v T) *T { return &v }
