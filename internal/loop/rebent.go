package loop

import (
	"context"
	"os"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/completion"
)

// rebentTimeout bounds the runs of tests as they were at the start
// (completion.Rebent) at one Stop.
const rebentTimeout = 5 * time.Minute

// rebent returns the tests that failed at the start and pass now with
// their source and their code changed, whose start source still fails
// against the code now, run in the completion command's environment.
func rebent(ctx context.Context, root string, globs []string, exp []completion.Expectation, res completion.Results) []completion.BentTest {
	ctx, cancel := context.WithTimeout(ctx, rebentTimeout)
	defer cancel()
	env := completion.GoCacheEnviron(goCacheDir(root), completion.Environ(os.Environ()))
	return completion.Rebent(ctx, root, globs, exp, res, env)
}
