package risk

import (
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/ralph-hooks/ralph-hooks/internal/shell"
)

// More programs edit a file in place than sed and perl: gawk -i inplace
// with a program that keeps or drops the lines a pattern matches, sd FIND
// REPLACE FILE (a regular expression, every match), rpl and MySQL's
// replace (a literal string, every occurrence), ruby -i -n with perl's
// print forms. Each took a test's assertions out with a warn; their edits
// are read here as sed's, for inPlaceText. comby -i, fastmod and
// ruplacer rewrite files too, in ways not read: they are edits of their
// files (a warn for a test, and a checkpoint), as an unread sed is.

// awkKeep matches an awk program that prints the lines a pattern matches
// (/RE/, /RE/ {print}, $0 ~ /RE/) or, negated, the others.
var awkKeep = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*(!?)\s*(?:\$0\s*~\s*)?/((?:[^/\\]|\\.)*)/\s*(?:\{\s*print\s*;?\s*\})?\s*$`)
})

// awkScriptOf reads gawk -i inplace's program when it keeps or drops the
// lines a pattern matches.
func awkScriptOf(c *shell.Cmd) ([]sedCmd, bool) {
	files, inplace := awkInplace(c.Args)
	if !inplace || len(files) != 1 {
		return nil, false
	}
	var prog string
	for i := 0; i < len(c.Args); i++ {
		s := c.Args[i].Lit()
		switch {
		case (s == "-i" || s == "--include" || s == "-v" || s == "-F" || s == "--assign" || s == "--field-separator") && i+1 < len(c.Args):
			i++
		case s == "-f" || s == "--file" || s == "-e" || s == "--source":
			return nil, false // a program file or several
		case strings.HasPrefix(s, "-") && len(s) > 1:
		default:
			v, ok := c.Args[i].Value()
			if !ok {
				return nil, false
			}
			prog = v
			i = len(c.Args)
		}
	}
	m := awkKeep().FindStringSubmatch(prog)
	if m == nil {
		return nil, false
	}
	re, ok := compileRE(m[2], true, false)
	if !ok {
		return nil, false
	}
	// The program prints the lines it selects: the others are dropped.
	return []sedCmd{{addr: re, not: m[1] == "", del: true}}, true
}

// sdScriptOf reads sd FIND REPLACE FILE (sd's -F/--fixed-strings: a
// literal), which replaces every match in place.
func sdScriptOf(c *shell.Cmd) ([]sedCmd, bool) {
	fl, ops := splitFlags(c.Args, "fn")
	if len(ops) != 3 || fl.has("p", "preview") || fl.values["n"] != "" || fl.values["f"] != "" {
		return nil, false
	}
	find, ok1 := ops[0].Value()
	repl, ok2 := ops[1].Value()
	if !ok1 || !ok2 {
		return nil, false
	}
	if fl.has("F", "fixed-strings") {
		find, repl = regexp.QuoteMeta(find), strings.ReplaceAll(repl, "$", "$$")
	}
	re, err := regexp.Compile(find)
	if err != nil {
		return nil, false
	}
	return []sedCmd{{re: re, repl: repl, global: true}}, true
}

// literalScriptOf reads rpl OLD NEW FILE and replace OLD NEW -- FILE,
// which replace every occurrence of a literal string.
func literalScriptOf(c *shell.Cmd) ([]sedCmd, bool) {
	var ops []string
	for _, a := range c.Args {
		v, ok := a.Value()
		if !ok {
			return nil, false
		}
		switch {
		case v == "--":
		case strings.HasPrefix(v, "-") && len(ops) < 2:
			return nil, false // an option not read (-i: case, -w: words)
		default:
			ops = append(ops, v)
		}
	}
	if len(ops) != 3 || ops[0] == "" {
		return nil, false
	}
	return []sedCmd{{re: regexp.MustCompile(regexp.QuoteMeta(ops[0])), repl: strings.ReplaceAll(ops[1], "$", "$$"), global: true}}, true
}

// rewriterFiles returns the files comby -i, fastmod (-d DIR, or its
// paths) and ruplacer --go rewrite, and whether c is such a command.
func rewriterFiles(c *shell.Cmd) ([]shell.Word, bool) {
	switch c.Name {
	case "comby":
		fl, ops := splitFlags(c.Args, "fdmrl")
		if !fl.has("i", "in-place") || len(ops) < 3 {
			return nil, false
		}
		return ops[2:], true
	case "fastmod":
		fl, ops := splitFlags(c.Args, "de")
		var files []shell.Word
		if d := fl.value("d"); !empty(d) {
			files = append(files, d)
		}
		if len(ops) > 2 {
			files = append(files, ops[2:]...)
		}
		if len(files) == 0 {
			files = []shell.Word{{Raw: ".", Values: []string{"."}}}
		}
		return files, true
	case "ruplacer":
		fl, ops := splitFlags(c.Args, "tTgG")
		if !fl.has("go") || len(ops) < 2 {
			return nil, false
		}
		if len(ops) == 2 {
			return []shell.Word{{Raw: ".", Values: []string{"."}}}, true
		}
		return ops[2:], true
	}
	return nil, false
}

// hiddenPath reports whether a slash-separated relative path is, or is
// under, a hidden directory (.aiwg, .claude, …).
func hiddenPath(rel string) bool {
	for _, part := range strings.Split(filepath.ToSlash(rel), "/") {
		if strings.HasPrefix(part, ".") && part != "." && part != ".." {
			return true
		}
	}
	return false
}
