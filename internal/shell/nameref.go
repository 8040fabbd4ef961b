package shell

import "mvdan.cc/sh/v3/syntax"

// Namerefs (declare -n r=c, local -n, typeset -n): r is another name for
// c, so a value set through r is c's, and $r reads whatever c holds when
// it is read. Without this, `declare -n r=c; r='rm -rf tests'; $c`,
// `declare -n r=c; c='rm -rf tests'; $r`, `declare -n r=c; read r <<< …;
// $c` and `declare -n r=BASH_ENV; export r=scripts/clean.sh; bash -c
// true` were allowed and each deleted tests/ (bash 5.2, atk13).
//
// A write through r is made to c, as written (r=x is c=x, so
// PROMPT_COMMAND, BASH_ENV, HISTFILE through a nameref are judged as
// themselves); a write by any other command (read r, printf -v r, for r
// in …) leaves c computed at run time. $r itself is always computed at
// run time, unquoted a whole command line. A nameref whose target is
// computed at run time makes any write through it opaque.

// refMarker is the value a nameref holds in the scope.
func refMarker() value { return value{dynamic: true, words: true, nameref: true} }

// declareRef records that name is a nameref to the variable target word x
// names (nil: no target yet; bash takes the first value assigned as it).
func (w *walker) declareRef(c *ctx, name string, x *syntax.Word, sc *scope) {
	target := ""
	if x != nil {
		if v, ok := w.word(c, x, sc).Value(); ok && validName(v) && v != name {
			target = v
		}
	}
	refs := make(map[string]string, len(sc.refs)+1)
	for k, v := range sc.refs {
		refs[k] = v
	}
	refs[name] = target
	sc.refs = refs // replaced, never changed in place: clones share it
	sc.vars[name] = refMarker()
}

// refAssign makes assignment as to a nameref (assign calls it first). It
// reports whether name was one.
func (w *walker) refAssign(c *ctx, as *syntax.Assign, sc *scope) bool {
	if as.Name == nil {
		return false
	}
	target, ok := sc.refs[as.Name.Value]
	if !ok {
		return false
	}
	switch {
	case target == "":
		w.opaque("what is set through the nameref " + as.Name.Value + " (declare -n), whose variable is named at run time")
	case sc.refs[target] != "" || target == as.Name.Value:
		// A nameref to a nameref: followed no further.
		sc.vars[target] = value{dynamic: true, words: true}
	default:
		n := *as
		n.Name = &syntax.Lit{ValuePos: as.Name.ValuePos, ValueEnd: as.Name.ValueEnd, Value: target}
		w.assign(c, &n, sc)
	}
	sc.vars[as.Name.Value] = refMarker()
	return true
}

// syncRefs gives the targets of the namerefs that a command other than an
// assignment set (read r, printf -v r, mapfile r, for r in …) a value
// computed at run time, and the namerefs back their marker.
func (w *walker) syncRefs(sc *scope) {
	for name, target := range sc.refs {
		if sc.vars[name].nameref {
			continue
		}
		if target == "" {
			w.opaque("what is set through the nameref " + name + " (declare -n), whose variable is named at run time")
		} else {
			sc.vars[target] = value{dynamic: true, words: true}
		}
		sc.vars[name] = refMarker()
	}
}
