package risk

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/shell"
)

// maxWalk bounds the entries ralph looks at under one directory.
var maxWalk = 50000 // a variable for the tests

// walk calls fn for every entry under dir (dir itself excluded), skipping
// project.NotSource, until fn returns false or maxWalk entries were seen.
func (g *Guard) walk(dir string, fn func(p string, isDir bool) bool) {
	n := 0
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return nil
		}
		if n++; n > maxWalk {
			g.walkCut = true
			return filepath.SkipAll
		}
		if d.IsDir() && project.NotSource(d.Name()) {
			return filepath.SkipDir
		}
		if !fn(p, d.IsDir()) {
			return filepath.SkipAll
		}
		return nil
	})
}

// testsIn returns the test files (relative paths) at or under p; rel is p
// relative to the root. A test directory with no files counts as itself.
func (g *Guard) testsIn(p, rel string) []string {
	fi, err := os.Lstat(p)
	if err != nil {
		return nil
	}
	if !fi.IsDir() {
		if g.IsTestPath(rel) {
			return []string{rel}
		}
		return nil
	}
	if project.NotSource(filepath.Base(p)) {
		return nil
	}
	var out []string
	g.walk(p, func(q string, isDir bool) bool {
		if !isDir {
			if r, ok := g.inProject(q); ok && g.IsTestPath(r) {
				out = append(out, r)
			}
		}
		return true
	})
	if len(out) == 0 && g.isTestDir(rel) {
		out = []string{rel + "/"}
	}
	return out
}

// testsOf is testsIn of a path a find selected, without looking up again
// the kind of a file the walk saw.
func (g *Guard) testsOf(m found, rel string) []string {
	if m.known && !m.isDir {
		if g.IsTestPath(rel) {
			return []string{rel}
		}
		return nil
	}
	return g.testsIn(m.path, rel)
}

// findSpec is what a find command selects.
type findSpec struct {
	roots    []string // absolute
	unknown  bool     // a root is computed at run time or relative to an unknown directory
	names    []namePat
	types    string // f, d, l, … ("" = any)
	filtered bool   // some test narrows the selection
	empty    bool   // -empty
	maxDepth int    // -1 = none
	minDepth int
	deletes  bool // -delete
	// injected is set when find's arguments end with items from its input
	// (xargs find …): they may add any primary, -delete or -exec included.
	injected bool
}

type namePat struct {
	pattern string
	path    bool // -path: matched against the whole path
	fold    bool // -iname, -ipath
}

// findSpec reads a find command line.
func (g *Guard) findSpec(c *shell.Cmd) *findSpec {
	s := &findSpec{maxDepth: -1}
	args := c.Args
	i, follow := 0, false
	for i < len(args) && isFindOption(args[i].Lit()) {
		follow = args[i].Lit() == "-H" || args[i].Lit() == "-L" || follow && args[i].Lit() != "-P"
		i++ // -H -L -P -O3
	}
	for _, a := range args {
		if a.FromInput {
			s.injected = true
		}
	}
	for ; i < len(args); i++ {
		t := args[i].Lit()
		if strings.HasPrefix(t, "-") || t == "(" || t == "!" {
			break
		}
		if args[i].FromInput {
			continue
		}
		v, ok := args[i].Value()
		if !ok {
			s.unknown = true
			continue
		}
		p, ok := g.resolve(c, v)
		if !ok {
			s.unknown = true
			continue
		}
		deref := follow || strings.HasSuffix(v, "/") || strings.HasSuffix(v, "/.")
		// A link the line made first (ln -s tests t && find -L t
		// -delete emptied tests/ with GNU find here): its target.
		p = g.viaLineLinks(p, deref)
		if deref {
			p = g.linkedDir(p) // find t/ walks the directory t leads to
		}
		s.roots = append(s.roots, p)
	}
	if len(s.roots) == 0 && !s.unknown {
		if c.Cwd == "" {
			s.unknown = true
		} else {
			s.roots = []string{c.Cwd}
		}
	}
	negate := false
	for ; i < len(args); i++ {
		t := args[i].Lit()
		next := func() string {
			if i+1 < len(args) {
				i++
				return args[i].Lit()
			}
			return ""
		}
		switch t {
		case "!", "-not":
			negate = true
			continue
		case "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename":
			pat := next()
			if !negate {
				s.names = append(s.names, namePat{pattern: pat, path: strings.Contains(t, "path") || strings.Contains(t, "wholename"), fold: strings.HasPrefix(t, "-i")})
			}
			s.filtered = true
		case "-regex", "-iregex", "-newer", "-mtime", "-mmin", "-atime", "-amin", "-ctime", "-cmin", "-size",
			"-user", "-group", "-perm", "-links", "-samefile", "-inum", "-uid", "-gid", "-fstype", "-context",
			"-lname", "-ilname", "-used", "-newermt", "-anewer", "-cnewer", "-newerat", "-newerct":
			next()
			s.filtered = true
		case "-mindepth":
			if n, err := strconv.Atoi(next()); err == nil {
				s.minDepth = n
			}
			s.filtered = true
		case "-printf", "-fprintf", "-fprint", "-fprint0", "-fls":
			next()
			if t == "-fprintf" {
				next()
			}
		case "-exec", "-execdir", "-ok", "-okdir":
			// The command's words are not find's primaries.
			for i++; i < len(args); i++ {
				if e := args[i].Lit(); e == ";" || e == "+" {
					break
				}
			}
		case "-empty":
			s.filtered = true
			s.empty = true
		case "-type", "-xtype":
			if tp := next(); !negate {
				s.types = tp
			}
			s.filtered = true
		case "-maxdepth":
			if n, err := strconv.Atoi(next()); err == nil {
				s.maxDepth = n
			}
		case "-delete":
			s.deletes = true
		}
		negate = false
	}
	return s
}

func isFindOption(s string) bool {
	return s == "-H" || s == "-L" || s == "-P" || s == "-D" || strings.HasPrefix(s, "-O")
}

// found is one path a find selects, and whether it is a directory
// (known: false when it is the root, whose kind was not looked up).
type found struct {
	path         string
	isDir, known bool
}

// matches walks root and returns what the spec selects there (bounded; a
// superset when the spec has tests ralph does not evaluate). The loop's
// view of the tree lists root's directories when the guard has one
// (walkView); else they are walked (and g.walkedOut is set).
func (s *findSpec) matches(g *Guard, root string) []found {
	var out []found
	if s.matchOne(root, 0) {
		out = append(out, found{path: root})
	}
	n := 0
	byName := s.byName()
	visit := func(dir, name string, depth int, isDir bool) error {
		if n++; n > maxWalk {
			g.walkCut = true
			return filepath.SkipAll
		}
		if s.maxDepth >= 0 && depth > s.maxDepth || isDir && name == ".git" {
			if isDir {
				return filepath.SkipDir
			}
			return nil
		}
		if isDir && name == ".aiwg" {
			// ralph's own state holds a file per iteration and checkpoint:
			// rather than walk them all, try the spec on the kinds of
			// files ralph keeps there.
			if q, ok := s.matchesState(joinPath(dir, name), depth); ok {
				out = append(out, found{path: q, isDir: true, known: true})
			}
			return filepath.SkipDir
		}
		if !s.typeOK(isDir) {
			return nil
		}
		// Most entries of a large tree fail a -name test: their paths are
		// made only when the test needs one.
		if byName && !s.matchIn(name, "", depth) {
			return nil
		}
		if p := joinPath(dir, name); byName || s.matchOne(p, depth) {
			out = append(out, found{path: p, isDir: isDir, known: true})
		}
		return nil
	}
	if g.walkView(root, visit) {
		return out
	}
	g.walkedOut = true
	base := strings.Count(root, string(filepath.Separator))
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == root {
			return nil
		}
		return visit(filepath.Dir(p), d.Name(), strings.Count(p, string(filepath.Separator))-base, d.IsDir())
	})
	return out
}

// stateSamples are the kinds of paths ralph keeps under .aiwg, relative to
// it, and whether they are directories.
var stateSamples = []struct {
	rel string
	dir bool
}{
	{"ralph", true}, {"ralph/loops", true}, {"ralph/archive", true}, {"ralph/checkpoints/objects", true},
	{"ralph/loops/ralph-x-00000000/iterations", true}, {"ralph/reflections/loops", true},
	{"ralph/registry.json", false}, {"ralph/registry.json.lock", false}, {"ralph/guard.json", false},
	{"ralph/hook-log.jsonl", false}, {"ralph/loops/ralph-x-00000000/state.json", false},
	{"ralph/loops/ralph-x-00000000/baseline.json", false}, {"ralph/loops/ralph-x-00000000/test-index.json", false},
	{"ralph/loops/ralph-x-00000000/iterations.jsonl", false},
	{"ralph/loops/ralph-x-00000000/iterations/iteration-001.json", false},
	{"ralph/loops/ralph-x-00000000/analytics/report.md", false},
	{"ralph/checkpoints/manifests/cp-20260101T000000-00000000.json", false},
	{"ralph/checkpoints/objects/00/0000000000000000000000000000000000000000000000000000000000000000.gz", false},
	{"ralph/reflections/loops/ralph-x-00000000/iteration-1.yaml", false},
}

// matchesState reports whether the spec selects any kind of file ralph
// keeps in the .aiwg directory dir (at depth); it returns dir/ralph then.
// Ralph's directories are never empty, its lock files may be.
func (s *findSpec) matchesState(dir string, depth int) (string, bool) {
	if s.typeOK(true) && s.matchName(dir, depth) && !s.empty {
		return dir, true
	}
	for _, x := range stateSamples {
		if s.empty && x.dir {
			continue
		}
		p := filepath.Join(dir, filepath.FromSlash(x.rel))
		d := depth + 1 + strings.Count(x.rel, "/")
		if s.maxDepth >= 0 && d > s.maxDepth {
			continue
		}
		if s.typeOK(x.dir) && s.matchName(p, d) {
			return filepath.Join(dir, "ralph"), true
		}
	}
	return "", false
}

// matchName is matchOne without the tests that look at the file itself
// (-empty), for paths that need not exist.
func (s *findSpec) matchName(p string, depth int) bool {
	e := s.empty
	s.empty = false
	ok := s.matchOne(p, depth)
	s.empty = e
	return ok
}

// isEmpty reports whether p is an empty file or directory, as -empty does.
func isEmpty(p string) bool {
	fi, err := os.Lstat(p)
	if err != nil {
		return false
	}
	if !fi.IsDir() {
		return fi.Mode().IsRegular() && fi.Size() == 0
	}
	f, err := os.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	names, _ := f.Readdirnames(1)
	return len(names) == 0
}

func (s *findSpec) typeOK(isDir bool) bool {
	switch s.types {
	case "d":
		return isDir
	case "f", "l":
		return !isDir
	}
	return true
}

func (s *findSpec) matchOne(p string, depth int) bool { return s.matchIn(filepath.Base(p), p, depth) }

// byName reports whether matchOne looks at a path's last element only
// (no -path test, no -empty): then matchIn(name, "", depth) is matchOne.
func (s *findSpec) byName() bool {
	if s.empty {
		return false
	}
	for _, n := range s.names {
		if n.path {
			return false
		}
	}
	return true
}

// matchIn is matchOne of the path p whose last element is name.
func (s *findSpec) matchIn(name, p string, depth int) bool {
	if depth < s.minDepth {
		return false
	}
	if s.empty && !isEmpty(p) {
		return false
	}
	if len(s.names) == 0 {
		return depth > 0 || !s.filtered
	}
	for _, n := range s.names {
		subject, pat := name, n.pattern
		if n.path {
			subject = p
		}
		if n.fold {
			subject, pat = strings.ToLower(subject), strings.ToLower(pat)
		}
		if suffixGlob(pat, subject) || n.path && globMatch("*"+strings.TrimPrefix(pat, "."), subject) {
			return true
		}
	}
	return false
}

// judgeFind judges a deletion by find -delete, find -exec rm or
// find | xargs rm.
func (g *Guard) judgeFind(v *Verdict, o *op, text, verb string) {
	s := o.find
	if s.injected {
		g.add(v, g.builtin("rm-unknown", fmt.Sprintf("%s gets arguments from its input, which may add any test or action to the find; ralph cannot check what it deletes. Name the files literally.", text), text, nil))
		return
	}
	if s.unknown {
		g.add(v, g.builtin("rm-unknown", fmt.Sprintf("%s %s files under a directory computed at run time, so ralph cannot check them. Name the directory literally.", text, verb), text, nil))
		return
	}
	for _, root := range s.roots {
		w := g.where(root)
		switch {
		case slices.Contains(g.Temp, root) && s.minDepth == 0 && !s.filtered && !within(g.Root, root):
			// The temp directory itself, with everything other programs
			// keep there.
			g.add(v, g.builtin("rm-critical", fmt.Sprintf("%s %s the temp directory %s itself, with every program's files in it. Delete your own files in it by name.", text, verb, root), text, nil))
			continue
		case g.isTemp(root) && !within(g.Root, root):
			// Scratch space, and the project is not in it, unless the
			// path leads out of it.
			g.judgeTemp(v, &op{cmd: o.cmd}, root, text, verb)
			continue
		case g.isTemp(root) && !s.filtered && root != g.Root && s.minDepth <= 1:
			// A temp directory that holds the project, taken whole: the
			// walk below may stop before it reaches the project.
			g.add(v, g.builtin("rm-critical", fmt.Sprintf("%s %s everything under %s, which holds the project.", text, verb, root), text, nil))
			continue
		case g.isTemp(root):
			// The project lives in this temp directory: judge what the
			// find would take from it, below.
		case !s.filtered && (w == system || w == home || w == projectRoot):
			g.add(v, g.builtin("rm-critical", fmt.Sprintf("%s %s everything under %s.", text, verb, describePlace(g, root)), text, nil))
			continue
		case w == outside || w == system || w == home || w == projectRoot && root != g.Root:
			g.add(v, g.outsideFinding(text, fmt.Sprintf("%s %s files under %s, outside the project.", text, verb, g.rel(root)), o.cmd.Args...))
			continue
		}
		sel := g.selectFind(s, root)
		tests, nTests, changes, tamper, git := sel.tests, sel.nTests, sel.changes, sel.tamper, sel.git
		if sel.cut && nTests == 0 && tamper == "" && git == "" {
			// More entries than ralph looks at: what it did not see may
			// hold tests.
			g.add(v, g.builtin("rm-unknown", fmt.Sprintf("%s %s files under %s, more than the %d entries ralph looks through, so it cannot check that no test is among them. Narrow the find.", text, verb, g.rel(root), maxWalk), text, nil))
			continue
		}
		if nTests == 0 {
			// By name, whether or not such files exist here yet.
			for _, n := range s.names {
				if pat := strings.TrimPrefix(n.pattern, "./"); g.IsTestPath(pat) || g.IsTestPath("x/"+pat) {
					tests = append(tests, n.pattern)
				}
			}
			tests = uniq(tests)
			nTests = len(tests)
		}
		if git != "" && tamper == "" {
			g.add(v, g.tamper(text, git))
		}
		switch {
		case tamper != "":
			g.add(v, g.tamper(text, tamper))
		case nTests > 0:
			g.add(v, g.builtin("test-delete", fmt.Sprintf("%s %s %s. Fix the code under test instead of removing tests; if tests are truly obsolete, ask the human to remove them.", text, verb, listTestsOf(tests, nTests)), text, nil))
		case len(changes) > 0:
			g.add(v, g.fileDelete(text, changes))
			v.Changes = append(v.Changes, changes...)
		}
	}
}

// lsFilesSpec reads git ls-files [PATHSPEC…] (piped into xargs rm) as the
// find it amounts to, or returns nil for any other command.
func (g *Guard) lsFilesSpec(c *shell.Cmd) *findSpec {
	if c == nil {
		return nil
	}
	gc := parseGit(c)
	if gc == nil || gc.sub != "ls-files" || gc.cmd.Cwd == "" {
		return nil
	}
	s := &findSpec{roots: []string{gc.cmd.Cwd}, maxDepth: -1, types: "f"}
	_, operands := splitFlags(gc.args, "x")
	for _, o := range operands {
		v, ok := o.Value()
		if !ok {
			return &findSpec{unknown: true}
		}
		s.filtered = true
		pat := v
		if !strings.ContainsAny(v, "*?[") {
			pat = v + "*" // a directory or file prefix
		}
		s.names = append(s.names, namePat{pattern: filepath.Join(gc.cmd.Cwd, pat), path: true})
	}
	return s
}
