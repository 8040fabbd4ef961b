package risk

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/event"
)

// TestToolLists checks the lists of the agents' built-in tools
// (../../testdata/events/tools-<agent>-<version>.txt) against the dialects
// and the guard: each tool's name decodes to the tool ralph sees, and the
// way it is judged is the guard's — a read-only tool is ReadOnly, a shell
// tool is Bash or PowerShell, a file tool one of the file tools, a patch
// a patch; the others are neither.
func TestToolLists(t *testing.T) {
	files, err := filepath.Glob("../../testdata/events/tools-*.txt")
	if err != nil {
		t.Fatal(err)
	}
	agents := map[string]string{"claude-code": "claude", "codex": "codex", "gemini": "gemini", "copilot": "copilot", "opencode": "opencode"}
	seen := map[string]bool{}
	for _, f := range files {
		base := strings.TrimPrefix(filepath.Base(f), "tools-")
		var agent string
		for prefix, a := range agents {
			if strings.HasPrefix(base, prefix+"-") {
				agent = a
			}
		}
		if agent == "" {
			t.Errorf("%s: no agent of that name", f)
			continue
		}
		seen[agent] = true
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		n, tools := 0, 0
		for sc.Scan() {
			n++
			line := strings.TrimSpace(sc.Text())
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			cols := strings.Split(line, " | ")
			if len(cols) != 5 {
				t.Errorf("%s:%d: want 5 columns (name | ralph sees | judged | what it does | source), got %d", f, n, len(cols))
				continue
			}
			tools++
			name, sees, judged := cols[0], cols[1], cols[2]
			ev, err := event.Decode([]byte(preToolUse(agent, name)), agent)
			if err != nil {
				t.Errorf("%s:%d: %s: %v", f, n, name, err)
				continue
			}
			if ev.Tool != sees {
				t.Errorf("%s:%d: %s is seen as %q, the list says %q", f, n, name, ev.Tool, sees)
			}
			shell := ev.Tool == "Bash" || ev.Tool == "PowerShell"
			file := slices.Contains([]string{"Write", "Edit", "MultiEdit", "NotebookEdit"}, ev.Tool)
			patch := ev.Tool == "apply_patch"
			var ok bool
			switch judged {
			case "read-only":
				ok = ReadOnly(ev.Tool)
			case "shell":
				ok = shell
			case "file":
				ok = file
			case "patch":
				ok = patch
			case "input", "allowed":
				ok = !ReadOnly(ev.Tool) && !shell && !file && !patch
			default:
				t.Errorf("%s:%d: %s: judged %q, want read-only, shell, file, patch, input or allowed", f, n, name, judged)
				continue
			}
			if !ok {
				t.Errorf("%s:%d: %s (seen as %s, ReadOnly %v) is not judged %s", f, n, name, ev.Tool, ReadOnly(ev.Tool), judged)
			}
		}
		fh.Close()
		if tools == 0 {
			t.Errorf("%s: no tools", f)
		}
	}
	for _, a := range agents {
		if !seen[a] {
			t.Errorf("no list of %s's tools in testdata/events", a)
		}
	}
}

// preToolUse is a PreToolUse event of tool with an empty input, in agent's
// dialect.
func preToolUse(agent, tool string) string {
	switch agent {
	case "gemini":
		return `{"hook_event_name":"BeforeTool","cwd":"/p","tool_name":"` + tool + `","tool_input":{}}`
	case "copilot":
		return `{"cwd":"/p","toolName":"` + tool + `","toolArgs":{}}`
	case "opencode":
		return `{"hook_event_name":"tool.execute.before","cwd":"/p","tool":"` + tool + `","args":{}}`
	}
	return `{"hook_event_name":"PreToolUse","cwd":"/p","tool_name":"` + tool + `","tool_input":{}}`
}
