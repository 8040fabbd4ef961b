package shell

import "slices"

// Code that runs later by itself — a trap's (trap 'rm -rf $d' EXIT), a zsh
// hook function's (TRAPEXIT, zshexit, chpwd…) — runs with the shell's
// state when it fires, not when it is set: d=build; trap 'rm -rf $d'
// EXIT; d=tests deletes tests. Such code is walked where it is set and
// again where the script that set it ends, with the state there, each
// variable assigned in between holding any of the values it was given
// (the code may fire between the assignments).

// deferred is code walked again at the end of the script that set it.
type deferred struct {
	after int // len(walker.assigned) when it was set
	run   func(sc *scope)
}

// deferRun defers run, with the walker's state (script file, inert reason,
// helper) of now.
func (w *walker) deferRun(run func(sc *scope)) {
	if w.replaying {
		return
	}
	file, inert, helper, inCode := w.file, w.inert, w.helper, w.inCode
	w.deferred = append(w.deferred, deferred{after: len(w.assigned), run: func(sc *scope) {
		pf, pi, ph, pc := w.file, w.inert, w.helper, w.inCode
		w.file, w.inert, w.helper, w.inCode = file, inert, helper, inCode
		run(sc)
		w.file, w.inert, w.helper, w.inCode = pf, pi, ph, pc
	}})
}

// assignment is a variable's value after an assignment.
type assignment struct {
	name string
	v    value
}

// replay walks the code deferred since mark, in the final state sc of the
// script that set it.
func (w *walker) replay(mark int, sc *scope) {
	if len(w.deferred) <= mark || w.replaying {
		return
	}
	pending := w.deferred[mark:]
	w.deferred = w.deferred[:mark]
	w.replaying = true
	defer func() { w.replaying = false }()
	for _, d := range pending {
		rs := sc.clone()
		seen := map[string]bool{}
		for _, a := range w.assigned[d.after:] {
			if !seen[a.name] {
				seen[a.name] = true
				rs.vars[a.name] = sc.vars[a.name]
			}
			rs.vars[a.name] = union(rs.vars[a.name], a.v)
		}
		d.run(rs)
	}
	if len(w.deferred) == 0 {
		w.assigned = w.assigned[:0]
	}
}

// union is a variable that holds a value of a or of b.
func union(a, b value) value {
	if a.dynamic || b.dynamic || a.array || b.array || a.words || b.words || a.unset || b.unset {
		return value{dynamic: true, many: a.many || b.many, array: a.array || b.array}
	}
	out := value{vals: slices.Clone(a.vals), glob: a.glob || b.glob}
	for _, v := range b.vals {
		if !slices.Contains(out.vals, v) {
			out.vals = append(out.vals, v)
		}
	}
	if len(out.vals) > maxValues {
		return value{dynamic: true}
	}
	return out
}
