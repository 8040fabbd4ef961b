package pretool

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/config"
	"github.com/ralph-hooks/ralph-hooks/internal/loop"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/state"
	"github.com/ralph-hooks/ralph-hooks/internal/treeview"
	"github.com/ralph-hooks/ralph-hooks/internal/vault"
)

// TestForgedTreeCaches: what the guard keeps between calls to judge a
// find (its memo of the last find's selection, the loop's view of the
// tree) is written by nothing but ralph. A program the agent runs by a
// route the guard cannot read rewrites, in the loop's directory, the
// memo to say the find selects no test, or the view's listing of b/ to
// leave b_test.go out, the directory's stamp kept: the same find that
// deletes b/b_test.go must still be denied.
func TestForgedTreeCaches(t *testing.T) {
	t.Setenv("CLAUDE_PROJECT_DIR", "")
	t.Setenv("RALPH_LOOP_ID", "")
	for _, tc := range []struct {
		name  string
		forge func(t *testing.T, sc project.Scope)
	}{
		{"memo says no tests", func(t *testing.T, sc project.Scope) {
			data := readKept(t, sc, "find-memo.bin", os.ReadFile)
			n := binary.LittleEndian.Uint32(data)
			forged := append(append([]byte{}, data[:4+n]...), "\x00\x00c\x00"...)
			if err := os.WriteFile(filepath.Join(sc.Dir(), "find-memo.bin"), forged, 0o644); err != nil {
				t.Fatal(err)
			}
		}},
		{"view leaves the test out", func(t *testing.T, sc project.Scope) {
			data := readKept(t, sc, treeview.Name, state.ReadCache)
			forged := dropEntry(t, data, "b", "b_test.go")
			if err := state.WriteCache(filepath.Join(sc.Dir(), treeview.Name), forged, 0o644); err != nil {
				t.Fatal(err)
			}
			os.Remove(filepath.Join(sc.Dir(), "find-memo.bin"))
			os.Remove(vault.CachePath(sc.Root, sc.Loop, "find-memo.bin", os.Getenv))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			writeFile(t, root, "go.mod", "module x\n")
			writeFile(t, root, "b/b.go", "package b\n")
			writeFile(t, root, "b/b_test.go", "package b\n\nimport \"testing\"\n\nfunc TestB(t *testing.T) {\n\tif 1 != 1 {\n\t\tt.Fatal(\"no\")\n\t}\n}\n")
			cfg, err := config.Default()
			if err != nil {
				t.Fatal(err)
			}
			st, _, err := loop.Start(context.Background(), loop.Options{Root: root, Config: cfg, Task: "Fix b", Completion: "exit 1",
				MaxIterations: 12, Owner: "t", PID: os.Getpid(), Now: time.Now()})
			if err != nil {
				t.Fatal(err)
			}
			sc, _ := project.NewScope(root, st.LoopID)
			time.Sleep(treeview.Margin + 200*time.Millisecond) // the directories' stamps settle: the memo is kept
			find := mkEvent(t, root, "Bash", map[string]any{"command": "find b -type f -delete"})
			pre := func() string {
				var stdout, stderr bytes.Buffer
				if code := Main(nil, bytes.NewReader(find), &stdout, &stderr); code != 0 {
					t.Fatalf("pre-tool-call: exit %d: %s", code, stderr.String())
				}
				return stdout.String()
			}
			if out := pre(); !strings.Contains(out, `"permissionDecision":"deny"`) || !strings.Contains(out, "b/b_test.go") {
				t.Fatalf("the find, honest: %s", out)
			}
			tc.forge(t, sc)
			if out := pre(); !strings.Contains(out, `"permissionDecision":"deny"`) || !strings.Contains(out, "b/b_test.go") {
				t.Errorf("the find, %s: %q, want it denied", tc.name, out)
			}
		})
	}
}

// readKept reads the cache name of the loop of sc where ralph keeps it
// (outside the project; in the loop's directory before).
func readKept(t *testing.T, sc project.Scope, name string, read func(string) ([]byte, error)) []byte {
	t.Helper()
	for _, p := range []string{vault.CachePath(sc.Root, sc.Loop, name, os.Getenv), filepath.Join(sc.Dir(), name)} {
		data, err := read(p)
		if err == nil {
			return data
		}
		if !errors.Is(err, fs.ErrNotExist) {
			t.Fatal(err)
		}
	}
	t.Fatalf("no %s kept", name)
	return nil
}

// dropEntry returns a view's file (package treeview's encoding: NUL-ended
// fields, each directory its path, stamp, count and entries) with name
// left out of dir's listing, the directory's stamp kept.
func dropEntry(t *testing.T, data []byte, dir, name string) []byte {
	t.Helper()
	f := strings.Split(strings.TrimSuffix(string(data), "\x00"), "\x00")
	out := f[:2:2]
	dropped := false
	for i := 2; i+2 < len(f); {
		n, err := strconv.Atoi(f[i+2])
		if err != nil {
			t.Fatalf("not a view: %q", f[i+2])
		}
		var ents []string
		for _, e := range f[i+3 : i+3+n] {
			if f[i] == dir && e[1:] == name {
				dropped = true
				continue
			}
			ents = append(ents, e)
		}
		out = append(append(out, f[i], f[i+1], strconv.Itoa(len(ents))), ents...)
		i += 3 + n
	}
	if !dropped {
		t.Fatalf("no %s/%s in the view", dir, name)
	}
	return []byte(strings.Join(out, "\x00") + "\x00")
}
