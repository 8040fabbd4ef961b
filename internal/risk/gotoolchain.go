package risk

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/ralph-hooks/ralph-hooks/internal/shell"
)

// With GOTOOLCHAIN=auto (the go.dev distribution's default), a go command
// in a module whose go.mod asks for a newer Go (a go or toolchain line)
// runs the program named for that version — go1.99.0 — found in any
// directory of PATH, before it would download one (go 1.26 here: a
// script go1.99.0 in a PATH directory and `toolchain go1.99.0` in go.mod
// made `go version` run the script, which deleted tests/). A program of
// such a name put in a directory of PATH stands in front of every go, the
// completion command's go test too: it is judged as shadowing go is.

// goToolchainName matches the names go looks for on PATH: go1.21.0,
// go1.22rc1, go1.99.0.
var goToolchainName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^go1\.\d+(?:\.\d+)?(?:(?:rc|beta)\d+)?$`)
})

// goToolchainShadow returns the go on PATH that a program at p, of a Go
// toolchain's name in a directory of PATH, would stand in for.
func (g *Guard) goToolchainShadow(p string) (string, bool) {
	if !goToolchainName().MatchString(filepath.Base(p)) {
		return "", false
	}
	dir := filepath.Dir(p)
	in := false
	for _, d := range g.path {
		in = in || d == dir
	}
	if !in {
		return "", false
	}
	for _, d := range g.path {
		q := filepath.Join(d, "go")
		if fi, err := os.Stat(q); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return q, true
		}
	}
	return "", false
}

// goBinDir returns the directory go install puts programs in: $GOBIN, or
// the first $GOPATH's bin, or ~/go/bin ("" when none is known).
func goBinDir(home string, getenv func(string) string) string {
	if b := getenv("GOBIN"); filepath.IsAbs(b) {
		return filepath.Clean(b)
	}
	if gp := filepath.SplitList(getenv("GOPATH")); len(gp) > 0 && filepath.IsAbs(gp[0]) {
		return filepath.Join(gp[0], "bin")
	}
	if filepath.IsAbs(home) {
		return filepath.Join(home, "go", "bin")
	}
	return ""
}

// goInstalls returns the programs go install writes from packages of the
// project (a directory, not a module@version) where one would shadow a
// program on PATH: `go install ./tools/go1.99.0` (or ./tools/git) puts
// the project's code in front of every later go (or git).
func (g *Guard) goInstalls(c *shell.Cmd, args []shell.Word) []op {
	if len(args) == 0 || args[0].Lit() != "install" || g.goBin == "" {
		return nil
	}
	bin := g.goBin
	pkgs := args[1:]
	if len(positional(pkgs)) == 0 {
		pkgs = []shell.Word{{Raw: ".", Values: []string{"."}}} // the package of the directory
	}
	var out []op
	for _, a := range pkgs {
		s, ok := a.Value()
		if !ok || strings.HasPrefix(s, "-") || strings.Contains(s, "@") || strings.Contains(s, "...") {
			continue
		}
		name := filepath.Base(strings.TrimSuffix(s, ".go"))
		if name == "." || name == "/" || name == ".." {
			name = filepath.Base(filepath.Join(c.Cwd, s))
		}
		p := filepath.Join(bin, name)
		if g.shadowing(p) {
			out = append(out, g.target(c, opWrite, shell.Word{Raw: p, Values: []string{p}}, nil))
		}
	}
	return out
}

// positional returns the words of args that are no option.
func positional(args []shell.Word) []shell.Word {
	var out []shell.Word
	for _, a := range args {
		if !strings.HasPrefix(a.Lit(), "-") {
			out = append(out, a)
		}
	}
	return out
}
