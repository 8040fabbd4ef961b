package completion

import (
	"bytes"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/tidwall/gjson"

	"github.com/ralph-hooks/ralph-hooks/internal/testindex"
)

// maxRecipeDepth bounds the files followed from a recipe: a makefile's
// includes, a script a recipe runs, a script that script runs.
const maxRecipeDepth = 3

// recipeFiles digests what the recipes the completion command runs
// through read or run, beyond the recipe file itself (digested whole by
// [Collect]): the files a makefile includes (`include tests.mk`, where
// `GOTEST = go test -overlay=o.json` builds the tests from other sources
// than the project's), and the project's scripts named by the recipes of
// the goals the command makes and their prerequisites, by the makefiles'
// variables, by the package.json scripts the command runs (with their
// pre and post scripts and those they run), or by the justfile; and,
// within [maxRecipeDepth], the scripts those scripts name. A script of
// another goal (make deploy) is not digested, nor a test file of the
// census (idx) a recipe names, nor what make builds (a target of the
// makefile: the test binary `./t`) or any compiled program.
func recipeFiles(root, command string, words map[string]bool, idx testindex.Index, file func(rel string)) {
	seen := map[string]bool{} // digested, or built: a makefile's targets
	var scan func(text string, depth int)
	scan = func(text string, depth int) {
		commandFiles(root, text, func(rel string) {
			if _, test := idx[rel]; test || seen[rel] {
				return // a test file is judged as a test (bent.go, package tamper)
			}
			seen[rel] = true
			src, _ := readSmall(filepath.Join(root, filepath.FromSlash(rel)))
			if bytes.IndexByte(src[:min(len(src), 512)], 0) >= 0 {
				return // a compiled program: built from sources the checks read
			}
			file(rel)
			if depth < maxRecipeDepth && src != nil {
				scan(string(src), depth+1)
			}
		})
	}
	if words["make"] || words["gmake"] {
		for _, mf := range []string{"GNUmakefile", "makefile", "Makefile"} {
			src, _ := readSmall(filepath.Join(root, mf))
			if src == nil {
				continue
			}
			m := &makefile{rules: map[string]*makeRule{}}
			m.read(root, string(src), 0, file)
			for t := range m.rules {
				if rel, ok := localPath(root, t); ok {
					seen[rel] = true // what make builds (./t, the test binary) changes with every build
				}
			}
			scan(m.text(makeGoals(command)), 1)
			break // make reads the first of them only
		}
	}
	if words["npm"] || words["yarn"] || words["pnpm"] || words["bun"] {
		if pkg, _ := readSmall(filepath.Join(root, "package.json")); pkg != nil {
			scan(npmScripts(gjson.GetBytes(pkg, "scripts"), command), 1)
		}
	}
	if words["just"] {
		for _, f := range []string{"justfile", "Justfile", ".justfile"} {
			if src, _ := readSmall(filepath.Join(root, f)); src != nil {
				scan(string(src), 1)
			}
		}
	}
}

// makeRule is a makefile's rule: its prerequisites and recipe lines.
type makeRule struct {
	prereqs []string
	recipe  []string
}

// makefile is what [makefile.read] kept of a makefile and its includes:
// the rules by target, the first target (make's default goal), the
// variables' values.
type makefile struct {
	rules map[string]*makeRule
	first string
	vars  []string
}

// makeInclude is an include directive: GNU make's include, -include and
// sinclude.
var makeInclude = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*(?:-?include|sinclude)\s+(.+)$`)
})

// makeAssign is a variable's assignment (NAME = value, :=, ::=, ?=, +=,
// !=, with override or export before it).
var makeAssign = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*(?:(?:override|export|private)\s+)*[^\s:#=]+\s*(?:::=|:::=|[:?+!]?=)(.*)$`)
})

// read reads the makefile text (its lines joined at a trailing
// backslash), digesting each file it includes by a literal name in the
// project (file) and reading it too, up to [maxRecipeDepth].
func (m *makefile) read(root, text string, depth int, file func(rel string)) {
	var cur []*makeRule
	for _, l := range strings.Split(strings.ReplaceAll(text, "\\\n", " "), "\n") {
		if strings.HasPrefix(l, "\t") {
			for _, r := range cur {
				r.recipe = append(r.recipe, l)
			}
			continue
		}
		if i := strings.IndexByte(l, '#'); i >= 0 {
			l = l[:i]
		}
		if strings.TrimSpace(l) == "" {
			continue
		}
		if inc := makeInclude().FindStringSubmatch(l); inc != nil {
			cur = nil
			for _, f := range strings.Fields(inc[1]) {
				rel, ok := localPath(root, f)
				if !ok || strings.ContainsAny(f, "$*?[") || depth >= maxRecipeDepth {
					continue
				}
				file(rel)
				if src, _ := readSmall(filepath.Join(root, filepath.FromSlash(rel))); src != nil {
					m.read(root, string(src), depth+1, file)
				}
			}
			continue
		}
		if a := makeAssign().FindStringSubmatch(l); a != nil {
			m.vars = append(m.vars, a[1])
			cur = nil
			continue
		}
		targets, rest, ok := strings.Cut(l, ":")
		if !ok {
			cur = nil
			continue
		}
		rest = strings.TrimLeft(rest, ":")
		prereqs, inline, _ := strings.Cut(rest, ";")
		if i := strings.IndexByte(prereqs, '|'); i >= 0 { // order-only prerequisites
			prereqs = prereqs[:i] + " " + prereqs[i+1:]
		}
		cur = nil
		for _, t := range strings.Fields(targets) {
			r := m.rules[t]
			if r == nil {
				r = &makeRule{}
				m.rules[t] = r
			}
			r.prereqs = append(r.prereqs, strings.Fields(prereqs)...)
			if strings.TrimSpace(inline) != "" {
				r.recipe = append(r.recipe, inline)
			}
			if m.first == "" && !strings.HasPrefix(t, ".") && !strings.ContainsAny(t, "%$") {
				m.first = t
			}
			cur = append(cur, r)
		}
	}
}

// text returns the variables' values and the recipes of goals (the first
// target when there is none) and of their prerequisites, one a line.
func (m *makefile) text(goals []string) string {
	if len(goals) == 0 && m.first != "" {
		goals = []string{m.first}
	}
	b := strings.Join(m.vars, "\n") + "\n"
	seen := map[string]bool{}
	for len(goals) > 0 {
		g := goals[0]
		goals = goals[1:]
		if seen[g] || len(seen) > 1000 {
			continue
		}
		seen[g] = true
		if r := m.rules[g]; r != nil {
			b += strings.Join(r.recipe, "\n") + "\n"
			goals = append(goals, r.prereqs...)
		}
	}
	return b
}

// makeGoals returns the goals the command's make calls name ("make test
// lint" → test, lint): the words after make or gmake up to a shell
// operator, less options and variable assignments.
func makeGoals(command string) []string {
	var goals []string
	in := false
	skip := false
	for _, f := range strings.Fields(command) {
		end := false // the word ends a command: "check;"
		if i := strings.IndexAny(f, ";&|()"); i >= 0 {
			f, end = f[:i], true
		}
		switch {
		case f == "":
		case filepath.Base(f) == "make" || filepath.Base(f) == "gmake":
			in = true
		case !in:
		case skip:
			skip = false
		case f == "-f" || f == "-C" || f == "-I" || f == "-o" || f == "-W" || f == "--file" || f == "--directory":
			skip = true
		case strings.HasPrefix(f, "-") || strings.Contains(f, "="):
		default:
			goals = append(goals, f)
		}
		if end {
			in, skip = false, false
		}
	}
	return goals
}

// npmScripts returns the scripts of package.json (scripts, its "scripts"
// object) that command runs: the one named (npm test, npm run X, yarn X,
// pnpm X), its pre and post scripts, and those the scripts run by name
// (npm run Y, yarn Y), one a line.
func npmScripts(scripts gjson.Result, command string) string {
	if !scripts.IsObject() {
		return ""
	}
	all := map[string]string{}
	scripts.ForEach(func(k, v gjson.Result) bool {
		all[k.String()] = v.String()
		return true
	})
	var want []string
	fs := strings.Fields(command)
	for i, f := range fs {
		switch filepath.Base(f) {
		case "npm", "yarn", "pnpm", "bun":
			for _, g := range fs[i+1:] {
				if strings.ContainsAny(g, ";&|()") {
					break
				}
				if g == "t" || g == "tst" {
					g = "test"
				}
				if _, ok := all[g]; ok {
					want = append(want, g)
				}
			}
		}
	}
	var b strings.Builder
	seen := map[string]bool{}
	for len(want) > 0 {
		n := want[0]
		want = want[1:]
		if seen[n] {
			continue
		}
		seen[n] = true
		for _, s := range []string{"pre" + n, n, "post" + n} {
			v, ok := all[s]
			if !ok {
				continue
			}
			b.WriteString(v + "\n")
			for _, w := range strings.Fields(v) {
				if _, ok := all[w]; ok && !seen[w] {
					want = append(want, w)
				}
			}
		}
	}
	return b.String()
}

// localPath returns f (a path relative to root, or absolute) relative to
// root, when it is inside it.
func localPath(root, f string) (string, bool) {
	p := filepath.FromSlash(f)
	if !filepath.IsAbs(p) {
		p = filepath.Join(root, p)
	}
	rel, err := filepath.Rel(root, filepath.Clean(p))
	if err != nil || !filepath.IsLocal(rel) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}
