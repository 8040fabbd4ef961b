package completion

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strings"
)

// maxRebent bounds the tests [Rebent] runs at one Stop.
const maxRebent = 5

// Rebent returns the Go tests of exp that failed at the start and pass in
// cur whose source changed and whose code under test changed too, but
// which, run as they were at the start against the code now, still fail:
// the code's change made nothing pass (a renamed local, a reordered
// function, a variable nobody reads), the test's change did. [Bent] takes
// any change of the code for a fix; this runs the test function's start
// source, put in place of its source now in an overlay (the file on disk
// is not touched), with go test -run ^Name$ in the test's package and
// env (the completion command's). A start source that does not build
// against the code now (a renamed function: the API changed) proves
// nothing and is not reported; nor is a test whose source is not found.
func Rebent(ctx context.Context, root string, globs []string, exp []Expectation, cur Results, env []string) []BentTest {
	var out []BentTest
	runs := 0
	for _, e := range exp {
		if runs >= maxRebent {
			break
		}
		if !strings.HasSuffix(e.Test.Path, "_test.go") || strings.Contains(e.Test.Name, "/") || outcome(cur, e.Test) != Pass {
			continue
		}
		body := testSource(root, e.Test)
		if body == "" || body == e.Body || codeDigest(root, globs, e.Test.Path) == e.Code {
			continue // unchanged, or Bent's to judge
		}
		runs++
		if !failsAsAtStart(ctx, root, e, body, env) {
			continue
		}
		old, nw := lineDiff(e.Body, body)
		nw = append(nw, "(the code changed too, but the test as it was at the start still fails against it: go test -run ^"+e.Test.Name+"$)")
		out = append(out, BentTest{Test: e.Test, Old: old, New: nw})
	}
	return out
}

// failsAsAtStart runs e's test with its start source e.Body in place of
// body, its source now, and reports whether go test says it failed.
func failsAsAtStart(ctx context.Context, root string, e Expectation, body string, env []string) bool {
	file := filepath.Join(root, filepath.FromSlash(e.Test.Path))
	src, err := readSmall(file)
	if err != nil || src == nil {
		return false
	}
	i := strings.Index(string(src), body)
	if i < 0 {
		return false
	}
	was := string(src[:i]) + e.Body + string(src[i+len(body):])
	tmp, err := os.MkdirTemp("", "ralph-rebent-")
	if err != nil {
		return false
	}
	defer os.RemoveAll(tmp)
	repl := filepath.Join(tmp, filepath.Base(file))
	ov, err := json.Marshal(map[string]map[string]string{"Replace": {file: repl}})
	if err != nil || os.WriteFile(repl, []byte(was), 0o644) != nil || os.WriteFile(filepath.Join(tmp, "overlay.json"), ov, 0o644) != nil {
		return false
	}
	dir := "./" + path.Dir(e.Test.Path)
	cmd := exec.CommandContext(ctx, "go", "test", "-count=1", "-run", "^"+regexp.QuoteMeta(e.Test.Name)+"$",
		"-overlay="+filepath.Join(tmp, "overlay.json"), dir)
	cmd.Dir = root
	cmd.Env = env
	out, _ := cmd.CombinedOutput()
	return failLine(e.Test.Name).Match(out)
}

// failLine matches go test's line for the failure of the test name.
func failLine(name string) *regexp.Regexp {
	return regexp.MustCompile(`(?m)^\s*--- FAIL: ` + regexp.QuoteMeta(name) + ` \(`)
}
