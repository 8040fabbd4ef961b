package shell

import (
	"path/filepath"
	"strings"
)

// nix develop and nix-shell run the shellHook of the project's flake.nix,
// shell.nix or default.nix (and devenv's enterShell) in bash before the
// command they are given: code the agent may have written there earlier.
// The hooks are read as shell scripts; a hook that is not a plain Nix
// string is opaque.

// nixFiles are the files, by program, whose hooks run.
var nixFiles map[string][]string

// nixHooks walks the shellHook (and enterShell) strings of the Nix files
// program name reads in directory dir.
func (w *walker) nixHooks(c *ctx, name, dir string, sc *scope) {
	if w.a.ReadFile == nil || dir == "" {
		return
	}
	for _, f := range nixFiles[name] {
		p := filepath.Join(dir, f)
		data, err := w.a.ReadFile(p)
		if err != nil {
			continue
		}
		if len(data) > 256<<10 {
			w.opaque(name + " of " + p + ", too large to read")
			continue
		}
		text := string(data)
		for _, key := range []string{"shellHook", "enterShell"} {
			for rest := text; ; {
				i := strings.Index(rest, key)
				if i < 0 {
					break
				}
				rest = strings.TrimLeft(rest[i+len(key):], " \t\r\n")
				if !strings.HasPrefix(rest, "=") {
					continue
				}
				rest = strings.TrimLeft(rest[1:], " \t\r\n")
				hook, ok := nixString(rest)
				if !ok {
					w.opaque(name + " runs a " + key + " of " + p + " that ralph cannot read")
					break
				}
				prev := w.file
				w.file = p
				w.scriptAt(hook, sc.child(), c.with(name+" "+key).via, c.depth+1, c.line)
				w.file = prev
			}
		}
	}
}

// nixString returns the text of the Nix string s starts with: an indented
// string between two pairs of single quotes (where three quotes stand for
// two, and two before $ or \ escape it) or a double-quoted one (backslash
// escapes). An interpolation ${…} is kept as the shell reads it: computed.
func nixString(s string) (string, bool) {
	switch {
	case strings.HasPrefix(s, "''"):
		var b strings.Builder
		for i := 2; i < len(s); i++ {
			if strings.HasPrefix(s[i:], "'''") {
				b.WriteString("''")
				i += 2
				continue
			}
			if strings.HasPrefix(s[i:], "''$") || strings.HasPrefix(s[i:], "''\\") {
				b.WriteByte(s[i+2])
				i += 2
				continue
			}
			if strings.HasPrefix(s[i:], "''") {
				return b.String(), true
			}
			b.WriteByte(s[i])
		}
	case strings.HasPrefix(s, `"`):
		var b strings.Builder
		for i := 1; i < len(s); i++ {
			switch s[i] {
			case '\\':
				if i+1 < len(s) {
					i++
					b.WriteByte(unescapeChar(s[i]))
				}
			case '"':
				return b.String(), true
			default:
				b.WriteByte(s[i])
			}
		}
	}
	return "", false
}

// nixTables builds this file's tables; tables calls it, so that a hook
// call that reads no shell does not pay for them at start-up.
func nixTables() {
	nixFiles = map[string][]string{
		"nix":       {"flake.nix", "devenv.nix"},
		"nix-shell": {"shell.nix", "default.nix"},
	}
}
