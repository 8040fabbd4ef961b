package shell

import "strings"

// less runs $LESSOPEN as a shell command line for every file it opens,
// before showing it (its input preprocessor: "|cmd %s" pipes cmd's
// output in, "cmd %s" names a replacement file), and $LESSCLOSE after,
// even when its output is no terminal: `LESSOPEN='|touch x; cat %s' less
// f > /dev/null` made x (less 590 here). man pages through less. A value
// the line sets is walked as the command it is, %s standing for the file;
// one computed at run time asks. The hook's own environment's (Debian's
// lesspipe) is the user's.

// lessOpen judges the LESSOPEN and LESSCLOSE the line sets for less or
// man (name).
func (w *walker) lessOpen(c *ctx, name string, sc *scope) {
	if name != "less" && name != "man" {
		return
	}
	for _, k := range []string{"LESSOPEN", "LESSCLOSE"} {
		v, ok := sc.vars[k]
		if !ok {
			continue
		}
		outside := ""
		if w.a.Env != nil {
			outside = w.a.Env(k)
		}
		switch {
		case v.dynamic || len(v.vals) != 1:
			w.opaque(name + " with $" + k + " computed at run time, which it runs as a command")
		case v.vals[0] != outside:
			cmd := strings.TrimLeft(v.vals[0], "|-")
			cmd = strings.ReplaceAll(cmd, "%s", "FILE")
			if strings.TrimSpace(cmd) != "" {
				w.scriptAt(cmd, sc.child(), c.with(k).via, c.depth+1, c.line)
			}
		}
	}
}
