package shell

import (
	"fmt"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Bash evaluates a variable's value again where it reads it as a number or
// a name: in (( x )), $(( x )), let, [[ x -eq 0 ]], ${a[x]}, ${x:x},
// ${!x}, printf -v NAME, test -v NAME, read NAME, declare NAME=…. When that
// value holds an array subscript, a[$(cmd)], bash expands the subscript and
// runs cmd: x='a[$(rm -rf tests)]'; (( x )) deletes tests. So a value that
// holds $(…) or `…` is judged as code that runs, wherever it is set (the
// walker cannot follow every such read), and a value the walker does not
// know (read from a file) that reaches such a read asks.

// valueCode judges the command substitutions inside the values of x (an
// assigned value, a builtin's argument) as run: bash runs them when the
// value reaches an arithmetic or a name.
func (w *walker) valueCode(c *ctx, x *syntax.Word, sc *scope) {
	if x == nil {
		return
	}
	wd := w.word(c, x, sc)
	for _, v := range wd.Values {
		w.codeIn(c, v, sc, c.lineOf(x))
	}
}

// codeIn judges the $(…) and `…` in the text v as run.
func (w *walker) codeIn(c *ctx, v string, sc *scope, line int) {
	if !strings.Contains(v, "$(") && !strings.Contains(v, "`") && !strings.Contains(v, "<(") && !strings.Contains(v, ">(") {
		return
	}
	src := ": " + v
	f, err := parse(src)
	if err != nil {
		if strings.Contains(v, "[") {
			w.opaque(fmt.Sprintf("the array subscript in %q (bash runs its $(…) where it reads the value as a number or a name)", v))
		}
		return
	}
	via := append(append([]string(nil), c.via...), "array subscript")
	w.subst(&ctx{src: src, via: via, depth: c.depth + 1, line: line}, f, sc.clone())
}

// nameArg reports whether s is one of the builtins that read an argument
// as a variable name or a number, evaluating an array subscript in it.
func nameArg(s string) bool {
	switch s {
	case "printf", "test", "[", "let", "read", "mapfile", "readarray", "unset", "declare", "typeset", "local",
		"export", "readonly", "set", "getopts", "wait", "shift", "return", "exit", "ulimit":
		return true
	}
	return false
}

// builtinArgs judges the $(…) in the arguments of a builtin that reads
// them as names or numbers, and of a function (its $1… may reach one).
func (w *walker) builtinArgs(c *ctx, name string, args []Word, sc *scope, fn bool) {
	if !fn {
		w.callbacks(c, name, args, sc)
	}
	if !fn && !nameArg(name) {
		return
	}
	printsOnly := name == "printf" && !slices.ContainsFunc(args, func(a Word) bool { return a.Lit() == "-v" })
	for i, a := range args {
		// printf %d and test -eq read numbers without evaluating them
		// (bash 5.2: "invalid number"): printf '%s' '…$(cmd)…' prints
		// text. printf -v's value may be evaluated later, and -v's
		// argument is a name.
		if !fn && (printsOnly || (name == "test" || name == "[") && (i == 0 || args[i-1].Lit() != "-v")) {
			continue
		}
		for _, v := range a.Values {
			w.codeIn(c, v, sc, c.line)
		}
	}
	switch name {
	case "let":
		for _, a := range args {
			if a.Dynamic {
				w.arithUnknown(a.Raw)
			}
			for _, v := range a.Values {
				w.arithNames(v, sc)
			}
		}
	case "read", "mapfile", "readarray":
		// read "$x": a name computed at run time (the options' values
		// skipped as readVars does).
		for i := 0; i < len(args); i++ {
			l := args[i].Lit()
			switch {
			case name == "read" && l == "-a":
			case name == "read" && len(l) == 2 && strings.ContainsRune("dnNptui", rune(l[1])) && l[0] == '-',
				name != "read" && len(l) == 2 && strings.ContainsRune("dnOsuCc", rune(l[1])) && l[0] == '-':
				i++
			case strings.HasPrefix(l, "-") && !args[i].Dynamic:
			case args[i].Dynamic:
				w.arithUnknown(args[i].Raw)
			}
		}
	case "printf", "test", "[":
		for i, a := range args {
			if a.Lit() == "-v" && i+1 < len(args) && args[i+1].Dynamic {
				w.arithUnknown(args[i+1].Raw)
			}
		}
	}
}

var identRe = func() *regexp.Regexp { return identReLazy.get() }
var identReLazy = lazy[*regexp.Regexp]{f: func() *regexp.Regexp { return regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`) }}

// arithNames asks when text, read as arithmetic, names a variable whose
// value is not known.
func (w *walker) arithNames(text string, sc *scope) {
	for _, n := range identRe().FindAllString(text, -1) {
		w.arithVar(n, sc)
	}
}

// arithVar asks when the variable n, read as a number, holds a value the
// walker does not know and that is not surely a number.
func (w *walker) arithVar(n string, sc *scope) {
	v, ok := sc.vars[n]
	if !ok || !v.dynamic || v.num {
		return
	}
	w.arithUnknown("$" + n)
}

func (w *walker) arithUnknown(what string) {
	w.opaque(fmt.Sprintf("any array subscript in %s, a value not known that bash reads as a number or a name (a[$(cmd)] runs cmd)", what))
}

// arith looks at the arithmetic inside node (a statement or a word): every
// variable it reads whose value is not known asks; a quoted subscript in
// it (${a['$(cmd)']}) is expanded again and runs.
func (w *walker) arith(c *ctx, node syntax.Node, sc *scope) {
	if node == nil {
		return
	}
	inArith := func(x syntax.Node) {
		if x == nil || reflect.ValueOf(x).IsNil() {
			return
		}
		syntax.Walk(x, func(n syntax.Node) bool {
			switch y := n.(type) {
			case *syntax.CmdSubst:
				// $(( $(cat f) + 1 )): the output is evaluated.
				if !numSubst(y) {
					w.arithUnknown(c.raw(y))
				}
				return false
			case *syntax.ProcSubst:
				return false
			case *syntax.Word:
				if l := y.Lit(); l != "" && identRe().FindString(l) == l {
					w.arithVar(l, sc)
				}
			case *syntax.ParamExp:
				if y.Param != nil && !y.Length {
					w.arithVar(y.Param.Value, sc)
				}
			case *syntax.SglQuoted:
				w.codeIn(c, y.Value, sc, c.lineOf(y))
			}
			return true
		})
	}
	syntax.Walk(node, func(n syntax.Node) bool {
		switch y := n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst:
			return false
		case *syntax.ArithmCmd:
			inArith(y.X)
			return false
		case *syntax.ArithmExp:
			inArith(y.X)
			return false
		case *syntax.LetClause:
			for _, e := range y.Exprs {
				inArith(e)
			}
			return false
		case *syntax.CStyleLoop:
			inArith(y.Init)
			inArith(y.Cond)
			inArith(y.Post)
			return true
		case *syntax.ParamExp:
			if y.Index != nil && !whole(y.Index) {
				inArith(y.Index)
			}
			if y.Slice != nil {
				inArith(y.Slice.Offset)
				inArith(y.Slice.Length)
			}
			if y.Excl && y.Param != nil && y.Index == nil && y.Names == 0 {
				w.arithVar(y.Param.Value, sc) // ${!x}: x's value as a name
			}
		case *syntax.BinaryTest:
			switch y.Op {
			case syntax.TsEql, syntax.TsNeq, syntax.TsLss, syntax.TsLeq, syntax.TsGtr, syntax.TsGeq:
				inArith(y.X)
				inArith(y.Y)
				return false
			}
		case *syntax.UnaryTest:
			if y.Op == syntax.TsVarSet {
				inArith(y.X)
			}
		}
		return true
	})
}

// numWord reports whether the value of x is surely a number: $((…)), ${#x},
// $? or $#, a variable holding one, or the output of a program that prints
// numbers (wc, expr, seq…).
func numWord(x *syntax.Word, sc *scope) bool {
	if x == nil || len(x.Parts) != 1 {
		return false
	}
	p := x.Parts[0]
	if dq, ok := p.(*syntax.DblQuoted); ok {
		if len(dq.Parts) != 1 {
			return false
		}
		p = dq.Parts[0]
	}
	switch y := p.(type) {
	case *syntax.ArithmExp:
		return true
	case *syntax.ParamExp:
		if y.Length || y.Param == nil {
			return y.Length
		}
		if y.Exp != nil || y.Slice != nil || y.Repl != nil || y.Index != nil || y.Excl {
			return false
		}
		switch y.Param.Value {
		case "?", "#", "$", "!", "RANDOM", "SECONDS", "LINENO", "BASHPID", "PPID", "UID", "EUID":
			return true
		}
		v, ok := sc.vars[y.Param.Value]
		return ok && v.num
	case *syntax.CmdSubst:
		return numSubst(y)
	}
	return false
}

// numSubst reports whether the command substitution cs prints a number:
// its last command is a program that prints only numbers.
func numSubst(cs *syntax.CmdSubst) bool {
	{
		if len(cs.Stmts) != 1 {
			return false
		}
		cmd := cs.Stmts[0].Cmd
		for {
			b, ok := cmd.(*syntax.BinaryCmd)
			if !ok || (b.Op != syntax.Pipe && b.Op != syntax.PipeAll) {
				break
			}
			cmd = b.Y.Cmd
		}
		ce, ok := cmd.(*syntax.CallExpr)
		if !ok || len(ce.Args) == 0 {
			return false
		}
		args := make([]string, len(ce.Args))
		for i, a := range ce.Args {
			args[i] = a.Lit()
		}
		switch filepath.Base(args[0]) {
		case "date":
			return slices.Contains(args, "+%s")
		case "grep", "git":
			// grep -c, git rev-list --count
			return slices.Contains(args, "-c") || slices.Contains(args, "--count")
		}
		return numProg(filepath.Base(args[0]))
	}
}

// numProg reports whether program s prints only numbers.
func numProg(s string) bool {
	switch s {
	case "wc", "expr", "seq", "nproc", "bc", "getconf":
		return true
	}
	return false
}

// callbacks judges the code bash's builtins run from their arguments:
// mapfile -C CALLBACK runs CALLBACK INDEX LINE every -c lines (LINE is
// input, not known here); compgen and complete -C CMD and -F FUNC run
// CMD or FUNC; enable -f FILE loads a shared object, code ralph cannot
// read.
func (w *walker) callbacks(c *ctx, name string, args []Word, sc *scope) {
	switch name {
	case "enable":
		for _, a := range args {
			if l := a.Lit(); l == "--" {
				return
			} else if strings.HasPrefix(l, "-") && strings.Contains(l, "f") {
				w.opaque(fmt.Sprintf("the code of the shared object `enable %s` loads", l))
				return
			}
		}
	case "compgen", "complete":
		// compgen -C CMD runs CMD, -F FUNC calls FUNC, to list the
		// completions of a word (bash 5.2: `compgen -C 'touch x' w` made
		// x); complete sets them for a later completion.
		for i := 0; i < len(args); i++ {
			l := args[i].Lit()
			if l == "--" || !strings.HasPrefix(l, "-") || len(l) < 2 {
				if name == "compgen" {
					return // the word to complete
				}
				continue
			}
			for j := 1; j < len(l); j++ {
				if !strings.ContainsRune("AGWCFPSXo", rune(l[j])) {
					continue
				}
				val, known := l[j+1:], true
				if val == "" && i+1 < len(args) {
					i++
					val, known = args[i].Value()
				}
				if l[j] == 'C' || l[j] == 'F' {
					if !known {
						w.opaque(fmt.Sprintf("the %s of %s -%c, computed at run time", map[byte]string{'C': "command", 'F': "function"}[l[j]], name, l[j]))
					} else if val != "" {
						via := append(append([]string(nil), c.via...), name+" -"+string(l[j]))
						w.scriptAt(val+" "+name+" word prev", sc.clone(), via, c.depth+1, c.line)
					}
				}
				break
			}
		}
	case "mapfile", "readarray":
		for i := 0; i < len(args); i++ {
			l := args[i].Lit()
			if l == "--" || !strings.HasPrefix(l, "-") {
				return
			}
			opts := l[1:]
			for j := 0; j < len(opts); j++ {
				if !strings.ContainsRune("dnOsuCc", rune(opts[j])) {
					continue
				}
				val := opts[j+1:]
				if val == "" && i+1 < len(args) {
					i++
					val = args[i].Lit()
					if v, ok := args[i].Value(); ok {
						val = v
					} else if opts[j] == 'C' {
						w.opaque(fmt.Sprintf("the callback of %s -C %s, computed at run time", name, args[i].Raw))
					}
				}
				if opts[j] == 'C' && val != "" {
					via := append(append([]string(nil), c.via...), name+" -C")
					cb := sc.clone()
					cb.vars["line"] = value{dynamic: true} // the line read
					w.scriptAt(val+` 0 "$line"`, cb, via, c.depth+1, c.line)
				}
				break
			}
		}
	}
}

// declName asks when declare, typeset, local or readonly (variant) is
// given a name computed at run time (declare "$x=1", declare -n r=$x):
// bash evaluates a subscript in it.
func (w *walker) declName(c *ctx, variant string, x *syntax.Word, sc *scope) {
	if x == nil || variant == "export" {
		return // export NAME evaluates no subscript
	}
	if wd := w.word(c, x, sc); wd.Dynamic && !numWord(x, sc) {
		w.arithUnknown(wd.Raw)
	}
}

// markInteger gives variable name the integer attribute (declare -i).
func markInteger(sc *scope, name string) {
	v := sc.vars[name]
	v.integer = true
	sc.vars[name] = v
}

// intAssign asks when a variable declared -i is assigned a value not
// known: bash evaluates it as arithmetic (y=$x runs x's subscript).
func (w *walker) intAssign(c *ctx, name string, as *syntax.Assign, sc *scope) {
	if as.Value == nil {
		return
	}
	if wd := w.word(c, as.Value, sc); wd.Dynamic && !numWord(as.Value, sc) {
		w.arithUnknown(wd.Raw + " (assigned to " + name + ", declared -i)")
	}
	if wd := w.word(c, as.Value, sc); !wd.Dynamic {
		for _, v := range wd.Values {
			w.arithNames(v, sc) // y=x: x's value is read as a number
		}
	}
}
