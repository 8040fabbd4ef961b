package shell

import (
	"path/filepath"
	"slices"
	"strconv"
)

// dirStack handles the forms of pushd and popd that move along the
// directory stack rather than to a named directory: pushd alone (swap the
// top two), pushd +N / -N (rotate entry N to the top), popd +N / -N (drop
// entry N), and -n (change the stack only). It reports whether args were
// one of them; plain pushd DIR and popd are cd's to read. The stack reads
// as bash's dirs prints it: the current directory first, then sc.dirs
// from the last pushed.
func (w *walker) dirStack(name string, args []Word, sc *scope) bool {
	if name != "pushd" && name != "popd" {
		return false
	}
	noCd := false
	var rest []Word
	for _, a := range args {
		if a.Lit() == "-n" {
			noCd = true
			continue
		}
		rest = append(rest, a)
	}
	stack := []string{sc.cwd}
	for i := len(sc.dirs) - 1; i >= 0; i-- {
		stack = append(stack, sc.dirs[i])
	}
	if len(rest) == 0 {
		switch {
		case name == "pushd":
			// pushd alone swaps the top two; with one entry bash refuses.
			if len(stack) > 1 {
				stack[0], stack[1] = stack[1], stack[0]
				setStack(sc, stack, !noCd)
			}
			return true
		case noCd:
			// popd -n drops the second entry, and stays.
			if len(stack) > 1 {
				setStack(sc, slices.Delete(stack, 1, 2), false)
			}
			return true
		}
		return false
	}
	if len(rest) > 1 {
		return false
	}
	n, ok := stackIndex(rest[0], len(stack))
	switch {
	case !ok && name == "pushd" && noCd:
		// pushd -n DIR: DIR goes second; the shell stays.
		dir := ""
		if d, known := rest[0].Value(); known && (filepath.IsAbs(d) || sc.cwd != "") {
			dir = filepath.Join(sc.cwd, d)
			if filepath.IsAbs(d) {
				dir = filepath.Clean(d)
			}
		}
		setStack(sc, slices.Insert(stack, 1, dir), false)
	case !ok:
		return false
	case n < 0 || n >= len(stack):
		// An entry beyond the stack this line built: one an earlier line
		// left, if the shell keeps its stack, or an error. pushd may
		// move anywhere; popd of such an entry stays.
		if name == "pushd" {
			setStack(sc, []string{""}, !noCd)
		}
	case name == "pushd" && noCd:
		sc.dirs = nil // rotated without moving: the stack no longer reads as kept
	case name == "pushd":
		setStack(sc, append(slices.Clone(stack[n:]), stack[:n]...), true)
	default:
		setStack(sc, slices.Delete(stack, n, n+1), n == 0)
	}
	return true
}

// stackIndex reads +N or -N, an entry of the directory stack counted from
// its top or its bottom, as an index from the top (negative when beyond).
func stackIndex(w Word, size int) (int, bool) {
	s, ok := w.Value()
	if !ok || len(s) < 2 || s[0] != '+' && s[0] != '-' {
		return 0, false
	}
	k, err := strconv.Atoi(s[1:])
	if err != nil || k < 0 || s[1] == '+' || s[1] == '-' {
		return 0, false
	}
	if s[0] == '-' {
		return size - 1 - k, true
	}
	return k, true
}

// setStack sets the directory stack (current directory first), moving the
// shell to its top when move is set.
func setStack(sc *scope, stack []string, move bool) {
	if move && len(stack) > 0 && stack[0] != sc.cwd {
		prev := sc.cwd
		sc.setCwd(stack[0])
		if prev == "" {
			sc.vars["OLDPWD"] = value{dynamic: true}
		} else {
			sc.vars["OLDPWD"] = value{vals: []string{prev}}
		}
	}
	sc.dirs = nil
	for i := len(stack) - 1; i >= 1; i-- {
		sc.dirs = append(sc.dirs, stack[i])
	}
}
