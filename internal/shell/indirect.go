package shell

import (
	"bufio"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
)

// Programs whose command line does not show what they run: make and just
// run their recipes, npm/yarn/pnpm/bun the package's scripts, git an alias
// from its configuration, an interpreter its script file. Where that text
// can be read, it is walked like a script file: what it names literally
// is judged as strictly as a command line, what it computes only warns.

// indirect walks what a build tool or package manager will run, read from
// the project's Makefile, justfile or package.json.
func (w *walker) indirect(c *ctx, name string, args []Word, sc *scope) {
	if name == "npm" || name == "pnpm" || name == "bun" {
		w.pkgSet(c, name, args, sc) // pkgset.go
	}
	if w.a.ReadFile == nil || c.depth >= MaxDepth || !readsProject(name) {
		return
	}
	if w.indirectN++; w.indirectN > maxIndirect {
		// make calling make calling make …: past the bound, what runs
		// is not seen.
		w.opaqueCode(name + " run more than " + strconv.Itoa(maxIndirect) + " times over by recipes and scripts")
		return
	}
	switch name {
	case "make", "gmake", "remake":
		w.make(c, name, args, sc)
	case "just":
		w.just(c, args, sc)
	case "npm", "yarn", "pnpm", "bun":
		w.pkgScripts(c, name, args, sc)
	case "deno", "composer", "task", "go-task":
		w.tasks(c, name, args, sc)
	case "mise", "pdm", "poe", "hatch":
		w.tomlTasks(c, name, args, sc)
	}
	w.toolCode(c, name, args, sc) // toolcode.go
}

// inFile walks text as the shell code of file, run in dir.
func (w *walker) inFile(c *ctx, file, label, text, dir string, sc *scope) {
	nsc := sc.child()
	if dir != "" {
		nsc.setCwd(dir)
	}
	prev := w.file
	w.file = file
	w.runText(&ctx{src: c.src, via: append(append([]string(nil), c.via...), label), depth: c.depth + 1, line: c.line}, text, nsc)
	w.file = prev
}

// readText reads a file the analysis may look into: the project's own
// (ReadFile bounds its size and kind), with what this command line wrote
// to it before (written.go).
func (w *walker) readText(p string) (string, bool) {
	data, err := w.a.ReadFile(p)
	if err != nil || len(data) > maxWritten {
		return w.writtenText(p, "", false)
	}
	return w.writtenText(p, string(data), true)
}

// dirOf returns dir resolved against the scope's directory, or "".
func dirOf(dir string, sc *scope) string {
	switch {
	case dir == "":
		return sc.cwd
	case filepath.IsAbs(dir):
		return filepath.Clean(dir)
	case sc.cwd != "":
		return filepath.Join(sc.cwd, dir)
	}
	return ""
}

// maxIndirect bounds the make, just and package-manager runs read in one
// command line, nested ones included.
const maxIndirect = 16

// maxTargets bounds the make targets and npm scripts followed from one
// command.
const maxTargets = 32

// make walks the recipes make runs: those of the targets named (or the
// first target), and of their prerequisites, from the Makefile of -C DIR
// or -f FILE.
func (w *walker) make(c *ctx, name string, args []Word, sc *scope) {
	o := parseMake(args) // makeopts.go
	if o.computed != "" {
		w.opaque(name + " --eval of text computed at run time")
		return
	}
	dir, targets, evals, vars, all, dry := o.dir, o.targets, o.evals, o.vars, o.all, o.dry
	d := dirOf(dir, sc)
	if d == "" {
		return
	}
	var p string
	var text string
	found := false
	var more [][2]string // the makefiles of a second -f and after
	for _, file := range o.files {
		if file == "-" || file == "/dev/stdin" {
			w.opaque(name + " reading its makefile from standard input")
			return
		}
		q := file
		if !filepath.IsAbs(q) {
			q = filepath.Join(d, q)
		}
		w.changedRun(name+" -f "+file, q) // changed.go
		t, ok := w.readText(q)
		switch {
		case !ok:
		case !found:
			p, text, found = q, t, true
		default:
			more = append(more, [2]string{q, t})
		}
	}
	if len(o.files) == 0 {
		for _, n := range []string{"GNUmakefile", "makefile", "Makefile"} {
			p = filepath.Join(d, n)
			w.changedRun(name+" of "+p, p) // changed.go
			if text, found = w.readText(p); found {
				break
			}
		}
	}
	if !found && len(evals) == 0 && len(w.makefilesVar(sc)) == 0 {
		return
	}
	mf := parseMakefile(text)
	read := [][2]string{{p, text}}
	for _, f := range more {
		mf.merge(parseMakefile(f[1]))
		read = append(read, f)
	}
	if len(evals) > 0 {
		ev := parseMakefile(strings.Join(evals, "\n"))
		ev.merge(mf)
		mf = ev
		if !found {
			p = name + " --eval"
		}
		read = append(read, [2]string{p, strings.Join(evals, "\n")})
	}
	mf.includes = append(w.makefilesVar(sc), mf.includes...) // makeparse.go
	for i := 0; i < len(mf.includes) && i < 8; i++ {
		inc := mf.expand(mf.includes[i], 0)
		if !filepath.IsAbs(inc) {
			inc = filepath.Join(d, inc)
		}
		if t, ok := w.readText(inc); ok {
			mf.merge(parseMakefile(t))
			read = append(read, [2]string{inc, t})
		}
	}
	for k, v := range vars {
		mf.vars[k] = v // command-line variables override the file's
	}
	mf.vars["CURDIR"] = d
	mf.vars["MAKE"] = name
	if g := strings.TrimSpace(mf.vars[".DEFAULT_GOAL"]); g != "" {
		mf.first = g
	}
	if len(targets) == 0 && mf.first != "" {
		targets = []string{mf.first}
	}
	for _, f := range read {
		if f[1] != "" {
			w.makeParseWalk(c, name, f[0], f[1], d, mf, sc) // makeparse.go
		}
	}
	// An included makefile with a rule is remade first, -n or not.
	var remade []string
	for _, inc := range mf.includes {
		if _, ok := mf.rules[mf.expand(inc, 0)]; ok {
			remade = append(remade, mf.expand(inc, 0))
		}
	}
	if dry {
		targets = remade
	} else {
		targets = append(remade, targets...)
	}
	if all {
		for t := range mf.rules {
			targets = append(targets, t)
		}
		slices.Sort(targets)
	}
	seen := map[string]bool{}
	for len(targets) > 0 && len(seen) < maxTargets {
		t := targets[0]
		targets = targets[1:]
		if seen[t] {
			continue
		}
		seen[t] = true
		r, ok := mf.rules[t]
		if !ok {
			r = mf.pattern(t) // %: ; … or %.o: %.c
		}
		if r == nil {
			continue
		}
		targets = append(targets, r.deps...)
		if len(r.recipe) == 0 {
			continue
		}
		// Each recipe line runs in a shell of its own, in make's directory.
		for _, line := range r.recipe {
			w.inFile(c, p, name+" "+t, mf.expand(line, 0), d, sc)
		}
	}
}

type makeRule struct {
	deps   []string
	recipe []string
}

type makefile struct {
	rules    map[string]*makeRule
	vars     map[string]string
	first    string
	includes []string // files named by include, -include, sinclude
	patterns []patternRule
}

// patternRule is a rule whose target holds % (%.o: %.c, or % alone).
type patternRule struct {
	target string
	rule   *makeRule
}

// pattern returns the first pattern rule that makes t, with its recipe
// (its prerequisites, computed from the stem, are left out), or nil.
func (mf *makefile) pattern(t string) *makeRule {
	for _, p := range mf.patterns {
		pre, suf, _ := strings.Cut(p.target, "%")
		if len(t) >= len(pre)+len(suf) && strings.HasPrefix(t, pre) && strings.HasSuffix(t, suf) {
			return &makeRule{recipe: p.rule.recipe}
		}
	}
	return nil
}

// merge adds an included makefile's rules, variables and includes.
func (mf *makefile) merge(o *makefile) {
	for k, r := range o.rules {
		if mf.rules[k] == nil {
			mf.rules[k] = r
			continue
		}
		// A rule named again: make keeps the last recipe (an included
		// file's after the rule, or the rule's after the include) and
		// every prerequisite; both recipes are walked.
		m := *mf.rules[k]
		m.deps = append(slices.Clip(m.deps), r.deps...)
		m.recipe = append(slices.Clip(m.recipe), r.recipe...)
		mf.rules[k] = &m
	}
	for k, v := range o.vars {
		if _, ok := mf.vars[k]; !ok {
			mf.vars[k] = v
		}
	}
	if mf.first == "" {
		mf.first = o.first
	}
	mf.includes = append(mf.includes, o.includes...)
	mf.patterns = append(mf.patterns, o.patterns...)
}

// parseMakefile reads a Makefile's explicit rules (target: prerequisites,
// then tab-indented recipe lines) and simple variables (X = v, X := v,
// X ?= v). Recipe lines lose make's prefixes (@, -, +); continuation lines
// are joined as the shell receives them.
func parseMakefile(text string) *makefile {
	mf := &makefile{rules: map[string]*makeRule{}, vars: map[string]string{"RM": "rm -f", "SHELL": "/bin/sh"}}
	var cur []*makeRule
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 64<<10), maxWritten)
	var lines []string
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		for strings.HasSuffix(line, "\\") && i+1 < len(lines) {
			i++
			if strings.HasPrefix(line, "\t") {
				// In a recipe the shell gets the backslash-newline (make
				// drops the next line's tab).
				line += "\n" + strings.TrimPrefix(lines[i], "\t")
			} else {
				line = line[:len(line)-1] + " " + lines[i]
			}
		}
		if strings.HasPrefix(line, "\t") {
			cmd := strings.TrimLeft(line[1:], " \t")
			cmd = strings.TrimLeft(cmd, "@-+")
			for _, r := range cur {
				r.recipe = append(r.recipe, cmd)
			}
			continue
		}
		trim := strings.TrimSpace(line)
		if trim == "" || strings.HasPrefix(trim, "#") {
			continue
		}
		if f := strings.Fields(trim); len(f) > 1 && (f[0] == "include" || f[0] == "-include" || f[0] == "sinclude") {
			mf.includes = append(mf.includes, f[1:]...)
			cur = nil
			continue
		}
		if m := makeAssign().FindStringSubmatch(trim); m != nil {
			cur = nil
			if m[2] == "?=" {
				if _, ok := mf.vars[m[1]]; ok {
					continue
				}
			}
			if m[2] == "+=" {
				mf.vars[m[1]] = strings.TrimSpace(mf.vars[m[1]] + " " + m[3])
				continue
			}
			mf.vars[m[1]] = strings.TrimSpace(m[3])
			continue
		}
		k := strings.Index(trim, ":")
		if k <= 0 || strings.HasPrefix(trim[k:], ":=") || strings.HasPrefix(trim, "ifeq") || strings.HasPrefix(trim, "define") {
			cur = nil
			continue
		}
		rest := strings.TrimPrefix(trim[k+1:], ":") // a double-colon rule
		deps, inline, _ := strings.Cut(rest, ";")
		cur = nil
		for _, t := range strings.Fields(trim[:k]) {
			if strings.Contains(t, "%") {
				r := &makeRule{}
				if strings.TrimSpace(inline) != "" {
					r.recipe = append(r.recipe, strings.TrimLeft(strings.TrimSpace(inline), "@-+"))
				}
				if len(mf.patterns) < maxTargets {
					mf.patterns = append(mf.patterns, patternRule{t, r})
				}
				cur = append(cur, r)
				continue
			}
			r := mf.rules[t]
			if r == nil {
				r = &makeRule{}
				mf.rules[t] = r
			}
			r.deps = append(r.deps, strings.Fields(deps)...)
			if strings.TrimSpace(inline) != "" {
				r.recipe = append(r.recipe, strings.TrimLeft(strings.TrimSpace(inline), "@-+"))
			}
			cur = append(cur, r)
			if mf.first == "" && !strings.HasPrefix(t, ".") {
				mf.first = t
			}
		}
	}
	return mf
}

var makeAssign = func() *regexp.Regexp { return makeAssignLazy.get() }
var makeAssignLazy = lazy[*regexp.Regexp]{f: func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:export\s+|override\s+)?([A-Za-z_.][A-Za-z0-9_.-]*)\s*(:::=|::=|:=|\?=|\+=|!=|=)\s*(.*)$`)
}}

var makeRef = func() *regexp.Regexp { return makeRefLazy.get() }
var makeRefLazy = lazy[*regexp.Regexp]{f: func() *regexp.Regexp {
	return regexp.MustCompile(`\$\$|\$\(([^()]*)\)|\$\{([^{}]*)\}|\$([@<^?*%])`)
}}

// expand replaces make's variable references in a recipe: $$ is $, a
// known variable its value, $(shell CMD) a command substitution, and an
// unknown one a shell variable (computed at run time).
func (mf *makefile) expand(s string, depth int) string {
	budget := maxExpand
	return mf.expandIn(s, depth, &budget)
}

// makeName turns a make variable's name into a shell variable's.
var makeName = func() *strings.Replacer { return makeNameLazy.get() }
var makeNameLazy = lazy[*strings.Replacer]{f: func() *strings.Replacer {
	return strings.NewReplacer("@", "AT", "<", "LT", "^", "UP", "?", "Q", "*", "STAR", "%", "PCT", " ", "_", ".", "_",
		"-", "_", ",", "_", "(", "_", ")", "_", "$", "_", "{", "_", "}", "_", ":", "_", "=", "_", "/", "_")
}}

// maxExpand bounds the bytes one recipe line's variables expand to.
const maxExpand = 4 << 10

// expandIn expands with a budget of bytes, so that X = $(X)$(X)… cannot
// grow without bound.
func (mf *makefile) expandIn(s string, depth int, budget *int) string {
	*budget -= len(s)
	if *budget < 0 {
		return "${MAKE_TOO_LONG}" // computed, as far as ralph can tell
	}
	return makeRef().ReplaceAllStringFunc(s, func(m string) string {
		if m == "$$" {
			return "$"
		}
		name := strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(m, "$("), "${"), ")")
		name = strings.TrimSuffix(name, "}")
		if strings.HasPrefix(name, "shell ") {
			return "$(" + strings.TrimPrefix(name, "shell ") + ")"
		}
		if v, ok := mf.vars[name]; ok && depth < 8 && *budget > 0 {
			return mf.expandIn(v, depth+1, budget)
		}
		return "${MAKE_" + makeName().Replace(name) + "}"
	})
}

// just walks the recipes just runs: the ones named (or the first), and
// the recipes they depend on, from the justfile of the directory.
func (w *walker) just(c *ctx, args []Word, sc *scope) {
	dir, file := "", ""
	var targets, pos []string
	all := false
	for i := 0; i < len(args); i++ {
		s, ok := args[i].Value()
		if !ok {
			all = len(targets) == 0 // the recipe computed: any of them
			continue
		}
		switch {
		case (s == "-f" || s == "--justfile") && i+1 < len(args):
			file = args[i+1].Lit()
			i++
		case strings.HasPrefix(s, "--justfile="):
			file = strings.TrimPrefix(s, "--justfile=") // justmore.go: the glued forms
		case strings.HasPrefix(s, "-f") && len(s) > 2 && !strings.HasPrefix(s, "--"):
			file = s[2:]
		case (s == "-d" || s == "--working-directory") && i+1 < len(args):
			dir = args[i+1].Lit()
			i++
		case strings.HasPrefix(s, "--working-directory="):
			dir = strings.TrimPrefix(s, "--working-directory=")
		case s == "-n" || s == "--dry-run" || s == "-l" || s == "--list" || s == "--summary" || s == "--show" || s == "-s" || s == "--evaluate":
			return
		case strings.HasPrefix(s, "-"):
		case strings.Contains(s, "="):
		default:
			if len(targets) == 0 {
				targets = append(targets, s) // the recipe; the rest are its arguments
			} else if len(pos) == 0 {
				pos = append(pos, s) // a module's recipe (just MOD RECIPE): justmore.go
			}
		}
	}
	d := dirOf(dir, sc)
	if d == "" {
		return
	}
	p := file
	if p == "" {
		p = "justfile"
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(d, p)
	}
	text, ok := w.readText(p)
	if !ok && file == "" {
		p = filepath.Join(d, "Justfile")
		text, ok = w.readText(p)
	}
	if !ok {
		return
	}
	p, text, targets = w.justMore(p, text, targets, pos) // justmore.go
	recipes, first := parseJustfile(text)
	if len(targets) == 0 {
		targets = []string{first}
	}
	if all {
		for t := range recipes {
			targets = append(targets, t)
		}
		slices.Sort(targets)
	}
	seen := map[string]bool{}
	for len(targets) > 0 && len(seen) < maxTargets {
		t := targets[0]
		targets = targets[1:]
		r, ok := recipes[t]
		if seen[t] || !ok {
			continue
		}
		seen[t] = true
		targets = append(targets, r.deps...)
		body := justInterp().ReplaceAllString(strings.Join(r.recipe, "\n"), "$${JUST_$1}")
		w.inFile(c, p, "just "+t, body, d, sc)
	}
}

var justInterp = func() *regexp.Regexp { return justInterpLazy.get() }
var justInterpLazy = lazy[*regexp.Regexp]{f: func() *regexp.Regexp { return regexp.MustCompile(`\{\{\s*([A-Za-z_]\w*)?[^}]*\}\}`) }}

// parseJustfile reads a justfile's recipes: "name args: deps" at the
// start of a line, the indented lines after it its body.
func parseJustfile(text string) (map[string]*makeRule, string) {
	recipes := map[string]*makeRule{}
	first := ""
	var cur *makeRule
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t") {
			if cur != nil && strings.TrimSpace(line) != "" {
				cur.recipe = append(cur.recipe, strings.TrimLeft(strings.TrimSpace(line), "@-"))
			}
			continue
		}
		cur = nil
		trim := strings.TrimSpace(line)
		if trim == "" || strings.HasPrefix(trim, "#") || strings.HasPrefix(trim, "[") || strings.Contains(trim, ":=") {
			continue
		}
		head, deps, ok := strings.Cut(trim, ":")
		if !ok {
			continue
		}
		f := strings.Fields(strings.TrimLeft(head, "@"))
		if len(f) == 0 || strings.HasPrefix(f[0], "set") || f[0] == "alias" || f[0] == "import" || f[0] == "mod" || f[0] == "export" {
			continue
		}
		cur = &makeRule{}
		for _, d := range strings.Fields(deps) {
			if d != "&&" {
				cur.deps = append(cur.deps, strings.Trim(d, "()"))
			}
		}
		recipes[f[0]] = cur
		if first == "" {
			first = f[0]
		}
	}
	return recipes, first
}

// npmBuiltins are npm, yarn and pnpm commands that are not scripts.
var npmBuiltins map[string]bool

// pkgScripts walks the package.json scripts npm, yarn, pnpm or bun will
// run: the one named (npm run X, yarn X, npm test), with its pre and post
// scripts, and the install scripts of a bare install.
func (w *walker) pkgScripts(c *ctx, name string, args []Word, sc *scope) {
	dir := ""
	var words []string
	computed := false // a script named at run time: it may be any of them
	filtered := false // run in workspace packages (--filter, yarn workspaces foreach)
	for i := 0; i < len(args); i++ {
		s, ok := args[i].Value()
		if !ok {
			computed = true
			words = append(words, "\x00")
			continue
		}
		switch {
		case (s == "--prefix" || s == "-C" || s == "--cwd" || s == "--dir") && i+1 < len(args):
			dir = args[i+1].Lit()
			i++
		case strings.HasPrefix(s, "--prefix=") || strings.HasPrefix(s, "--cwd=") || strings.HasPrefix(s, "--dir="):
			dir = s[strings.Index(s, "=")+1:]
		case s == "--script-shell" && i+1 < len(args):
			// The program every script runs through, as SHELL -c SCRIPT.
			w.exec(c.with(name+" --script-shell"), []Word{args[i+1]}, sc, nil, nil)
			i++
		case strings.HasPrefix(s, "--script-shell="):
			v := strings.TrimPrefix(s, "--script-shell=")
			w.exec(c.with(name+" --script-shell"), []Word{{Raw: v, Values: []string{v}}}, sc, nil, nil)
		case name == "npm" && (s == "-c" || s == "--call") && i+1 < len(args):
			w.joinedOne(c.with(name+" exec -c"), args[i+1], sc) // npm exec -c 'CMD'
			i++
		case (s == "--filter" || s == "-F") && i+1 < len(args):
			filtered = true // pnpm, bun: the workspace packages it selects
			i++
		case strings.HasPrefix(s, "--filter="):
			filtered = true
		case name == "pnpm" && (s == "-r" || s == "--recursive"), name == "npm" && (s == "--workspaces" || s == "-ws" || strings.HasPrefix(s, "--workspace=")):
			filtered = true
		case name == "npm" && (s == "-w" || s == "--workspace") && i+1 < len(args):
			filtered = true
			i++
		case s == "--":
			i = len(args)
		case strings.HasPrefix(s, "-"):
		default:
			words = append(words, s)
		}
	}
	// yarn workspaces foreach [run] X, yarn workspace NAME [run] X: the
	// script of the workspace packages.
	switch {
	case name == "yarn" && len(words) > 1 && words[0] == "workspaces" && words[1] == "foreach":
		words, filtered = words[2:], true
	case name == "yarn" && len(words) > 1 && words[0] == "workspace":
		words, filtered = words[2:], true
	}
	if filtered {
		if len(words) > 0 && (words[0] == "run" || words[0] == "run-script") {
			words = words[1:]
		}
		if len(words) > 0 {
			w.workspaceScripts(c.with(name), words[0], sc)
		}
		return
	}
	var scripts []string
	sub := ""
	if len(words) > 0 {
		sub = words[0]
	}
	switch {
	case sub == "run" || sub == "run-script" || sub == "rum" || sub == "urn":
		if len(words) > 1 {
			scripts = []string{"pre" + words[1], words[1], "post" + words[1]}
		}
	case sub == "test" || sub == "t" || sub == "tst" || sub == "start" || sub == "stop" || sub == "restart":
		s := map[string]string{"t": "test", "tst": "test"}[sub]
		if s == "" {
			s = sub
		}
		scripts = []string{"pre" + s, s, "post" + s}
	case sub == "" && name == "yarn", sub == "install" || sub == "i" || sub == "ci" || sub == "in" || sub == "isntall":
		if len(words) <= 1 {
			scripts = []string{"preinstall", "install", "postinstall", "prepublish", "preprepare", "prepare", "postprepare"}
		}
	case name != "npm" && !npmBuiltins[sub] && sub != "":
		// yarn X, pnpm X, bun X: a script when the package has one.
		scripts = []string{"pre" + sub, sub, "post" + sub}
	}
	if sub == "\x00" || computed && len(scripts) > 0 && slices.Contains(scripts, "\x00") {
		scripts = []string{"*"}
	}
	if len(scripts) == 0 {
		return
	}
	d := dirOf(dir, sc)
	if d == "" {
		return
	}
	// The nearest package.json, as npm finds it.
	var p, text string
	for at := d; ; at = filepath.Dir(at) {
		p = filepath.Join(at, "package.json")
		w.changedRun(name+" "+strings.Join(scripts, " ")+" of "+p, p) // changed.go
		if t, ok := w.readText(p); ok {
			text, d = t, at
			break
		}
		if filepath.Dir(at) == at {
			return
		}
	}
	if scripts[0] == "*" {
		scripts = nil
		gjson.Get(text, "scripts").ForEach(func(k, _ gjson.Result) bool {
			scripts = append(scripts, k.String())
			return len(scripts) < maxTargets
		})
	}
	for _, s := range scripts {
		body := gjson.Get(text, "scripts."+gjsonKey(s))
		if body.Type != gjson.String || body.Str == "" {
			continue
		}
		w.inFile(c, p, name+" run "+s, body.Str, d, sc)
	}
}

// gjsonKey escapes a script name for a gjson path.
func gjsonKey(s string) string {
	return strings.NewReplacer(".", `\.`, "*", `\*`, "?", `\?`, "|", `\|`, "#", `\#`, "@", `\@`).Replace(s)
}

// gitBuiltins are git's own commands, which no alias can replace: for the
// rest, the alias is looked up in git's configuration.
var gitBuiltins = func() []string { return gitBuiltinsLazy.get() }
var gitBuiltinsLazy = lazy[[]string]{f: func() []string {
	return strings.Fields(`add am annotate apply archive bisect blame branch bundle cat-file check-attr
check-ignore check-mailmap check-ref-format checkout checkout-index cherry cherry-pick citool clean clone
column commit commit-graph commit-tree config count-objects credential describe diff diff-files diff-index
diff-tree difftool fast-export fast-import fetch fetch-pack filter-branch fmt-merge-msg for-each-ref
for-each-repo format-patch fsck gc get-tar-commit-id grep gui hash-object help hook index-pack init
interpret-trailers log ls-files ls-remote ls-tree mailinfo mailsplit maintenance merge merge-base merge-file
merge-index merge-tree mergetool mktag mktree multi-pack-index mv name-rev notes pack-objects pack-refs
prune prune-packed pull push range-diff read-tree rebase receive-pack reflog remote repack replace
request-pull rerere reset restore rev-list rev-parse revert rm send-email send-pack shortlog show
show-branch show-index show-ref sparse-checkout stage stash status stripspace submodule switch symbolic-ref
tag unpack-file unpack-objects update-index update-ref update-server-info upload-archive upload-pack var
verify-commit verify-pack verify-tag version whatchanged worktree write-tree lfs flow`)
}}

// gitIndirect judges what git will run from its configuration: the alias
// a subcommand names (git zap, after git config alias.zap '!rm -rf .aiwg'),
// and what git config sets as an alias or a command git runs (judged when
// it is set, since it runs later unseen).
func (w *walker) gitIndirect(c *ctx, args []Word, sc *scope) {
	cfg, sub, rest := gitConfig(args, sc)
	if sub == "" {
		return
	}
	if sub == "config" {
		w.gitConfigSet(c, rest, sc)
		return
	}
	if _, ok := cfg["alias."+sub]; ok || slices.Contains(gitBuiltins(), sub) || w.a.GitConfig == nil || c.depth >= MaxDepth {
		return
	}
	for _, k := range []string{"HOME", "XDG_CONFIG_HOME", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_DIR", "GIT_COMMON_DIR", "GIT_CONFIG"} {
		v, set := sc.vars[k]
		outside := ""
		if w.a.Env != nil {
			outside = w.a.Env(k)
		}
		if set && (v.dynamic || len(v.vals) != 1 || v.vals[0] != outside) {
			// The command points git at another configuration: its
			// aliases are not the ones ralph can read.
			w.opaque("git " + sub + " with " + k + " set, so its aliases cannot be read")
			return
		}
	}
	dir := sc.cwd
	for i := 0; i < len(args); i++ { // git -C DIR
		if args[i].Lit() == "-C" && i+1 < len(args) {
			dir = dirOf(args[i+1].Lit(), &scope{cwd: dir})
		}
	}
	v, ok := w.a.GitConfig(dir, "alias."+sub)
	if !ok || v == "" {
		return
	}
	label := "git alias " + sub + " (git config)"
	if strings.HasPrefix(v, "!") {
		// A shell alias runs at the top of the work tree.
		nsc := sc.child()
		nsc.setCwd(w.gitTop(dir))
		words := []Word{{Raw: v[1:], Values: []string{v[1:]}}}
		w.joined(c.with(label), append(words, rest...), nsc, nil)
		return
	}
	argv := []Word{{Raw: "git", Values: []string{"git"}}}
	for _, f := range strings.Fields(v) {
		argv = append(argv, Word{Raw: f, Values: []string{f}})
	}
	ac := c.with(label)
	ac.depth++
	w.exec(ac, append(argv, rest...), sc, nil, nil)
}

// gitConfigSet judges git config KEY VALUE (also --add, set, --global …)
// when KEY is an alias or a setting whose value git runs as a command.
func (w *walker) gitConfigSet(c *ctx, args []Word, sc *scope) {
	var ops []string
	for i := 0; i < len(args); i++ {
		s := args[i].Lit()
		switch {
		case s == "-f" || s == "--file" || s == "--blob" || s == "--type" || s == "--comment" || s == "--value" || s == "--default":
			i++
		case strings.HasPrefix(s, "-"):
		default:
			if v, ok := args[i].Value(); ok {
				ops = append(ops, v)
			} else {
				ops = append(ops, "\x00")
			}
		}
	}
	if len(ops) > 0 && (ops[0] == "set" || ops[0] == "add") {
		ops = ops[1:]
	}
	if len(ops) < 2 {
		return
	}
	key, val := ops[0], ops[1]
	sect, name, _ := strings.Cut(key, ".")
	switch {
	case strings.EqualFold(sect, "alias"):
		if val == "\x00" {
			w.opaque("git config " + key + " set to a computed value")
			return
		}
		label := "git config alias." + name
		if strings.HasPrefix(val, "!") {
			nsc := sc.child()
			if top := w.gitTop(sc.cwd); top != "" && w.a.ReadFile != nil {
				nsc.setCwd(top) // where git will run it
			}
			w.scriptAt(val[1:], nsc, c.with(label).via, c.depth+1, c.line)
			return
		}
		argv := []Word{{Raw: "git", Values: []string{"git"}}}
		for _, f := range strings.Fields(val) {
			argv = append(argv, Word{Raw: f, Values: []string{f}})
		}
		ac := c.with(label)
		ac.depth++
		if c.depth < MaxDepth {
			w.exec(ac, argv, sc, nil, nil)
		}
	case gitInclude(key):
		w.opaque("the settings git will read from " + strings.ReplaceAll(val, "\x00", "a computed file") + " (git config " + key + "): aliases, pagers and filters there run programs")
	case GitCommandKey(key) || strings.EqualFold(key, "core.hookspath"):
		if val == "\x00" {
			w.opaque("git config " + key + " set to a computed value")
			return
		}
		if strings.EqualFold(key, "core.hookspath") {
			return // a directory of hooks: rule git-exec (package risk) asks
		}
		w.gitCommand(c, "git config "+strings.ToLower(key), value{vals: []string{strings.TrimPrefix(val, "!")}}, sc)
	}
}

// interpFile walks a script file an interpreter runs (python x.py, node
// x.js, ruby x.rb, perl x.pl), read from the project like a shell script
// file: its literal deletions and writes are judged, what it computes only
// warns.
func (w *walker) interpFile(c *ctx, lang, name string, arg Word, sc *scope) {
	if w.a.ReadFile == nil || w.file != "" || c.depth >= MaxDepth {
		return
	}
	v, ok := arg.Value()
	if !ok || vendored(v) {
		return
	}
	p := v
	if !filepath.IsAbs(p) {
		if sc.cwd == "" {
			return
		}
		p = filepath.Join(sc.cwd, p)
	}
	if vendored(p) {
		return
	}
	w.changedRun(name+" "+v, p) // changed.go
	text, ok := w.readText(p)
	if !ok {
		return
	}
	prev := w.file
	w.file = p
	w.code(c.with(name+" "+path.Base(p)), lang, text, sc)
	w.file = prev
}

// vendored reports whether a script path lies in installed dependencies
// (node_modules, a virtualenv, site-packages, vendor): tools, not the
// project's code.
func vendored(p string) bool {
	// By path element, with no string built: go test asks of every Go file.
	for d := range strings.SplitSeq(filepath.ToSlash(p), "/") {
		switch d {
		case "node_modules", ".venv", "venv", "site-packages", "dist-packages", "vendor", ".tox", ".nox":
			return true
		}
	}
	return false
}

// gitTop returns the top of the work tree holding dir: the nearest
// directory with a .git (a directory, or a worktree's file), or "".
func (w *walker) gitTop(dir string) string {
	if w.a.ReadFile == nil {
		return ""
	}
	for d := dir; d != ""; d = filepath.Dir(d) {
		if _, err := w.a.ReadFile(filepath.Join(d, ".git", "HEAD")); err == nil {
			return d
		}
		if _, err := w.a.ReadFile(filepath.Join(d, ".git")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	return ""
}

// moduleFile returns the file python -m MODULE runs from directory cwd:
// MODULE.py or MODULE/__main__.py, when the project holds it.
func (w *walker) moduleFile(module, cwd string) (Word, bool) {
	if w.a.ReadFile == nil || cwd == "" || module == "" || strings.ContainsAny(module, "/\\") {
		return Word{}, false
	}
	base := filepath.Join(cwd, strings.ReplaceAll(module, ".", "/"))
	for _, p := range []string{base + ".py", filepath.Join(base, "__main__.py")} {
		if _, err := w.a.ReadFile(p); err == nil {
			return Word{Raw: p, Values: []string{p}}, true
		}
	}
	return Word{}, false
}
