package shell

import "mvdan.cc/sh/v3/syntax"

// Two of bash's own variables act by themselves once an interactive bash
// starts with them (bash 5.2 here): $PROMPT_COMMAND (a string, or an
// array of them) runs as shell code before every prompt, the first one
// included (`PROMPT_COMMAND='touch x' bash -i </dev/null` made x), and
// $HISTFILE names the file bash reads, cuts to $HISTFILESIZE lines and
// writes the history back to at exit (`HISTFILE=tests/t.py HISTFILESIZE=0
// bash -i </dev/null` emptied the test). So wherever the line sets them
// (VAR=… cmd, export, declare, env VAR=…), PROMPT_COMMAND's value is
// walked as code that runs and HISTFILE's is a write of that file, as
// `history -w FILE` is.

// bashVar judges the value vals (dynamic: not known) given to variable
// name, if it is one of those.
func (w *walker) bashVar(c *ctx, name string, vals []string, dynamic bool, sc *scope, line int) {
	switch name {
	case "PROMPT_COMMAND":
		if dynamic {
			w.opaque("PROMPT_COMMAND set to a value computed at run time, which an interactive bash runs before every prompt")
			return
		}
		for _, v := range vals {
			if key := sc.cwd + "\x00" + v; v != "" && !w.promptSeen[key] {
				// Walked once: where it is set, or else where an
				// interactive bash finds it (shellstart.go).
				if w.promptSeen == nil {
					w.promptSeen = map[string]bool{}
				}
				w.promptSeen[key] = true
				w.scriptAt(v, sc.child(), c.with("PROMPT_COMMAND").via, c.depth+1, line)
			}
		}
	case "HISTFILE":
		var file Word
		switch {
		case dynamic:
			file = Word{Raw: "$HISTFILE", Dynamic: true}
		case len(vals) != 1 || vals[0] == "":
			return // unset: bash keeps no history file
		default:
			file = Word{Raw: vals[0], Values: []string{vals[0]}}
		}
		w.emit(c.with("HISTFILE"), &Cmd{Name: "history", NameWord: Word{Raw: "history", Values: []string{"history"}},
			Args: []Word{{Raw: "-w", Values: []string{"-w"}}, file}, Cwd: sc.cwd, Line: line})
	}
}

// bashVarAssign is bashVar for an assignment (x=…, x=(…), export x=…).
func (w *walker) bashVarAssign(c *ctx, as *syntax.Assign, sc *scope) {
	if as.Name == nil || as.Name.Value != "PROMPT_COMMAND" && as.Name.Value != "HISTFILE" {
		return
	}
	name := as.Name.Value
	if as.Array != nil {
		for _, e := range as.Array.Elems {
			if e.Value == nil {
				continue
			}
			wd := w.word(c, e.Value, sc)
			w.bashVar(c, name, wd.Values, wd.Dynamic, sc, c.lineOf(as))
		}
		return
	}
	if as.Value == nil {
		if !as.Naked {
			w.bashVar(c, name, []string{""}, false, sc, c.lineOf(as)) // PROMPT_COMMAND=
		}
		return // export PROMPT_COMMAND: the value it had
	}
	wd := w.word(c, as.Value, sc)
	w.bashVar(c, name, wd.Values, wd.Dynamic, sc, c.lineOf(as))
}
