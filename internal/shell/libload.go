package shell

import (
	"path/filepath"
	"strings"
)

// Ruby and Perl load libraries their options name before the script or
// the -e code: ruby -r LIB (-rLIB, and in RUBYOPT, which every ruby a
// program starts reads: rake, rspec, bundle exec), perl -M/-m MODULE (and
// in PERL5OPT). A library is found as the interpreter finds it: a path
// (ruby -r ./x.rb), or a name looked up in the -I directories and in
// RUBYLIB / PERL5LIB (ruby -I src -r y loads src/y.rb; perl -Isrc -MY
// loads src/Y.pm). Such a file of the project is read as a script the
// interpreter runs; a name found nowhere there is an installed library.

// libOpts are the libraries and directories an interpreter's options
// name.
type libOpts struct {
	libs, dirs []string
}

// The option letters that take a value glued to them (…Glued), and those
// of them that take it from the next word too (…Next).
const (
	rubyGlued = "rICEFxKTW0i"
	rubyNext  = "rICEF"
	perlGlued = "IMmixlC0dD"
	perlNext  = "IMm"
)

// parseLibOpts reads the option words of a ruby or perl command line (or
// of RUBYOPT / PERL5OPT) up to the script.
func parseLibOpts(lang string, words []string) libOpts {
	glued, next := rubyGlued, rubyNext
	if lang == "perl" {
		glued, next = perlGlued, perlNext
	}
	var o libOpts
	add := func(c byte, v string) {
		switch c {
		case 'r', 'M', 'm':
			o.libs = append(o.libs, v)
		case 'I':
			o.dirs = append(o.dirs, v)
		}
	}
	for i := 0; i < len(words); i++ {
		s := words[i]
		if s == "--" || s == "-" || !strings.HasPrefix(s, "-") {
			break // the script: its own arguments follow
		}
		if strings.HasPrefix(s, "--") {
			continue // ruby's --enable=…, --disable-gems …
		}
		for k := 1; k < len(s); k++ {
			c := s[k]
			if c == 'e' || c == 'E' && lang == "perl" {
				if k == len(s)-1 {
					i++ // the code, in the next word: read elsewhere (interp)
				}
				break
			}
			if strings.IndexByte(glued, c) >= 0 {
				v := s[k+1:]
				if v == "" && strings.IndexByte(next, c) >= 0 && i+1 < len(words) {
					i++
					v = words[i]
				}
				add(c, v)
				break
			}
		}
	}
	return o
}

// libLoads walks the project files the options of an interpreter command
// line load first.
func (w *walker) libLoads(c *ctx, lang, name string, args []Word, sc *scope) {
	var words []string
	for _, a := range args {
		v, ok := a.Value()
		if !ok {
			// A library option computed at run time (-r"$x"); a
			// computed -I only moves where named ones are found.
			lib := lang == "ruby" && strings.HasPrefix(a.Raw, "-r") ||
				lang == "perl" && (strings.HasPrefix(a.Raw, "-M") || strings.HasPrefix(a.Raw, "-m"))
			if lib {
				w.opaque(name + " loading a library computed at run time: " + a.Raw)
			}
			break
		}
		words = append(words, v)
	}
	w.loadLibs(c, lang, parseLibOpts(lang, words), sc)
}

// libEnv walks what RUBYOPT and PERL5OPT load, once per value, before
// program name runs with them set: any program may start ruby or perl.
func (w *walker) libEnv(c *ctx, name string, sc *scope) {
	if builtinOnly[name] || name == "" || len(sc.vars) == 0 {
		return
	}
	for _, k := range [2]string{"RUBYOPT", "PERL5OPT"} {
		val, ok := w.envOnce(k, sc)
		if !ok {
			continue
		}
		lang := "ruby"
		if k == "PERL5OPT" {
			lang = "perl"
		}
		fs := optFields(val)
		for i, f := range fs {
			if f != "" && f[0] != '-' {
				fs[i] = "-" + f // RUBYOPT=rfoo reads as -rfoo
			}
		}
		w.loadLibs(c.with(k), lang, parseLibOpts(lang, fs), sc)
	}
}

// loadLibs reads each library of o that is a file of the project.
func (w *walker) loadLibs(c *ctx, lang string, o libOpts, sc *scope) {
	if len(o.libs) == 0 || w.a.ReadFile == nil || c.depth >= MaxDepth {
		return
	}
	env := "RUBYLIB"
	if lang == "perl" {
		env = "PERL5LIB"
	}
	dirs := o.dirs
	if lang == "perl" {
		// -Mlib=DIR,… is use lib: DIR searched first, as -I (perl 5.36
		// here: perl -Mlib=. -MEvil -e 1 ran ./Evil.pm).
		for _, lib := range o.libs {
			if v, ok := strings.CutPrefix(lib, "lib="); ok {
				dirs = append(dirs, strings.Split(v, ",")...)
			}
		}
	}
	if v, ok := sc.vars[env]; ok && !v.dynamic && len(v.vals) == 1 {
		dirs = append(dirs, filepath.SplitList(v.vals[0])...)
	}
	for _, lib := range o.libs {
		p, ok := w.libFile(lang, lib, dirs, sc)
		if !ok {
			continue
		}
		text, ok := w.readOnce(p)
		if !ok {
			continue
		}
		prev := w.file
		w.file = p
		w.code(c.with(lang+" loading "+lib), lang, text, sc)
		w.file = prev
	}
}

// libFile finds the file of library lib as the interpreter does.
func (w *walker) libFile(lang, lib string, dirs []string, sc *scope) (string, bool) {
	var cands []string
	if lang == "perl" {
		// -MFoo::Bar=x,y and -M-Foo (no Foo): Foo/Bar.pm.
		lib = strings.TrimPrefix(lib, "-")
		lib, _, _ = strings.Cut(lib, "=")
		lib, _, _ = strings.Cut(lib, " ")
		if lib == "" || strings.ContainsAny(lib, "/\\") {
			return "", false
		}
		rel := strings.ReplaceAll(lib, "::", "/") + ".pm"
		for _, d := range dirs {
			cands = append(cands, filepath.Join(d, rel))
		}
	} else {
		if lib == "" {
			return "", false
		}
		ext := []string{""}
		if !strings.HasSuffix(lib, ".rb") {
			ext = []string{".rb", ""}
		}
		if filepath.IsAbs(lib) || strings.HasPrefix(lib, "./") || strings.HasPrefix(lib, "../") || strings.HasPrefix(lib, "~") {
			for _, e := range ext {
				cands = append(cands, lib+e)
			}
		} else {
			for _, d := range dirs {
				for _, e := range ext {
					cands = append(cands, filepath.Join(d, lib+e))
				}
			}
		}
	}
	for _, p := range cands {
		if strings.HasPrefix(p, "~") {
			continue // ruby expands ~: a file of the home directory, not the project's
		}
		if !filepath.IsAbs(p) {
			if sc.cwd == "" {
				continue
			}
			p = filepath.Join(sc.cwd, p)
		}
		if _, ok := w.readText(p); ok {
			return p, true
		}
	}
	return "", false
}
