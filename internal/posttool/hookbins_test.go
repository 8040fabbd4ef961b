package posttool

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestHooksAfterBash: a hook program deleted or replaced by a Bash call
// is reported once, as a bypass; a call that leaves them is not.
func TestHooksAfterBash(t *testing.T) {
	t.Setenv("RALPH_STATE_HOME", t.TempDir())
	t.Setenv("CLAUDE_PROJECT_DIR", "")
	t.Setenv("RALPH_LOOP_ID", "")
	bin := t.TempDir()
	ext := ""
	if runtime.GOOS == "windows" {
		ext = ".exe"
	}
	for _, n := range hookNames {
		if err := os.WriteFile(filepath.Join(bin, n+ext), []byte("#!/bin/sh\n"+n+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	defer func(f func() string) { hookDir = f }(hookDir)
	hookDir = func() string { return bin }
	p := markProject(t)

	if out := postBash(t, p.root); out != "" {
		t.Fatalf("first call, nothing changed: %s", out)
	}
	if out := postBash(t, p.root); out != "" {
		t.Fatalf("nothing changed: %s", out)
	}
	if err := os.Remove(filepath.Join(bin, "pre-tool-call"+ext)); err != nil {
		t.Fatal(err)
	}
	out := postBash(t, p.root)
	if !strings.Contains(out, "deleted pre-tool-call"+ext+" in "+bin+", ralph's hook programs") {
		t.Errorf("after deleting pre-tool-call: %q, want it reported", out)
	}
	if out := postBash(t, p.root); out != "" {
		t.Errorf("reported again: %s", out)
	}
	if err := os.WriteFile(filepath.Join(bin, "stop"+ext), []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	out = postBash(t, p.root)
	if !strings.Contains(out, "replaced stop"+ext+" in ") {
		t.Errorf("after replacing stop: %q, want it reported", out)
	}
}
