package shell

import "strings"

// make reads its options as getopt does: short options grouped in one
// word (-sf FILE, -sfFILE), a value glued to its letter (-fFILE, -Cdir),
// long options cut to a prefix naming no other (--fil=FILE, --makef
// FILE), and -f given more than once (every file named is read, in
// order). Each of those forms ran a recipe the guard had not read
// (attack_run5.txtar).

// makeLongs are GNU make's long options (4.3), for matchLong.
var makeLongs = []string{
	"always-make", "directory", "debug", "environment-overrides", "eval", "file", "makefile",
	"help", "ignore-errors", "include-dir", "jobs", "jobserver-auth", "jobserver-style",
	"keep-going", "load-average", "check-symlink-times", "just-print", "dry-run", "recon",
	"old-file", "assume-old", "output-sync", "print-data-base", "question", "no-builtin-rules",
	"no-builtin-variables", "silent", "quiet", "no-silent", "stop", "no-keep-going", "touch",
	"trace", "version", "print-directory", "no-print-directory", "what-if", "new-file",
	"assume-new", "warn-undefined-variables", "shuffle",
}

// makeOpts is what a make command line says.
type makeOpts struct {
	dir      string
	files    []string // -f, in order
	evals    []string
	targets  []string
	vars     map[string]string
	all      bool   // a word computed at run time: any target may run
	dry      bool   // -n, -q: recipes printed or checked, not run
	computed string // an --eval of text computed at run time
}

// parseMake reads make's arguments.
func parseMake(args []Word) makeOpts {
	o := makeOpts{vars: map[string]string{}}
	next := func(i int) (string, bool) {
		if i+1 < len(args) {
			return args[i+1].Lit(), true
		}
		return "", false
	}
	set := func(opt, v string, w *Word) {
		switch opt {
		case "directory":
			o.dir = v
		case "file", "makefile":
			o.files = append(o.files, v)
		case "eval":
			if w != nil {
				if s, ok := w.Value(); ok {
					v = s
				} else {
					o.computed = w.Raw
					return
				}
			}
			o.evals = append(o.evals, v)
		}
	}
	onlyTargets := false
	for i := 0; i < len(args); i++ {
		s, ok := args[i].Value()
		if !ok {
			o.all = true
			continue
		}
		switch {
		case onlyTargets || s == "-" || !strings.HasPrefix(s, "-"):
			if k, v, ok := strings.Cut(s, "="); ok && k != "" {
				o.vars[strings.TrimSpace(k)] = v
			} else {
				o.targets = append(o.targets, s)
			}
		case s == "--":
			onlyTargets = true
		case strings.HasPrefix(s, "--"):
			name, v, glued := strings.Cut(s[2:], "=")
			long, ok := matchLong(name, makeLongs)
			if !ok {
				continue
			}
			switch long {
			case "directory", "file", "makefile", "eval", "include-dir", "old-file", "assume-old", "what-if", "new-file", "assume-new":
				if !glued {
					if v, ok = next(i); !ok {
						continue
					}
					i++
					if long == "eval" {
						set(long, v, &args[i])
						continue
					}
				}
				set(long, v, nil)
			case "just-print", "dry-run", "recon", "question":
				o.dry = true
			}
		default:
			// A group of short options: the first that takes a value
			// takes the rest of the word, or the next word.
			for k := 1; k < len(s); k++ {
				c := s[k]
				switch c {
				case 'C', 'f', 'E', 'I', 'o', 'W':
					opt := map[byte]string{'C': "directory", 'f': "file", 'E': "eval"}[c]
					if rest := s[k+1:]; rest != "" {
						set(opt, rest, nil)
					} else if v, ok := next(i); ok {
						i++
						if c == 'E' {
							set(opt, v, &args[i])
						} else {
							set(opt, v, nil)
						}
					}
					k = len(s)
				case 'j', 'l':
					if s[k+1:] != "" {
						k = len(s) // -j4
					} else if v, ok := next(i); ok && v != "" && strings.Trim(v, "0123456789.") == "" {
						i++
					}
				case 'n', 'q':
					o.dry = true
				}
			}
		}
	}
	return o
}
