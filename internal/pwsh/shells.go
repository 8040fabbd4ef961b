package pwsh

import (
	"strings"
)

// powershell reads powershell[.exe] and pwsh[.exe] run from the command
// line: the code of -Command (and -EncodedCommand, decoded from base64 of
// UTF-16LE) is read as PowerShell; a script file (-File, or pwsh's first
// argument) is not read and asks.
func (t *translator) powershell(name string, args []*Elem, c *Cmd) string {
	words := make([]string, 0, len(args))
	for _, a := range args {
		v, ok := t.value(a)
		if a.Param != "" && a.Glued == nil {
			v, ok = strings.ToLower(a.Raw), true
		}
		if !ok {
			t.problem("dynamic-command", "in `"+raw(c)+"` an argument of "+name+" (`"+a.Raw+"`) is computed at run time; ralph cannot tell what it runs. Write the command out.")
			return "true"
		}
		words = append(words, v)
	}
	return t.shellArgs(name, words, raw(c))
}

// PowerShellArgs reads the arguments of a powershell or pwsh program run
// from another shell (bash's pwsh -c '…', Codex's argv): the command
// line it runs, translated, and what could not be read.
func PowerShellArgs(name string, args []string) Result {
	tables()
	t := &translator{}
	bash := t.shellArgs(name, args, name+" "+strings.Join(args, " "))
	return Result{Bash: bash, Problems: t.probs}
}

// pwshValueOpts are powershell's options that take a value.
var pwshValueOpts []string

var pwshSwitches []string

// IsPowerShell reports whether a program name is PowerShell's.
func IsPowerShell(name string) bool {
	base := strings.ToLower(name)
	if i := strings.LastIndexAny(base, `/\`); i >= 0 {
		base = base[i+1:]
	}
	base = strings.TrimSuffix(base, ".exe")
	return base == "powershell" || base == "pwsh"
}

func (t *translator) shellArgs(name string, words []string, text string) string {
	via := strings.ToLower(name) + " -Command"
	for i := 0; i < len(words); i++ {
		w := words[i]
		if !strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "/") {
			if strings.HasSuffix(strings.ToLower(w), ".ps1") {
				t.problem("opaque", "it runs the script "+w+" through "+name+" (`"+text+"`), which ralph does not read. Run the commands it holds directly instead.")
				return "true"
			}
			// Windows PowerShell reads the rest as a command; pwsh
			// as a script file's name and its arguments.
			return t.source(strings.Join(words[i:], " "), via)
		}
		opt := strings.ToLower(strings.TrimLeft(w, "-/"))
		val := ""
		if k := strings.IndexByte(opt, ':'); k > 0 {
			opt, val = opt[:k], opt[k+1:]
		}
		switch {
		case opt == "":
			if w == "-" || w == "--" {
				t.problem("opaque", name+" reads its commands from standard input in `"+text+"`, which ralph does not see. Pass the commands with -Command instead.")
				return "true"
			}
		case prefixOf(opt, "command") || opt == "c" || prefixOf(opt, "commandwithargs") && len(opt) > 7 || opt == "cwa":
			rest := words[i+1:]
			if len(rest) == 1 && rest[0] == "-" {
				t.problem("opaque", name+" reads its commands from standard input in `"+text+"`, which ralph does not see. Pass the commands with -Command instead.")
				return "true"
			}
			return t.source(strings.Join(rest, " "), via)
		case prefixOf(opt, "encodedcommand") || opt == "ec" || opt == "e" || opt == "en" || opt == "enc":
			if val == "" && i+1 < len(words) {
				i++
				val = words[i]
			}
			code, ok := decodeUTF16(val)
			if !ok {
				t.problem("unparsed", name+" -EncodedCommand in `"+text+"` is not base64 of UTF-16LE text; ralph cannot read what it runs.")
				return "true"
			}
			return t.source(code, strings.ToLower(name)+" -EncodedCommand")
		case prefixOf(opt, "file") && len(opt) >= 1:
			t.problem("opaque", "it runs a script file through "+name+" (`"+text+"`), which ralph does not read. Run the commands it holds directly instead.")
			return "true"
		case matchesAny(opt, pwshSwitches):
		case matchesAny(opt, pwshValueOpts) || opt == "ep" || opt == "ex" || opt == "w" || opt == "wd" || opt == "if" || opt == "of" || opt == "o" || opt == "v":
			if val == "" {
				i++
			}
		default:
			t.problem("opaque", name+"'s option "+w+" in `"+text+"` is not one ralph reads, so it cannot tell what runs. Use -Command with the commands written out.")
			return "true"
		}
	}
	return "true" // an interactive shell with nothing to run: the agent's tool gets no input into it
}

func prefixOf(given, name string) bool { return given != "" && strings.HasPrefix(name, given) }

func matchesAny(given string, names []string) bool {
	for _, n := range names {
		if strings.HasPrefix(n, given) && len(given) >= 3 || n == given {
			return true
		}
	}
	return false
}

// cmdExe reads cmd /c COMMAND: rd /s and del are rm, programs run as
// themselves; anything of cmd's own syntax (%VAR%, ^, redirections,
// parentheses) asks.
func (t *translator) cmdExe(args []*Elem, c *Cmd) string {
	var words []string
	for _, a := range args {
		v, ok := t.value(a)
		if !ok {
			t.problem("dynamic-command", "in `"+raw(c)+"` the command cmd runs is computed at run time; ralph cannot tell what runs. Write it out.")
			return "true"
		}
		words = append(words, v)
	}
	for i, w := range words {
		lw := strings.ToLower(w)
		if lw == "/c" || lw == "/k" || lw == "/r" {
			return cmdLine(strings.Join(words[i+1:], " "), t)
		}
		if !strings.HasPrefix(w, "/") {
			break
		}
	}
	if len(words) == 0 {
		return "true"
	}
	t.problem("opaque", "cmd in `"+raw(c)+"` is started without /c, so what it runs comes from elsewhere; ralph cannot tell what runs.")
	return "true"
}

// cmdLine translates a cmd.exe command line; t collects its problems.
func cmdLine(line string, t *translator) string {
	if strings.ContainsAny(line, "%^<>()!") {
		t.problem("opaque", "the cmd command line `"+line+"` uses cmd's own syntax (variables, escapes, redirections or blocks), which ralph does not read. Write the commands as PowerShell.")
		return "true"
	}
	var out []string
	for _, part := range splitCmd(line) {
		words := cmdWords(part)
		if len(words) == 0 {
			continue
		}
		out = append(out, t.cmdCommand(words, line))
	}
	if len(out) == 0 {
		return "true"
	}
	return strings.Join(out, "\n")
}

// splitCmd splits a cmd line at & && || | outside quotes.
func splitCmd(line string) []string {
	var parts []string
	start, quoted := 0, false
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '"':
			quoted = !quoted
		case '&', '|':
			if !quoted {
				parts = append(parts, line[start:i])
				start = i + 1
			}
		}
	}
	return append(parts, line[start:])
}

// cmdWords splits a cmd command at blanks outside "…".
func cmdWords(s string) []string {
	var out []string
	var b strings.Builder
	quoted, has := false, false
	for _, r := range s {
		switch {
		case r == '"':
			quoted, has = !quoted, true
		case (r == ' ' || r == '\t') && !quoted:
			if has {
				out = append(out, b.String())
				b.Reset()
				has = false
			}
		default:
			b.WriteRune(r)
			has = true
		}
	}
	if has {
		out = append(out, b.String())
	}
	return out
}

// cmdReads are cmd's commands that change nothing.
var cmdReads map[string]bool

// cmdCommand maps one cmd command.
func (t *translator) cmdCommand(words []string, line string) string {
	name := strings.ToLower(strings.TrimSuffix(strings.ToLower(words[0]), ".exe"))
	var flags, paths []string
	for _, w := range words[1:] {
		if strings.HasPrefix(w, "/") && len(w) <= 3 {
			flags = append(flags, strings.ToLower(w))
		} else {
			paths = append(paths, quoteGlob(strings.ReplaceAll(w, `\`, "/"), true))
		}
	}
	has := func(f string) bool { return contains(flags, f) }
	switch name {
	case "rd", "rmdir":
		return "rm -r -f -- " + strings.Join(paths, " ")
	case "del", "erase":
		if has("/s") {
			return "rm -r -f -- " + strings.Join(paths, " ")
		}
		return "rm -f -- " + strings.Join(paths, " ")
	case "move":
		return "mv -f -- " + strings.Join(paths, " ")
	case "copy":
		return "cp -f -- " + strings.Join(paths, " ")
	case "cd", "chdir":
		if len(paths) == 0 {
			return "true"
		}
		return "cd -- " + paths[0]
	case "md", "mkdir":
		return "mkdir -p -- " + strings.Join(paths, " ")
	case "powershell", "pwsh":
		return t.shellArgs(words[0], words[1:], line)
	case "cmd":
		for i, w := range words[1:] {
			if lw := strings.ToLower(w); lw == "/c" || lw == "/k" {
				return cmdLine(strings.Join(words[i+2:], " "), t)
			}
		}
	}
	if cmdReads[name] {
		return "true"
	}
	switch name {
	case "xcopy", "robocopy", "ren", "rename", "mklink", "format", "attrib", "icacls", "takeown", "set", "setx",
		"start", "call", "for", "if", "goto", "reg", "schtasks", "assoc", "ftype", "cipher", "sdelete", "diskpart", "subst":
		t.problem("opaque", "cmd's "+words[0]+" in `"+line+"` is not a command ralph reads. Use a PowerShell cmdlet ralph reads, or confirm.")
		return "true"
	}
	out := []string{quote(name)}
	for _, w := range words[1:] {
		out = append(out, quote(w))
	}
	return strings.Join(out, " ")
}
