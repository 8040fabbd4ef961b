package shell

import (
	"regexp"
	"strings"
)

// Interpreter code can run code it computes — exec(bytes.fromhex(…)),
// eval, a module, function or method named at run time (getattr(os, n),
// __import__(m), obj.send(m)) — where no pattern of ops can see what it
// does. Such code is opaque (rule opaque: ask), as eval of something
// computed is in the shell; an eval of a string literal is read as code of
// the same language. A path object's own delete or write (p.unlink(),
// p.write_text(…)) deletes or writes the file the object names: a
// computed one unless the code assigned it a known value.

// dynCall is one form of dynamic code in a language.
type dynCall struct {
	re   string
	kind dynKind
}

type dynKind int

const (
	dynEval   dynKind = iota // eval/exec of its first argument: a literal is read as code
	dynName                  // a module, function or method named by its argument (or computed)
	dynDelete                // RECEIVER.unlink(): the receiver names the file (first group)
	dynWrite                 // RECEIVER.write_text(…)
)

var dynCalls map[string][]dynCall

// dynQuick lists, by language, substrings without which code matches no
// form of dynCalls: most one-liners compile none of its regexps.
var dynQuick map[string][]string

// dynNames are the functions and attributes that, named as a string,
// still run or delete what the code computes (getattr(os, "remove")).
var dynNames map[string]bool

var dynRe regexps

// dynCompiled returns the regexps of dynCalls[lang], compiled on first
// use and one language at a time, as compiled does for ops.
func dynCompiled(lang string) []*regexp.Regexp {
	return dynRe.get(lang, func() (pats []string) {
		for _, d := range dynCalls[lang] {
			pats = append(pats, d.re)
		}
		return pats
	})
}

// dynamic finds code that runs what it computes, and the deletions and
// writes of path objects.
func (w *walker) dynamic(c *ctx, lang, code string, sc *scope) {
	calls := dynCalls[lang]
	hit := false
	for _, q := range dynQuick[lang] {
		if strings.Contains(code, q) {
			hit = true
			break
		}
	}
	if !hit {
		return
	}
	via := strings.Join(c.via, " ")
	var vars map[string]codeArg
	for i, re := range dynCompiled(lang) {
		d := calls[i]
		for _, m := range re.FindAllStringSubmatchIndex(code, 16) {
			rest := code[m[1]:]
			call := strings.TrimSpace(firstLine(code[m[0]:min(len(code), m[1]+80)]))
			switch d.kind {
			case dynEval:
				rest = strings.TrimLeft(rest, "( ")
				args := parseArgs(rest)
				if len(args) > 0 && args[0].lit && c.depth < 8 {
					w.code(&ctx{src: c.src, via: c.via, depth: c.depth + 1, line: c.line}, lang, args[0].val, sc)
					continue
				}
				w.opaque(via + " running code computed at run time: " + call)
			case dynName:
				if lang == "python" && strings.HasPrefix(code[m[0]:], "getattr") {
					args := parseArgs(rest)
					if len(args) > 0 && args[0].lit && !dynNames[args[0].val] {
						continue // getattr(os, "sep"): a value, not a call that acts
					}
				}
				w.opaque(via + " calling what it names at run time: " + call)
			case dynDelete, dynWrite:
				recv := code[m[2]:m[3]]
				if recv == "os" || recv == "shutil" || recv == "self" || recv == "cls" {
					continue // os.unlink(p): an op of its own
				}
				if vars == nil {
					vars = assignments(code)
				}
				arg, ok := vars[recv]
				if !ok || !arg.lit {
					arg = codeArg{raw: recv}
				}
				argv := []string{"rm", "-f"}
				if d.kind == dynWrite {
					argv = []string{"tee"}
				}
				w.synthetic(c, argv, []codeArg{arg}, sc)
			}
		}
	}
}

// codeevalTables builds this file's tables; tables calls it, so that a hook
// call that reads no shell does not pay for them at start-up.
func codeevalTables() {
	dynCalls = map[string][]dynCall{
		"python": {
			{`\b(?:exec|eval|compile|execfile)\s*\(`, dynEval},
			{`\b__import__\s*\(\s*[^'"\s)]|\bimportlib\.import_module\s*\(\s*[^'"\s)]`, dynName},
			{`\bgetattr\s*\(\s*(?:os|shutil|subprocess|pathlib|builtins|__builtins__|importlib|sys|posix|nt|io)\s*,`, dynName},
			{`\b(?:os|shutil|subprocess|builtins|posix)\.__dict__\b|\bvars\s*\(\s*(?:os|shutil|subprocess|builtins)\s*\)|\bglobals\s*\(\s*\)\s*\[|\b__builtins__\s*\[`, dynName},
			{`\b([A-Za-z_]\w*)\.(?:unlink|rmdir)\s*\(`, dynDelete},
			{`\b([A-Za-z_]\w*)\.(?:write_text|write_bytes)\s*\(`, dynWrite},
		},
		"node": {
			{`(?:^|[^.\w])eval\s*\(|\bnew\s+Function\s*\(|\bvm\.(?:runIn\w*|compileFunction|Script)\b`, dynEval},
			{`\brequire\s*\(\s*[^'"` + "`" + `\s)]|\bimport\s*\(\s*[^'"` + "`" + `\s)]`, dynName},
			{`\b(?:fs|child_process|cp|fsp|promises)\s*\[\s*[^'"\]]`, dynName},
		},
		"ruby": {
			{`(?:^|[^.\w])(?:eval|instance_eval|class_eval|module_eval|binding\.eval)\s*[\( ]`, dynEval},
			{`\.(?:send|public_send|__send__|method)\s*\(\s*[^:'"\s)]|\bObject\.const_get\s*\(`, dynName},
			{`\.(?:send|public_send|__send__)\s*\(\s*:(?:delete|unlink|rm_rf|rm_r|rm_f|rm|remove|remove_dir|rmtree|rmdir|system|exec|spawn|write|truncate|rename|mv|move|syscall)\b`, dynName},
		},
		"perl": {
			{`\beval\s*[\("$]`, dynEval},
		},
		"php": {
			{`\b(?:eval|assert|create_function)\s*\(`, dynEval},
			{`\b(?:call_user_func(?:_array)?|array_map|array_walk|array_filter|usort|register_shutdown_function)\s*\(\s*['"](?:unlink|rmdir|system|exec|shell_exec|passthru|popen|proc_open|file_put_contents)['"]`, dynName},
			{`\b(?:call_user_func(?:_array)?)\s*\(\s*\$`, dynName},
		},
	}
	dynQuick = map[string][]string{
		"python": {"exec", "eval", "compile", "__import__", "import_module", "getattr", "__dict__", "vars", "globals", "__builtins__", ".unlink", ".rmdir", ".write_"},
		"node":   {"eval", "Function", "vm.", "require", "import(", "import (", "["},
		"ruby":   {"eval", "send", "method", "const_get"},
		"perl":   {"eval"},
		"php":    {"eval", "assert", "create_function", "call_user_func", "array_", "usort", "register_shutdown_function"},
	}
	dynNames = map[string]bool{"remove": true, "unlink": true, "rmdir": true, "removedirs": true, "rmtree": true,
		"system": true, "popen": true, "run": true, "call": true, "Popen": true, "check_call": true, "check_output": true,
		"rename": true, "replace": true, "exec": true, "eval": true, "execv": true, "execve": true, "execvp": true,
		"spawnv": true, "_exit": true, "kill": true, "truncate": true, "open": true, "write_text": true, "write_bytes": true}
}
