package risk

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/answer"
	"github.com/ralph-hooks/ralph-hooks/internal/config"
)

// TestForceLeaseWithGit checks, with the real git, the fact behind the
// verdict on git push --force --force-with-lease: from a stale clone, the
// lease alone refuses to overwrite a remote that moved on, and --force
// (in either order, or -f) overwrites it all the same. ralph allows the
// first and refuses the others, as it refuses git push --force.
func TestForceLeaseWithGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatalf("git is needed to check the verdict against it: %v", err)
	}
	root := sample(t)
	g := newGuard(t, root, nil)
	tests := []struct {
		flags     []string
		overwrite bool
	}{
		{[]string{"--force-with-lease"}, false},
		{[]string{"--force-if-includes", "--force-with-lease"}, false},
		{[]string{"--force", "--force-with-lease"}, true},
		{[]string{"-f", "--force-with-lease"}, true},
		{[]string{"--force-with-lease", "--force"}, true},
	}
	for _, tt := range tests {
		cmd := "git push " + strings.Join(tt.flags, " ") + " origin main"
		t.Run(cmd, func(t *testing.T) {
			dir := t.TempDir()
			git := func(in string, args ...string) string {
				t.Helper()
				c := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main"}, args...)...)
				c.Dir = filepath.Join(dir, in)
				c.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
				out, err := c.CombinedOutput()
				if err != nil && args[0] != "push" {
					t.Fatalf("git %v: %v\n%s", args, err, out)
				}
				return strings.TrimSpace(string(out))
			}
			git("", "init", "-q", "--bare", "remote.git")
			git("", "clone", "-q", "remote.git", "a")
			git("a", "commit", "-q", "--allow-empty", "-m", "one")
			git("a", "push", "-q", "origin", "main")
			git("", "clone", "-q", "remote.git", "b") // b knows only "one"
			git("a", "commit", "-q", "--allow-empty", "-m", "two, from a")
			git("a", "push", "-q", "origin", "main")
			git("b", "commit", "-q", "--allow-empty", "-m", "diverged, in b")
			git("b", append(append([]string{"push"}, tt.flags...), "origin", "main")...)
			got := git("remote.git", "log", "-1", "--format=%s", "main") == "diverged, in b"
			if got != tt.overwrite {
				t.Fatalf("%s from a stale clone: remote overwritten %v, want %v", cmd, got, tt.overwrite)
			}
			want := answer.Allow
			if tt.overwrite {
				want = answer.Deny
			}
			if v := g.Command(cmd, root); v.Decision != want {
				t.Errorf("%s = %s, want %s", cmd, v.Decision, want)
			}
		})
	}
}

// TestNoOperandWithRm checks, with the real rm, that rm -rf with no
// operand deletes nothing and succeeds, and that ralph allows it; an
// unquoted $TMPDIR that the hook sees unset is still asked about.
func TestNoOperandWithRm(t *testing.T) {
	dir := t.TempDir()
	keep := filepath.Join(dir, "keep")
	if err := os.WriteFile(keep, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"rm -rf 123>/dev/null", "rm -rf", "rm -f"} {
		c := exec.Command("bash", "-c", cmd)
		c.Dir = dir
		if out, err := c.CombinedOutput(); err != nil || len(out) > 0 {
			t.Errorf("bash -c %q: %v %q, want success and no output", cmd, err, out)
		}
	}
	if _, err := os.Stat(keep); err != nil {
		t.Fatalf("rm with no operand deleted something: %v", err)
	}
	root := sample(t)
	g := newGuard(t, root, nil)
	for _, cmd := range []string{"rm -rf 123>/dev/null", "rm -rf", "echo yes | rm -rf && echo done", "X=; rm -rf $X"} {
		if v := g.Command(cmd, root); v.Decision != answer.Allow {
			t.Errorf("%s = %s, want allow", cmd, v.Decision)
		}
	}
	cfg, err := config.Default()
	if err != nil {
		t.Fatal(err)
	}
	unset, err := New(cfg, root, func(k string) string {
		return map[string]string{"HOME": fakeHome, "USER": "ralph"}[k]
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"rm -rf $TMPDIR", "rm -rf ${TMPDIR}"} {
		if v := unset.Command(cmd, root); v.Decision != answer.Ask {
			t.Errorf("with TMPDIR unset, %s = %s, want ask", cmd, v.Decision)
		}
	}
}
