package shell

import (
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
)

// Tools that run code the agent can write into the project's files, under
// a command line that names none of it: pytest imports every conftest.py
// and the plugins its configuration names, go test runs the _test.go
// files (TestMain, init), cargo compiles and runs build.rs and the proc
// macros, rake loads the Rakefile, nox noxfile.py, invoke tasks.py,
// jest, vitest and mocha their configuration and the setup files it
// names, rspec the files .rspec requires. That code is read like a script
// file the command names: what it does literally is judged as strictly as
// a command line, what it computes only warns.

// maxToolFiles bounds the files a tool's code is looked for in (conftest
// files, Cargo.toml members, _test.go files); past it, the rest is not
// read and the command is opaque.
const maxToolFiles = 2000

// toolCode walks the project code the tool name runs for args.
func (w *walker) toolCode(c *ctx, name string, args []Word, sc *scope) {
	if w.a.ReadFile == nil || w.a.ReadDir == nil || c.depth >= MaxDepth || sc.cwd == "" {
		return
	}
	if interpreter(name) == "python" || name == "pytest" || name == "py.test" {
		w.pyStart(c, sc)
	}
	if interpreter(name) == "python" {
		// python -m pytest, python -m nox, python -m invoke.
		for i, a := range args {
			if s := a.Lit(); s == "-m" && i+1 < len(args) {
				name, args = args[i+1].Lit(), args[i+2:]
				break
			} else if len(s) > 2 && strings.HasPrefix(s, "-m") {
				name, args = s[2:], args[i+1:] // -mpre_commit, as pre-commit's hook writes it
				break
			} else if !strings.HasPrefix(s, "-") {
				return
			}
		}
	}
	tc := c.with(name)
	if name == "go" && len(args) > 0 {
		tc = c.with("go " + args[0].Lit())
	}
	w.preloadFiles(c, name, args, sc) // preload.go
	if name == "npm" || name == "pnpm" || name == "yarn" || name == "bun" {
		w.localDeps(c, name, args, sc) // npmlocal.go
	}
	switch name {
	case "pytest", "py.test":
		w.pytest(tc, args, sc)
	case "rake":
		rsc := sc
		if d := optValue1(args, "-C", "--directory"); d != "" {
			rsc = sc.child()
			rsc.setCwd(dirOf(d, sc))
		}
		if rsc.cwd != "" {
			w.rake(tc, args, rsc)
		}
	case "nox":
		w.pyTasks(tc, sc, optValue1(args, "-f", "--noxfile"), "noxfile.py", "session", noxSessions(args))
	case "invoke", "inv":
		w.pyTasks(tc, sc, optValue1(args, "-r", "--search-root"), "tasks.py", "task", invokeTasks(args))
	case "jest", "vitest", "mocha":
		w.jsTestConfig(tc, name, sc)
	case "rspec":
		w.rspec(tc, sc)
	case "go":
		gsc := sc
		if len(args) > 1 && args[0].Lit() == "-C" {
			gsc = sc.child() // go -C DIR test
			gsc.setCwd(dirOf(args[1].Lit(), sc))
			args = args[2:]
		}
		if len(args) > 0 && args[0].Lit() == "test" && gsc.cwd != "" {
			w.goTest(c.with("go test"), args[1:], gsc)
		}
	case "cargo":
		w.cargoBuild(c, args, sc)
	case "git":
		cfg, sub, rest := gitConfig(args, sc)
		gsc := sc
		for i := 0; i+1 < len(args) && args[i].Lit() != sub; i++ {
			if args[i].Lit() == "-C" {
				gsc = gsc.child() // git -C DIR commit: DIR's hooks
				gsc.setCwd(dirOf(args[i+1].Lit(), gsc))
			}
		}
		if d, ok := w.gitDirElsewhere(args, sub, sc); ok { // gitdir.go
			w.opaque("git " + sub + " using the git directory " + d + ", not the repository's: its hooks and configuration are not read")
		} else if gsc.cwd != "" {
			w.gitHooks(c, cfg, sub, rest, gsc)
		}
	case "lefthook":
		w.lefthook(c, args, sc)
	case "pre-commit", "pre_commit":
		w.preCommit(c, args, sc)
	case "pnpm", "yarn", "bun":
		w.pmCode(c, name, args, sc)
	case "gradle", "gradlew":
		w.gradle(c, args, sc, name == "gradlew")
	case "mvn", "mvnw":
		w.maven(c, args, sc, name == "mvnw")
	case "tox":
		w.tox(c, args, sc)
	case "cmake":
		w.cmake(c, args, sc)
	case "build": // python -m build: the build backend of the directory named
		d := sc.cwd
		if rest := positionals(args); len(rest) > 0 {
			d = dirOf(rest[0], sc)
		}
		w.pipLocalDir(c, "python -m build", "", d, sc) // pipreq.go
	case "eslint", "prettier", "stylelint", "commitlint":
		w.lintCode(c, name, args, sc) // linters.go
	case "lint-staged":
		w.lintStaged(c, args, sc) // lintstaged.go
	case "pylint", "mypy", "flake8":
		w.pyLint(c, name, args, sc) // pylinters.go
	case "dmypy":
		w.pyLint(c, "mypy", args, sc)
	case "rubocop":
		w.rubocop(c, args, sc)
	case "mage":
		w.mage(c, args, sc) // mage.go
	case "golangci-lint":
		w.golangci(c, args, sc) // mage.go
	case "bazel", "bazelisk":
		w.bazel(c, args, sc) // bazel.go
	case "earthly":
		w.earthly(c, args, sc) // earthly.go
	case "bundle", "bundler":
		w.bundle(c, args, sc) // bundler.go
	}
}

// readsProject reports whether the program name runs commands or code
// from the project's files, which indirect walks: only those runs count
// towards maxIndirect (a line of seventeen echos reads no file).
func readsProject(name string) bool {
	switch name {
	case "make", "gmake", "remake", "just", "npm", "yarn", "pnpm", "bun", "deno", "composer", "task", "go-task",
		"mise", "pdm", "poe", "hatch",
		"pytest", "py.test", "rake", "nox", "invoke", "inv", "jest", "vitest", "mocha", "rspec", "go", "cargo",
		"git", "lefthook", "pre-commit", "pre_commit", "tox", "cmake", "gradle", "gradlew", "mvn", "mvnw",
		"node", "java", "npx", "eslint", "prettier", "pylint", "mypy", "dmypy", "flake8", "rubocop",
		"stylelint", "commitlint", "lint-staged", "mage", "golangci-lint", "bazel", "bazelisk", "earthly", "bundle", "bundler":
		return true
	}
	return interpreter(name) == "python"
}

// optValue1 returns the value of option short or long in args, or "".
func optValue1(args []Word, short, long string) string {
	for i, a := range args {
		s := a.Lit()
		switch {
		case (s == short || s == long) && i+1 < len(args):
			return args[i+1].Lit()
		case strings.HasPrefix(s, long+"="):
			return s[len(long)+1:]
		}
	}
	return ""
}

// readOnce reads the file p a tool runs, the first time a command line
// names it (rake's sh 'rake x' reads the Rakefile once); a vendored file
// is not read.
func (w *walker) readOnce(p string) (string, bool) {
	if vendored(p) || w.toolRead[p] {
		return "", false
	}
	if w.toolRead == nil {
		w.toolRead = map[string]bool{}
	}
	w.toolRead[p] = true
	return w.readText(p)
}

// readCode walks the file p as code of lang that the tool runs.
func (w *walker) readCode(c *ctx, lang, p string, sc *scope) {
	if !w.toolRead[p] {
		// sed -i or cp over a conftest.py, then pytest (changed.go).
		what := "it runs " + p
		if len(c.via) > 0 {
			what = c.via[len(c.via)-1] + " runs " + p
		}
		w.changedRun(what, p)
	}
	text, ok := w.readOnce(p)
	if !ok {
		return
	}
	prev := w.file
	w.file = p
	if lang == "go" || lang == "node" || lang == "python" || lang == "ruby" {
		w.code(c, lang, text, sc)
	}
	w.moreCode(c, lang, text, sc)
	w.file = prev
}

// nearestCode walks the first of names found from the scope's directory
// up (or file, when given) as code of lang, run in the file's directory
// (rake, nox and invoke change to it). It returns the file's path, or "".
func (w *walker) nearestCode(c *ctx, lang string, sc *scope, file string, names ...string) string {
	p, _, ok := w.nearest(sc.cwd, file, names...)
	if !ok {
		return ""
	}
	nsc := sc.child()
	nsc.setCwd(filepath.Dir(p))
	w.readCode(c, lang, p, nsc)
	return p
}

// eachFile calls visit for each file below dir (dir itself included) whose
// name is one of names, skipping the directories the tools skip (hidden
// ones, installed dependencies, build output). It reports false past
// maxToolFiles entries.
func (w *walker) eachFile(dir string, names []string, visit func(p string)) bool {
	n := 0
	seen := map[string]bool{}
	var walk func(d string) bool
	walk = func(d string) bool {
		ents, err := w.a.ReadDir(d)
		if err != nil {
			return true
		}
		for _, e := range ents {
			name := e.Name()
			if n++; n > maxToolFiles {
				return false
			}
			switch {
			case e.IsDir():
				if strings.HasPrefix(name, ".") || name == "node_modules" || name == "target" || name == "__pycache__" ||
					name == "venv" || name == "build" || name == "dist" || name == "site-packages" || name == "vendor" {
					continue
				}
				if !walk(filepath.Join(d, name)) {
					return false
				}
			case names == nil || matchesAny(name, names):
				seen[filepath.Join(d, name)] = true
				visit(filepath.Join(d, name))
			}
		}
		return true
	}
	if !walk(dir) {
		return false
	}
	// The files of those names this command line wrote or changed
	// earlier, which the disk does not hold yet (cp /tmp/c.py
	// tests/conftest.py; pytest).
	for _, m := range []map[string]string{w.written, w.changed} {
		for _, p := range slices.Sorted(maps.Keys(m)) {
			if rel, err := filepath.Rel(dir, p); err == nil && !strings.HasPrefix(rel, "..") && !seen[p] &&
				(names == nil || matchesAny(filepath.Base(p), names)) {
				seen[p] = true
				visit(p)
			}
		}
	}
	return true
}

func matchesAny(name string, names []string) bool {
	for _, n := range names {
		if ok, _ := filepath.Match(n, name); ok {
			return true
		}
	}
	return false
}

// pytest walks what pytest imports before and while it collects: the
// conftest.py files from the directory up to the top of the project and
// below it, and the plugin modules -p names on the command line, in
// PYTEST_ADDOPTS or in the configuration's addopts.
func (w *walker) pytest(c *ctx, args []Word, sc *scope) {
	top := w.gitTop(sc.cwd)
	// The directories collected: the working directory, and the paths
	// named (pytest /elsewhere/tests, tests/x.py::test_a).
	roots := []string{sc.cwd}
	for i := 0; i < len(args); i++ {
		s, ok := args[i].Value()
		switch {
		case !ok:
		case s == "-p" || s == "-c" || s == "-k" || s == "-m" || s == "-o" || s == "--rootdir" || s == "--confcutdir" ||
			s == "--basetemp" || s == "-W" || s == "--junitxml" || s == "--ignore" || s == "--deselect":
			i++
		case strings.HasPrefix(s, "-"):
		default:
			s, _, _ = strings.Cut(s, "::")
			if d := dirOf(s, sc); d != "" {
				if strings.HasSuffix(d, ".py") {
					d = filepath.Dir(d)
				}
				roots = append(roots, d)
			}
		}
	}
	imports := w.pytestImports(c, sc.cwd, top, sc) // pyimports.go
	read := func(p string) { w.readCode(c, "python", p, sc); imports(p) }
	if len(roots) == 1 {
		// No path named: pytest collects the configuration's testpaths
		// (from its directory), or the working directory.
		if tp, dir := w.testpaths(sc.cwd, top); len(tp) > 0 {
			read(filepath.Join(dir, "conftest.py"))
			read(filepath.Join(sc.cwd, "conftest.py"))
			roots = roots[:0]
			for _, t := range tp {
				roots = append(roots, filepath.Join(dir, t))
			}
		}
	}
	for _, r := range roots {
		rtop := w.gitTop(r)
		for d := filepath.Dir(r); rtop != "" && strings.HasPrefix(d, rtop) && d != filepath.Dir(d); d = filepath.Dir(d) {
			read(filepath.Join(d, "conftest.py"))
		}
		if !w.eachFile(r, []string{"conftest.py"}, read) {
			w.opaqueCode("pytest over a tree of more than 2000 files: not every conftest.py read")
		}
	}
	// The plugins, each with the directories it is imported from: the
	// working directory, and that of the configuration naming it.
	var plugins [][2]string
	for i, a := range args {
		if s := a.Lit(); s == "-p" && i+1 < len(args) {
			plugins = append(plugins, [2]string{args[i+1].Lit(), sc.cwd})
		} else if strings.HasPrefix(s, "-p") && len(s) > 2 {
			plugins = append(plugins, [2]string{s[2:], sc.cwd})
		}
	}
	if v, ok := sc.vars["PYTEST_ADDOPTS"]; ok && !v.dynamic && len(v.vals) == 1 {
		for _, p := range addoptsPlugins(v.vals[0]) {
			plugins = append(plugins, [2]string{p, sc.cwd})
		}
	}
	for d := sc.cwd; ; d = filepath.Dir(d) {
		for _, f := range []string{"pytest.ini", ".pytest.ini", "pyproject.toml", "tox.ini", "setup.cfg"} {
			if text, ok := w.readText(filepath.Join(d, f)); ok && strings.Contains(text, "addopts") {
				for _, p := range addoptsPlugins(text) {
					plugins = append(plugins, [2]string{p, d})
				}
			}
		}
		if d == top || top == "" || filepath.Dir(d) == d {
			break
		}
	}
	for _, p := range plugins {
		if strings.HasPrefix(p[0], "no:") {
			continue
		}
		for _, d := range []string{sc.cwd, p[1]} {
			if m, ok := w.moduleFile(p[0], d); ok {
				read(m.Raw)
			}
		}
	}
}

// testpaths returns the testpaths of the pytest configuration nearest
// dir (up to top) and its directory; none when a path holds a pattern
// (the walk from the working directory then covers it).
func (w *walker) testpaths(dir, top string) ([]string, string) {
	for d := dir; ; d = filepath.Dir(d) {
		for _, f := range []string{"pytest.ini", ".pytest.ini", "pyproject.toml", "tox.ini", "setup.cfg"} {
			text, ok := w.readText(filepath.Join(d, f))
			if !ok || !strings.Contains(text, "pytest") {
				continue
			}
			if f == "pyproject.toml" && !strings.Contains(text, "[tool.pytest") || f == "tox.ini" && !strings.Contains(text, "[pytest]") ||
				f == "setup.cfg" && !strings.Contains(text, "[tool:pytest]") {
				continue
			}
			var out []string
			lines := strings.Split(text, "\n")
			for i := 0; i < len(lines); i++ {
				k, v, ok := strings.Cut(lines[i], "=")
				if !ok || strings.TrimSpace(k) != "testpaths" {
					continue
				}
				val := v
				for i+1 < len(lines) && (strings.HasPrefix(lines[i+1], " ") || strings.HasPrefix(lines[i+1], "\t") ||
					strings.Contains(val, "[") && !strings.Contains(val, "]")) {
					i++
					val += " " + lines[i]
				}
				for _, t := range strings.FieldsFunc(val, func(r rune) bool { return strings.ContainsRune(" \t\r,[]\"'", r) }) {
					if strings.ContainsAny(t, "*?[") || strings.HasPrefix(t, "#") {
						return nil, ""
					}
					out = append(out, t)
				}
			}
			return out, d // the first configuration is pytest's, testpaths or not
		}
		if d == top || top == "" || filepath.Dir(d) == d {
			return nil, ""
		}
	}
}

// addoptsRe finds -p NAME (and -pNAME) in pytest options.
var addoptsRe = func() *regexp.Regexp { return addoptsReLazy.get() }
var addoptsReLazy = lazy[*regexp.Regexp]{f: func() *regexp.Regexp { return regexp.MustCompile(`(?:^|[\s"'\[,])-p\s*["']?([\w.:]+)`) }}

// addoptsPlugins returns the plugin modules -p names in text.
func addoptsPlugins(text string) []string {
	var out []string
	for _, m := range addoptsRe().FindAllStringSubmatch(text, 32) {
		out = append(out, m[1])
	}
	return out
}

// rake walks the Rakefile rake loads (from the directory up, or -f FILE)
// and the .rake files of its rakelib directory, as Ruby code with rake's
// sh and ruby calls.
func (w *walker) rake(c *ctx, args []Word, sc *scope) {
	p := w.nearestCode(c, "rake", sc, optValue1(args, "-f", "--rakefile"), "Rakefile", "rakefile", "Rakefile.rb", "rakefile.rb")
	if p == "" {
		return
	}
	nsc := sc.child()
	nsc.setCwd(filepath.Dir(p))
	w.eachFile(filepath.Join(filepath.Dir(p), "rakelib"), []string{"*.rake"}, func(f string) { w.readCode(c, "rake", f, nsc) })
}

// jsConfigRe finds the relative module names in a test runner's
// configuration: './setup.js', '<rootDir>/test/global.ts'.
var jsConfigRe = func() *regexp.Regexp { return jsConfigReLazy.get() }
var jsConfigReLazy = lazy[*regexp.Regexp]{f: func() *regexp.Regexp {
	return regexp.MustCompile(`["'` + "`" + `]((?:<rootDir>/|\./|\.\./)[^"'` + "`" + `\s]+)["'` + "`" + `]`)
}}

// jsTestConfig walks a JavaScript test runner's configuration, which it
// runs, and the project files it names (setupFiles, globalSetup,
// globalTeardown, require, reporters …): jest (jest.config.*, package.json's
// "jest"), vitest (vitest.config.*, vite.config.*) and mocha (.mocharc.*).
func (w *walker) jsTestConfig(c *ctx, name string, sc *scope) {
	var names []string
	for _, ext := range []string{"js", "ts", "mjs", "cjs", "mts", "cts", "json", "yml", "yaml"} {
		switch name {
		case "jest":
			names = append(names, "jest.config."+ext)
		case "vitest":
			names = append(names, "vitest.config."+ext, "vite.config."+ext)
		case "mocha":
			names = append(names, ".mocharc."+ext)
		}
	}
	names = append(names, "package.json")
	p, text, ok := w.nearest(sc.cwd, "", names...)
	if !ok {
		return
	}
	root := filepath.Dir(p)
	if !strings.HasSuffix(p, ".json") && !strings.HasSuffix(p, ".yml") && !strings.HasSuffix(p, ".yaml") {
		w.readCode(c, "node", p, sc)
	}
	for _, m := range jsConfigRe().FindAllStringSubmatch(text, 64) {
		f := strings.TrimPrefix(m[1], "<rootDir>/")
		f = filepath.Join(root, f)
		if filepath.Ext(f) == "" {
			for _, ext := range []string{".js", ".ts", ".mjs", ".cjs"} {
				if _, ok := w.readText(f + ext); ok {
					f += ext
					break
				}
			}
		}
		switch filepath.Ext(f) {
		case ".js", ".ts", ".mjs", ".cjs", ".mts", ".cts", ".jsx", ".tsx":
			w.readCode(c, "node", f, sc)
		}
	}
}

// rspec walks the files .rspec and .rspec-local require (--require NAME,
// -r NAME: spec/NAME.rb or lib/NAME.rb).
func (w *walker) rspec(c *ctx, sc *scope) {
	for _, f := range []string{".rspec", ".rspec-local"} {
		text, ok := w.readText(filepath.Join(sc.cwd, f))
		if !ok {
			continue
		}
		fs := strings.Fields(text)
		for i, s := range fs {
			var req string
			switch {
			case (s == "--require" || s == "-r") && i+1 < len(fs):
				req = fs[i+1]
			case strings.HasPrefix(s, "--require="):
				req = s[len("--require="):]
			default:
				continue
			}
			if !strings.HasSuffix(req, ".rb") {
				req += ".rb"
			}
			for _, d := range []string{"spec", "lib", "."} {
				w.readCode(c, "ruby", filepath.Join(sc.cwd, d, req), sc)
			}
		}
	}
}

// goTest walks the TestMain and init functions of the Go files of the
// packages go test runs (init in the package's own files too): they run
// in the package's directory before any test, as any program does.
func (w *walker) goTest(c *ctx, args []Word, sc *scope) {
	var pkgs []string
	for i := 0; i < len(args); i++ {
		s := args[i].Lit()
		switch {
		case s == "--" || s == "-args":
			i = len(args)
		case goValueFlag(s) && !strings.Contains(s, "="):
			i++
		case strings.HasPrefix(s, "-"):
		default:
			v, ok := args[i].Value()
			if !ok {
				v = "./..." // flags most often; if packages, the project's
			}
			pkgs = append(pkgs, v)
		}
	}
	if len(pkgs) == 0 {
		pkgs = []string{"."}
	}
	read := 0
	memo, now := w.a.GoSetup, time.Now()
	for _, p := range pkgs {
		dir, recursive, ok := goPackageDir(p, sc)
		if !ok || dir == "" {
			continue // an import path, or a directory not known
		}
		var files []string
		if !w.goFiles(dir, recursive, &files) {
			w.opaqueCode("go test over more than 2000 Go files: not every _test.go file read")
		}
		// The Go files this line wrote with literal text, which the disk
		// does not hold yet (printf '…func init() { os.RemoveAll(…) }' >
		// y_test.go && go test ./...). One changed in a way ralph cannot
		// read is not asked: sed -i on a source then go test is what
		// agents do all day, and post-tool-call sees a test deleted.
		for _, f := range slices.Sorted(maps.Keys(w.written)) {
			if rel, err := filepath.Rel(dir, f); err == nil && strings.HasSuffix(f, ".go") && !slices.Contains(files, f) &&
				(rel == filepath.Base(f) || recursive && !strings.HasPrefix(rel, "..")) {
				files = append(files, f)
			}
		}
		for _, f := range files {
			body, size, ok := w.goSetupOf(memo, f, now)
			if read += size; !ok || read > maxGenerateBytes || vendored(f) {
				continue
			}
			if body == "" {
				continue
			}
			prev := w.file
			w.file = f
			w.code(c, "go", body, sc)
			w.file = prev
		}
	}
}

// goSetupOf returns goSetup of the Go file f and the bytes read of it, from
// memo when it holds the file as it is (GoSetupMemo); ok is false when the
// file cannot be read.
func (w *walker) goSetupOf(memo *GoSetupMemo, f string, now time.Time) (body string, size int, ok bool) {
	if memo == nil {
		text, ok := w.readText(f)
		return goSetup(text), len(text), ok
	}
	if memo.Now != nil {
		now = memo.Now()
	}
	st, keep := memo.stat(f, now) // before the read: a change after it is seen next time
	if keep {
		if e, ok := memo.lookup(f, st); ok {
			return e.body, e.size, true
		}
	}
	text, ok := w.readText(f)
	body = goSetup(text)
	if keep && ok {
		memo.note(f, st, len(text), body)
	}
	return body, len(text), ok
}

// goSetup returns the bodies of the TestMain and init functions of a Go
// file, joined: the functions go test runs in the package's directory
// before any test. The tests themselves are not read: their literal paths
// are most often a temporary directory's (t.TempDir, t.Chdir), and what
// they delete post-tool-call reports. (strings.Index, not a regexp: this
// runs over every Go file of go test ./...)
func goSetup(text string) string {
	var out []string
	for _, fn := range []string{"func TestMain", "func init"} {
		for at := 0; len(out) < 16; {
			k := strings.Index(text[at:], fn)
			if k < 0 {
				break
			}
			k += at
			at = k + len(fn)
			rest := strings.TrimLeft(text[at:], " \t")
			if k > 0 && text[k-1] != '\n' || !strings.HasPrefix(rest, "(") {
				continue // not at a line's start, or initFoo(
			}
			i := strings.IndexByte(text[at:], '{')
			if i < 0 {
				break
			}
			start := at + i
			out = append(out, text[start:goBlockEnd(text, start)])
		}
	}
	return strings.Join(out, "\n")
}

// goBlockEnd returns the index after the brace that closes the block
// opening at text[start], skipping strings, runes and comments; len(text)
// when it is not closed.
func goBlockEnd(text string, start int) int {
	depth := 0
	for i := start; i < len(text); i++ {
		switch ch := text[i]; ch {
		case '{':
			depth++
		case '}':
			if depth--; depth == 0 {
				return i + 1
			}
		case '"', '\'', '`':
			for i++; i < len(text) && text[i] != ch; i++ {
				if text[i] == '\\' && ch != '`' {
					i++
				}
			}
		case '/':
			if i+1 < len(text) && text[i+1] == '/' {
				for i < len(text) && text[i] != '\n' {
					i++
				}
			} else if i+1 < len(text) && text[i+1] == '*' {
				if k := strings.Index(text[i+2:], "*/"); k >= 0 {
					i += k + 3
				} else {
					return len(text)
				}
			}
		}
	}
	return len(text)
}

// goValueFlag reports whether a go test flag takes the next argument.
func goValueFlag(s string) bool {
	s = strings.TrimLeft(s, "-")
	switch s {
	case "run", "skip", "bench", "count", "cpu", "parallel", "timeout", "coverprofile", "cpuprofile", "memprofile",
		"blockprofile", "mutexprofile", "trace", "outputdir", "o", "covermode", "coverpkg", "benchtime", "list",
		"fuzz", "fuzztime", "fuzzminimizetime", "shuffle", "vet", "p", "tags", "ldflags", "gcflags", "asmflags",
		"mod", "modfile", "overlay", "pkgdir", "exec", "toolexec", "C", "json":
		return true
	}
	return false
}

// cargoCompiles reports whether s is one of the cargo commands that
// compile the package, and so run its build scripts and proc macros.
func cargoCompiles(s string) bool {
	switch s {
	case "build", "b", "test", "t", "run", "r", "check", "c", "bench", "clippy", "doc", "d", "rustc", "fix",
		"install", "miri", "nextest", "llvm-cov", "tarpaulin", "rustdoc":
		return true
	}
	return false
}

// cargoBuild walks, for a cargo command that compiles, the build scripts
// (build.rs, or [package] build) and proc-macro crates of the workspace
// at the nearest Cargo.toml, and for cargo make (makers) the tasks of
// Makefile.toml.
func (w *walker) cargoBuild(c *ctx, args []Word, sc *scope) {
	sub, rest := "", args
	for i, a := range args {
		s := a.Lit()
		if s == "--config" || s == "-Z" || s == "-C" {
			continue
		}
		if !strings.HasPrefix(s, "-") && (i == 0 || !(args[i-1].Lit() == "--config" || args[i-1].Lit() == "-Z" || args[i-1].Lit() == "-C")) {
			sub, rest = s, args[i+1:]
			break
		}
	}
	if sub == "make" {
		w.cargoMake(c, rest, sc)
		return
	}
	if !cargoCompiles(sub) {
		return
	}
	dir := sc.cwd
	if m := optValue1(rest, "--manifest-path", "--manifest-path"); m != "" {
		dir = filepath.Dir(dirOf(m, sc))
	}
	top := ""
	for d := dir; ; d = filepath.Dir(d) {
		if _, ok := w.readText(filepath.Join(d, "Cargo.toml")); ok {
			top = d
		}
		if _, err := w.a.ReadFile(filepath.Join(d, ".git", "HEAD")); err == nil || filepath.Dir(d) == d {
			break
		}
	}
	if top == "" {
		return
	}
	cc := c.with("cargo " + sub)
	ok := w.eachFile(top, []string{"Cargo.toml"}, func(p string) {
		text, ok := w.readText(p)
		if !ok {
			return
		}
		kv, _ := tomlStrings(text)
		d := filepath.Dir(p)
		build := "build.rs"
		if b := kv["package.build"]; len(b) == 1 && b[0] != "true" {
			build = b[0]
		}
		nsc := sc.child()
		nsc.setCwd(d) // cargo runs a build script in its package's directory
		if build != "false" {
			w.readCode(cc, "rust", filepath.Join(d, build), nsc)
		}
		if pm := kv["lib.proc-macro"]; len(pm) == 1 && pm[0] == "true" {
			lib := "src/lib.rs"
			if l := kv["lib.path"]; len(l) == 1 {
				lib = l[0]
			}
			w.readCode(cc, "rust", filepath.Join(d, lib), nsc)
		}
	})
	if !ok {
		w.opaqueCode("cargo " + sub + " over a tree of more than 2000 files: not every build script read")
	}
	if sub == "run" || sub == "r" {
		w.cargoRun(c, rest, dir, top, sc)
	}
}

// cargoMake walks the task cargo make (makers) runs from Makefile.toml:
// its command and args, or its script, and its dependencies.
func (w *walker) cargoMake(c *ctx, args []Word, sc *scope) {
	dir, file, name, computed := taskArgs(args, "--cwd", "--makefile", "-p --profile -e --env --env-file -l --loglevel")
	d := dirOf(dir, sc)
	if d == "" {
		return
	}
	if name == "" && !computed {
		name = "default"
	}
	p, text, ok := w.nearest(d, file, "Makefile.toml")
	if !ok {
		return
	}
	kv, ok := tomlStrings(text)
	if !ok {
		w.opaque("cargo make with a Makefile.toml ralph cannot read")
		return
	}
	names := []string{name}
	if computed {
		names = nil
		for k := range kv {
			if t, _, ok := strings.Cut(strings.TrimPrefix(k, "tasks."), "."); ok && strings.HasPrefix(k, "tasks.") {
				names = append(names, t)
			}
		}
	}
	eachTask(names, func(t string) []string {
		pre := "tasks." + tomlKey(t)
		var line string
		if cmd := kv[pre+".command"]; len(cmd) == 1 {
			line = shellQuote(append(cmd, kv[pre+".args"]...))
		}
		if s := kv[pre+".script"]; len(s) > 0 {
			line += "\n" + strings.Join(s, "\n")
		}
		if line != "" {
			w.inFile(c, p, "cargo make "+t, line, filepath.Dir(p), sc)
		}
		deps := kv[pre+".dependencies"]
		if rt := kv[pre+".run_task"]; len(rt) == 1 {
			deps = append(deps, rt[0])
		}
		return deps
	})
}

// shellQuote joins argv into a command line that reads back as argv.
func shellQuote(argv []string) string {
	q := make([]string, len(argv))
	for i, a := range argv {
		q[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return strings.Join(q, " ")
}

// moreOps are the calls of the languages package code does not read
// itself, or reads without a tool's own words: Rust's std::fs in a build
// script, rake's sh and ruby.
var moreOps = sync.OnceValue(func() map[string][]struct {
	re    *regexp.Regexp
	argv  []string
	paths int
	shell bool
} {
	type o = struct {
		re    *regexp.Regexp
		argv  []string
		paths int
		shell bool
	}
	m := regexp.MustCompile
	return map[string][]o{
		"rust": {
			{re: m(`\b(?:fs::)?remove_dir_all\s*\(`), argv: []string{"rm", "-r", "-f"}, paths: 1},
			{re: m(`\b(?:fs::)?remove_file\s*\(`), argv: []string{"rm", "-f"}, paths: 1},
			{re: m(`\bfs::remove_dir\s*\(`), argv: []string{"rmdir"}, paths: 1},
			{re: m(`\bfs::(?:write|File::create)\s*\(|\bFile::create\s*\(`), argv: []string{"tee"}, paths: 1},
			{re: m(`\bfs::rename\s*\(`), argv: []string{"mv"}, paths: 2},
			{re: m(`\bfs::copy\s*\(`), argv: []string{"cp"}, paths: 2},
		},
		"rake": {
			{re: m(`(?m)(?:^|[^\w.:])(?:sh|safe_system)\b\s*\(?`), shell: true},
			{re: m(`(?m)(?:^|[^\w.:])ruby\b\s*\(?`), argv: []string{"ruby"}, paths: 1},
		},
	}
})

// rustCommand matches Command::new(PROGRAM) and the .arg/.args calls
// chained to it.
var rustCommand = func() *regexp.Regexp { return rustCommandLazy.get() }
var rustCommandLazy = lazy[*regexp.Regexp]{f: func() *regexp.Regexp { return regexp.MustCompile(`\bCommand::new\s*\(`) }}
var rustArg = func() *regexp.Regexp { return rustArgLazy.get() }
var rustArgLazy = lazy[*regexp.Regexp]{f: func() *regexp.Regexp { return regexp.MustCompile(`^\s*\.\s*(args?)\s*\(\s*&?`) }}

// moreCode walks the calls of moreOps in code of lang, and for Rust the
// commands std::process::Command builds.
func (w *walker) moreCode(c *ctx, lang, code string, sc *scope) {
	if lang == "rake" {
		w.code(c, "ruby", code, sc)
	}
	prev := w.inCode
	w.inCode = true
	defer func() { w.inCode = prev }()
	vars := assignments(code)
	for _, o := range moreOps()[lang] {
		for _, m := range o.re.FindAllStringIndex(code, -1) {
			args := evalArgs(parseArgs(code[m[1]:]), vars)
			switch {
			case o.shell:
				w.shellCall(c, "ruby", args, sc)
			case lang == "rust" && o.argv[0] == "tee" && len(args) > 0 && !args[0].lit:
				// a build script's generated file: OUT_DIR's, computed
			case len(args) > 0:
				w.synthetic(c, o.argv, args[:min(o.paths, len(args))], sc)
			}
		}
	}
	if lang != "rust" {
		return
	}
	for _, m := range rustCommand().FindAllStringIndex(code, -1) {
		rest := code[m[1]:]
		argv := evalArgs(parseArgs(rest), vars)
		if len(argv) == 0 {
			continue
		}
		argv = argv[:1]
		k := closeParen(rest)
		for k >= 0 {
			rest = rest[k+1:]
			a := rustArg().FindStringSubmatchIndex(rest)
			if a == nil {
				break
			}
			more := evalArgs(parseArgs(rest[a[1]:]), vars)
			if rest[a[2]:a[3]] == "args" && len(more) > 0 && more[0].list != nil {
				argv = append(argv, more[0].list...)
			} else if len(more) > 0 {
				argv = append(argv, more[0])
			}
			rest = rest[a[1]:]
			k = closeParen(rest)
		}
		w.shellCall(c, "rust", []codeArg{{list: argv}}, sc)
	}
}

// noxSessions returns the sessions nox -s (--session, --sessions, -e)
// names, or nil for all of them.
func noxSessions(args []Word) []string {
	var out []string
	in := false
	for _, a := range args {
		s, ok := a.Value()
		switch {
		case !ok:
			return nil // a computed one may be any
		case s == "-s" || s == "--session" || s == "--sessions" || s == "-e":
			in = true
		case strings.HasPrefix(s, "--session=") || strings.HasPrefix(s, "--sessions="):
			_, v, _ := strings.Cut(s, "=")
			out = append(out, strings.Split(v, ",")...)
		case s == "-k" || s == "--keywords" || s == "-t" || s == "--tags":
			return nil
		case strings.HasPrefix(s, "-"):
			in = false
		case in:
			out = append(out, strings.Split(s, ",")...)
		}
	}
	return out
}

// invokeTasks returns the tasks invoke runs (its words that are no
// options, before --), or nil for a computed one.
func invokeTasks(args []Word) []string {
	var out []string
	for i, a := range args {
		s, ok := a.Value()
		switch {
		case !ok:
			return nil
		case s == "--":
			return out
		case s == "-r" || s == "--search-root" || s == "-c" || s == "--collection" || s == "-f" || s == "--config":
			if i+1 < len(args) {
				args[i+1] = Word{} // the option's value
			}
		case s == "" || strings.HasPrefix(s, "-"):
		default:
			out = append(out, strings.ReplaceAll(s, "-", "_"))
		}
	}
	return out
}

// pyTasks walks the Python file of a task runner (nox's noxfile.py,
// invoke's tasks.py): its module code, and the bodies of the functions
// decorated as its tasks (deco) that run: those named, or all when names
// is nil, and the tasks their code names (pre=[clean], clean(c)).
func (w *walker) pyTasks(c *ctx, sc *scope, file, base, deco string, names []string) {
	p, text, ok := w.nearest(sc.cwd, file, base)
	if !ok {
		return
	}
	if names != nil {
		text = pySelect(text, deco, names)
	}
	nsc := sc.child()
	nsc.setCwd(filepath.Dir(p))
	prev := w.file
	w.file = p
	w.code(c, "python", text, nsc)
	w.file = prev
}

// pyBlock is a top-level def of a Python file with its decorators.
type pyBlock struct {
	name       string
	start, end int // byte offsets of the decorators' start and the body's end
	task       bool
}

// pySelect returns text without the top-level functions that run neither
// as a task named (a function decorated with deco, @nox.session, @task)
// nor by the code kept (the module's own, the tasks named: pre=[clean],
// clean(c), a helper they call). A task whose decorator names it
// (name="x", aliases=…) is kept.
func pySelect(text, deco string, names []string) string {
	lines := strings.SplitAfter(text, "\n")
	var blocks []pyBlock
	off := 0
	decoStart, decoTask, decoNamed := -1, false, false
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		switch {
		case strings.HasPrefix(l, "@"):
			if decoStart < 0 {
				decoStart = off
			}
			if strings.Contains(l, deco) {
				decoTask = true
			}
			if strings.Contains(l, "name=") || strings.Contains(l, "aliases") {
				decoNamed = true
			}
		case strings.HasPrefix(l, "def ") || strings.HasPrefix(l, "async def "):
			name := strings.TrimPrefix(strings.TrimPrefix(l, "async "), "def ")
			if k := strings.IndexAny(name, "( :"); k >= 0 {
				name = name[:k]
			}
			start := off
			if decoStart >= 0 {
				start = decoStart
			}
			end := off + len(l)
			for i+1 < len(lines) {
				n := lines[i+1]
				if t := strings.TrimSpace(n); t != "" && n[0] != ' ' && n[0] != '\t' && n[0] != '#' && n[0] != ')' {
					break
				}
				i++
				end += len(n)
			}
			if decoNamed {
				name = "" // a task of another name: kept
			}
			blocks = append(blocks, pyBlock{name: name, start: start, end: end, task: decoTask})
			off = end
			decoStart, decoTask, decoNamed = -1, false, false
			continue
		default:
			if strings.TrimSpace(l) != "" && l[0] != ' ' && l[0] != '\t' && l[0] != '#' && l[0] != ')' && l[0] != ']' {
				decoStart, decoTask, decoNamed = -1, false, false // code between: not the decorators of a def
			}
		}
		off += len(l)
	}
	keep := map[string]bool{}
	for _, n := range names {
		keep[n] = true
	}
	kept := func(b pyBlock) bool { return keep[b.name] || b.name == "" }
	for changed := true; changed; {
		changed = false
		var in strings.Builder
		last := 0
		for _, b := range blocks {
			in.WriteString(text[last:b.start])
			if kept(b) {
				in.WriteString(text[b.start:b.end])
			}
			last = b.end
		}
		in.WriteString(text[last:])
		all := in.String()
		for _, b := range blocks {
			if !keep[b.name] && pyNames(all, b.name) {
				keep[b.name] = true
				changed = true
			}
		}
		if !changed {
			return all
		}
	}
	return text
}

// pyNames reports whether name occurs in code as a word.
func pyNames(code, name string) bool {
	for i := 0; ; {
		k := strings.Index(code[i:], name)
		if k < 0 {
			return false
		}
		a, b := i+k, i+k+len(name)
		if (a == 0 || !isWordByte(code[a-1])) && (b == len(code) || !isWordByte(code[b])) {
			return true
		}
		i = b
	}
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
