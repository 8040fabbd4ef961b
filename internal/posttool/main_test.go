package posttool

import (
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/vault/vaulttest"
)

// The loops' caches are kept in the state directory (later.CachePath).
func TestMain(m *testing.M) { vaulttest.Main(m) }
