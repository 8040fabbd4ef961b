package risk

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/answer"
)

// TestHuskyInstalled: npm install runs a husky project's prepare script
// (husky), which points core.hooksPath at .husky/_. Asked while git does
// not run husky's hooks yet; silent once it does (the human installed
// them: the run changes nothing).
func TestHuskyInstalled(t *testing.T) {
	outsideTemp(t)
	root := sample(t)
	if err := os.WriteFile(filepath.Join(root, "package.json"), []byte(`{"name":"x","scripts":{"prepare":"husky","test":"jest"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	g := newGuard(t, root, nil)
	for _, cmd := range []string{"npm install", "npx husky"} {
		if v := g.Command(cmd, root); v.Decision != answer.Ask || v.Top == nil || v.Top.Rule != "git-exec" {
			t.Errorf("%s, husky not installed: %s, want ask (git-exec)", cmd, v.Decision)
		}
	}
	git := exec.Command("git", "config", "core.hooksPath", ".husky/_")
	git.Dir = root
	if out, err := git.CombinedOutput(); err != nil {
		t.Fatalf("git config: %v\n%s", err, out)
	}
	for _, cmd := range []string{"npm install", "npx husky"} {
		if v := g.Command(cmd, root); v.Decision != answer.Allow {
			t.Errorf("%s, husky installed: %s, want allow", cmd, v.Decision)
		}
	}
	// lefthook install and pre-commit install ask whatever is installed.
	if v := g.Command("lefthook install", root); v.Decision != answer.Ask {
		t.Errorf("lefthook install: %s, want ask", v.Decision)
	}
}
