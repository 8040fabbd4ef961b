package posttool

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/config"
	"github.com/ralph-hooks/ralph-hooks/internal/later"
	"github.com/ralph-hooks/ralph-hooks/internal/loop"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/testindex"
	"github.com/ralph-hooks/ralph-hooks/internal/treeview"
)

// TestMarkAnswersAsALook: after a Bash call, the answer post-tool-call
// gives from its mark of the tree (nothing changed) is the answer of a
// look at the tree, whatever the call did to the test files: each change
// below is made to two loops' projects alike, one answered with its mark,
// the other with the mark deleted (a look); their answers and indexes
// must agree, and the mark must not have answered for a change the look
// sees. Edits in place with the modification time set back, deletions
// and re-creations, renamed directories, links and modes are all seen
// through the status change time and inode, which no agent sets.
func TestMarkAnswersAsALook(t *testing.T) {
	t.Setenv("RALPH_STATE_HOME", t.TempDir())
	t.Setenv("CLAUDE_PROJECT_DIR", "")
	t.Setenv("RALPH_LOOP_ID", "")
	ref := t.TempDir()
	changes := []struct {
		name string
		sh   string
		seen bool // the look sees it: the mark must not answer
	}{
		{"nothing", "", false},
		{"appended to (>>)", `printf 'func TestExtra(t *testing.T) { t.Skip("no") }\n' >> a/a_test.go`, true},
		{"truncated", `truncate -s 0 a/a_test.go`, true},
		{"overwritten in place, mtime set back", `touch -r a/a_test.go $REF/r-$$; off=$(grep -bo TestA2 a/a_test.go | cut -d: -f1); printf X | dd of=a/a_test.go bs=1 seek=$off conv=notrunc 2>/dev/null; touch -r $REF/r-$$ a/a_test.go`, true},
		{"edited by sed -i", `sed -i '/func TestA2/,/^}/d' a/a_test.go`, true},
		{"deleted", `rm b/b_test.go`, true},
		{"deleted, directory's mtime set back", `touch -r b $REF/d-$$; rm b/b_test.go; touch -r $REF/d-$$ b`, true},
		{"deleted and created again, mtime set back", `touch -r b/b_test.go $REF/c-$$; cp b/b_test.go $REF/f-$$; rm b/b_test.go; cp $REF/f-$$ b/b_test.go; touch -r $REF/c-$$ b/b_test.go`, true},
		{"directory renamed", `mv b c`, true},
		{"replaced by a symlink", `rm a/a_test.go && ln -s ../b/b_test.go a/a_test.go`, true},
		{"directory replaced by a symlink", `mv b $REF/b-$$ && ln -s a b`, true},
		{"hard link", `ln b/b_test.go a/h_test.go`, true},
		{"mode changed", `chmod 600 a/a_test.go`, true},
		{"vendored test changed", `echo 'package m' > node_modules/m/n_test.go && rm node_modules/m/m_test.go`, false},
		{"build output beside the tests", `echo x > a/a.out && mkdir -p bin/x && echo y > bin/x/tool`, false},
		{"a new test in a new directory", `mkdir -p d/e && cp a/a_test.go d/e/e_test.go`, true},
		{"a test renamed to a non-test name", `mv b/b_test.go b/b.go`, true},
	}
	// The mark answers for what no look would find: a change outside the
	// test files' directories' listings of test files.
	answers := map[string]bool{"nothing": true, "build output beside the tests": true}
	type project struct{ root, id string }
	marked, looked := make([]project, len(changes)), make([]project, len(changes))
	for i := range changes {
		marked[i] = markProject(t)
		looked[i] = markProject(t)
	}
	// Left for longer than the view's margin, the projects' stamps are
	// trusted: a call writes the index again (its entries were not), and
	// once that too is older than the margin, a call marks what it found.
	for range 2 {
		time.Sleep(treeview.Margin + 200*time.Millisecond)
		for i := range changes {
			postBash(t, marked[i].root)
			postBash(t, looked[i].root)
		}
	}
	for i := range changes {
		for _, p := range []project{marked[i], looked[i]} {
			if _, err := os.Stat(markFile(p.root, p.id)); err != nil {
				t.Fatalf("no mark after a call that found nothing changed: %v", err)
			}
		}
	}
	for i, c := range changes {
		t.Run(c.name, func(t *testing.T) {
			var got [2]string
			var names [2]string
			for k, p := range []project{marked[i], looked[i]} {
				if c.sh != "" {
					cmd := exec.Command("sh", "-c", c.sh)
					cmd.Dir, cmd.Env = p.root, append(os.Environ(), "REF="+ref)
					if out, err := cmd.CombinedOutput(); err != nil {
						t.Fatalf("%s: %v: %s", c.sh, err, out)
					}
				}
				if k == 1 {
					os.Remove(markFile(p.root, p.id))
				}
				before := answeredByMark
				out := postBash(t, p.root)
				if k == 0 && answers[c.name] && answeredByMark == before {
					t.Errorf("the mark did not answer")
				}
				if k == 0 && c.seen && answeredByMark != before {
					t.Errorf("the mark answered a change a look sees")
				}
				got[k] = strings.NewReplacer(p.root, "ROOT", p.id, "ID").Replace(out)
				idx, err := testindex.Read(filepath.Join(p.root, ".aiwg/ralph/loops", p.id, "test-index.json"))
				if err != nil {
					t.Fatal(err)
				}
				for _, f := range sortedKeys(idx) {
					names[k] += f + ": " + strings.Join(idx[f].Tests, ",") + "\n"
				}
			}
			if got[0] != got[1] {
				t.Errorf("with the mark:\n%s\nlooking:\n%s", got[0], got[1])
			}
			if names[0] != names[1] {
				t.Errorf("index with the mark:\n%s\nlooking:\n%s", names[0], names[1])
			}
			if quiet := map[string]bool{"nothing": true, "directory renamed": true, "mode changed": true, "hard link": true,
				"deleted and created again, mtime set back": true, "vendored test changed": true, "build output beside the tests": true,
				"a new test in a new directory": true}; (got[1] == "") != quiet[c.name] {
				t.Errorf("the look's answer %q is not the case's: it does not test what it says", got[1])
			}
		})
	}
}

func sortedKeys(idx testindex.Index) []string {
	var out []string
	for k := range idx {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// markProject starts a loop in a new project of Go and vendored tests.
func markProject(t *testing.T) struct{ root, id string } {
	t.Helper()
	root := t.TempDir()
	test := func(pkg string, names ...string) string {
		s := "package " + pkg + "\n\nimport \"testing\"\n"
		for _, n := range names {
			s += "\nfunc " + n + "(t *testing.T) {\n\tif 1 != 1 {\n\t\tt.Fatal(\"no\")\n\t}\n}\n"
		}
		return s
	}
	for f, body := range map[string]string{
		"go.mod": "module x\n", "a/a.go": "package a\n", "a/a_test.go": test("a", "TestA1", "TestA2"),
		"b/b_test.go": test("b", "TestB1"), "node_modules/m/m_test.go": test("m", "TestM"), ".git/HEAD": "ref: x\n",
	} {
		p := filepath.Join(root, f)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg, err := config.Default()
	if err != nil {
		t.Fatal(err)
	}
	st, _, err := loop.Start(context.Background(), loop.Options{Root: root, Config: cfg, Task: "Fix a", Completion: "exit 1",
		MaxIterations: 12, Owner: "t", PID: os.Getpid(), Now: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	return struct{ root, id string }{root, st.LoopID}
}

// postBash runs post-tool-call after a Bash call in root and returns its
// answer.
func postBash(t *testing.T, root string) string {
	t.Helper()
	ev, _ := json.Marshal(map[string]any{
		"session_id": "t", "cwd": root, "hook_event_name": "PostToolUse", "tool_name": "Bash",
		"tool_input": map[string]any{"command": "make"}, "tool_response": map[string]any{"success": true}, "tool_use_id": "toolu_1",
	})
	var out, errs bytes.Buffer
	wd, _ := os.Getwd()
	os.Chdir(root)
	code := Main(nil, bytes.NewReader(ev), &out, &errs)
	os.Chdir(wd)
	if code != 0 {
		t.Fatalf("post-tool-call: exit %d: %s", code, errs.String())
	}
	return out.String()
}

// postEdit runs post-tool-call after an Edit of rel (as typed) in the
// project at root, and returns its answer.
func postEdit(t *testing.T, root, rel string) string {
	t.Helper()
	ev, _ := json.Marshal(map[string]any{
		"session_id": "t", "cwd": root, "hook_event_name": "PostToolUse", "tool_name": "Edit",
		"tool_input":    map[string]any{"file_path": filepath.Join(root, rel), "old_string": "1", "new_string": "1"},
		"tool_response": map[string]any{"success": true}, "tool_use_id": "toolu_2",
	})
	var out, errs bytes.Buffer
	if code := Main(nil, bytes.NewReader(ev), &out, &errs); code != 0 {
		t.Fatalf("post-tool-call: exit %d: %s", code, errs.String())
	}
	return out.String()
}

// TestEditKeepsMark: an Edit that leaves a test file as the index has it
// (stamp and all) overrides nothing, so the next Bash call is answered
// by its mark; an Edit that changes it is judged once: the Bash call
// after it reports nothing again.
func TestEditKeepsMark(t *testing.T) {
	t.Setenv("RALPH_STATE_HOME", t.TempDir())
	t.Setenv("CLAUDE_PROJECT_DIR", "")
	t.Setenv("RALPH_LOOP_ID", "")
	p := markProject(t)
	for range 2 {
		time.Sleep(treeview.Margin + 200*time.Millisecond)
		postBash(t, p.root)
	}
	if _, err := os.Stat(markFile(p.root, p.id)); err != nil {
		t.Fatalf("no mark: %v", err)
	}
	postEdit := func() string { return postEdit(t, p.root, "a/a_test.go") }
	if out := postEdit(); out != "" {
		t.Fatalf("an Edit that changed nothing: %s", out)
	}
	before := answeredByMark
	if out := postBash(t, p.root); out != "" || answeredByMark == before {
		t.Errorf("Bash after an Edit that changed nothing: %q, answered by the mark: %v", out, answeredByMark > before)
	}
	f, err := os.OpenFile(filepath.Join(p.root, "a/a_test.go"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("\nfunc TestA3(t *testing.T) { t.Skip(\"later\") }\n")
	f.Close()
	if out := postEdit(); !strings.Contains(out, "skip") {
		t.Fatalf("an Edit that added a skip: %q, want it reported", out)
	}
	if out := postBash(t, p.root); out != "" {
		t.Errorf("Bash after the Edit reported it again: %s", out)
	}
}

// markFile is the mark's file of loop id in the project at root.
func markFile(root, id string) string {
	sc, _ := project.NewScope(root, id)
	return later.CachePath(sc, markName, os.Getenv)
}
