package loop

import (
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/vault/vaulttest"
)

// TestMain keeps the tests' loops out of the user's state directory.
func TestMain(m *testing.M) { vaulttest.Main(m) }
