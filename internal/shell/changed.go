package shell

import (
	"path/filepath"
	"strings"
)

// A script or build file changed earlier in the same command line by a
// command whose result ralph cannot work out — sed -i, a redirect of
// computed output, cp or mv over it — and then run: `sed -i 's/go
// vet/rm -rf tests;/' scripts/check.sh && sh scripts/check.sh`, or `jq
// '.scripts.test="rm -rf tests"' package.json > p.json && mv p.json
// package.json && npm test`, ran the changed file while ralph read the
// disk's. Run in a later call, the file is read as changed; on one line
// the run asks (changedRun), where the file is read as the program
// (a script run by path or by a shell or interpreter, awk -f, a
// Makefile, package.json's scripts).

// noteChanged records the files cmd changes with text ralph does not
// know (w.changed), and forgets those it writes with known text.
func (w *walker) noteChanged(cmd *Cmd) {
	mark := func(target Word) {
		v, ok := target.Value()
		if !ok || v == "" || strings.HasPrefix(v, "-") {
			return
		}
		if !filepath.IsAbs(v) {
			if cmd.Cwd == "" {
				return
			}
			v = filepath.Join(cmd.Cwd, v)
		}
		v = filepath.Clean(v)
		if w.changed == nil {
			w.changed = map[string]string{}
		}
		w.changed[v] = cmd.Name
		delete(w.written, v)
	}
	if !cmd.StdoutKnown {
		for _, r := range cmd.Redirs {
			if r.Writes() && (r.Fd == "" || r.Fd == "1" || r.Fd == "&") {
				mark(r.Target)
			}
		}
	}
	var operands []Word
	inPlace := false
	for _, a := range cmd.Args {
		s := a.Lit()
		switch {
		case s == "--in-place" || strings.HasPrefix(s, "--in-place="):
			inPlace = true
		case len(s) > 1 && s[0] == '-' && s[1] != '-' && !a.Dynamic:
			inPlace = inPlace || inPlaceFlag(s) // sed -i, sed -i.bak, perl -pi -e, ruby -i
		case !strings.HasPrefix(s, "-"):
			operands = append(operands, a)
		}
	}
	switch cmd.Name {
	case "tee", "sponge":
		if cmd.Input == nil || !cmd.Input.StdoutKnown {
			for _, a := range operands {
				mark(a)
			}
		}
	case "sed", "gsed", "perl", "ruby":
		if inPlace {
			for _, a := range operands {
				mark(a)
			}
		}
	case "cp", "mv", "install", "ln":
		if len(operands) < 2 {
			return
		}
		dest := operands[len(operands)-1]
		mark(dest)
		if d, ok := dest.Value(); ok {
			for _, s := range operands[:len(operands)-1] {
				if v, ok := s.Value(); ok {
					mark(Word{Raw: d, Values: []string{filepath.Join(d, filepath.Base(v))}})
				}
			}
		}
	}
}

// inPlaceFlag reports whether a short option cluster holds an -i that
// edits in place (-i, -ni, -pi.bak), not an i inside another option's
// value (perl -Mlib).
func inPlaceFlag(s string) bool {
	for _, r := range s[1:] {
		switch {
		case r == 'i':
			return true
		case !strings.ContainsRune("pnlaErsuz0", r):
			return false
		}
	}
	return false
}

// changedRun asks when file p, about to be read as what runs, was changed
// earlier in the line in a way ralph cannot read.
func (w *walker) changedRun(what, p string) {
	if by, ok := w.changed[filepath.Clean(p)]; ok {
		w.opaque(what + ", which " + by + " changes earlier in the line in a way ralph cannot read (run the change and the run as separate calls)")
	}
}
