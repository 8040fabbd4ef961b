package shell

import (
	"path/filepath"
	"regexp"
	"strings"
	"sync"
)

// tox runs the commands of tox.ini's test environments ([testenv] and
// [testenv:NAME]: commands_pre, commands, commands_post), in the
// directory of tox.ini, after it installs the package (pip install .,
// which runs setup.py) unless skipsdist or skip_install says not to.

// toxSubst matches tox's substitutions: {posargs}, {posargs:DEFAULT},
// {toxinidir}, {envname} ….
var toxSubst = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\{([a-z_]+)(?::([^{}]*))?\}`) })

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

// toxCommands reads the commands of tox.ini's test environments, with
// {posargs:DEFAULT} as its default and {toxinidir} as dir.
func toxCommands(text, dir string) []toxEnv {
	var out []toxEnv
	var cur *toxEnv
	key := ""
	add := func(line string) {
		line = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(line), "\\"))
		line = strings.TrimLeft(line, "-! ")
		if line == "" || strings.HasPrefix(line, "#") || cur == nil {
			return
		}
		line = toxSubst().ReplaceAllStringFunc(line, func(m string) string {
			s := toxSubst().FindStringSubmatch(m)
			switch s[1] {
			case "posargs":
				return s[2]
			case "toxinidir", "tox_root":
				return dir
			}
			return m
		})
		cur.lines = append(cur.lines, line)
	}
	for _, raw := range strings.Split(text, "\n") {
		line := strings.TrimRight(raw, "\r")
		t := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(t, "["):
			key = ""
			name := strings.Trim(t, "[] \t")
			cur = nil
			if name == "testenv" || strings.HasPrefix(name, "testenv:") {
				out = append(out, toxEnv{name: strings.TrimPrefix(name, "testenv")})
				cur = &out[len(out)-1]
			}
		case t == "" || strings.HasPrefix(t, "#") || strings.HasPrefix(t, ";"):
		case line[0] == ' ' || line[0] == '\t':
			if key != "" {
				add(t) // a continuation line of the key's value
			}
		default:
			k, v, ok := strings.Cut(t, "=")
			key = ""
			if !ok {
				continue
			}
			switch strings.TrimSpace(k) {
			case "commands", "commands_pre", "commands_post":
				key = k
				add(v)
			}
		}
	}
	return out
}
