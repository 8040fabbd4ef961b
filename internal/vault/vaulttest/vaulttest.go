// Package vaulttest keeps a package's tests out of the user's state
// directory. Only tests import it.
package vaulttest

import (
	"fmt"
	"os"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/vault"
)

// Main runs m with $RALPH_STATE_HOME set to a temp directory, removed
// after, unless it is set already: ralph seals every loop's state there
// (else under ~/.local/state/ralph-hooks), and each temp project of the
// tests would leave an entry in the user's. Call it from TestMain.
func Main(m *testing.M) {
	if os.Getenv(vault.Env) != "" {
		os.Exit(m.Run())
	}
	dir, err := os.MkdirTemp("", "ralph-test-state-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv(vault.Env, dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
