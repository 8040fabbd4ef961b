package shell

import (
	"path/filepath"
	"strings"
)

// bazel run, test and coverage start the program of --run_under before
// the target's (`--run_under='sh -c "rm -rf tests" --'`, or a label of a
// target to build and run), outside the test sandbox for bazel run. The
// option comes from the command line or from an rc file: the
// workspace's .bazelrc (and what it imports or try-imports), the user's
// ~/.bazelrc, --bazelrc=FILE; lines of the form `COMMAND[:CONFIG]
// OPTIONS…` for run, test, coverage, build or common. A command line
// there is read as one; a label (its program is built from the project)
// asks. Bazel is not installed here: from its documentation.

// maxBazelrc bounds the rc files followed through imports.
const maxBazelrc = 8

// bazel walks the --run_under prefixes of a bazel command line.
func (w *walker) bazel(c *ctx, args []Word, sc *scope) {
	sub := ""
	var rcs []string
	noRC := false
	var opts []string
	for _, a := range args {
		s := a.Lit()
		switch {
		case strings.HasPrefix(s, "--bazelrc="):
			rcs = append(rcs, dirOf(strings.TrimPrefix(s, "--bazelrc="), sc))
		case s == "--nohome_rc" || s == "--noworkspace_rc" || s == "--ignore_all_rc_files":
			noRC = noRC || s == "--ignore_all_rc_files"
		case sub == "" && !strings.HasPrefix(s, "-"):
			sub = s
		case sub != "":
			opts = append(opts, s)
		}
	}
	switch sub {
	case "run", "test", "coverage":
	default:
		return
	}
	if !noRC {
		top := w.bazelTop(sc.cwd)
		if top != "" {
			rcs = append([]string{filepath.Join(top, ".bazelrc")}, rcs...)
		}
		if h := sc.vars["HOME"]; !h.dynamic && len(h.vals) == 1 && filepath.IsAbs(h.vals[0]) {
			rcs = append([]string{filepath.Join(h.vals[0], ".bazelrc")}, rcs...)
		}
		seen := map[string]bool{}
		for i := 0; i < len(rcs) && i < maxBazelrc; i++ {
			p := rcs[i]
			if p == "" || seen[p] {
				continue
			}
			seen[p] = true
			text, ok := w.readText(p)
			if !ok {
				continue
			}
			for _, line := range strings.Split(text, "\n") {
				f := rcFields(line)
				if len(f) == 0 || strings.HasPrefix(f[0], "#") {
					continue
				}
				if (f[0] == "import" || f[0] == "try-import") && len(f) > 1 {
					q := strings.ReplaceAll(f[1], "%workspace%", top)
					if !filepath.IsAbs(q) {
						q = filepath.Join(filepath.Dir(p), q)
					}
					rcs = append(rcs, q)
					continue
				}
				cmd, _, _ := strings.Cut(f[0], ":")
				switch cmd {
				case "run", "test", "coverage", "build", "common", "always":
					opts = append(opts, f[1:]...)
				}
			}
		}
	}
	for i := 0; i < len(opts); i++ {
		s := opts[i]
		v, ok := strings.CutPrefix(s, "--run_under=")
		if !ok && s == "--run_under" && i+1 < len(opts) {
			v, ok = opts[i+1], true
			i++
		}
		if !ok || v == "" {
			continue
		}
		if strings.HasPrefix(v, "//") || strings.HasPrefix(v, "@") || strings.HasPrefix(v, ":") {
			w.opaque("bazel " + sub + " running the target " + v + " of --run_under (built from the project: not read)")
			continue
		}
		w.shellString(c.with("bazel --run_under"), v, sc)
	}
}

// bazelTop returns the workspace root above dir (MODULE.bazel,
// WORKSPACE, WORKSPACE.bazel), or "".
func (w *walker) bazelTop(dir string) string {
	for d := dir; d != ""; d = filepath.Dir(d) {
		for _, n := range []string{"MODULE.bazel", "WORKSPACE", "WORKSPACE.bazel"} {
			if _, ok := w.readText(filepath.Join(d, n)); ok {
				return d
			}
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	return ""
}

// rcFields splits a line of a bazelrc into words as bazel does: blanks
// separate them, '…' and "…" keep blanks, a backslash keeps the next
// character (outside '…').
func rcFields(s string) []string {
	var out []string
	var cur strings.Builder
	var quote byte
	in := false
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch == '\\' && quote != '\'' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			in = true
		case quote != 0 && ch == quote:
			quote = 0
		case quote != 0:
			cur.WriteByte(ch)
		case ch == '"' || ch == '\'':
			quote, in = ch, true
		case ch == ' ' || ch == '\t' || ch == '\r':
			if in {
				out = append(out, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteByte(ch)
			in = true
		}
	}
	if in {
		out = append(out, cur.String())
	}
	return out
}
