package completion

import (
	"context"
	"encoding/json"
	"go/scanner"
	"go/token"
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
// env (the completion command's). When that does not fail (it does not
// build against the code now: a function renamed with the test), the
// test's source now with the start's literals (see [startLiterals]) is
// run the same way: an expectation bent along with a rename fails there.
// Otherwise nothing is reported; nor is a test whose source is not found.
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
		if !failsAs(ctx, root, e, body, e.Body, env) {
			if lit := startLiterals(e.Body, body); lit == "" || !failsAs(ctx, root, e, body, lit, env) {
				continue
			}
		}
		old, nw := lineDiff(e.Body, body)
		nw = append(nw, "(the code changed too, but the test as it was at the start still fails against it: go test -run ^"+e.Test.Name+"$)")
		out = append(out, BentTest{Test: e.Test, Old: old, New: nw})
	}
	return out
}

// failsAs runs e's test with src in place of body, its source now, and
// reports whether go test says it failed.
func failsAs(ctx context.Context, root string, e Expectation, body, src string, env []string) bool {
	file := filepath.Join(root, filepath.FromSlash(e.Test.Path))
	file0, err := readSmall(file)
	if err != nil || file0 == nil {
		return false
	}
	i := strings.Index(string(file0), body)
	if i < 0 {
		return false
	}
	was := string(file0[:i]) + src + string(file0[i+len(body):])
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

// startLiterals returns cur, a test's Go source now, with the literals
// that differ from old, its source at the start, put back, when both are
// the same tokens but for identifiers and literals (a function renamed, an
// expected value changed); "" when they are not, or no literal differs.
func startLiterals(old, cur string) string {
	type tok struct {
		pos int
		tok token.Token
		lit string
	}
	scan := func(src string) []tok {
		var s scanner.Scanner
		fset := token.NewFileSet()
		f := fset.AddFile("", -1, len(src))
		s.Init(f, []byte(src), nil, 0)
		var out []tok
		for {
			p, t, l := s.Scan()
			if s.ErrorCount > 0 || t == token.ILLEGAL {
				return nil // no Go: an unterminated literal, a stray byte
			}
			if t == token.EOF {
				return out
			}
			if t == token.SEMICOLON {
				continue // layout: a newline's or written, the same code
			}
			out = append(out, tok{f.Offset(p), t, l})
		}
	}
	a, b := scan(old), scan(cur)
	if len(a) != len(b) || len(a) == 0 {
		return ""
	}
	var out strings.Builder
	last, changed := 0, false
	for i := range a {
		switch {
		case a[i].tok != b[i].tok:
			return ""
		case a[i].tok.IsLiteral() && a[i].tok != token.IDENT && a[i].lit != b[i].lit:
			if b[i].pos < last || b[i].pos+len(b[i].lit) > len(cur) || cur[b[i].pos:b[i].pos+len(b[i].lit)] != b[i].lit {
				return "" // a literal not as written
			}
			out.WriteString(cur[last:b[i].pos])
			out.WriteString(a[i].lit)
			last = b[i].pos + len(b[i].lit)
			changed = true
		case !a[i].tok.IsLiteral() && a[i].lit != b[i].lit:
			return "" // a comment or keyword spelled otherwise: not the same test
		}
	}
	if !changed {
		return ""
	}
	out.WriteString(cur[last:])
	return out.String()
}
