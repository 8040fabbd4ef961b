package pretool

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPeerCases runs every command of the peer guards' test suites
// (../risk/testdata/peers) through the hook as Claude Code runs it: each
// answer is exit 0 with nothing or one JSON object on stdout, and nothing
// on stderr. (Package risk's TestPeers checks the decisions.)
func TestPeerCases(t *testing.T) {
	files, err := filepath.Glob("../risk/testdata/peers/*.txt")
	if err != nil || len(files) < 3 {
		t.Fatalf("peer cases: %v, %v", files, err)
	}
	root := t.TempDir()
	writeFile(t, root, "src/main.go", "package main\n")
	writeFile(t, root, "tests/test_a.py", "def test_a():\n    assert 1 == 1\n")
	n := 0
	for _, file := range files {
		if filepath.Base(file) == "disagreements.txt" {
			continue
		}
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			p := strings.SplitN(line, " | ", 5)
			if len(p) != 5 {
				t.Fatalf("%s: bad line %q", file, line)
			}
			cmd := strings.ReplaceAll(p[4], "⏎", "\n")
			ev := mkEvent(t, root, "Bash", map[string]any{"command": cmd})
			var out, errb bytes.Buffer
			code := Main([]string{"--dry-run"}, bytes.NewReader(ev), &out, &errb)
			n++
			if code != 0 || errb.Len() > 0 {
				t.Errorf("%s: %q: exit %d, stderr %q", file, cmd, code, errb.String())
			}
			if out.Len() > 0 {
				var v map[string]any
				if err := json.Unmarshal(out.Bytes(), &v); err != nil || v["hookSpecificOutput"] == nil {
					t.Errorf("%s: %q: answer %q is not a hook answer (%v)", file, cmd, out.String(), err)
				}
			}
		}
		f.Close()
	}
	if n < 2000 {
		t.Errorf("ran %d peer cases, want them all (over 2,000)", n)
	}
}
