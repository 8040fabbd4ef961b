package completion

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/ralph-hooks/ralph-hooks/internal/testindex"
	"github.com/ralph-hooks/ralph-hooks/internal/treeview"
)

// Inputs are the digests of what decides whether the completion command
// passes, by what they are of ("Makefile", "pyproject.toml
// [tool.pytest.ini_options]", "build constraint of calc/calc_test.go").
type Inputs map[string]string

// maxInput bounds the files read for a digest; a larger one is digested by
// its size and modification time.
const maxInput = 4 << 20

// Collect digests what decides the outcome of command in the project at
// root, whose census is idx:
//
//   - the project's files the command names by path (a script it runs),
//     and, after the start, a program it runs by name put on PATH since,
//     or a runner put in node_modules/.bin or a virtual environment's bin
//     since (see [projectRunners]), and a .pth file, sitecustomize or
//     pytest plugin put in a Python site directory since (see
//     [pythonStartup]), and the installed code the tests load changed
//     since: the runners' and the imported packages' in node_modules and
//     the site directories, the files of vendor/ (see [installedCode]);
//   - the recipe files the command runs through: Makefile, GNUmakefile or
//     makefile when it runs make, the justfile when it runs just,
//     package.json's scripts when it runs npm, yarn, pnpm or bun; the
//     files a makefile includes and the scripts the recipes run (see
//     [recipeFiles]);
//   - the runners' configuration: pytest.ini, .pytest.ini, tox.ini,
//     setup.cfg's [tool:pytest], pyproject.toml's
//     [tool.pytest.ini_options] and conftest.py, at the root and in the
//     directories above the census's Python files (see [pytestDirs]),
//     jest, vitest, vite and mocha config files and package.json's jest
//     key, .npmrc and .yarnrc(.yml) in an npm project (see
//     [packageManagerInputs]), Cargo.toml's target, workspace, [patch]
//     and [replace] sections and its workspace members' (see
//     [cargoInputs]), Maven's and Gradle's test configuration (see
//     [jvmInputs]), .cargo/config(.toml), cargo nextest's
//     .config/nextest.toml (its retries, its default-filter), karma.conf.*,
//     build.rs, .rspec and rspec's and minitest's
//     helpers (spec/spec_helper.rb, spec/rails_helper.rb,
//     test/test_helper.rb, and spec/support/**/*.rb, which spec_helper
//     loads by a glob); the project's files these name
//     (setup files, transforms, mappers' targets, -p plugins: see
//     [namedFiles]);
//   - Go: go.work (the project's, else the one above it go finds: see
//     [goWorkAbove]), go.mod's module, go and toolchain lines, its replace
//     and godebug lines and the Go files of a replace target outside the
//     project (see [goModInputs]), the go env file
//     (go env -w), the build constraints of every Go test file, a go.mod
//     nested above a Go test file (go test ./... does not enter it), and the
//     code that can end the test binary or choose its tests before they
//     run (see [goStart]);
//   - the lines of the code under test that ask whether it runs under a
//     test runner (see [testChecksIn]);
//   - the lines of the Python, Ruby and Rust files, tests included, that
//     can end a test run's process (see [exitsIn]).
//
// What is missing is left out: a file that appears later is a change.
//
// With base, the digests of an earlier Collect at time since, a Go file
// whose status change time (ctime, which cannot be set back as the
// modification time can) is before since is not read again: its init and
// TestMain digests are base's.
func Collect(root, command string, idx testindex.Index, base Inputs, since time.Time) Inputs {
	return CollectView(treeview.Open(root, ""), command, idx, base, since)
}

// CollectView is Collect over a view of the tree (package treeview): the
// Go files are listed from it, and a file whose status change time is
// older than since by more than [treeview.Margin] is not read again, its
// digests taken from base.
func CollectView(v *treeview.View, command string, idx testindex.Index, base Inputs, since time.Time) Inputs {
	root := v.Root()
	in := Inputs{}
	file := func(rel string) {
		if d := digestFile(filepath.Join(root, filepath.FromSlash(rel))); d != "" {
			in[rel] = d
		}
	}
	words := commandWords(command)
	commandFiles(root, command, file) // scripts.go
	shadowed(command, since, in)
	projectRunners(root, since, in) // bins.go
	if pythonic(words, idx) {
		pythonStartup(root, since, in) // bins.go
	}
	installedCode(root, words, idx, since, in) // installed.go
	if words["make"] || words["gmake"] {
		for _, f := range []string{"Makefile", "GNUmakefile", "makefile"} {
			file(f)
		}
	}
	if words["just"] {
		for _, f := range []string{"justfile", "Justfile", ".justfile"} {
			file(f)
		}
	}
	recipeFiles(root, command, words, idx, file) // recipes.go

	configs := map[string][]byte{} // the runners' configuration, for namedFiles
	pkg, _ := readSmall(filepath.Join(root, "package.json"))
	if pkg != nil {
		packageManagerInputs(root, in) // npmrc.go

		babelInputs(pkg, idx, file, in) // babel.go
		if words["npm"] || words["yarn"] || words["pnpm"] || words["bun"] {
			in.add("package.json scripts", []byte(gjson.GetBytes(pkg, "scripts").Raw))
		}
		for _, k := range []string{"jest", "vitest", "mocha"} {
			if v := gjson.GetBytes(pkg, k); v.Exists() {
				in.add("package.json "+k, []byte(v.Raw))
				configs["package.json "+k] = []byte(v.Raw)
			}
		}
	}
	for _, f := range []string{"pytest.ini", "tox.ini", ".mocharc.js", ".mocharc.cjs", ".mocharc.json", ".mocharc.yml", ".mocharc.yaml",
		".cargo/config", ".cargo/config.toml", ".config/nextest.toml", "build.rs", "go.work",
		".rspec", ".rspec-local", "spec/spec_helper.rb", "spec/rails_helper.rb", "test/test_helper.rb"} {
		file(f)
		if f == "pytest.ini" || f == "tox.ini" || strings.HasPrefix(f, ".mocharc") || strings.HasPrefix(f, ".rspec") {
			if src, _ := readSmall(filepath.Join(root, f)); src != nil {
				configs[f] = src
			}
		}
	}
	if ents, err := os.ReadDir(root); err == nil {
		for _, e := range ents {
			n := e.Name()
			for _, pre := range []string{"jest.config.", "vitest.config.", "vitest.workspace.", "vite.config.", "karma.conf."} {
				if strings.HasPrefix(n, pre) {
					file(n)
					if src, _ := readSmall(filepath.Join(root, n)); src != nil {
						configs[n] = src
					}
				}
			}
		}
	}
	section := func(rel, label string, keep func(header string) bool) []string {
		src, _ := readSmall(filepath.Join(root, filepath.FromSlash(rel)))
		if src == nil {
			return nil
		}
		s := tomlSections(src, keep)
		if len(s) > 0 {
			in.add(rel+" "+label, []byte(strings.Join(s, "")))
			if !strings.HasSuffix(rel, "Cargo.toml") {
				configs[rel+" "+label] = []byte(strings.Join(s, ""))
			}
		}
		return s
	}
	config := func(rel string) {
		file(rel)
		if src, _ := readSmall(filepath.Join(root, filepath.FromSlash(rel))); src != nil {
			configs[rel] = src
		}
	}
	pytestIn("", config, file, section) // pytestdirs.go
	if pythonic(words, idx) {
		for _, d := range pytestDirs(idx) {
			pytestIn(d, config, file, section)
		}
		pytestAbove(root, in, config, file, section) // pytestabove.go
	}
	cargoInputs(root, "", section) // cargo.go
	jvmInputs(root, file, in)      // jvm.go
	namedFiles(root, configs, in)  // named.go
	supportTree(v, "spec/support", ".rb", file)
	if src, _ := readSmall(filepath.Join(root, "go.mod")); src != nil {
		var keep []byte
		for _, l := range bytes.Split(src, []byte("\n")) {
			t := bytes.TrimSpace(l)
			if bytes.HasPrefix(t, []byte("module")) || bytes.HasPrefix(t, []byte("go ")) || bytes.HasPrefix(t, []byte("toolchain")) {
				keep = append(append(keep, t...), '\n')
			}
		}
		in.add("go.mod module, go and toolchain lines", keep)
		goModInputs(root, src, in) // gomod.go
		goWorkAbove(root, in)      // gowork.go
		if p := goEnvFile(os.Getenv("GOENV")); p != "" {
			// go env -u leaves an empty file where there was none.
			if src, _ := readSmall(p); len(bytes.TrimSpace(src)) > 0 {
				in.add("go env file ("+p+")", src)
			}
		}
	}
	modRoots := map[string]string{} // directory → the nested module root above it, "" for none
	for _, p := range sortedPaths(idx) {
		switch {
		case path.Base(p) == "conftest.py":
			file(p)
		case strings.HasSuffix(p, "_test.go"):
			if d := nestedModule(root, path.Dir(p), modRoots); d != "" {
				in.add("go module root "+d+"/go.mod", []byte(d))
			}
			key := "build constraint of " + p
			if unchanged(v, p, base, since) {
				if d, ok := base[key]; ok {
					in[key] = d
				}
				continue
			}
			if c := buildConstraint(filepath.Join(root, filepath.FromSlash(p))); c != "" {
				in.add("build constraint of "+p, []byte(c))
			}
		}
	}
	goStart(v, idx, in, base, since)      // gostart.go
	testChecksIn(v, idx, in, base, since) // aware.go
	exitsIn(v, in, base, since)           // exits.go
	return in
}

// nestedModule returns the directory of the go.mod nearest above dir
// (relative to root, slash-separated) when it is not root's own: go test
// ./... stops at a nested module's root, so a go.mod written into a
// package's directory leaves its tests out of the run. "" when there is
// none. seen memoizes the answer by directory.
func nestedModule(root, dir string, seen map[string]string) string {
	if dir == "." || dir == "" || dir == "/" {
		return ""
	}
	if d, ok := seen[dir]; ok {
		return d
	}
	d := ""
	if info, err := os.Stat(filepath.Join(root, filepath.FromSlash(dir), "go.mod")); err == nil && info.Mode().IsRegular() {
		d = dir
	} else {
		d = nestedModule(root, path.Dir(dir), seen)
	}
	if len(seen) < 100_000 {
		seen[dir] = d
	}
	return d
}

// Changed returns what differs between base and cur: "Makefile changed",
// "build constraint of a_test.go added", sorted.
func Changed(base, cur Inputs) []string {
	var out []string
	for k, v := range cur {
		switch b, ok := base[k]; {
		case !ok:
			out = append(out, k+" added")
		case b != v:
			out = append(out, k+" changed")
		}
	}
	for k := range base {
		if _, ok := cur[k]; !ok {
			out = append(out, k+" removed")
		}
	}
	sort.Strings(out)
	return out
}

func (in Inputs) add(k string, data []byte) { in[k] = digest(data) }

func digest(data []byte) string {
	s := sha256.Sum256(data)
	return hex.EncodeToString(s[:12])
}

// digestFile digests the regular file at p, "" when there is none.
func digestFile(p string) string {
	info, err := os.Stat(p)
	if err != nil || !info.Mode().IsRegular() {
		return ""
	}
	if info.Size() > maxInput {
		return digest([]byte(info.ModTime().String() + " " + info.Name()))
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return "unreadable: " + err.Error()
	}
	return digest(data)
}

func readSmall(p string) ([]byte, error) {
	info, err := os.Stat(p)
	if err != nil || !info.Mode().IsRegular() || info.Size() > maxInput {
		return nil, err
	}
	return os.ReadFile(p)
}

// commandWords returns the words of command, split at blanks and shell
// operators, with paths cut to their base name ("./node_modules/.bin/jest"
// → "jest").
func commandWords(command string) map[string]bool {
	w := map[string]bool{}
	for _, f := range strings.FieldsFunc(command, func(r rune) bool {
		return strings.ContainsRune(" \t\n;&|()`$\"'<>", r)
	}) {
		w[path.Base(f)] = true
	}
	return w
}

// tomlSections returns the sections of an INI or TOML file whose header
// keep accepts, each with its header, blank lines and comments left out;
// the lines before any header count as the section "[]".
func tomlSections(src []byte, keep func(string) bool) []string {
	var out []string
	var cur strings.Builder
	on := keep("[]")
	flush := func() {
		if on && cur.Len() > 0 {
			out = append(out, cur.String())
		}
		cur.Reset()
	}
	for _, l := range strings.Split(string(src), "\n") {
		t := strings.TrimSpace(l)
		if t == "" || t[0] == '#' || t[0] == ';' {
			continue
		}
		if strings.HasPrefix(t, "[") {
			flush()
			h := t
			if i := strings.LastIndexByte(h, ']'); i > 0 {
				h = h[:i+1]
			}
			on = keep(strings.ReplaceAll(h, " ", ""))
		}
		if on {
			cur.WriteString(t + "\n")
		}
	}
	flush()
	return out
}

// goEnvFile returns the path of the go env file, given the value of
// GOENV: what `go env GOENV` says, without running go.
func goEnvFile(p string) string {
	if p != "" {
		if p == "off" {
			return ""
		}
		return p
	}
	dir, err := os.UserConfigDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "go", "env")
}

// buildConstraint returns the //go:build and // +build lines of the Go
// file at p, which come before its package clause.
func buildConstraint(p string) string {
	f, err := os.Open(p)
	if err != nil {
		return ""
	}
	defer f.Close()
	head := make([]byte, 8<<10)
	n, _ := f.Read(head)
	var out []string
	for _, l := range strings.Split(string(head[:n]), "\n") {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "package ") {
			break
		}
		if strings.HasPrefix(t, "//go:build") || strings.HasPrefix(t, "// +build") {
			out = append(out, t)
		}
	}
	return strings.Join(out, "\n")
}

// unchanged reports whether the file rel has not changed since base was
// collected at since: its status change time, which no agent sets back,
// is older than since by more than treeview.Margin (a change in the tick
// base was collected in is read again).
func unchanged(v *treeview.View, rel string, base Inputs, since time.Time) bool {
	if base == nil {
		return false
	}
	st, ok := v.Stat(rel)
	return ok && st.CTime != 0 && st.CTime < since.Add(-treeview.Margin).UnixNano()
}
