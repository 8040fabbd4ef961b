package pwsh

import (
	"path"
	"strings"
)

// aliases are PowerShell's built-in aliases of the cmdlets ralph maps
// (Windows PowerShell 5.1 and PowerShell 7; on Linux and macOS pwsh drops
// those that shadow a program: rm, cp, mv, ls, cat, …, see unixNative).
var aliases map[string]string

// unixNative are aliases that pwsh on Linux and macOS does not define, so
// the name runs the program of that name there.
var unixNative map[string]bool

// readOnly are cmdlets that change no file (their script blocks and
// sub-expressions are judged as code all the same).
var readOnly map[string]bool

// cmdlet returns the cmdlet low names (lower case), through its alias; ""
// when ralph has no mapping for it.
func cmdlet(low string) string {
	if a, ok := aliases[low]; ok {
		low = a
	}
	if readOnly[low] || writes[low] {
		return low
	}
	switch low {
	case "set-location", "push-location", "pop-location", "invoke-expression", "invoke-command", "start-process",
		"foreach-object", "set-variable", "new-variable":
		return low
	}
	return ""
}

// spec is how a cmdlet binds its arguments.
type spec struct {
	values   []string // parameters that take a value
	switches []string
	pos      []string          // positional parameters, in order
	alias    map[string]string // exact aliases of parameters
}

var common spec

var itemAlias map[string]string

var specs map[string]spec

// writes are the cmdlets writers maps.
var writes map[string]bool

// writers map the cmdlets that change files onto their translations.
var writers map[string]func(t *translator, b *bound, c *Cmd, prev []*Cmd) string

// bound is a command's arguments bound to its parameters.
type bound struct {
	named map[string][]*Elem
	sw    map[string]bool
	extra []*Elem // positional arguments past the last positional parameter
}

func (b *bound) has(name string) bool { return len(b.named[name]) > 0 }

// bind binds args as the cmdlet's spec says. A parameter is any unique
// prefix of its name (and an ambiguous one is taken as every parameter it
// could be: the worse reading is judged).
func bind(sp spec, args []*Elem) *bound {
	b := &bound{named: map[string][]*Elem{}, sw: map[string]bool{}}
	pos := 0
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a.Param == "" {
			vals := values(a)
			for strings.HasSuffix(a.Raw, ",") && i+1 < len(args) && args[i+1].Param == "" {
				i++
				a = args[i]
				vals = append(vals, values(a)...)
			}
			if pos < len(sp.pos) {
				b.named[sp.pos[pos]] = append(b.named[sp.pos[pos]], vals...)
				pos++
			} else {
				b.extra = append(b.extra, vals...)
			}
			continue
		}
		names := match(sp, a.Param)
		takes := false
		for _, n := range names {
			if contains(sp.values, n) || contains(common.values, n) {
				takes = true
			}
		}
		var vals []*Elem
		switch {
		case a.Glued != nil:
			vals = values(a.Glued)
		case takes && i+1 < len(args) && args[i+1].Param == "":
			i++
			vals = values(args[i])
			for strings.HasSuffix(args[i].Raw, ",") && i+1 < len(args) && args[i+1].Param == "" {
				i++
				vals = append(vals, values(args[i])...)
			}
		}
		for _, n := range names {
			if contains(sp.values, n) || contains(common.values, n) {
				b.named[n] = append(b.named[n], vals...)
				continue
			}
			on := true
			if a.Glued != nil && len(a.Glued.Parts) == 1 && (a.Glued.Parts[0].Var == "false" || a.Glued.Parts[0].Lit == "0") {
				on = false
			}
			b.sw[n] = b.sw[n] || on
		}
	}
	return b
}

// match returns the parameters a -name given on the command line binds.
func match(sp spec, given string) []string {
	if a, ok := sp.alias[given]; ok {
		return []string{a}
	}
	if a, ok := common.alias[given]; ok {
		return []string{a}
	}
	all := append(append(append(append([]string{}, sp.values...), sp.switches...), common.values...), common.switches...)
	var out []string
	for _, n := range all {
		if n == given {
			return []string{n}
		}
		if strings.HasPrefix(n, given) {
			out = append(out, n)
		}
	}
	if len(out) == 0 {
		return []string{given} // PowerShell refuses it; judged as a switch
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// values returns the values of an argument: those of an array, else itself.
func values(e *Elem) []*Elem {
	if e.Commas {
		return e.Values
	}
	return []*Elem{e}
}

// cmdlet maps a cmdlet ralph reads.
func (t *translator) cmdlet(name string, args []*Elem, c *Cmd, prev []*Cmd, later *strings.Builder) string {
	b := bind(specs[name], args)
	if w := writers[name]; writes[name] && w != nil {
		return w(t, b, c, prev)
	}
	switch name {
	case "set-location", "push-location":
		p := t.paths(b)
		if len(p) == 0 {
			return "true"
		}
		return "cd -- " + p[0]
	case "pop-location":
		return `cd -- "$RALPH_PS_LOCATION"`
	case "invoke-expression":
		return t.invokeExpression(b, c)
	case "invoke-command":
		if b.has("filepath") {
			t.problem("opaque", "it runs a script file through Invoke-Command (`"+raw(c)+"`), which ralph does not read. Run the commands it holds directly instead.")
		}
		for _, e := range b.named["scriptblock"] {
			if !blockOnly(e) {
				t.problem("dynamic-command", "in `"+raw(c)+"` the script block to run is computed at run time; ralph cannot tell what runs. Write the block out.")
			}
		}
		return "true"
	case "start-process":
		return t.startProcess(b, c, later)
	case "foreach-object":
		for _, e := range append(b.named["process"], b.named["membername"]...) {
			if blockOnly(e) {
				continue
			}
			m, ok := t.value(e)
			if !ok || !safeMethods[strings.ToLower(m)] {
				t.problem("opaque", "in `"+raw(c)+"` ForEach-Object calls the method `"+e.Raw+"` of each item, which ralph cannot check. Write the command out with a cmdlet ralph reads.")
			}
		}
		return "true"
	case "set-variable", "new-variable":
		return "true"
	}
	return "true" // read-only
}

// paths returns a cmdlet's -Path (wildcards) and -LiteralPath arguments
// as shell words.
func (t *translator) paths(b *bound) []string {
	var out []string
	for _, e := range b.named["path"] {
		out = append(out, t.pathWord(e, true))
	}
	for _, e := range b.named["literalpath"] {
		out = append(out, t.pathWord(e, false))
	}
	for _, e := range b.named["filepath"] {
		out = append(out, t.pathWord(e, false))
	}
	for _, e := range b.extra {
		// PowerShell refuses a positional argument too many; were it
		// read otherwise, it would be a path: the worse reading.
		out = append(out, t.pathWord(e, true))
	}
	return out
}

// input returns the paths of the items a pipeline element receives from
// the one before it (Get-ChildItem DIR | Remove-Item): a find that lists
// them, or "" when ralph cannot tell them.
func (t *translator) input(prev []*Cmd) (dir, find string, ok bool) {
	for i := len(prev) - 1; i >= 0; i-- {
		c := prev[i]
		if c.Expr || len(c.Elems) == 0 || c.Call != "" {
			return "", "", false
		}
		name, known := t.value(c.Elems[0])
		if !known {
			return "", "", false
		}
		cl := cmdlet(strings.ToLower(name))
		switch cl {
		case "where-object", "select-object", "sort-object":
			continue // a subset of the same items
		case "get-childitem", "get-item":
			b := bind(specs[cl], c.Elems[1:])
			ps := t.paths(b)
			if len(ps) == 0 {
				ps = []string{"."}
			}
			if len(ps) > 1 {
				return "", "", false
			}
			if cl == "get-item" {
				return ps[0], "", true
			}
			f := "find " + ps[0] + " -mindepth 1"
			if !b.sw["recurse"] && !b.has("depth") {
				f += " -maxdepth 1"
			}
			for _, e := range append(b.named["filter"], b.named["include"]...) {
				f += " -iname " + t.word(e, false)
			}
			return ps[0], f, true
		}
		return "", "", false
	}
	return "", "", false
}

// removeItem: Remove-Item is rm -r (a directory's children go with it, as
// with -Recurse or at a prompt), -Force is -f.
func (t *translator) removeItem(b *bound, c *Cmd, prev []*Cmd) string {
	flags := "rm -r"
	if b.sw["force"] {
		flags += " -f"
	}
	ps := t.paths(b)
	if len(ps) == 0 {
		dir, find, ok := t.input(prev)
		switch {
		case ok && find != "":
			return find + " -exec " + flags + " -- {} +"
		case ok:
			return flags + " -- " + dir
		case len(prev) > 0:
			return flags + ` -- "$RALPH_PS_INPUT"`
		}
		return "true"
	}
	return flags + " -- " + strings.Join(ps, " ")
}

// moveItem: Move-Item is mv -f (to the current directory without
// -Destination).
func (t *translator) moveItem(b *bound, c *Cmd, prev []*Cmd) string {
	src := t.paths(b)
	if len(src) == 0 {
		src = []string{t.inputWord(prev)}
	}
	return "mv -f -- " + strings.Join(src, " ") + " " + t.dest(b)
}

// copyItem: Copy-Item is cp -f, with -r for -Recurse.
func (t *translator) copyItem(b *bound, c *Cmd, prev []*Cmd) string {
	src := t.paths(b)
	if len(src) == 0 {
		src = []string{t.inputWord(prev)}
	}
	flags := "cp -f"
	if b.sw["recurse"] {
		flags += " -r"
	}
	return flags + " -- " + strings.Join(src, " ") + " " + t.dest(b)
}

func (t *translator) dest(b *bound) string {
	if d := b.named["destination"]; len(d) > 0 {
		return t.pathWord(d[0], false)
	}
	return "."
}

// inputWord names the items a command receives on its pipeline.
func (t *translator) inputWord(prev []*Cmd) string {
	if dir, find, ok := t.input(prev); ok {
		if find == "" {
			return dir
		}
		return dir + "/*"
	}
	return `"$RALPH_PS_INPUT"`
}

// renameItem: Rename-Item PATH NEWNAME is mv PATH DIR/NEWNAME.
func (t *translator) renameItem(b *bound, c *Cmd, prev []*Cmd) string {
	src := t.paths(b)
	if len(src) == 0 {
		src = []string{t.inputWord(prev)}
	}
	to := `"$RALPH_PS_NEWNAME"`
	if n := b.named["newname"]; len(n) > 0 {
		if v, ok := t.value(n[0]); ok {
			v = strings.ReplaceAll(v, `\`, "/")
			if len(b.named["path"])+len(b.named["literalpath"]) == 1 && !strings.Contains(v, "/") {
				p := append(b.named["path"], b.named["literalpath"]...)[0]
				if pv, ok := t.value(p); ok {
					v = path.Join(path.Dir(strings.ReplaceAll(pv, `\`, "/")), v)
				} else {
					v = "$RALPH_PS_DIR/" + v
				}
			}
			to = quote(v)
		}
	}
	return "mv -f -- " + strings.Join(src, " ") + " " + to
}

// text renders what a cmdlet writes: printf of the text when ralph knows
// it, else of a value it cannot see.
func (t *translator) text(vals []*Elem, newline bool) string {
	var parts []string
	for _, e := range vals {
		v, ok := t.value(e)
		if !ok {
			return `printf %s "$RALPH_PS_VALUE"`
		}
		parts = append(parts, v)
	}
	if vals == nil {
		return `printf %s "$RALPH_PS_VALUE"`
	}
	s := strings.Join(parts, "\n")
	if newline {
		s += "\n"
	}
	return "printf %s " + quote(s)
}

// setContent: Set-Content writes (>), Add-Content appends (>>).
func (t *translator) setContent(b *bound, op string) string {
	ps := t.paths(b)
	if len(ps) == 0 {
		ps = []string{`"$RALPH_PS_INPUT"`}
	}
	var out []string
	for _, p := range ps {
		out = append(out, t.text(b.named["value"], !b.sw["nonewline"])+" "+op+" "+p)
	}
	return strings.Join(out, "\n")
}

// clearContent empties files.
func (t *translator) clearContent(b *bound) string {
	ps := t.paths(b)
	if len(ps) == 0 {
		ps = []string{`"$RALPH_PS_INPUT"`}
	}
	var out []string
	for _, p := range ps {
		out = append(out, ": > "+p)
	}
	return strings.Join(out, "\n")
}

// outFile: Out-File and Tee-Object write their input to a file.
func (t *translator) outFile(b *bound, c *Cmd, prev []*Cmd) string {
	ps := t.paths(b)
	if len(ps) == 0 {
		return "true"
	}
	op := ">"
	if b.sw["append"] {
		op = ">>"
	}
	text := `printf %s "$RALPH_PS_VALUE"`
	if in := b.named["inputobject"]; len(in) > 0 {
		text = t.text(in, !b.sw["nonewline"])
	}
	var out []string
	for _, p := range ps {
		out = append(out, text+" "+op+" "+p)
	}
	return strings.Join(out, "\n")
}

// newItem: a directory is mkdir -p, a link ln -s (-f with -Force), a file
// is created (touch), or with -Force replaced by its -Value.
func (t *translator) newItem(b *bound, c *Cmd, prev []*Cmd) string {
	ps := t.paths(b)
	if len(ps) == 0 {
		ps = []string{"."}
	}
	if n := b.named["name"]; len(n) > 0 {
		for i := range ps {
			ps[i] += "/" + t.pathWord(n[0], false)
		}
	}
	kind := "file"
	if k := b.named["itemtype"]; len(k) > 0 {
		v, ok := t.value(k[0])
		if !ok {
			t.problem("dynamic-command", "in `"+raw(c)+"` the kind of item New-Item makes is computed at run time; ralph cannot tell what it makes. Name it literally.")
			return "true"
		}
		kind = strings.ToLower(v)
	}
	var out []string
	for _, p := range ps {
		switch {
		case strings.HasPrefix(kind, "d"):
			out = append(out, "mkdir -p -- "+p)
		case kind == "symboliclink" || kind == "hardlink" || kind == "junction":
			target := `"$RALPH_PS_TARGET"`
			if v := b.named["value"]; len(v) > 0 {
				target = t.pathWord(v[0], false)
			}
			flags := "ln -s"
			if kind == "hardlink" {
				flags = "ln"
			}
			if b.sw["force"] {
				flags += " -f"
			}
			out = append(out, flags+" -- "+target+" "+p)
		case b.sw["force"] || b.has("value"):
			if b.sw["force"] {
				out = append(out, t.text(b.named["value"], false)+" > "+p)
			} else {
				out = append(out, "touch -- "+p)
			}
		default:
			out = append(out, "touch -- "+p)
		}
	}
	return strings.Join(out, "\n")
}

// invokeExpression reads the command line Invoke-Expression runs.
func (t *translator) invokeExpression(b *bound, c *Cmd) string {
	cmds := append(b.named["command"], b.extra...)
	if len(cmds) == 0 {
		t.problem("dynamic-command", "Invoke-Expression in `"+raw(c)+"` runs a command line from its input; ralph cannot tell what runs. Write the commands out.")
		return "true"
	}
	var out []string
	for _, e := range cmds {
		v, ok := t.value(e)
		if !ok {
			t.problem("dynamic-command", "Invoke-Expression in `"+raw(c)+"` runs a command line computed at run time (`"+e.Raw+"`); ralph cannot tell what runs. Write the commands out.")
			continue
		}
		out = append(out, t.source(v, "Invoke-Expression"))
	}
	if len(out) == 0 {
		return "true"
	}
	return "{ " + strings.Join(out, "\n") + "\n}"
}

// startProcess: Start-Process PROGRAM -ArgumentList ARGS runs the program
// as the command line would.
func (t *translator) startProcess(b *bound, c *Cmd, later *strings.Builder) string {
	fp := b.named["filepath"]
	if len(fp) == 0 {
		return "true"
	}
	prog, ok := t.value(fp[0])
	if !ok {
		t.problem("dynamic-command", "in `"+raw(c)+"` the program Start-Process runs is computed at run time; ralph cannot tell what runs. Name it literally.")
		return "true"
	}
	if v := b.named["verb"]; len(v) > 0 {
		if verb, _ := t.value(v[0]); !strings.EqualFold(verb, "runas") && !strings.EqualFold(verb, "open") {
			t.problem("opaque", "Start-Process -Verb in `"+raw(c)+"` runs what the system associates with the file, which ralph cannot check.")
		}
	}
	var args []*Elem
	for _, e := range append(b.named["argumentlist"], b.extra...) {
		v, ok := t.value(e)
		if !ok {
			t.problem("dynamic-command", "in `"+raw(c)+"` the arguments Start-Process passes are computed at run time; ralph cannot tell what runs. Write them out.")
			return "true"
		}
		if strings.ContainsAny(v, "\"'`") {
			t.problem("opaque", "in `"+raw(c)+"` Start-Process passes arguments with quotes, which the program splits by its own rules; ralph cannot tell what runs. Run the program directly.")
			return "true"
		}
		// Start-Process joins its arguments with spaces into one
		// command line, which the program splits at blanks.
		for _, w := range strings.Fields(v) {
			args = append(args, &Elem{Raw: w, Parts: []Part{{Lit: w}}, Quoted: true})
		}
	}
	run := &Cmd{Elems: append([]*Elem{{Raw: prog, Parts: []Part{{Lit: prog}}, Quoted: true}}, args...)}
	out := t.named(prog, args, run, nil, later)
	if wd := b.named["workingdirectory"]; len(wd) > 0 {
		out = "( cd -- " + t.pathWord(wd[0], false) + "\n" + out + "\n)"
	}
	return out
}
