package shell

import (
	"fmt"
	"strings"
)

// gitMore follows more of what git runs from its command line: git
// difftool --extcmd CMD (run by a shell with the two files), a remote of
// the ext:: transport (ext::CMD ARGS, run when fetched from, pushed to or
// cloned), settings given by --config-env whose value is not known, and
// include.path / includeIf.*.path, which read settings (aliases, pagers,
// filters: programs git runs) from a file ralph does not read.
func (w *walker) gitMore(c *ctx, args []Word, sc *scope) {
	_, sub, _ := gitConfig(args, sc)
	for i, a := range args {
		s := a.Lit()
		if isLong(s, "--extcmd", false) && i+1 < len(args) {
			w.joinedOne(c.with("git difftool --extcmd"), args[i+1], sc)
		} else if v, _, ok := longValue(s, "--extcmd"); ok && isLong(s, "--extcmd", true) {
			w.joinedOne(c.with("git difftool --extcmd"), Word{Raw: v, Values: []string{v}}, sc)
		}
		for _, o := range []string{"--upload-pack", "--receive-pack", "--to-cmd", "--cc-cmd", "--header-cmd"} {
			// git fetch --upload-pack CMD, git push --receive-pack CMD:
			// run by a shell for a local or ssh remote.
			if isLong(s, o, false) && i+1 < len(args) {
				w.joinedOne(c.with("git "+o), args[i+1], sc)
			} else if v, _, ok := longValue(s, o); ok && isLong(s, o, true) {
				w.joinedOne(c.with("git "+o), Word{Raw: v, Values: []string{v}}, sc)
			}
		}
		if s == "-u" && i+1 < len(args) && (sub == "clone" || sub == "ls-remote") {
			w.joinedOne(c.with("git "+sub+" -u"), args[i+1], sc)
		}
		if s == "--template" || strings.HasPrefix(s, "--template=") {
			w.opaque("the hooks git copies from the template directory of " + s + ", run by later git commands")
		}
		if v, ok := a.Value(); ok && strings.HasPrefix(v, "ext::") {
			w.gitExt(c, v[len("ext::"):], sc)
		} else if a.Dynamic && strings.HasPrefix(strings.Trim(a.Raw, `"'`), "ext::") {
			w.opaque("git's ext:: transport with a command computed at run time: " + a.Raw)
		}
		var kv string
		switch {
		case s == "--config-env" && i+1 < len(args):
			kv = args[i+1].Lit()
		case strings.HasPrefix(s, "--config-env="):
			kv = s[len("--config-env="):]
		}
		if k, env, ok := strings.Cut(kv, "="); ok {
			v, set := sc.vars[env]
			if !set || v.dynamic || len(v.vals) != 1 {
				if GitCommandKey(k) || strings.HasPrefix(strings.ToLower(k), "alias.") || gitInclude(k) {
					w.opaque(fmt.Sprintf("git --config-env=%s, a setting git runs taken from $%s, not known", kv, env))
				}
			}
		}
		if s == "--" {
			break
		}
	}
	cfg, _, _ := gitConfig(args, sc)
	for k, v := range cfg {
		if gitInclude(k) {
			w.opaque(fmt.Sprintf("the settings git reads from %s (-c %s): aliases, pagers and filters there run programs", v, k))
		}
	}
}

// gitInclude reports whether configuration key k names a file of more
// settings (include.path, includeIf.COND.path) or a template directory
// whose hooks git init and git clone copy (init.templateDir).
func gitInclude(k string) bool {
	k = strings.ToLower(k)
	return k == "include.path" || strings.HasPrefix(k, "includeif.") && strings.HasSuffix(k, ".path") || k == "init.templatedir"
}

// gitExt judges the command of an ext:: remote: split at spaces, "% " a
// space and "%%" a percent sign; %s and %S stand for git's service
// (git-upload-pack); git runs it without a shell.
func (w *walker) gitExt(c *ctx, spec string, sc *scope) {
	var words []Word
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			words = append(words, Word{Raw: b.String(), Values: []string{b.String()}})
			b.Reset()
		}
	}
	for i := 0; i < len(spec); i++ {
		ch := spec[i]
		switch {
		case ch == '%' && i+1 < len(spec):
			i++
			switch spec[i] {
			case ' ':
				b.WriteByte(' ')
			case '%':
				b.WriteByte('%')
			case 's':
				b.WriteString("upload-pack")
			case 'S':
				b.WriteString("git-upload-pack")
			}
		case ch == ' ':
			flush()
		default:
			b.WriteByte(ch)
		}
	}
	flush()
	if len(words) > 0 && c.depth < MaxDepth {
		ec := c.with("git ext:: remote")
		ec.depth++
		w.exec(ec, words, sc.child(), nil, nil)
	}
}

// sqFields splits GIT_CONFIG_PARAMETERS as git writes it: entries
// separated by spaces, each 'key'='value' (or 'key=value') in single
// quotes, a quote inside written '\”.
func sqFields(p string) []string {
	var out []string
	var b strings.Builder
	in, any := false, false
	for i := 0; i < len(p); i++ {
		ch := p[i]
		switch {
		case ch == '\'':
			in = !in
			any = true
		case !in && ch == '\\' && i+1 < len(p):
			i++
			b.WriteByte(p[i])
			any = true
		case !in && (ch == ' ' || ch == '\t' || ch == '\n'):
			if any {
				out = append(out, b.String())
				b.Reset()
				any = false
			}
		default:
			b.WriteByte(ch)
			any = true
		}
	}
	if any {
		out = append(out, b.String())
	}
	return out
}
