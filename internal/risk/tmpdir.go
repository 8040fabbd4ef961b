package risk

import (
	"strings"

	"github.com/ralph-hooks/ralph-hooks/internal/shell"
)

// tmpdirHint explains a path that left the temp directory because TMPDIR
// is not set: Bash expands $TMPDIR/x to /x there.
func (g *Guard) tmpdirHint(w shell.Word) string {
	if !g.noTmpdir || !strings.Contains(w.Raw, "TMPDIR") {
		return ""
	}
	return " TMPDIR is not set here, so $TMPDIR is empty and the path starts at /; write ${TMPDIR:-/tmp} for the temp directory."
}
