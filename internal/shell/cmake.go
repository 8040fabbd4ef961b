package shell

import (
	"path/filepath"
	"regexp"
	"strings"
)

// CMake runs commands of the project's CMakeLists.txt: execute_process
// when it configures, add_custom_command and add_custom_target when it
// builds (cmake --build, or the make it generates), and deletes with
// file(REMOVE …) and file(REMOVE_RECURSE …) on its own; cmake -P runs a
// script of such calls, and cmake -E is a portable rm, mv and cp.

// cmakeCall finds the calls of CMake that run or delete.
var cmakeCall = func() *regexp.Regexp { return cmakeCallLazy.get() }
var cmakeCallLazy = lazy[*regexp.Regexp]{f: func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(execute_process|add_custom_command|add_custom_target|file)\s*\(`)
}}

// cmakeKeyword reports whether s ends a COMMAND's arguments.
func cmakeKeyword(s string) bool {
	switch s {
	case "COMMAND", "WORKING_DIRECTORY", "OUTPUT", "DEPENDS", "BYPRODUCTS", "COMMENT", "VERBATIM",
		"USES_TERMINAL", "OUTPUT_VARIABLE", "ERROR_VARIABLE", "RESULT_VARIABLE", "RESULTS_VARIABLE", "INPUT_FILE",
		"OUTPUT_FILE", "ERROR_FILE", "OUTPUT_QUIET", "ERROR_QUIET", "TIMEOUT", "ALL", "SOURCES", "COMMAND_ECHO",
		"ENCODING", "ECHO_OUTPUT_VARIABLE", "ECHO_ERROR_VARIABLE", "COMMAND_ERROR_IS_FATAL", "PRE_BUILD",
		"PRE_LINK", "POST_BUILD", "TARGET", "MAIN_DEPENDENCY", "IMPLICIT_DEPENDS", "JOB_POOL", "JOB_SERVER_AWARE",
		"APPEND", "DEPFILE", "COMMAND_EXPAND_LISTS", "DEPENDS_EXPLICIT_ONLY", "CODEGEN":
		return true
	}
	return false
}

// cmake walks what a cmake command runs: cmake -E's file commands, the
// script of cmake -P, and the CMakeLists.txt of the source directory
// (configure, or --build of a build directory whose cache names it).
func (w *walker) cmake(c *ctx, args []Word, sc *scope) {
	if len(args) == 0 {
		return
	}
	cc := c.with("cmake")
	switch args[0].Lit() {
	case "-E":
		w.cmakeTool(cc, args[1:], sc)
		return
	case "--version", "--help", "-h", "--install":
		return
	}
	var src, build string
	for i := 0; i < len(args); i++ {
		s := args[i].Lit()
		switch {
		case s == "-P" && i+1 < len(args):
			if p := dirOf(args[i+1].Lit(), sc); p != "" {
				w.cmakeFile(cc, p, sc)
			}
			return
		case s == "-S" && i+1 < len(args):
			src = args[i+1].Lit()
			i++
		case strings.HasPrefix(s, "-S") && len(s) > 2:
			src = s[2:]
		case (s == "-B" || s == "--build") && i+1 < len(args):
			build = args[i+1].Lit()
			i++
		case strings.HasPrefix(s, "-B") && len(s) > 2:
			build = s[2:]
		case s == "-D" || s == "-G" || s == "-T" || s == "-A" || s == "-C" || s == "--preset" || s == "-j" ||
			s == "--target" || s == "-t" || s == "--config" || s == "--parallel":
			i++
		case strings.HasPrefix(s, "-"):
		default:
			if src == "" {
				src = s
			}
		}
	}
	dir := ""
	switch {
	case src != "":
		dir = dirOf(src, sc)
	case build != "":
		// A build directory: its cache names the source directory.
		b := dirOf(build, sc)
		if text, ok := w.readText(filepath.Join(b, "CMakeCache.txt")); ok {
			for _, line := range strings.Split(text, "\n") {
				if v, ok := strings.CutPrefix(line, "CMAKE_HOME_DIRECTORY:INTERNAL="); ok {
					dir = strings.TrimSpace(v)
				}
			}
		}
		if dir == "" {
			dir = sc.cwd
		}
	default:
		dir = sc.cwd
	}
	if dir != "" {
		w.cmakeFile(cc, filepath.Join(dir, "CMakeLists.txt"), sc)
	}
}

// cmakeTool judges cmake -E's file commands as the commands they equal.
func (w *walker) cmakeTool(c *ctx, args []Word, sc *scope) {
	if len(args) == 0 {
		return
	}
	var argv []string
	rest := args[1:]
	switch args[0].Lit() {
	case "rm":
		argv = []string{"rm"}
	case "remove":
		argv = []string{"rm", "-f"}
	case "remove_directory":
		argv = []string{"rm", "-r", "-f"}
	case "rename":
		argv = []string{"mv"}
	case "copy", "copy_if_different", "copy_directory", "copy_directory_if_different":
		argv = []string{"cp", "-r"}
	case "touch", "touch_nocreate":
		argv = []string{"touch"}
	case "create_symlink", "create_hardlink":
		argv = []string{"ln", "-s"}
	case "env", "time", "chdir":
		if args[0].Lit() == "chdir" && len(rest) > 0 {
			rest = rest[1:]
		}
		for len(rest) > 0 && (strings.Contains(rest[0].Lit(), "=") || strings.HasPrefix(rest[0].Lit(), "-")) {
			rest = rest[1:]
		}
		if len(rest) > 0 {
			w.exec(c.with("-E "+args[0].Lit()), rest, sc, nil, nil)
		}
		return
	default:
		return
	}
	words := make([]Word, 0, len(argv)+len(rest))
	for _, a := range argv {
		words = append(words, Word{Raw: a, Values: []string{a}})
	}
	w.exec(c.with("-E "+args[0].Lit()), append(words, rest...), sc, nil, nil)
}

// cmakeFile walks the calls of a CMake file that run or delete.
func (w *walker) cmakeFile(c *ctx, p string, sc *scope) {
	text, ok := w.readText(p)
	if !ok || vendored(p) {
		return
	}
	w.fileCommands(c, p, cmakeCommands(text), sc)
}

// fileCommands walks cmds, the command lines file p names (a build file's
// commands), as run in p's directory.
func (w *walker) fileCommands(c *ctx, p string, cmds [][]Word, sc *scope) {
	prev := w.file
	w.file = p
	defer func() { w.file = prev }()
	nsc := sc.child()
	nsc.setCwd(filepath.Dir(p))
	for _, cmd := range cmds {
		w.exec(c, cmd, nsc, nil, nil)
	}
}

// cmakeCommands returns the commands a CMake file's calls run, as words:
// each COMMAND of execute_process, add_custom_command and
// add_custom_target, and file(REMOVE[_RECURSE] …) as rm. ${VAR} is
// computed, but ${CMAKE_COMMAND}, which is cmake.
func cmakeCommands(text string) [][]Word {
	var out [][]Word
	for _, m := range cmakeCall().FindAllStringSubmatchIndex(text, 256) {
		call := strings.ToLower(text[m[2]:m[3]])
		toks := cmakeArgs(text[m[1]:])
		if call == "file" {
			if len(toks) > 1 && (toks[0].Raw == "REMOVE" || toks[0].Raw == "REMOVE_RECURSE") {
				out = append(out, append([]Word{{Raw: "rm", Values: []string{"rm"}}, {Raw: "-r", Values: []string{"-r"}},
					{Raw: "-f", Values: []string{"-f"}}}, toks[1:]...))
			}
			continue
		}
		var cur []Word
		in := false
		for _, t := range toks {
			switch {
			case t.Raw == "COMMAND":
				if len(cur) > 0 {
					out = append(out, cur)
				}
				cur, in = nil, true
			case cmakeKeyword(t.Raw):
				if len(cur) > 0 {
					out = append(out, cur)
				}
				cur, in = nil, false
			case in:
				cur = append(cur, t)
			}
		}
		if len(cur) > 0 {
			out = append(out, cur)
		}
	}
	return out
}

// cmakeArgs splits the arguments of a call, up to its closing
// parenthesis: unquoted and "quoted" arguments, # comments skipped.
func cmakeArgs(s string) []Word {
	var out []Word
	depth := 0
	for i := 0; i < len(s) && len(out) < 512; {
		ch := s[i]
		switch {
		case ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r':
			i++
		case ch == '#':
			for i < len(s) && s[i] != '\n' {
				i++
			}
		case ch == '(':
			depth++
			i++
		case ch == ')':
			if depth == 0 {
				return out
			}
			depth--
			i++
		case ch == '"':
			j := i + 1
			var b strings.Builder
			for j < len(s) && s[j] != '"' {
				if s[j] == '\\' && j+1 < len(s) {
					j++
				}
				b.WriteByte(s[j])
				j++
			}
			out = append(out, cmakeWord(b.String()))
			i = j + 1
		default:
			j := i
			for j < len(s) && !strings.ContainsRune(" \t\r\n()#\"", rune(s[j])) {
				j++
			}
			out = append(out, cmakeWord(s[i:j]))
			i = j
		}
	}
	return out
}

// cmakeWord is an argument as a word: computed when it expands a
// variable other than CMAKE_COMMAND.
func cmakeWord(v string) Word {
	v = strings.ReplaceAll(v, "${CMAKE_COMMAND}", "cmake")
	if strings.Contains(v, "${") || strings.Contains(v, "$<") || strings.Contains(v, "$ENV{") {
		return Word{Raw: v, Dynamic: true}
	}
	return Word{Raw: v, Values: []string{v}}
}
