package shell

import (
	"path/filepath"
	"regexp"
	"strings"
)

// tox runs the commands of tox.ini's test environments ([testenv] and
// [testenv:NAME]: commands_pre, commands, commands_post), in the
// directory of tox.ini, after it installs the package (pip install .,
// which runs setup.py) unless skipsdist or skip_install says not to.

// toxSubst matches tox's substitutions: {posargs}, {posargs:DEFAULT},
// {toxinidir}, {envname} ….
var toxSubst = func() *regexp.Regexp { return toxSubstLazy.get() }
var toxSubstLazy = lazy[*regexp.Regexp]{f: func() *regexp.Regexp { return regexp.MustCompile(`\{([a-z_]+)(?::([^{}]*))?\}`) }}

// tox walks the commands tox runs, of every test environment (tox -e
// picks some; tox alone runs the env_list, which may be any).
func (w *walker) tox(c *ctx, args []Word, sc *scope) {
	if len(args) > 0 {
		switch args[0].Lit() {
		case "--version", "--help", "-h", "list", "l", "config", "c", "quickstart", "q", "devenv", "d", "depends", "de":
			return
		}
	}
	p, text, ok := w.nearest(sc.cwd, optValue1(args, "-c", "--conf"), "tox.ini")
	if !ok {
		return
	}
	dir := filepath.Dir(p)
	envs := toxCommands(text, dir)
	tc := c.with("tox")
	for _, e := range envs {
		w.inFile(tc, p, "testenv"+e.name, strings.Join(e.lines, "\n"), dir, sc)
	}
	if !strings.Contains(text, "skipsdist = true") && !strings.Contains(text, "skipsdist=true") &&
		!strings.Contains(text, "skip_install = true") && !strings.Contains(text, "skip_install=true") {
		nsc := sc.child()
		nsc.setCwd(dir)
		w.pipInstall(tc, "tox", []Word{{Raw: "install", Values: []string{"install"}}, {Raw: ".", Values: []string{"."}}}, nsc)
	}
}

// toxEnv is the command lines of one test environment (name ":NAME", or
// "" for [testenv]).
type toxEnv struct {
	name  string
	lines []string
}

// toxCommands reads the commands of tox.ini's test environments:
// {[SECTION]KEY} is that key's lines, {posargs:DEFAULT} its default,
// {toxinidir} dir, {envpython} python and {env:NAME:DEFAULT} the default.
func toxCommands(text, dir string) []toxEnv {
	ini := map[string]map[string][]string{}
	var order []string
	sect, key := "", ""
	for _, raw := range strings.Split(text, "\n") {
		line := strings.TrimRight(raw, "\r")
		t := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(t, "["):
			sect, key = strings.Trim(t, "[] \t"), ""
			if ini[sect] == nil {
				ini[sect] = map[string][]string{}
				order = append(order, sect)
			}
		case t == "" || strings.HasPrefix(t, "#") || strings.HasPrefix(t, ";"):
		case line[0] == ' ' || line[0] == '\t':
			if key != "" {
				ini[sect][key] = append(ini[sect][key], t) // a continuation line
			}
		default:
			k, v, ok := strings.Cut(t, "=")
			key = ""
			if !ok || ini[sect] == nil {
				continue
			}
			key = strings.TrimSpace(k)
			if v = strings.TrimSpace(v); v != "" {
				ini[sect][key] = append(ini[sect][key], v)
			}
		}
	}
	var expand func(lines []string, depth int) []string
	expand = func(lines []string, depth int) []string {
		var out []string
		for _, l := range lines {
			if m := toxRef().FindStringSubmatch(l); m != nil && depth < 4 {
				out = append(out, expand(ini[m[1]][m[2]], depth+1)...)
				continue
			}
			out = append(out, l)
		}
		return out
	}
	var envs []toxEnv
	for _, name := range order {
		if name != "testenv" && !strings.HasPrefix(name, "testenv:") {
			continue
		}
		e := toxEnv{name: strings.TrimPrefix(name, "testenv")}
		for _, k := range []string{"commands_pre", "commands", "commands_post"} {
			for _, l := range expand(ini[name][k], 0) {
				l = strings.TrimLeft(strings.TrimSpace(strings.TrimSuffix(l, "\\")), "-! ")
				if l == "" || strings.HasPrefix(l, "#") {
					continue
				}
				e.lines = append(e.lines, toxSubst().ReplaceAllStringFunc(l, func(m string) string {
					s := toxSubst().FindStringSubmatch(m)
					switch s[1] {
					case "posargs", "env":
						if s[1] == "env" {
							_, def, _ := strings.Cut(s[2], ":")
							return def
						}
						return s[2]
					case "toxinidir", "tox_root":
						return dir
					case "envpython", "basepython":
						return "python"
					case "envbindir":
						return filepath.Join(dir, ".tox", "env", "bin")
					case "envdir", "env_dir", "envtmpdir", "env_tmp_dir", "toxworkdir", "work_dir", "envsitepackagesdir":
						return filepath.Join(dir, ".tox", "env")
					}
					return m
				}))
			}
		}
		envs = append(envs, e)
	}
	return envs
}

// toxRef matches a line that is a reference to another section's key.
var toxRef = func() *regexp.Regexp { return toxRefLazy.get() }
var toxRefLazy = lazy[*regexp.Regexp]{f: func() *regexp.Regexp { return regexp.MustCompile(`^\{\[([^\]]+)\]([\w-]+)\}$`) }}
