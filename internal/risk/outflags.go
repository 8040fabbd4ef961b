package risk

import (
	"slices"
	"strings"

	"github.com/ralph-hooks/ralph-hooks/internal/shell"
)

// Compilers, test runners and converters write the file an output flag
// names, whatever is there: go build -o tests/a_test.go, go test
// -coverprofile=a_test.go, gcc -o, tar -cf, eslint -o, pytest
// --junitxml=… put a binary, a profile or a report over it. flagOutputs
// reads those flags as writes of text ralph cannot see.

// outFlag is a program's output flags: names written with one dash or
// two (-o, -coverprofile, --outFile), each followed by the file in the
// next word, after =, or (one letter) glued.
type outFlag struct {
	prog  string
	subs  []string // the subcommands that take them (go build, go test); any when empty
	names []string
}

// outFlags are the programs with output flags (a slice, not a map: it
// costs nothing at start-up).
var outFlags = []outFlag{
	{prog: "go", subs: []string{"build", "test", "install", "vet"}, names: []string{"o", "coverprofile", "cpuprofile", "memprofile", "blockprofile", "mutexprofile", "trace"}},
	{prog: "gcc", names: []string{"o"}},
	{prog: "g++", names: []string{"o"}},
	{prog: "cc", names: []string{"o"}},
	{prog: "c++", names: []string{"o"}},
	{prog: "clang", names: []string{"o"}},
	{prog: "clang++", names: []string{"o"}},
	{prog: "rustc", names: []string{"o"}},
	{prog: "tcc", names: []string{"o"}},
	{prog: "eslint", names: []string{"o", "output-file"}},
	{prog: "pytest", names: []string{"junitxml", "junit-xml", "resultlog"}},
	{prog: "tsc", names: []string{"outFile", "out"}},
	{prog: "esbuild", names: []string{"outfile"}},
	{prog: "pandoc", names: []string{"o", "output"}},
	{prog: "shuf", names: []string{"o", "output"}},
	{prog: "iconv", names: []string{"o", "output"}},
	{prog: "openssl", names: []string{"out"}},
	{prog: "git", subs: []string{"archive"}, names: []string{"o", "output"}},
	{prog: "gpg", names: []string{"o", "output"}},
	{prog: "pg_dump", names: []string{"f", "file"}},
	{prog: "strip", names: []string{"o"}},
	{prog: "tar"}, // tar -cf FILE, --create --file=FILE: below
}

// flagOutputs returns the writes of the files c's output flags name.
func (g *Guard) flagOutputs(c *shell.Cmd) []op {
	i := slices.IndexFunc(outFlags, func(f outFlag) bool { return f.prog == c.Name })
	if i < 0 {
		return nil
	}
	spec := outFlags[i]
	args := c.Args
	if len(spec.subs) > 0 {
		if len(args) == 0 || !strings.Contains(" "+strings.Join(spec.subs, " ")+" ", " "+args[0].Lit()+" ") {
			return nil
		}
		args = args[1:]
	}
	var ws []shell.Word
	lit := func(s string) shell.Word { return shell.Word{Raw: s, Values: []string{s}} }
	if c.Name == "tar" && tarCreates(args) {
		spec.names = []string{"file"}
	}
	for i := 0; i < len(args); i++ {
		s := args[i].Lit()
		if s == "--" {
			break
		}
		if !strings.HasPrefix(s, "-") || args[i].Dynamic {
			continue
		}
		name, val, eq := strings.Cut(strings.TrimLeft(s, "-"), "=")
		for _, n := range spec.names {
			switch {
			case name == n && eq:
				ws = append(ws, lit(val))
			case name == n && i+1 < len(args):
				ws = append(ws, args[i+1])
				i++
			case len(n) == 1 && !strings.HasPrefix(s, "--") && len(name) > 1 && name[:1] == n && !eq && c.Name != "tar":
				ws = append(ws, lit(name[1:])) // -oFILE
			default:
				continue
			}
			break
		}
		if c.Name == "tar" && !strings.HasPrefix(s, "--") {
			// -cf FILE, -czf FILE: creating an archive writes FILE.
			if l := strings.TrimPrefix(s, "-"); strings.Contains(l, "c") && strings.HasSuffix(l, "f") && i+1 < len(args) {
				ws = append(ws, args[i+1])
				i++
			}
		}
	}
	var out []op
	for _, w := range ws {
		if v, ok := w.Value(); ok && (v == "-" || v == "") {
			continue // standard output
		}
		out = append(out, g.target(c, opWrite, w, func(o *op) { o.clobber = true }))
	}
	return out
}

// tarCreates reports whether tar's arguments create an archive (-c,
// --create, the old form's c), which -f then names.
func tarCreates(args []shell.Word) bool {
	for i, a := range args {
		s := a.Lit()
		switch {
		case s == "--create":
			return true
		case strings.HasPrefix(s, "--"):
		case strings.HasPrefix(s, "-") || i == 0 && !a.Dynamic:
			if strings.Contains(strings.TrimPrefix(s, "-"), "c") {
				return true
			}
		}
	}
	return false
}
