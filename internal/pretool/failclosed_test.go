package pretool

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/answer"
	"github.com/ralph-hooks/ralph-hooks/internal/config"
	"github.com/ralph-hooks/ralph-hooks/internal/event"
	"github.com/ralph-hooks/ralph-hooks/internal/hook"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
)

// An internal error of the guard denies a call the built-in rules find
// destructive or aimed at a protected path, whatever fail_closed says; an
// ordinary call is let through with the error (fail_closed false), or
// denied (fail_closed true, as with an invalid aiwg.yml).
func TestFailClosedOnRiskyTargets(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "tests/test_a.py", "def test_a():\n    assert True\n")
	boom := errors.New("boom")
	for _, tc := range []struct {
		name       string
		tool       string
		input      map[string]any
		failClosed bool
		deny       bool
	}{
		{"rm -rf ~/", "Bash", map[string]any{"command": "rm -rf ~/"}, false, true},
		{"write the registry", "Write", map[string]any{"file_path": filepath.Join(root, ".aiwg/ralph/registry.json"), "content": "{}"}, false, true},
		{"edit aiwg.yml", "Edit", map[string]any{"file_path": filepath.Join(root, "aiwg.yml"), "old_string": "a", "new_string": "b"}, false, true},
		{"delete the tests", "Bash", map[string]any{"command": "rm -rf tests"}, false, true},
		{"ordinary", "Bash", map[string]any{"command": "ls"}, false, false},
		{"ordinary, fail_closed", "Bash", map[string]any{"command": "ls"}, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, err := event.Decode(mkEvent(t, root, tc.tool, tc.input), "")
			if err != nil {
				t.Fatal(err)
			}
			c := &hook.Call{Hook: "pre-tool-call", Event: e, Scope: project.Scope{Layout: project.Layout{Root: root}}, Getenv: os.Getenv, DryRun: true}
			cfg, _ := config.Default()
			cfg.FailClosed = tc.failClosed
			res, err := failClosed(cfg, c, hook.Result{}, boom)
			if tc.deny {
				if err != nil || res.Answer.Decision != answer.Deny || res.Rule != "fail-closed" {
					t.Errorf("got %+v, %v; want a fail-closed denial", res.Answer, err)
				}
				return
			}
			if !errors.Is(err, boom) || res.Answer.Decision == answer.Deny {
				t.Errorf("got %+v, %v; want the error, not a denial", res.Answer, err)
			}
		})
	}
}
