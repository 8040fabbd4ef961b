package tamper

import (
	"context"
	"os"
	"os/exec"
	"time"
)

// committed returns the text git HEAD holds for the file name (slash-
// separated, relative to root), or nil: not a repository, not committed,
// git missing or slow. git reads the object only (cat-file: no filter,
// textconv or fsmonitor of the repository's configuration runs, and no
// replacement object stands in for it), in three seconds at most.
func committed(root, name string) []byte {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", "-c", "core.fsmonitor=false", "--no-pager", "cat-file", "blob", "HEAD:./"+name)
	cmd.Dir = root
	// No replacement objects: git replace would make HEAD's text
	// whatever the agent wrote.
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0", "GIT_TERMINAL_PROMPT=0", "GIT_NO_REPLACE_OBJECTS=1")
	out, err := cmd.Output()
	if err != nil || len(out) > MaxFile {
		return nil
	}
	return out
}
