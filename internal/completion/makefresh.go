package completion

import (
	"os"
	"path/filepath"
	"strings"
)

// makeAlways is the option that makes GNU make build every target it
// reaches, whatever the modification times say.
const makeAlways = "-B"

// MakeEnviron returns env with make told, through MAKEFLAGS, to build
// every target again ([makeAlways]) for the project at root: make judges a
// target fresh when it is newer than its prerequisites, and the agent
// decides both times. A fix built, then the broken source put back with
// an old modification time (cp -p, touch -d, mv), or the built binary
// touched after the broken source was put back, leaves a binary of
// another version "up to date", and make test runs it. cmake's generated
// makefiles are make's too. The user's own MAKEFLAGS are kept with it.
//
// A project built by autotools (configure.ac, configure.in or Makefile.am
// at root) is left as it is: there -B remakes the makefiles themselves,
// running automake and autoconf, which may be missing or rewrite tracked
// files.
func MakeEnviron(root string, env []string) []string {
	for _, f := range []string{"configure.ac", "configure.in", "Makefile.am"} {
		if _, err := os.Lstat(filepath.Join(root, f)); err == nil {
			return env
		}
	}
	out := make([]string, 0, len(env)+1)
	flags := makeAlways
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "MAKEFLAGS="); ok {
			flags = withAlways(strings.TrimSpace(v))
			continue
		}
		out = append(out, kv)
	}
	return append(out, "MAKEFLAGS="+flags)
}

// withAlways returns the MAKEFLAGS value v with [makeAlways] in it. make
// writes its single-letter flags first, as one word without a dash ("ks
// -j4 -- V=1"): B joins that word; otherwise "-B" goes first, before any
// "--" and the variables after it.
func withAlways(v string) string {
	f := strings.Fields(v)
	if len(f) == 0 {
		return makeAlways
	}
	if w := f[0]; !strings.HasPrefix(w, "-") && !strings.Contains(w, "=") {
		return "B" + v
	}
	return makeAlways + " " + v
}
