package shell

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// memoProject writes a Go module under a temp directory and returns its
// root, an analyzer reading it from disk that counts the Go files read,
// and the memo (kept in memory: Read and Write share its bytes).
func memoProject(t *testing.T, now func() time.Time) (root string, a *Analyzer, reads *int, memo func() *GoSetupMemo) {
	t.Helper()
	root = t.TempDir()
	for p, text := range map[string]string{
		"go.mod":      "module x\n",
		"a/a.go":      "package a\n\nfunc A() {}\n",
		"a/a_test.go": "package a\n\nfunc TestMain(m *testing.M) {\n\tos.RemoveAll(\"gone\")\n\tos.Exit(m.Run())\n}\n",
		"b/b.go":      "package b\n\nfunc init() { os.RemoveAll(\"init-runs\") }\n",
		"b/b_test.go": "package b\n\nfunc TestB(t *testing.T) {}\n",
	} {
		p = filepath.Join(root, p)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	n := 0
	a = &Analyzer{
		ReadFile: func(p string) ([]byte, error) {
			if filepath.Ext(p) == ".go" {
				n++
			}
			return os.ReadFile(p)
		},
		ReadDir: os.ReadDir,
	}
	var saved []byte
	memo = func() *GoSetupMemo {
		return &GoSetupMemo{
			Path:  filepath.Join(root, "memo"),
			Read:  func(string) ([]byte, error) { return saved, nil },
			Write: func(_ string, data []byte) error { saved = data; return nil },
			Now:   now,
		}
	}
	return root, a, &n, memo
}

// judge analyses go test ./... in root with a new memo (as a hook call
// does), saves it, and returns what runs and the Go files read.
func judge(t *testing.T, root string, a *Analyzer, reads *int, memo func() *GoSetupMemo) ([]string, int) {
	t.Helper()
	*reads = 0
	a.GoSetup = memo()
	got := renderAll(a.Analyze("go test ./...", root))
	if err := a.GoSetup.Save(); err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	return got, *reads
}

// A repeated go test ./... reads no Go file that did not change, and
// finds what it found; a file changed since is read again, however it
// was changed.
func TestGoSetupMemo(t *testing.T) {
	later := func() time.Time { return time.Now().Add(time.Hour) } // every stamp settled
	want := []string{"go test ./...", "rm -r -f gone [via go test]", "rm -r -f init-runs [via go test]"}
	root, a, reads, memo := memoProject(t, later)
	first, n := judge(t, root, a, reads, memo)
	if !slices.Equal(first, want) || n != 4 {
		t.Fatalf("first go test ./...: %q reading %d Go files; want %q reading 4", first, n, want)
	}
	again, n := judge(t, root, a, reads, memo)
	if !slices.Equal(again, want) || n != 0 {
		t.Errorf("again: %q reading %d Go files; want %q reading none", again, n, want)
	}

	// Rewritten with the same size and its mtime set back: the ctime (and
	// the inode, for a rename over it) tell.
	p := filepath.Join(root, "a", "a_test.go")
	info, _ := os.Lstat(p)
	old, _ := os.ReadFile(p)
	changed := []byte(strings.Replace(string(old), "gone", "born", 1))
	if err := os.WriteFile(p, changed, 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chtimes(p, info.ModTime(), info.ModTime())
	got, n := judge(t, root, a, reads, memo)
	if n != 1 || !slices.Contains(got, "rm -r -f born [via go test]") {
		t.Errorf("after a same-size change with its mtime set back: %q reading %d Go files; want rm -rf born, reading 1", got, n)
	}
}

// A stamp too recent to trust (the file may change again within the
// clock's tick) is not kept: the next judgement reads the file again.
func TestGoSetupMemoUnsettled(t *testing.T) {
	root, a, reads, memo := memoProject(t, time.Now)
	judge(t, root, a, reads, memo)
	if _, n := judge(t, root, a, reads, memo); n != 4 {
		t.Errorf("files written just now: read %d Go files again, want 4", n)
	}
}

// A memo of other bytes — torn, of another executable, or forged with a
// stamp the file no longer has — is not taken for the files.
func TestGoSetupMemoDistrusted(t *testing.T) {
	later := func() time.Time { return time.Now().Add(time.Hour) }
	root, a, reads, memo := memoProject(t, later)
	judge(t, root, a, reads, memo)
	m := memo()
	m.load()
	good := encodeGoSetup(m.key, m.entries)
	p := filepath.Join(root, "a", "a_test.go")
	st, _ := m.stat(p, later())
	forged := map[string]setupEntry{}
	for k, e := range m.entries {
		forged[k] = e
	}
	stale := st
	stale.CTime--
	forged[p] = setupEntry{st: stale, size: int(st.Size)} // "no TestMain here", of another version
	for name, data := range map[string][]byte{
		"torn":                good[:len(good)-1],
		"another executable":  encodeGoSetup("1:2:3:4:5", m.entries),
		"a stamp of the past": encodeGoSetup(m.key, forged),
	} {
		t.Run(name, func(t *testing.T) {
			fresh := func() *GoSetupMemo {
				return &GoSetupMemo{Path: "memo", Read: func(string) ([]byte, error) { return data, nil }, Now: later}
			}
			got, n := judge(t, root, a, reads, fresh)
			if !slices.Contains(got, "rm -r -f gone [via go test]") || n == 0 {
				t.Errorf("%q reading %d Go files; want rm -r -f gone found by reading", got, n)
			}
		})
	}
}

// FuzzGoSetupMemo: any bytes decode or are refused, never panic; what
// decodes encodes back to the same entries.
func FuzzGoSetupMemo(f *testing.F) {
	f.Add(encodeGoSetup("k", map[string]setupEntry{"/p/a_test.go": {size: 3, body: "{ x }"}}))
	f.Add([]byte(goSetupHeader + "\x01k\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		e, err := decodeGoSetup(data, "k")
		if err != nil {
			return
		}
		back, err := decodeGoSetup(encodeGoSetup("k", e), "k")
		if err != nil || len(back) != len(e) {
			t.Fatalf("decode(encode(decode(x))) = %d entries, %v; want %d", len(back), err, len(e))
		}
	})
}
