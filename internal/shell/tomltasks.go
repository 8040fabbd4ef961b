package shell

import (
	"path/filepath"
	"strconv"
	"strings"
)

// Task runners whose tasks are in TOML: mise (mise.toml [tasks], and its
// task files), pdm (pyproject [tool.pdm.scripts]), poethepoet
// (pyproject [tool.poe.tasks]) and hatch (pyproject
// [tool.hatch.envs.ENV.scripts]). tomlStrings reads the part of TOML
// they use; a task found but not read (a form it does not know) is
// opaque, so the guard asks rather than guessing.

// tomlTasks walks what a TOML task runner runs for args.
func (w *walker) tomlTasks(c *ctx, name string, args []Word, sc *scope) {
	dir, _, sub, computed := taskArgs(args, "-C --cd -p --project", "", "-E --env")
	d := dirOf(dir, sc)
	if d == "" {
		return
	}
	rest := args
	for i, a := range args {
		if a.Lit() == sub {
			rest = args[i+1:]
			break
		}
	}
	task := func() (string, bool) {
		_, _, t, comp := taskArgs(rest, "", "", "")
		return t, comp
	}
	switch name {
	case "mise":
		if sub != "run" && sub != "r" {
			return
		}
		t, comp := task()
		w.miseTask(c, d, t, computed || comp, sc)
	case "pdm":
		if sub != "run" {
			return
		}
		t, comp := task()
		w.pyprojectTask(c, d, "pdm", "tool.pdm.scripts", t, computed || comp, sc)
	case "poe":
		w.pyprojectTask(c, d, "poe", "tool.poe.tasks", sub, computed, sc)
	case "hatch":
		if sub != "run" {
			return
		}
		t, comp := task()
		env := "default"
		if e, n, ok := strings.Cut(t, ":"); ok {
			env, t = e, n
		}
		w.pyprojectTask(c, d, "hatch", "tool.hatch.envs."+env+".scripts", t, computed || comp, sc)
	}
}

// miseTask walks mise's task t: [tasks.T] run (a command line or a list of
// them) and depends, from the config files mise reads here, or an
// executable task file.
func (w *walker) miseTask(c *ctx, d, t string, computed bool, sc *scope) {
	if t == "" && !computed {
		return // mise run alone asks which
	}
	if computed {
		w.opaque("mise run of a computed task name")
		return
	}
	var files []string
	for _, n := range []string{"mise.toml", ".mise.toml", "mise.local.toml", ".mise.local.toml", "mise/config.toml", ".config/mise.toml", ".config/mise/config.toml"} {
		files = append(files, filepath.Join(d, n))
	}
	eachTask([]string{t}, func(t string) (deps []string) {
		found := false
		for _, p := range files {
			text, ok := w.readText(p)
			if !ok {
				continue
			}
			kv, ok := tomlStrings(text)
			key := "tasks." + tomlKey(t)
			if !ok {
				w.opaque("mise: " + p + " is TOML ralph does not read")
				return nil
			}
			run, has := kv[key+".run"]
			if s, ok := kv[key]; ok {
				run, has = s, true
			}
			if !has && !kv.under(key) {
				continue
			}
			found = true
			if !has && kv.under(key) {
				if _, ok := kv[key+".file"]; ok {
					w.opaque("mise task " + t + " runs a file")
				}
			}
			deps = append(deps, kv[key+".depends"]...)
			dir := d
			if v := kv[key+".dir"]; len(v) == 1 {
				dir = dirOf(v[0], &scope{cwd: d})
			}
			w.inFile(c, p, "mise run "+t, strings.Join(run, "\n"), dir, sc)
		}
		if !found {
			for _, n := range []string{".mise/tasks/", "mise-tasks/", ".config/mise/tasks/", "mise/tasks/"} {
				p := filepath.Join(d, n+t)
				if _, ok := w.readText(p); ok {
					w.script(c.with("mise run "+t), Word{Raw: p, Values: []string{p}}, sc, false)
					break
				}
			}
		}
		return deps
	})
}

// pyprojectTask walks task t of pyproject.toml's table (pdm's scripts,
// poe's tasks, hatch's scripts): a command line, a list of them, or a
// table with cmd, shell, composite or sequence; call, script, ref and
// the like run Python, which ralph does not read here.
func (w *walker) pyprojectTask(c *ctx, d, runner, table, t string, computed bool, sc *scope) {
	if t == "" && !computed {
		return
	}
	p, text, ok := w.nearest(d, "", "pyproject.toml")
	if !ok {
		return
	}
	kv, ok := tomlStrings(text)
	if !ok {
		if strings.Contains(text, table) {
			w.opaque(runner + ": " + p + " is TOML ralph does not read")
		}
		return
	}
	if computed {
		if kv.under(table) {
			w.opaque(runner + " of a computed task name")
		}
		return
	}
	names := []string{t}
	if runner == "pdm" {
		names = []string{"pre_" + t, t, "post_" + t}
	}
	eachTask(names, func(t string) (parts []string) {
		key := table + "." + tomlKey(t)
		var lines []string
		if v, ok := kv[key]; ok {
			lines = v
		}
		if argv := kv[key+".cmd"]; len(argv) > 1 {
			// pdm's cmd = ["pytest", "-q"]: one command, its words.
			q := make([]string, len(argv))
			for i, a := range argv {
				q[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
			}
			lines = append(lines, strings.Join(q, " "))
		} else {
			lines = append(lines, argv...)
		}
		lines = append(lines, kv[key+".shell"]...)
		for _, f := range []string{"composite", "sequence"} {
			for _, s := range kv[key+"."+f] {
				if _, ok := kv[table+"."+tomlKey(s)]; ok || kv.under(table+"."+tomlKey(s)) {
					parts = append(parts, s)
				} else {
					lines = append(lines, s)
				}
			}
		}
		for _, f := range []string{"call", "script", "ref", "expr", "switch"} {
			if _, ok := kv[key+"."+f]; ok || kv.under(key+"."+f) {
				w.opaqueCode(runner + " " + t + " runs Python (" + f + ")")
			}
		}
		if len(lines) == 0 && kv.under(key) && !kv.hasAny(key, "cmd", "shell", "composite", "sequence", "call", "script", "ref", "expr", "switch", "help", "env", "args", "deps", "cwd", "keep_going", "working_dir", "uses", "executor", "capture_stdout", "use_exec", "interpreter", "envfile", "verbosity") {
			w.opaque(runner + " " + t + ": a task form ralph does not read")
		}
		w.inFile(c, p, runner+" "+t, strings.Join(lines, "\n"), filepath.Dir(p), sc)
		return parts
	})
}

// tomlKV maps dotted keys to their string values (a list's strings in
// order).
type tomlKV map[string][]string

// under reports whether a key below prefix exists.
func (kv tomlKV) under(prefix string) bool {
	for k := range kv {
		if strings.HasPrefix(k, prefix+".") {
			return true
		}
	}
	return false
}

// hasAny reports whether prefix.f exists, or a key below it, for one of fs.
func (kv tomlKV) hasAny(prefix string, fs ...string) bool {
	for _, f := range fs {
		if _, ok := kv[prefix+"."+f]; ok || kv.under(prefix+"."+f) {
			return true
		}
	}
	return false
}

// tomlKey quotes a key part that is not bare.
func tomlKey(s string) string {
	for _, r := range s {
		if !(r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return strconv.Quote(s)
		}
	}
	return s
}

// tomlStrings reads TOML's tables, dotted keys, strings (basic, literal,
// multi-line), arrays of them and one-line inline tables, as dotted key →
// strings; other values (numbers, booleans, dates) are kept as their text.
// It reports false for text it cannot read.
func tomlStrings(text string) (tomlKV, bool) {
	kv := tomlKV{}
	p := &tomlParser{s: text}
	prefix := ""
	for {
		p.skipSpace(true)
		if p.i >= len(p.s) {
			return kv, true
		}
		if p.s[p.i] == '[' {
			arr := strings.HasPrefix(p.s[p.i:], "[[")
			p.i++
			if arr {
				p.i++
			}
			k, ok := p.key()
			if !ok {
				return nil, false
			}
			p.skipSpace(false)
			if !strings.HasPrefix(p.s[p.i:], "]") {
				return nil, false
			}
			p.i++
			if arr {
				if !strings.HasPrefix(p.s[p.i:], "]") {
					return nil, false
				}
				p.i++
				k += ".[]"
			}
			prefix = k + "."
			if !p.lineEnd() {
				return nil, false
			}
			continue
		}
		if !p.pair(kv, prefix) || !p.lineEnd() {
			return nil, false
		}
		if len(kv) > 10000 {
			return nil, false
		}
	}
}

type tomlParser struct {
	s string
	i int
}

// skipSpace skips blanks and comments, and newlines too when nl is set.
func (p *tomlParser) skipSpace(nl bool) {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\r':
			p.i++
		case '\n':
			if !nl {
				return
			}
			p.i++
		case '#':
			for p.i < len(p.s) && p.s[p.i] != '\n' {
				p.i++
			}
		default:
			return
		}
	}
}

// lineEnd skips to the end of the line, which must hold only a comment.
func (p *tomlParser) lineEnd() bool {
	p.skipSpace(false)
	if p.i < len(p.s) && p.s[p.i] != '\n' {
		return false
	}
	return true
}

// key reads a dotted key.
func (p *tomlParser) key() (string, bool) {
	var parts []string
	for {
		p.skipSpace(false)
		if p.i >= len(p.s) {
			return "", false
		}
		switch p.s[p.i] {
		case '"', '\'':
			v, ok := p.str()
			if !ok {
				return "", false
			}
			parts = append(parts, tomlKey(v))
		default:
			j := p.i
			for j < len(p.s) && tomlBare(p.s[j]) {
				j++
			}
			if j == p.i {
				return "", false
			}
			parts = append(parts, p.s[p.i:j])
			p.i = j
		}
		p.skipSpace(false)
		if p.i < len(p.s) && p.s[p.i] == '.' {
			p.i++
			continue
		}
		return strings.Join(parts, "."), true
	}
}

func tomlBare(b byte) bool {
	return b == '_' || b == '-' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// pair reads key = value into kv under prefix.
func (p *tomlParser) pair(kv tomlKV, prefix string) bool {
	k, ok := p.key()
	if !ok {
		return false
	}
	p.skipSpace(false)
	if p.i >= len(p.s) || p.s[p.i] != '=' {
		return false
	}
	p.i++
	p.skipSpace(false)
	return p.value(kv, prefix+k)
}

// value reads one value for key.
func (p *tomlParser) value(kv tomlKV, key string) bool {
	if p.i >= len(p.s) {
		return false
	}
	switch p.s[p.i] {
	case '"', '\'':
		v, ok := p.str()
		if ok {
			kv[key] = append(kv[key], v)
		}
		return ok
	case '[':
		p.i++
		if _, ok := kv[key]; !ok {
			kv[key] = []string{}
		}
		for {
			p.skipSpace(true)
			if p.i >= len(p.s) {
				return false
			}
			if p.s[p.i] == ']' {
				p.i++
				return true
			}
			if !p.value(kv, key) {
				return false
			}
			p.skipSpace(true)
			if p.i < len(p.s) && p.s[p.i] == ',' {
				p.i++
			}
		}
	case '{':
		p.i++
		for {
			p.skipSpace(false)
			if p.i >= len(p.s) {
				return false
			}
			if p.s[p.i] == '}' {
				p.i++
				return true
			}
			if !p.pair(kv, key+".") {
				return false
			}
			p.skipSpace(false)
			if p.i < len(p.s) && p.s[p.i] == ',' {
				p.i++
			}
		}
	default:
		j := p.i
		for j < len(p.s) && !strings.ContainsRune(",]}\n#", rune(p.s[j])) {
			j++
		}
		v := strings.TrimSpace(p.s[p.i:j])
		if v == "" {
			return false
		}
		kv[key] = append(kv[key], v)
		p.i = j
		return true
	}
}

// str reads a basic, literal or multi-line string.
func (p *tomlParser) str() (string, bool) {
	q := p.s[p.i]
	if strings.HasPrefix(p.s[p.i:], strings.Repeat(string(q), 3)) {
		p.i += 3
		if p.i < len(p.s) && p.s[p.i] == '\n' {
			p.i++ // a newline right after the opening is trimmed
		}
		end := strings.Index(p.s[p.i:], strings.Repeat(string(q), 3))
		if end < 0 {
			return "", false
		}
		raw := p.s[p.i : p.i+end]
		p.i += end + 3
		for p.i < len(p.s) && p.s[p.i] == q { // up to two quotes before the closing
			raw += string(q)
			p.i++
		}
		if q == '\'' {
			return raw, true
		}
		return tomlUnescape(raw, true)
	}
	p.i++
	var b strings.Builder
	for p.i < len(p.s) {
		ch := p.s[p.i]
		switch {
		case ch == '\n':
			return "", false
		case ch == q:
			p.i++
			if q == '\'' {
				return b.String(), true
			}
			return tomlUnescape(b.String(), false)
		case ch == '\\' && q == '"' && p.i+1 < len(p.s):
			b.WriteByte(ch)
			b.WriteByte(p.s[p.i+1])
			p.i += 2
		default:
			b.WriteByte(ch)
			p.i++
		}
	}
	return "", false
}

// tomlUnescape resolves a basic string's escapes; in a multi-line one a
// backslash at a line's end joins it to the next.
func tomlUnescape(s string, multi bool) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			b.WriteByte(s[i])
			continue
		}
		i++
		if i >= len(s) {
			return "", false
		}
		switch s[i] {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case '"', '\\':
			b.WriteByte(s[i])
		case 'b', 'f', 'e':
		case 'u', 'U':
			n := 4
			if s[i] == 'U' {
				n = 8
			}
			if i+1+n > len(s) {
				return "", false
			}
			r, err := strconv.ParseUint(s[i+1:i+1+n], 16, 32)
			if err != nil {
				return "", false
			}
			b.WriteRune(rune(r))
			i += n
		case ' ', '\t', '\n', '\r':
			if !multi {
				return "", false
			}
			for i < len(s) && strings.IndexByte(" \t\r\n", s[i]) >= 0 {
				i++
			}
			i--
		default:
			return "", false
		}
	}
	return b.String(), true
}
