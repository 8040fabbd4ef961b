// Command extract reads the test suites of the peer guards (dcg and
// cc-safety-net, current and older) from their git repositories and writes
// their (command, expected verdict) cases as data, one file per repository,
// each case with the file and line it came from. None of the peers' code is
// kept: only the facts of what they expect.
//
//	go run ./internal/risk/testdata/peers/extract \
//	    -dcg /path/to/destructive_command_guard/.git \
//	    -ccsn /path/to/cc-safety-net/.git \
//	    -ccsn-old /path/to/claude-code-safety-net/.git \
//	    -out internal/risk/testdata/peers
//
// It lives under testdata so that it is no part of the product's build.
// See ../README.md for the format.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// kase is one extracted case.
type kase struct {
	suite   string // default, pack:NAME, other:PACKID, strict, paranoid, worktree, env, custom
	expect  string // block or allow
	source  string // file:line in the repository
	context string // the cwd expression of the test, or "-"
	command string
}

type repo struct {
	gitDir, name, commit string
	skipped              int // calls whose command is not a literal
}

func main() {
	dcg := flag.String("dcg", "", "git directory of Dicklesworthstone/destructive_command_guard")
	ccsn := flag.String("ccsn", "", "git directory of kenryu42/cc-safety-net")
	old := flag.String("ccsn-old", "", "git directory of kenryu42/claude-code-safety-net")
	out := flag.String("out", ".", "directory to write the case files into")
	flag.Parse()
	run := func(dir, name, file string, fn func(*repo) []kase) {
		if dir == "" {
			return
		}
		r := &repo{gitDir: dir, name: name}
		r.commit = strings.TrimSpace(r.git("rev-parse", "HEAD"))
		cases := fn(r)
		if err := write(filepath.Join(*out, file), r, cases); err != nil {
			fatal(err)
		}
		fmt.Fprintf(os.Stderr, "%s: %d cases (%d skipped: computed in the test, or not valid YAML)\n", file, len(cases), r.skipped)
	}
	run(*dcg, "Dicklesworthstone/destructive_command_guard", "dcg.txt", dcgCases)
	run(*ccsn, "kenryu42/cc-safety-net", "cc-safety-net.txt", ccsnCases)
	run(*old, "kenryu42/claude-code-safety-net", "claude-code-safety-net.txt", ccsnCases)
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "extract:", err)
	os.Exit(1)
}

func (r *repo) git(args ...string) string {
	out, err := exec.Command("git", append([]string{"--git-dir", r.gitDir}, args...)...).Output()
	if err != nil {
		fatal(fmt.Errorf("git %v in %s: %w", args, r.gitDir, err))
	}
	return string(out)
}

func (r *repo) files(dir string) []string {
	var out []string
	for _, f := range strings.Split(r.git("ls-tree", "-r", "--name-only", r.commit, "--", dir), "\n") {
		if f != "" {
			out = append(out, f)
		}
	}
	return out
}

func (r *repo) show(path string) string { return r.git("show", r.commit+":"+path) }

func write(path string, r *repo, cases []kase) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# Test cases of %s at commit %s,\n", r.name, r.commit)
	fmt.Fprintf(&b, "# extracted by internal/risk/testdata/peers/extract (see README.md). Do not edit.\n")
	fmt.Fprintf(&b, "# %d cases; %d whose command is computed in the test or is not valid YAML were skipped.\n", len(cases), r.skipped)
	fmt.Fprintf(&b, "#\n# SUITE | EXPECT | SOURCE | CONTEXT | COMMAND   (⏎ stands for a newline)\n")
	for _, c := range cases {
		if strings.Contains(c.command, "⏎") || strings.Contains(c.command, "\r") {
			continue
		}
		fmt.Fprintf(&b, "%s | %s | %s | %s | %s\n", c.suite, c.expect, c.source, c.context, strings.ReplaceAll(c.command, "\n", "⏎"))
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// --- dcg ---

// dcgDefaultPacks are the packs dcg enables by default.
var dcgDefaultPacks = map[string]bool{"core.git": true, "core.filesystem": true, "database.postgresql": true, "containers.docker": true}

// dcgOptIn maps dcg's pack categories to ralph's opt-in packs.
var dcgOptIn = map[string]string{
	"backup": "backups", "cicd": "cicd", "messaging": "messaging", "search": "search",
	"secrets": "secrets", "storage": "storage", "platform": "platform", "remote": "backups",
}

func dcgSuite(pack string) string {
	if pack == "" || dcgDefaultPacks[pack] || strings.HasPrefix(pack, "core") {
		return "default"
	}
	cat, _, _ := strings.Cut(pack, ".")
	if p, ok := dcgOptIn[cat]; ok {
		return "pack:" + p
	}
	return "other:" + pack
}

func dcgCases(r *repo) []kase {
	var cases []kase
	for _, f := range r.files("tests/corpus") {
		if strings.HasSuffix(f, ".toml") {
			cases = append(cases, tomlCases(f, r.show(f))...)
		}
	}
	for _, f := range r.files("tests/e2e/fixtures/commands") {
		if strings.HasSuffix(f, ".txt") {
			cases = append(cases, e2eCases(f, r.show(f))...)
		}
	}
	for _, f := range r.files("tests/fixtures") {
		if !strings.HasSuffix(f, ".yaml") {
			continue
		}
		cs, err := yamlCases(r, f, r.show(f))
		if err != nil {
			fatal(err)
		}
		cases = append(cases, cs...)
	}
	return cases
}

// tomlCases reads the [[case]] tables of a dcg corpus file: command and
// expected (or expected_decision).
func tomlCases(file, src string) []kase {
	var out []kase
	var cur *kase
	flush := func() {
		if cur != nil && cur.command != "" && (cur.expect == "block" || cur.expect == "allow") {
			out = append(out, *cur)
		}
		cur = nil
	}
	lines := strings.Split(src, "\n")
	for i := 0; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		if l == "[[case]]" {
			flush()
			cur = &kase{suite: "default", context: "-", source: fmt.Sprintf("%s:%d", file, i+1)}
			continue
		}
		if cur == nil || strings.HasPrefix(l, "#") {
			continue
		}
		key, val, ok := strings.Cut(l, "=")
		if !ok {
			continue
		}
		key = strings.TrimSpace(key)
		val = strings.TrimSpace(val)
		if key != "command" && key != "expected" && key != "expected_decision" {
			continue
		}
		if strings.HasPrefix(val, `"""`) || strings.HasPrefix(val, `'''`) {
			q := val[:3]
			body := val[3:]
			for !strings.Contains(body, q) && i+1 < len(lines) {
				i++
				body += "\n" + lines[i]
			}
			body = body[:strings.Index(body, q)]
			body = strings.TrimPrefix(body, "\n")
			if q == `"""` {
				body = unescapeBasic(body)
			}
			val = body
		} else {
			v, err := tomlString(val)
			if err != nil {
				fatal(fmt.Errorf("%s:%d: %v", file, i+1, err))
			}
			val = v
		}
		switch key {
		case "command":
			cur.command = val
			cur.source = fmt.Sprintf("%s:%d", file, i+1)
		default:
			cur.expect = map[string]string{"deny": "block", "allow": "allow"}[val]
		}
	}
	flush()
	return out
}

// tomlString reads a one-line TOML string ("basic" or 'literal') and
// ignores what follows it.
func tomlString(s string) (string, error) {
	if s == "" {
		return "", fmt.Errorf("empty value")
	}
	q := s[0]
	if q != '"' && q != '\'' {
		return "", fmt.Errorf("not a string: %s", s)
	}
	for i := 1; i < len(s); i++ {
		if q == '"' && s[i] == '\\' {
			i++
			continue
		}
		if s[i] == q {
			if q == '\'' {
				return s[1:i], nil
			}
			return unescapeBasic(s[1:i]), nil
		}
	}
	return "", fmt.Errorf("unterminated string: %s", s)
}

func unescapeBasic(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch s[i] {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'u', 'U':
			n := 4
			if s[i] == 'U' {
				n = 8
			}
			if i+n < len(s) {
				if v, err := strconv.ParseUint(s[i+1:i+1+n], 16, 32); err == nil {
					b.WriteRune(rune(v))
					i += n
					continue
				}
			}
			b.WriteByte(s[i])
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// e2eCases reads dcg's e2e command fixtures: EXPECT:command lines (BLOCK,
// ALLOW; WARN is left out), or bare lines (dangerous.txt: block, others:
// allow). A \n stands for a newline, as the runner pastes the line into a
// JSON string; a line without a prefix continues the command above it when
// the file uses prefixes.
func e2eCases(file, src string) []kase {
	base := filepath.Base(file)
	prefixed := strings.Contains(src, "\nBLOCK:") || strings.Contains(src, "\nALLOW:")
	var out []kase
	var cur *kase
	flush := func() {
		if cur != nil && cur.expect != "" {
			out = append(out, *cur)
		}
		cur = nil
	}
	for i, l := range strings.Split(src, "\n") {
		if strings.HasPrefix(l, "#") || strings.TrimSpace(l) == "" {
			if !(cur != nil && strings.Contains(cur.command, "<<")) {
				flush()
			}
			continue
		}
		src := fmt.Sprintf("%s:%d", file, i+1)
		exp, cmd, ok := strings.Cut(l, ":")
		if ok && (exp == "BLOCK" || exp == "ALLOW" || exp == "WARN") {
			flush()
			e := map[string]string{"BLOCK": "block", "ALLOW": "allow"}[exp]
			// The runner pastes the line into a JSON string, where \n
			// is a newline and \t a tab.
			cmd = strings.NewReplacer(`\\`, `\`, `\n`, "\n", `\t`, "\t", `\"`, `"`).Replace(cmd)
			cur = &kase{suite: "default", expect: e, source: src, context: "-", command: cmd}
			continue
		}
		if prefixed && cur != nil {
			cur.command += "\n" + l
			continue
		}
		flush()
		e := "allow"
		if base == "dangerous.txt" {
			e = "block"
		}
		out = append(out, kase{suite: "default", expect: e, source: src, context: "-", command: l})
	}
	flush()
	return out
}

// yamlCases reads dcg's pack fixtures: {pack: [{command}]} lists
// (destructive_commands.yaml: block, safe_commands.yaml: allow), the edge
// cases (false_positives: allow, false_negatives: block) and the scenarios
// (steps with expected_pack and expected_decision).
func yamlCases(r *repo, file, src string) ([]kase, error) {
	base := filepath.Base(file)
	if base == "destructive_commands.yaml" || base == "safe_commands.yaml" {
		return packListCases(r, file, src), nil
	}
	var root yaml.Node
	if err := yaml.Unmarshal([]byte(src), &root); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if len(root.Content) == 0 || root.Content[0].Kind != yaml.MappingNode {
		return nil, nil
	}
	m := root.Content[0]
	get := func(n *yaml.Node, key string) *yaml.Node {
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == key {
				return n.Content[i+1]
			}
		}
		return nil
	}
	var out []kase
	add := func(suite, expect string, cmd *yaml.Node) {
		if cmd == nil || cmd.Value == "" || expect == "" {
			return
		}
		out = append(out, kase{suite: suite, expect: expect, source: fmt.Sprintf("%s:%d", file, cmd.Line), context: "-", command: cmd.Value})
	}
	switch {
	case get(m, "steps") != nil:
		for _, st := range get(m, "steps").Content {
			pack, dec := "", ""
			if n := get(st, "expected_pack"); n != nil {
				pack = n.Value
			}
			if n := get(st, "expected_decision"); n != nil {
				dec = map[string]string{"deny": "block", "allow": "allow"}[n.Value]
			}
			add(dcgSuite(pack), dec, get(st, "command"))
		}
	case base == "edge_cases.yaml":
		for key, exp := range map[string]string{"false_positives": "allow", "false_negatives": "block"} {
			if l := get(m, key); l != nil {
				for _, it := range l.Content {
					if c := get(it, "command"); c != nil {
						add(dcgSuite(programPack(c.Value)), exp, c)
					}
				}
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return lineOf(out[i].source) < lineOf(out[j].source) })
	return out, nil
}

// packListCases reads {pack: [{command, reason}]} line by line: one entry
// of destructive_commands.yaml is not valid YAML (dcg's tests never load
// these files), so each command is read on its own, and one that does not
// parse as a YAML scalar is left out.
func packListCases(r *repo, file, src string) []kase {
	exp := "block"
	if strings.Contains(filepath.Base(file), "safe") {
		exp = "allow"
	}
	var out []kase
	pack := ""
	for i, l := range strings.Split(src, "\n") {
		if l != "" && l[0] != ' ' && l[0] != '#' && strings.HasSuffix(l, ":") {
			pack = strings.TrimSuffix(l, ":")
			continue
		}
		t := strings.TrimSpace(l)
		if !strings.HasPrefix(t, "- command:") {
			continue
		}
		raw := strings.TrimSpace(strings.TrimPrefix(t, "- command:"))
		var v string
		if err := yaml.Unmarshal([]byte(raw), &v); err != nil || v == "" || strings.HasPrefix(raw, `"`) && unescapedQuotes(raw) != 2 {
			r.skipped++
			continue // not one YAML scalar
		}
		out = append(out, kase{suite: dcgSuite(pack), expect: exp, source: fmt.Sprintf("%s:%d", file, i+1), context: "-", command: v})
	}
	return out
}

// programPack names the dcg pack of an edge case by its program, as the
// file does not: rsync, rclone, aws s3, vault.
func programPack(cmd string) string {
	f := strings.Fields(cmd)
	switch {
	case len(f) == 0:
	case f[0] == "rsync":
		return "remote.rsync"
	case f[0] == "rclone":
		return "backup.rclone"
	case f[0] == "vault":
		return "secrets.vault"
	case f[0] == "aws" && len(f) > 1 && f[1] == "s3":
		return "storage.s3"
	}
	return ""
}

// unescapedQuotes counts the double quotes of s that no backslash escapes.
func unescapedQuotes(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			n++
		}
	}
	return n
}

func lineOf(source string) int {
	_, n, _ := strings.Cut(source, ":")
	v, _ := strconv.Atoi(n)
	return v
}

// --- cc-safety-net ---

// ccsnCases reads assertBlocked(COMMAND, REASON, [CWD]),
// assertAllowed(COMMAND, [CWD]) and assertStrictBlocked(…) calls whose
// command is a string literal, from the analyzer and rule tests.
func ccsnCases(r *repo) []kase {
	var out []kase
	for _, f := range r.files("tests") {
		if !strings.HasSuffix(f, ".test.ts") {
			continue
		}
		src := r.show(f)
		if !strings.Contains(src, "assertBlocked(") && !strings.Contains(src, "assertAllowed(") {
			continue
		}
		out = append(out, tsCases(r, f, src)...)
	}
	return out
}

var calls = []string{"assertBlocked(", "assertAllowed(", "assertStrictBlocked("}

func tsCases(r *repo, file, src string) []kase {
	var out []kase
	custom := strings.Contains(file, "rules-custom")
	for i := 0; i < len(src); i++ {
		var call string
		for _, c := range calls {
			if strings.HasPrefix(src[i:], c) && (i == 0 || !isIdent(src[i-1])) {
				call = c
			}
		}
		if call == "" {
			continue
		}
		if lineStart := strings.LastIndexByte(src[:i], '\n'); strings.Contains(src[lineStart+1:i], "function ") {
			continue // the helper's own definition
		}
		args, end := tsArgs(src[i+len(call):])
		i += len(call) + end - 1
		if len(args) == 0 {
			continue
		}
		cmd, ok := tsString(args[0])
		if !ok {
			r.skipped++
			continue
		}
		line := strings.Count(src[:i-end], "\n") + 1
		k := kase{expect: "block", source: fmt.Sprintf("%s:%d", file, line), context: "-", command: cmd}
		cwdArg := 2
		if call == "assertAllowed(" {
			k.expect, cwdArg = "allow", 1
		}
		if len(args) > cwdArg {
			k.context = "cwd=" + strings.Join(strings.Fields(args[cwdArg]), " ")
			if len(args) > cwdArg+1 {
				k.context += " env=" + strings.Join(strings.Fields(localConst(src, i, args[cwdArg+1])), " ")
			}
		}
		k.suite = "default"
		switch {
		case custom:
			k.suite = "custom"
		case call == "assertStrictBlocked(":
			k.suite = "strict"
		default:
			env, vars := enclosingEnv(src, i)
			switch {
			case env == "env" && strings.HasPrefix(vars, "HOME:"):
				// Only HOME set: where the test runs, not a mode.
				k.context = strings.TrimPrefix(k.context+" env=", "- ") + vars
			case env != "":
				k.suite = env
			}
		}
		out = append(out, k)
	}
	return out
}

// localConst returns what a test's argument names: for a bare name, the
// value a const of the enclosing test gives it (const env =
// testEnvironment({ TMPDIR: … })), up to the end of its statement; else
// the argument itself.
func localConst(src string, i int, arg string) string {
	name := strings.TrimSpace(arg)
	for j := 0; j < len(name); j++ {
		if !isIdent(name[j]) || name[j] == '.' {
			return arg
		}
	}
	body := src[testStart(src, i):i]
	k := strings.LastIndex(body, "const "+name+" = ")
	if k < 0 {
		return arg
	}
	v := body[k+len("const "+name+" = "):]
	depth := 0
	for j := 0; j < len(v); j++ {
		switch v[j] {
		case '(', '{', '[':
			depth++
		case ')', '}', ']':
			depth--
		case ';', '\n':
			if depth == 0 {
				return v[:j]
			}
		}
	}
	return arg
}

// testStart returns where the test enclosing the call at i starts.
func testStart(src string, i int) int {
	start := 0
	for _, t := range []string{"\n  test(", "\n    test(", "\n  it(", "\n    it(", "\ntest(", "\n      test("} {
		if k := strings.LastIndex(src[:i], t); k > start {
			start = k
		}
	}
	return start
}

// enclosingEnv returns the mode set by a withEnv({KEY: …}) between the
// start of the enclosing test and the call at i: strict, paranoid,
// worktree or env; "" when none.
func enclosingEnv(src string, i int) (string, string) {
	body := src[testStart(src, i):i]
	k := strings.LastIndex(body, "withEnv(")
	if k < 0 {
		return "", ""
	}
	env := body[k:]
	vars := env
	if a, b := strings.IndexByte(env, '{'), strings.IndexByte(env, '}'); a >= 0 && b > a {
		vars = strings.Join(strings.Fields(env[a+1:b]), " ")
	}
	switch {
	case strings.Contains(env, "SAFETY_NET_STRICT"):
		return "strict", vars
	case strings.Contains(env, "SAFETY_NET_PARANOID"):
		return "paranoid", vars
	case strings.Contains(env, "SAFETY_NET_WORKTREE"):
		return "worktree", vars
	}
	return "env", vars
}

func isIdent(c byte) bool {
	return c == '_' || c == '$' || c == '.' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// tsArgs splits the arguments of a call whose "(" was consumed, up to the
// matching ")", and returns them (raw) with the bytes read.
func tsArgs(s string) ([]string, int) {
	var args []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\'', '"', '`':
			i = skipString(s, i)
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth == 0 {
				if a := strings.TrimSpace(s[start:i]); a != "" {
					args = append(args, a)
				}
				return args, i + 1
			}
			depth--
		case ',':
			if depth == 0 {
				args = append(args, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	return nil, len(s)
}

// skipString returns the index of the closing quote of the string at i.
func skipString(s string, i int) int {
	q := s[i]
	for j := i + 1; j < len(s); j++ {
		switch {
		case s[j] == '\\':
			j++
		case q == '`' && strings.HasPrefix(s[j:], "${"):
			d := 0
			for ; j < len(s); j++ {
				if s[j] == '{' {
					d++
				} else if s[j] == '}' {
					if d--; d == 0 {
						break
					}
				}
			}
		case s[j] == q:
			return j
		}
	}
	return len(s)
}

// tsString returns the value of a TS string literal ('…', "…", or `…`
// without substitutions), or false for anything computed.
func tsString(a string) (string, bool) {
	if len(a) < 2 {
		return "", false
	}
	q := a[0]
	if q != '\'' && q != '"' && q != '`' || skipString(a, 0) != len(a)-1 {
		return "", false
	}
	body := a[1 : len(a)-1]
	if q == '`' && strings.Contains(body, "${") {
		return "", false
	}
	var b strings.Builder
	rd := bufio.NewReader(strings.NewReader(body))
	for {
		c, err := rd.ReadByte()
		if err != nil {
			break
		}
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		e, err := rd.ReadByte()
		if err != nil {
			b.WriteByte('\\')
			break
		}
		switch e {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case '0':
			b.WriteByte(0)
		case '\n':
		case 'x':
			h := make([]byte, 2)
			if _, err := rd.Read(h); err == nil {
				if v, err := strconv.ParseUint(string(h), 16, 8); err == nil {
					b.WriteByte(byte(v))
					continue
				}
			}
			return "", false
		case 'u':
			h := make([]byte, 4)
			if _, err := rd.Read(h); err == nil {
				if v, err := strconv.ParseUint(string(h), 16, 32); err == nil {
					b.WriteRune(rune(v))
					continue
				}
			}
			return "", false
		default:
			b.WriteByte(e)
		}
	}
	return b.String(), true
}
