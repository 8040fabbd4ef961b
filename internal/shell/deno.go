package shell

import (
	"regexp"
	"strings"
)

// Deno starts programs through its own API, which the node tables do not
// name: `new Deno.Command("rm", {args: ["-rf", "tests"]})` (.output(),
// .outputSync(), .spawn()) and the older `Deno.run({cmd: ["rm", "-rf",
// "tests"]})`; zx runs the template of $`…` as a shell command line, in
// a script zx runs (zx x.mjs, zx -e '…') or one that imports it. Deno and
// zx are not installed here: their forms are from their documentation.
// `deno run FILE` (and `deno FILE`, deno 2) runs FILE, `deno eval CODE`
// its code; the words after deno's subcommand and options are read as
// the script's.

// denoCallRe finds the calls; denoKeyRe the args or cmd list in the
// call's options.
var (
	denoCallRe     = func() *regexp.Regexp { return denoCallReLazy.get() }
	denoCallReLazy = lazy[*regexp.Regexp]{f: func() *regexp.Regexp {
		return regexp.MustCompile(`\bnew\s+Deno\.Command\s*\(|\bDeno\.run\s*\(`)
	}}
	denoKeyRe     = func() *regexp.Regexp { return denoKeyReLazy.get() }
	denoKeyReLazy = lazy[*regexp.Regexp]{f: func() *regexp.Regexp {
		return regexp.MustCompile(`\b(?:args|cmd)\s*:\s*\[`)
	}}
	zxRe     = func() *regexp.Regexp { return zxReLazy.get() }
	zxReLazy = lazy[*regexp.Regexp]{f: func() *regexp.Regexp {
		return regexp.MustCompile(`(?:^|[^\w.$])\$(?:\.sync)?\s*` + "`")
	}}
)

// denoCalls walks the programs the Deno API and zx's $ run in node code.
func (w *walker) denoCalls(c *ctx, code string, sc *scope) {
	if strings.Contains(code, "Deno.") {
		for _, m := range denoCallRe().FindAllStringIndex(code, 32) {
			rest := code[m[1]:]
			if k := closeParen(rest); k >= 0 {
				rest = rest[:k]
			}
			var argv []codeArg
			if strings.HasPrefix(code[m[0]:], "new") {
				first, _ := parseArg(strings.TrimLeft(rest, " \t\n"))
				if !first.lit {
					w.opaqueCode(strings.Join(c.via, " ") + " runs a computed program: new Deno.Command(" + firstLine(rest) + ")")
					continue
				}
				argv = append(argv, first)
			}
			if k := denoKeyRe().FindStringIndex(rest); k != nil {
				list, _ := parseArg(rest[k[1]-1:])
				if list.list == nil {
					w.opaqueCode(strings.Join(c.via, " ") + " runs a computed command line: " + firstLine(rest))
					continue
				}
				argv = append(argv, list.list...)
			}
			if len(argv) == 0 {
				w.opaqueCode(strings.Join(c.via, " ") + " runs a computed command line: " + firstLine(rest))
				continue
			}
			w.exec(c, codeWords(argv), sc, nil, nil)
		}
	}
	if strings.Contains(code, "$") && strings.Contains(code, "`") {
		for _, m := range zxRe().FindAllStringIndex(code, 32) {
			rest := code[m[1]:]
			k := strings.IndexByte(rest, '`')
			if k < 0 {
				continue
			}
			// A ${…} zx interpolates (quoted, one word) reads as the
			// shell's expansion of a variable not known: computed.
			w.shellString(c, rest[:k], sc)
		}
	}
}

// denoArgs returns the words of a deno command line from its script or
// code on, as interp reads a node command line: `deno run -A x.ts a`
// gives `x.ts a`, `deno eval CODE` gives `-e CODE`; ok is false for
// deno's other subcommands (task, test, fmt …), read elsewhere or not
// running a file of the command line.
func denoArgs(args []Word) ([]Word, bool) {
	i := 0
	sub := ""
	if len(args) > 0 {
		switch s := args[0].Lit(); s {
		case "run", "eval", "repl", "serve":
			sub, i = s, 1
		default:
			if !strings.HasPrefix(s, "-") && (strings.HasSuffix(s, ".ts") || strings.HasSuffix(s, ".js") ||
				strings.HasSuffix(s, ".mjs") || strings.HasSuffix(s, ".tsx") || strings.HasSuffix(s, ".jsx") || strings.HasSuffix(s, ".mts")) {
				return args, true // deno x.ts
			}
			return nil, false
		}
	}
	for ; i < len(args); i++ {
		s := args[i].Lit()
		switch {
		case s == "--":
			return args[i+1:], true
		case !strings.HasPrefix(s, "-"):
			if sub == "eval" {
				return []Word{{Raw: "-e", Values: []string{"-e"}}, args[i]}, true
			}
			return args[i:], true
		case denoValued[s] && i+1 < len(args):
			i++
		}
	}
	return nil, false
}

// denoValued are deno's options that take the next word as their value.
var denoValued = map[string]bool{
	"-c": true, "--config": true, "--import-map": true, "--lock": true, "--cert": true,
	"--location": true, "--seed": true, "--v8-flags": true, "--env-file": true, "--ext": true,
	"-L": true, "--log-level": true, "--inspect": false, "--watch-exclude": true, "--preload": true,
}
