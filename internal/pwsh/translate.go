package pwsh

import (
	"encoding/base64"
	"path"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf16"
)

// Problem is something in the command line the reader could not map onto
// a shell command the guard judges; the guard asks about it under Rule
// (unparsed, opaque, dynamic-command).
type Problem struct {
	Rule   string
	Reason string
}

// Result is a PowerShell command line read for the guard: Bash, the shell
// commands it amounts to (one per line, in the order they run; a script
// block's commands are there as if they ran), and the Problems.
type Result struct {
	Bash     string
	Problems []Problem
}

// maxNest bounds how deep command lines nest through powershell -Command,
// Invoke-Expression and cmd /c.
const maxNest = 8

type translator struct {
	assigns []assignment
	probs   []Problem
	nest    int
}

// Translate reads a PowerShell command line.
func Translate(src string) Result {
	tables()
	t := &translator{}
	bash := t.source(src, "")
	return Result{Bash: bash, Problems: t.probs}
}

// source reads a command line, found inside via ("" at the top).
func (t *translator) source(src, via string) string {
	if t.nest >= maxNest {
		t.problem("unparsed", "the PowerShell command line nests commands more than "+strconv.Itoa(maxNest)+" deep"+in(via)+"; ralph does not read so deep.")
		return "true"
	}
	t.nest++
	defer func() { t.nest-- }()
	sc, assigns, err := Parse(src)
	if err != nil {
		t.problem("unparsed", "ralph could not read the PowerShell command line"+in(via)+" ("+err.Error()+"), so it cannot tell what it runs. Fix the syntax, or split it into simpler commands.")
		return "true"
	}
	outer := t.assigns
	if poisoned(sc) {
		// Variables are set where ralph does not follow: none is known.
		assigns = append(assigns, assignment{name: "*"})
	}
	t.assigns = assigns
	defer func() { t.assigns = outer }()
	var b strings.Builder
	t.script(&b, sc)
	if b.Len() == 0 {
		return "true"
	}
	return strings.TrimRight(b.String(), "\n")
}

func in(via string) string {
	if via == "" {
		return ""
	}
	return " (inside " + via + ")"
}

func (t *translator) problem(rule, reason string) {
	for _, p := range t.probs {
		if p.Reason == reason {
			return
		}
	}
	t.probs = append(t.probs, Problem{Rule: rule, Reason: reason})
}

// script writes the shell commands of sc to b, one statement a line.
func (t *translator) script(b *strings.Builder, sc *Script) {
	for _, st := range sc.Stmts {
		var later strings.Builder
		var parts []string
		for i, c := range st.Cmds {
			var prev []*Cmd
			if i > 0 {
				prev = st.Cmds[:i]
			}
			parts = append(parts, t.cmd(c, prev, &later))
		}
		b.WriteString(strings.Join(parts, " | "))
		switch st.Op {
		case "&&", "||":
			b.WriteString(" " + st.Op + " ")
		default:
			b.WriteString("\n")
		}
		if later.Len() > 0 {
			if st.Op == "&&" || st.Op == "||" {
				b.WriteString("true\n")
			}
			b.WriteString(later.String())
		}
	}
}

// nested writes the code inside an element (its script blocks, the
// pipelines of its sub-expressions) to later, and checks its method calls.
func (t *translator) nested(e *Elem, later *strings.Builder) {
	if e == nil {
		return
	}
	for _, sc := range append(append([]*Script{}, e.Subs...), e.Blocks...) {
		var b strings.Builder
		t.script(&b, sc)
		if s := strings.TrimSpace(b.String()); s != "" && strings.Trim(strings.ReplaceAll(s, "true", ""), " \n{}|") != "" {
			later.WriteString("{ " + strings.TrimRight(b.String(), "\n") + "\n}\n")
		}
	}
	for _, c := range e.Calls {
		t.call(c, later)
	}
	t.nested(e.Glued, later)
	for _, v := range e.Values {
		t.nested(v, later)
	}
}

// cmd returns the shell command one pipeline element amounts to; the code
// nested in it goes to later.
func (t *translator) cmd(c *Cmd, prev []*Cmd, later *strings.Builder) string {
	for _, e := range c.Elems {
		t.nested(e, later)
		if e.Splat && !c.Expr {
			t.problem("dynamic-command", "in the PowerShell command `"+raw(c)+"` the arguments "+e.Raw+" are splatted from a variable; ralph cannot tell what they are. Write the arguments out.")
			return "true"
		}
	}
	redirs := ""
	for _, r := range c.Redirs {
		t.nested(r.Target, later)
		if r.Target == nil || r.Op == "<" {
			continue
		}
		if s, ok := r.Target.Literal(); ok && (strings.EqualFold(s, "nul") || s == "") {
			continue
		}
		if len(r.Target.Parts) == 1 && r.Target.Parts[0].Var == "null" {
			continue
		}
		op := ">"
		if strings.HasSuffix(r.Op, ">>") {
			op = ">>"
		}
		redirs += " " + op + " " + t.word(r.Target, true)
	}
	if c.Expr || len(c.Elems) == 0 {
		return "true" + redirs
	}
	return t.command(c, prev, later) + redirs
}

// command maps a command (not an expression) onto shell commands.
func (t *translator) command(c *Cmd, prev []*Cmd, later *strings.Builder) string {
	head := c.Elems[0]
	args := c.Elems[1:]
	name, ok := t.value(head)
	if !ok || head.Param != "" {
		if blockOnly(head) {
			return "true" // & { … }: the block's code is judged
		}
		t.problem("dynamic-command", "in the PowerShell command `"+raw(c)+"` the program to run, `"+head.Raw+"`, is computed at run time; ralph cannot tell what runs. Name the command literally.")
		return "true"
	}
	return t.named(name, args, c, prev, later)
}

// named maps the command called name with args.
func (t *translator) named(name string, args []*Elem, c *Cmd, prev []*Cmd, later *strings.Builder) string {
	if i := strings.LastIndexByte(name, '\\'); i > 0 && moduleName.MatchString(name[:i]) && (verbNoun.MatchString(strings.ToLower(name[i+1:])) || aliases[strings.ToLower(name[i+1:])] != "") {
		// Microsoft.PowerShell.Management\Remove-Item: a cmdlet named
		// with its module.
		name = name[i+1:]
	}
	low := strings.ToLower(name)
	base := strings.ToLower(path.Base(strings.ReplaceAll(name, `\`, "/")))
	switch ext := path.Ext(base); ext {
	case ".ps1", ".psm1", ".bat", ".cmd", ".vbs", ".js", ".wsf":
		t.problem("opaque", "it runs the script "+name+" (PowerShell `"+raw(c)+"`), which ralph does not read. Run the commands it holds directly instead.")
		return "true"
	case ".exe", ".com":
		base = strings.TrimSuffix(base, ext)
	}
	if c.Call == "." && !strings.ContainsAny(name, `/\`) && cmdlet(low) == "" {
		// . NAME dot-sources a function or a script of that name.
		t.problem("opaque", "it dot-sources "+name+" (PowerShell `"+raw(c)+"`), code ralph does not read. Run the commands it holds directly instead.")
		return "true"
	}
	if !strings.ContainsAny(name, `/\`) {
		if cl := cmdlet(low); cl != "" {
			out := t.cmdlet(cl, args, c, prev, later)
			if unixNative[low] {
				// On Linux and macOS pwsh has no rm, cp, mv, … aliases:
				// the name runs the program. Both are judged.
				out += "\n" + t.external(low, args)
			}
			return out
		}
		if web[low] {
			out := t.download(args, c)
			if low == "curl" || low == "wget" {
				out += "\n" + t.external(low, args) // pwsh on Unix: the program
			}
			return out
		}
		if a, ok := aliases[low]; ok && verbNoun.MatchString(a) {
			return t.unknownCmdlet(a, c)
		}
		if verbNoun.MatchString(low) {
			return t.unknownCmdlet(name, c)
		}
	}
	switch base {
	case "powershell", "pwsh", "powershell_ise":
		return t.powershell(name, args, c)
	case "cmd":
		return t.cmdExe(args, c)
	case "wsl":
		return t.wsl(args, c, later)
	}
	if strings.ContainsAny(name, `/\`) {
		return t.externalPath(name, args)
	}
	return t.external(base, args)
}

// blockOnly reports whether e is nothing but a script block.
func blockOnly(e *Elem) bool {
	return len(e.Blocks) == 1 && len(e.Parts) == 1 && strings.HasPrefix(e.Raw, "{") && strings.HasSuffix(e.Raw, "}")
}

func raw(c *Cmd) string {
	var parts []string
	if c.Call != "" {
		parts = append(parts, c.Call)
	}
	for _, e := range c.Elems {
		parts = append(parts, e.Raw)
	}
	s := strings.Join(parts, " ")
	if len(s) > 120 {
		s = s[:117] + "…"
	}
	return s
}

// moduleName is how a module that qualifies a cmdlet is named.
var moduleName *regexp.Regexp

// verbNoun is how a cmdlet or function is named.
var verbNoun *regexp.Regexp

// readVerbs are the approved verbs of cmdlets that change nothing.
var readVerbs map[string]bool

// unknownCmdlet judges a Verb-Noun command ralph has no mapping for: one
// whose verb only reads runs; any other asks.
func (t *translator) unknownCmdlet(name string, c *Cmd) string {
	low := strings.ToLower(name)
	verb := low[:strings.IndexByte(low, '-')]
	if readVerbs[verb] && low != "format-volume" && low != "out-file" && low != "out-printer" && low != "write-eventlog" {
		return "true"
	}
	t.problem("opaque", "it runs the PowerShell command "+name+" (in `"+raw(c)+"`), which ralph does not read. Use a command ralph reads (Remove-Item, Copy-Item, Move-Item, Set-Content, git, …), or confirm.")
	return "true"
}

// external renders a program run with its arguments as a shell command.
func (t *translator) external(name string, args []*Elem) string {
	words := []string{quote(name)}
	for _, a := range args {
		if a.Raw == "--%" {
			continue // stop-parsing: the rest goes to the program as written
		}
		words = append(words, t.argWords(a)...)
	}
	return strings.Join(words, " ")
}

// externalPath renders a program named by a path.
func (t *translator) externalPath(name string, args []*Elem) string {
	return quote(strings.ReplaceAll(name, `\`, "/")) + strings.TrimPrefix(t.external("x", args), "x")
}

// argWords renders an argument to a program: a bare word globs (pwsh
// expands it for native programs on Unix), a quoted one does not.
func (t *translator) argWords(a *Elem) []string {
	if a.Param != "" {
		w := "-" + a.Raw[1:]
		if a.Glued != nil {
			w = strings.TrimSuffix(a.Raw, a.Glued.Raw)
			return []string{quote(w) + t.word(a.Glued, !a.Glued.Quoted)}
		}
		return []string{quote(w)}
	}
	if a.Commas {
		var out []string
		for _, v := range a.Values {
			out = append(out, t.word(v, !v.Quoted))
		}
		return out
	}
	if blockOnly(a) {
		return nil
	}
	return []string{t.word(a, !a.Quoted)}
}

// value returns the text of e when ralph knows it (literals, and
// variables set to a literal earlier in the same command line).
func (t *translator) value(e *Elem) (string, bool) {
	var b strings.Builder
	if len(e.Calls) > 0 {
		return "", false
	}
	for _, pt := range e.Parts {
		switch {
		case pt.isLit():
			b.WriteString(pt.Lit)
		case pt.Var != "":
			v, ok := t.lookup(pt)
			if !ok {
				return "", false
			}
			b.WriteString(v)
		default:
			return "", false
		}
	}
	return b.String(), true
}

// lookup returns a variable's value when a literal assignment before it,
// the only one in the command line and outside any block or loop, set it.
func (t *translator) lookup(pt Part) (string, bool) {
	switch pt.Var {
	case "true":
		return "True", true
	case "false":
		return "False", true
	case "null":
		return "", true
	}
	var found *assignment
	for i := range t.assigns {
		if t.assigns[i].name == "*" {
			return "", false
		}
		if t.assigns[i].name == pt.Var {
			if found != nil {
				return "", false
			}
			found = &t.assigns[i]
		}
	}
	if found == nil || !found.literal || found.block || found.pos >= pt.Pos {
		return "", false
	}
	return found.value, true
}

// word renders e as one shell word; glob leaves * ? [ ] unquoted.
func (t *translator) word(e *Elem, glob bool) string {
	var b strings.Builder
	for i, pt := range e.Parts {
		switch {
		case pt.isLit():
			s := pt.Lit
			if i == 0 && (s == "~" || strings.HasPrefix(s, "~/") || strings.HasPrefix(s, `~\`)) {
				b.WriteString("~")
				s = s[1:]
			}
			b.WriteString(quoteGlob(s, glob))
		case pt.Var != "":
			if v, ok := t.lookup(pt); ok {
				b.WriteString(quoteGlob(v, glob))
				break
			}
			b.WriteString(shellVar(pt.Var))
		default:
			b.WriteString(`"$RALPH_PS_EXPR"`)
		}
	}
	if b.Len() == 0 {
		return "''"
	}
	return b.String()
}

// pathWord renders e as a path of a cmdlet's -Path (wildcards) or
// -LiteralPath: \ is a separator in PowerShell on every system.
func (t *translator) pathWord(e *Elem, wild bool) string {
	c := *e
	c.Parts = make([]Part, len(e.Parts))
	for i, pt := range e.Parts {
		if pt.isLit() {
			pt.Lit = strings.ReplaceAll(pt.Lit, `\`, "/")
			if i == 0 {
				pt.Lit = stripProvider(pt.Lit)
			}
		}
		c.Parts[i] = pt
	}
	return t.word(&c, wild)
}

// shellVar renders a PowerShell variable as the shell variable that holds
// the same value ($HOME, $env:NAME, $PWD), or one that is unknown.
func shellVar(name string) string {
	switch name {
	case "home":
		return `"$HOME"`
	case "pwd":
		return `"$PWD"`
	case "_", "psitem":
		return `"$RALPH_PS_ITEM"` // the pipeline's current item
	}
	if env, ok := strings.CutPrefix(name, "env:"); ok && ident.MatchString(env) {
		if strings.EqualFold(env, "userprofile") {
			return `"$HOME"`
		}
		return `"${` + strings.ToUpper(env) + `}"`
	}
	clean := strings.Map(func(r rune) rune {
		if r < 128 && (r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9') {
			return r
		}
		return '_'
	}, name)
	return `"$RALPH_PS_` + clean + `"`
}

var ident *regexp.Regexp

// quote quotes s for the shell.
func quote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./@%+=:,-") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// quoteGlob quotes s, leaving its wildcards to the shell when glob is set.
func quoteGlob(s string, glob bool) string {
	if s == "" {
		return ""
	}
	if !glob || !strings.ContainsAny(s, "*?[") {
		return quote(s)
	}
	var b strings.Builder
	start := 0
	for i, r := range s {
		if r == '*' || r == '?' || r == '[' || r == ']' {
			if i > start {
				b.WriteString(quote(s[start:i]))
			}
			b.WriteRune(r)
			start = i + 1
		}
	}
	if start < len(s) {
		b.WriteString(quote(s[start:]))
	}
	return b.String()
}

// decodeUTF16 decodes -EncodedCommand's base64 of UTF-16LE text.
func decodeUTF16(s string) (string, bool) {
	data, err := base64.StdEncoding.DecodeString(strings.TrimSpace(s))
	if err != nil || len(data)%2 != 0 {
		return "", false
	}
	u := make([]uint16, len(data)/2)
	for i := range u {
		u[i] = uint16(data[2*i]) | uint16(data[2*i+1])<<8
	}
	return string(utf16.Decode(u)), true
}

// approvedVerbs are PowerShell's approved verbs (Get-Verb), filled by
// tables.
var approvedVerbs map[string]bool

// Looks reports whether a command line given as a Bash command is
// PowerShell: it parses as PowerShell and names a cmdlet ralph maps, a
// Verb-Noun command written as cmdlets are (Clear-RecycleBin), or a
// static .NET call. Copilot CLI's PascalCase hooks report its powershell
// tool as Bash; such a command is judged as PowerShell too.
func Looks(src string) bool {
	if !maybe(src) {
		return false
	}
	tables()
	sc, _, err := Parse(src)
	if err != nil {
		return false
	}
	return looks(sc)
}

func looks(sc *Script) bool {
	for _, st := range sc.Stmts {
		for _, c := range st.Cmds {
			for i, e := range c.Elems {
				if i == 0 && !c.Expr {
					if name, ok := e.Literal(); ok && cmdletName(name) {
						return true
					}
				}
				if elemLooks(e) {
					return true
				}
			}
		}
	}
	return false
}

func elemLooks(e *Elem) bool {
	for _, c := range e.Calls {
		if c.Type != "" {
			return true
		}
	}
	for _, sc := range append(append([]*Script{}, e.Subs...), e.Blocks...) {
		if looks(sc) {
			return true
		}
	}
	return false
}

// cmdletName reports whether name is written as a cmdlet's.
func cmdletName(name string) bool {
	low := strings.ToLower(name)
	if strings.Contains(low, "-") && cmdlet(low) != "" {
		return true
	}
	i := strings.IndexByte(name, '-')
	return i > 0 && verbNoun.MatchString(low) && approvedVerbs[low[:i]] && name[0] >= 'A' && name[0] <= 'Z' &&
		name[i+1] >= 'A' && name[i+1] <= 'Z'
}

// setsVariables are commands that set variables by name.
var setsVariables map[string]bool

// poisoned reports whether sc sets variables by routes other than
// $name = value (Set-Variable, -OutVariable, variable:, [ref], loops).
func poisoned(sc *Script) bool {
	for _, st := range sc.Stmts {
		for _, c := range st.Cmds {
			for i, e := range c.Elems {
				low := strings.ToLower(e.Raw)
				if i == 0 && (setsVariables[low] || c.Expr && (low == "foreach" || low == "for" || low == "switch")) {
					return true
				}
				if strings.Contains(low, "variable:") || strings.Contains(low, "[ref]") || setsVar(e.Param) {
					return true
				}
				if poisonedElem(e) {
					return true
				}
			}
		}
	}
	return false
}

func poisonedElem(e *Elem) bool {
	if e == nil {
		return false
	}
	for _, sc := range append(append([]*Script{}, e.Subs...), e.Blocks...) {
		if poisoned(sc) {
			return true
		}
	}
	return false
}

// setsVar reports whether a parameter is one of the common parameters
// that store into a variable (-OutVariable, -ErrorVariable, …).
func setsVar(param string) bool {
	switch param {
	case "ov", "ev", "wv", "iv", "pv":
		return true
	case "":
		return false
	}
	for _, n := range []string{"outvariable", "errorvariable", "warningvariable", "informationvariable", "pipelinevariable"} {
		if len(param) >= 2 && strings.HasPrefix(n, param) {
			return true
		}
	}
	return false
}

// stripProvider removes the FileSystem provider's prefix from a path
// (FileSystem::/x, Microsoft.PowerShell.Core/FileSystem::x).
func stripProvider(p string) string {
	low := strings.ToLower(p)
	if i := strings.Index(low, "filesystem::"); i >= 0 && (i == 0 || strings.HasSuffix(low[:i], "microsoft.powershell.core/")) {
		return p[i+len("filesystem::"):]
	}
	return p
}

// web are Invoke-WebRequest, Invoke-RestMethod and their aliases (curl
// and wget in Windows PowerShell).
var web map[string]bool

// download maps Invoke-WebRequest -OutFile PATH onto a write of PATH
// with text ralph cannot see.
func (t *translator) download(args []*Elem, c *Cmd) string {
	var out []string
	for i, a := range args {
		if len(a.Param) < 4 || !strings.HasPrefix("outfile", a.Param) {
			continue
		}
		p := a.Glued
		if p == nil && i+1 < len(args) {
			p = args[i+1]
		}
		if p != nil {
			out = append(out, `printf %s "$RALPH_PS_VALUE" > `+t.pathWord(p, false))
		}
	}
	if len(out) == 0 {
		return "true"
	}
	return strings.Join(out, "\n")
}

// wsl runs a Linux command on the same files: wsl [options] [--exec|-e|--]
// CMD ARGS is CMD ARGS.
func (t *translator) wsl(args []*Elem, c *Cmd, later *strings.Builder) string {
	for i := 0; i < len(args); i++ {
		v, ok := t.value(args[i])
		if !ok {
			t.problem("dynamic-command", "in `"+raw(c)+"` what wsl runs is computed at run time; ralph cannot tell what runs. Write it out.")
			return "true"
		}
		if args[i].Param != "" && args[i].Glued == nil {
			v = args[i].Raw
		}
		switch strings.ToLower(v) {
		case "-d", "--distribution", "-u", "--user", "--cd", "--shell-type":
			i++
		case "-e", "--exec", "--":
			if i+1 < len(args) {
				return t.external("x", args[i+1:])[2:]
			}
			return "true"
		default:
			if strings.HasPrefix(v, "-") {
				t.problem("opaque", "wsl's option "+v+" in `"+raw(c)+"` is not one ralph reads. Run the Linux command directly.")
				return "true"
			}
			return t.external("x", args[i:])[2:]
		}
	}
	return "true"
}
