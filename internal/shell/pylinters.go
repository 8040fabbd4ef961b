package shell

import (
	"path/filepath"
	"regexp"
	"strings"
)

// Linters and type checkers that run Python or Ruby of the project's
// before they look at a file, as their configuration says: pylint runs
// the code of init-hook and imports the modules of load-plugins; mypy
// imports its plugins (a module or a .py path); flake8 imports the
// extension and report classes of [flake8:local-plugins] from its paths;
// rubocop requires the files of require: (and plugins:) of .rubocop.yml
// and of the files it inherits from. Each was seen deleting tests/ here
// (pylint 2.16, mypy 1.0, flake8 5.0, rubocop 1.39). The code is read like
// a script file the command names; the command line's own --init-hook,
// --load-plugins and --require too.

// pyLintNames returns the configuration files tool reads, nearest up
// from the working directory, and the text one must hold to be the tool's.
func pyLintNames(tool string) [][2]string {
	switch tool {
	case "pylint":
		return [][2]string{{"pylintrc", ""}, {".pylintrc", ""}, {"pyproject.toml", "[tool.pylint"}, {"setup.cfg", "[pylint"}, {"tox.ini", "[pylint"}}
	case "mypy":
		return [][2]string{{"mypy.ini", ""}, {".mypy.ini", ""}, {"pyproject.toml", "[tool.mypy"}, {"setup.cfg", "[mypy"}}
	case "flake8":
		return [][2]string{{".flake8", ""}, {"setup.cfg", "[flake8"}, {"tox.ini", "[flake8"}}
	}
	return nil
}

// lintConfig returns the configuration file of tool: file when given, else
// the nearest of its names up from dir that is the tool's.
func (w *walker) lintConfig(tool, dir, file string) (string, string, bool) {
	if file != "" {
		return w.nearest(dir, file)
	}
	for at := dir; ; at = filepath.Dir(at) {
		for _, n := range pyLintNames(tool) {
			p := filepath.Join(at, n[0])
			if text, ok := w.readText(p); ok && (n[1] == "" || strings.Contains(text, n[1])) {
				return p, text, true
			}
		}
		if filepath.Dir(at) == at {
			return "", "", false
		}
	}
}

var iniKeyRe = func() *regexp.Regexp { return iniKeyReLazy.get() }
var iniKeyReLazy = lazy[*regexp.Regexp]{f: func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^[ \t]*([\w.-]+)[ \t]*[=:][ \t]*(.*)$`)
}}

// iniValues returns the values of key in an INI or TOML file (any
// section), a value's indented continuation lines joined to it, one
// string's quotes removed.
func iniValues(text, key string) []string {
	var out []string
	for _, m := range iniKeyRe().FindAllStringSubmatchIndex(text, 1024) {
		if text[m[2]:m[3]] != key {
			continue
		}
		v := text[m[4]:m[5]]
		for rest := text[m[1]:]; strings.HasPrefix(rest, "\n ") || strings.HasPrefix(rest, "\n\t"); {
			line, _, _ := strings.Cut(rest[1:], "\n")
			v += "\n" + line
			rest = rest[1+len(line):]
		}
		out = append(out, cfgUnquote(strings.TrimSpace(v)))
	}
	return out
}

// cfgUnquote removes the quotes around a whole "…" or '…' value, and TOML's
// escapes of a "…" one.
func cfgUnquote(v string) string {
	if len(v) < 2 || v[0] != v[len(v)-1] || v[0] != '"' && v[0] != '\'' {
		return v
	}
	if v[0] == '"' {
		return strings.NewReplacer(`\"`, `"`, `\\`, `\`, `\n`, "\n").Replace(v[1 : len(v)-1])
	}
	return v[1 : len(v)-1]
}

// listItems splits a list value ("a, b", ["a", "b"], one a line).
func listItems(v string) []string {
	var out []string
	for _, line := range strings.Split(v, "\n") {
		line, _, _ = strings.Cut(line, "#")
		for _, f := range strings.FieldsFunc(line, func(r rune) bool { return strings.ContainsRune(",[]\r\t ", r) }) {
			if f = strings.Trim(f, `"'`); f != "" {
				out = append(out, f)
			}
		}
	}
	return out
}

// lintModule returns the project file of module name under dir: name.py,
// or name/__init__.py.
func (w *walker) lintModule(name, dir string) (string, bool) {
	if name == "" || strings.ContainsAny(name, "/\\") {
		return "", false
	}
	base := filepath.Join(dir, strings.ReplaceAll(name, ".", string(filepath.Separator)))
	for _, p := range []string{base + ".py", filepath.Join(base, "__init__.py")} {
		if _, ok := w.readText(p); ok {
			return p, true
		}
	}
	return "", false
}

// pyLint walks the code pylint, mypy (dmypy) or flake8 runs from the
// project's configuration and command line.
func (w *walker) pyLint(c *ctx, tool string, args []Word, sc *scope) {
	for _, a := range args {
		switch a.Lit() {
		case "--version", "-V", "--help", "-h":
			return
		}
	}
	lc := c.with(tool)
	var file string
	switch tool {
	case "pylint":
		file = optValue1(args, "--rcfile", "--rcfile")
	case "mypy":
		file = optValue1(args, "--config-file", "--config-file")
	case "flake8":
		file = optValue1(args, "--config", "--config")
	}
	var hooks, plugins []string
	for i, a := range args {
		s, ok := a.Value()
		if !ok {
			continue
		}
		switch {
		case tool == "pylint" && s == "--init-hook" && i+1 < len(args):
			if v, ok := args[i+1].Value(); ok {
				hooks = append(hooks, v)
			} else {
				w.opaque("pylint --init-hook of code computed at run time")
			}
		case tool == "pylint" && strings.HasPrefix(s, "--init-hook="):
			hooks = append(hooks, s[len("--init-hook="):])
		case tool == "pylint" && s == "--load-plugins" && i+1 < len(args):
			plugins = append(plugins, listItems(args[i+1].Lit())...)
		case tool == "pylint" && strings.HasPrefix(s, "--load-plugins="):
			plugins = append(plugins, listItems(s[len("--load-plugins="):])...)
		case tool == "flake8" && strings.HasPrefix(s, "--append-config="):
			w.pyLintFile(lc, tool, dirOf(s[len("--append-config="):], sc), sc)
		}
	}
	for _, h := range hooks {
		w.code(lc, "python", h, sc)
	}
	for _, p := range plugins {
		if f, ok := w.lintModule(p, sc.cwd); ok {
			w.readCode(lc, "python", f, sc)
		}
	}
	if p, _, ok := w.lintConfig(tool, sc.cwd, file); ok {
		w.pyLintFile(lc, tool, p, sc)
	}
}

// pyLintFile walks what the configuration file p of tool runs.
func (w *walker) pyLintFile(c *ctx, tool, p string, sc *scope) {
	key := tool + "\x00" + p // pyproject.toml is pylint's and mypy's
	if w.toolRead[key] {
		return
	}
	text, ok := w.readText(p)
	if !ok {
		return
	}
	if w.toolRead == nil {
		w.toolRead = map[string]bool{}
	}
	w.toolRead[key] = true
	dir := filepath.Dir(p)
	prev := w.file
	w.file = p
	defer func() { w.file = prev }()
	mod := func(name string, dirs ...string) {
		for _, d := range dirs {
			if f, ok := w.lintModule(name, d); ok {
				w.readCode(c, "python", f, sc)
				return
			}
		}
	}
	switch tool {
	case "pylint":
		for _, h := range append(iniValues(text, "init-hook"), iniValues(text, "init_hook")...) {
			w.code(c, "python", h, sc)
		}
		for _, v := range append(iniValues(text, "load-plugins"), iniValues(text, "load_plugins")...) {
			for _, m := range listItems(v) {
				mod(m, sc.cwd, dir)
			}
		}
	case "mypy":
		for _, v := range iniValues(text, "plugins") {
			for _, m := range listItems(v) {
				m, _, _ = strings.Cut(m, ":") // path.py:entry_point
				if strings.HasSuffix(m, ".py") || strings.Contains(m, "/") {
					if !filepath.IsAbs(m) {
						m = filepath.Join(dir, m)
					}
					w.readCode(c, "python", m, sc)
				} else {
					mod(m, sc.cwd, dir)
				}
			}
		}
	case "flake8":
		k := strings.Index(text, "[flake8:local-plugins]")
		if k < 0 {
			return
		}
		sec := text[k+len("[flake8:local-plugins]"):]
		if e := strings.Index(sec, "\n["); e >= 0 {
			sec = sec[:e]
		}
		dirs := []string{dir}
		for _, v := range iniValues(sec, "paths") {
			for _, d := range listItems(v) {
				dirs = append(dirs, filepath.Join(dir, d))
			}
		}
		for _, key := range []string{"extension", "report"} {
			for _, v := range iniValues(sec, key) {
				for _, line := range strings.Split(v, "\n") {
					_, ep, ok := strings.Cut(line, "=")
					if !ok {
						continue
					}
					m, _, _ := strings.Cut(strings.TrimSpace(ep), ":")
					mod(strings.TrimSpace(m), dirs...)
				}
			}
		}
	}
}

// rubocopKeys matches require:, plugins: and inherit_from: of a
// .rubocop.yml with their value: on the line, or a list of "- item" lines
// below it.
var rubocopKeys = func() *regexp.Regexp { return rubocopKeysLazy.get() }
var rubocopKeysLazy = lazy[*regexp.Regexp]{f: func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^(require|plugins|inherit_from):[ \t]*([^\n#]*)((?:\n[ \t]*-[ \t]*[^\n]*)*)`)
}}

// rubocop walks the Ruby files rubocop requires: the project files its
// configuration (.rubocop.yml nearest up, -c/--config FILE) and the files
// it inherits from name under require: and plugins: by a path, and
// those -r/--require name.
func (w *walker) rubocop(c *ctx, args []Word, sc *scope) {
	for _, a := range args {
		switch a.Lit() {
		case "--version", "-v", "-V", "--help", "-h":
			return
		}
	}
	rc := c.with("rubocop")
	for i, a := range args {
		s := a.Lit()
		if (s == "-r" || s == "--require") && i+1 < len(args) {
			w.rubyRequire(rc, args[i+1].Lit(), sc.cwd, sc)
		} else if v, ok := strings.CutPrefix(s, "--require="); ok {
			w.rubyRequire(rc, v, sc.cwd, sc)
		}
	}
	p, _, ok := w.nearest(sc.cwd, optValue1(args, "-c", "--config"), ".rubocop.yml")
	if ok {
		w.rubocopFile(rc, p, sc, 0)
	}
}

// rubocopFile walks the configuration p, and those it inherits from up to
// eight deep.
func (w *walker) rubocopFile(c *ctx, p string, sc *scope, depth int) {
	text, ok := w.readOnce(p)
	if !ok || depth > 8 {
		return
	}
	dir := filepath.Dir(p)
	prev := w.file
	w.file = p
	defer func() { w.file = prev }()
	for _, m := range rubocopKeys().FindAllStringSubmatch(text, 16) {
		items := listItems(m[2])
		for _, l := range strings.Split(m[3], "\n") {
			if l = strings.TrimSpace(l); strings.HasPrefix(l, "-") {
				items = append(items, strings.Trim(strings.TrimSpace(l[1:]), `"'`))
			}
		}
		for _, it := range items {
			if m[1] == "inherit_from" {
				if !strings.Contains(it, "://") {
					w.rubocopFile(c, filepath.Join(dir, it), sc, depth+1)
				}
				continue
			}
			w.rubyRequire(c, it, dir, sc)
		}
	}
}

// rubyRequire walks the project file a require of name (from dir) loads:
// a path (./x, ../x, x/y, with or without .rb), not a gem.
func (w *walker) rubyRequire(c *ctx, name, dir string, sc *scope) {
	if name == "" || !strings.HasPrefix(name, ".") && !strings.HasPrefix(name, "/") && !strings.HasSuffix(name, ".rb") {
		return // a gem: rubocop-rspec
	}
	f := name
	if !filepath.IsAbs(f) {
		f = filepath.Join(dir, f)
	}
	if !strings.HasSuffix(f, ".rb") {
		f += ".rb"
	}
	w.readCode(c, "ruby", f, sc)
}
