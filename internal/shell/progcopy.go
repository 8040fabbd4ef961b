package shell

import (
	"path/filepath"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A program run under another name is still that program: cp /bin/rm
// ./ls; ./ls -rf tests runs rm, and so do ln -s /bin/rm /tmp/ls;
// PATH=/tmp:$PATH ls -rf tests, hash -p /bin/rm ls; ls …, and
// BASH_CMDS[ls]=/bin/rm; ls …. The walker keeps the copies and links
// the line makes (w.progs: path → what was copied, "" when computed) and
// the names hash -p and BASH_CMDS bind (w.hashed), and asks
// Analyzer.Program about a file already on disk.

// noteCopy records the files cp, ln, install and mv make from another
// file: each is the program (or script) it was made from.
func (w *walker) noteCopy(name string, args []Word, sc *scope) {
	switch name {
	case "cp", "ln", "install", "mv", "link":
	default:
		return
	}
	var ops []Word
	dir := ""
	dirKnown := true
	for i := 0; i < len(args); i++ {
		s := args[i].Lit()
		switch {
		case s == "--":
			ops = append(ops, args[i+1:]...)
			i = len(args)
		case s == "-t" || s == "--target-directory" || isLong(s, "--target-directory", false) && len(s) > 4:
			if i+1 < len(args) {
				dir, dirKnown = args[i+1].Value()
				i++
			}
		case strings.HasPrefix(s, "--target-directory="):
			dir = strings.TrimPrefix(s, "--target-directory=")
		case strings.HasPrefix(s, "-t") && len(s) > 2 && name != "install":
			dir = s[2:]
		case (s == "-S" || s == "-m" || s == "-o" || s == "-g" || s == "--suffix") && i+1 < len(args):
			i++ // an option's value
		case len(s) > 1 && s[0] == '-' && !args[i].Dynamic:
		default:
			ops = append(ops, args[i])
		}
	}
	if !dirKnown {
		return
	}
	srcs, dest := ops, dir
	into := dir != ""
	if !into {
		switch len(ops) {
		case 0:
			return
		case 1:
			if name != "ln" {
				return
			}
			dest, into = ".", true // ln -s SRC: a link named like SRC, here
		default:
			srcs = ops[:len(ops)-1]
			d, ok := ops[len(ops)-1].Value()
			if !ok {
				return
			}
			dest = d
			into = len(srcs) > 1 || strings.HasSuffix(d, "/") || d == "." || d == ".."
		}
	}
	dest = absIn(dest, sc.cwd)
	if dest == "" {
		return
	}
	if w.progs == nil {
		w.progs = map[string]string{}
	}
	for _, s := range srcs {
		v, ok := s.Value()
		p := dest
		if into {
			if !ok {
				continue // a computed name in DIR: no path to know
			}
			p = filepath.Join(dest, filepath.Base(v))
		}
		if !ok {
			w.progs[p] = ""
			continue
		}
		if strings.Contains(v, "/") {
			if a := absIn(v, sc.cwd); a != "" {
				v = a
			}
		}
		w.progs[p] = v
	}
}

// noteHash records hash -p PATH NAME: NAME runs PATH from now on.
func (w *walker) noteHash(args []Word) {
	for i := 0; i+2 < len(args); i++ {
		if args[i].Lit() != "-p" {
			continue
		}
		p, ok := args[i+1].Value()
		for _, n := range args[i+2:] {
			if v, nok := n.Value(); nok {
				w.bind(v, p, ok)
			}
		}
		return
	}
}

// noteCmdsAssign records BASH_CMDS[NAME]=PATH, which is hash -p.
func (w *walker) noteCmdsAssign(c *ctx, as *syntax.Assign, sc *scope) {
	if as.Name == nil || as.Name.Value != "BASH_CMDS" || as.Index == nil || as.Value == nil {
		return
	}
	k, ok := as.Index.(*syntax.Word)
	if !ok {
		return
	}
	name := w.word(c, k, sc)
	n, nok := name.Value()
	if !nok {
		return
	}
	p, ok := w.word(c, as.Value, sc).Value()
	w.bind(n, p, ok)
}

func (w *walker) bind(name, path string, known bool) {
	if w.hashed == nil {
		w.hashed = map[string]string{}
	}
	if !known {
		path = ""
	}
	w.hashed[name] = path
}

// realProgram returns words with the program word replaced by the program
// it really runs, when the line made it a copy or link of another one,
// bound its name with hash -p, or a file on disk is one (Analyzer.Program).
func (w *walker) realProgram(words []Word, sc *scope) []Word {
	v, ok := words[0].Value()
	if !ok || v == "" {
		return words
	}
	target, found := "", false
	switch {
	case strings.Contains(v, "/"):
		p := absIn(v, sc.cwd)
		if p == "" {
			return words
		}
		target, found = w.programAt(p)
	default:
		if t, ok := w.hashed[v]; ok {
			target, found = t, true
			break
		}
		// PATH set by this line: a directory ahead of the usual ones
		// may hold a copy under the name.
		if _, set := sc.vars["PATH"]; !set {
			return words
		}
		for p := range w.progs {
			if filepath.Base(p) == v {
				target, found = w.progs[p], true
				break
			}
		}
		if !found {
			for _, d := range linePath(sc) {
				if target, found = w.programAt(filepath.Join(absIn(d, sc.cwd), v)); found {
					break
				}
			}
		}
	}
	if !found || target != "" && filepath.Base(target) == filepath.Base(v) {
		return words
	}
	if target == "" {
		w.opaque(v + ", a copy of a program computed at run time")
		return words
	}
	out := append([]Word(nil), words...)
	out[0] = Word{Raw: words[0].Raw, Values: []string{target}}
	return out
}

// programAt returns what the file at p runs: a copy or link this line
// made, or what Analyzer.Program says of a file on disk.
func (w *walker) programAt(p string) (string, bool) {
	if t, ok := w.progs[p]; ok {
		return t, true
	}
	if w.a.Program != nil {
		return w.a.Program(p)
	}
	return "", false
}

// linePath returns the literal directories at the front of a PATH this
// line set (PATH=/tmp:$PATH gives /tmp).
func linePath(sc *scope) []string {
	v := sc.vars["PATH"]
	s := ""
	switch {
	case !v.dynamic && len(v.vals) == 1:
		s = v.vals[0]
	default:
		pre, ok := sc.vars["PATH "]
		if !ok || len(pre.vals) != 1 {
			return nil
		}
		s = pre.vals[0]
	}
	var out []string
	for _, d := range strings.Split(s, ":") {
		if d == "" {
			d = "." // an empty entry is the current directory
		}
		if strings.ContainsAny(d, "$`") {
			break
		}
		out = append(out, d)
	}
	return out
}

// notePathPrefix keeps the literal front of a PATH assigned a value that
// is partly computed (PATH=./bin:$PATH), for linePath.
func notePathPrefix(name string, wd Word, sc *scope) {
	if name != "PATH" {
		return
	}
	if wd.Dynamic {
		sc.vars["PATH "] = value{vals: []string{wd.Prefix}}
	} else {
		delete(sc.vars, "PATH ")
	}
}

// absIn makes p absolute against dir ("" when it cannot).
func absIn(p, dir string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, p)
}
