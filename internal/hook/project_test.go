package hook

import (
	"os"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/registry"
	"github.com/ralph-hooks/ralph-hooks/internal/vault"
)

// newProject returns a fresh project root with a vault of its own and no
// loop named by the environment.
func newProject(t *testing.T) string {
	t.Helper()
	t.Setenv(vault.Env, t.TempDir())
	t.Setenv("RALPH_LOOP_ID", "")
	t.Setenv("CLAUDE_PROJECT_DIR", "")
	return t.TempDir()
}

// register adds loop id, bound to session, to root's registry with status,
// owned by this process.
func register(t *testing.T, root, id, session, status string) {
	t.Helper()
	if err := registry.Update(root, time.Now(), func(r *registry.Registry) error {
		_, err := r.Add(registry.Entry{LoopID: id, Status: status, SessionID: session, PID: os.Getpid()}, false)
		return err
	}); err != nil {
		t.Fatal(err)
	}
}
