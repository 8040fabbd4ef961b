package startup

import (
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/tidwall/gjson"
)

// The agents' settings name programs they run on their own, outside any
// tool call: Claude Code's hooks, statusLine, apiKeyHelper, awsAuthRefresh,
// awsCredentialExport and otelHeadersHelper; the MCP servers' command and
// args of every agent; Gemini CLI's tools.discoveryCommand and
// tools.callCommand; Codex's notify. A command such as `bash
// scripts/status.sh` or `node tools/fmt.js` runs a file of the project
// that no hooks directory holds: writing it is writing code the agent runs
// by itself later. Named returns those files.

// namedSettings are the settings files read for the programs they name,
// relative to the project's root and to the home directory.
var (
	namedProject = []string{".claude/settings.json", ".claude/settings.local.json", ".mcp.json",
		".gemini/settings.json", ".cursor/mcp.json", ".cursor/hooks.json", ".vscode/mcp.json",
		".codex/config.toml", "opencode.json"}
	namedHome = []string{".claude/settings.json", ".gemini/settings.json", ".cursor/mcp.json",
		".cursor/hooks.json", ".copilot/mcp-config.json", ".codex/config.toml", ".config/opencode/opencode.json"}
)

// commandKey reports whether s is one of the settings keys whose string
// (or list of strings) value is a command line or a program's arguments.
func commandKey(s string) bool {
	switch s {
	case "command", "args", "apiKeyHelper", "awsAuthRefresh", "awsCredentialExport",
		"otelHeadersHelper", "discoveryCommand", "callCommand", "notify":
		return true
	}
	return false
}

// maxSettings bounds the bytes of a settings file read; past it, the
// rest names nothing.
const maxSettings = 256 << 10

// Named returns the files of the project at root (and of home) that the
// agents' settings there run as programs or scripts: the paths their
// command lines name, by a relative path (against root, where the agents
// run them), $CLAUDE_PROJECT_DIR, ~ or an absolute path inside root or
// home. ralph's own hook programs are not among them.
func Named(root, home string, getenv func(string) string) []string {
	if !filepath.IsAbs(root) {
		return nil
	}
	var files []string
	for _, n := range namedProject {
		files = append(files, filepath.Join(root, filepath.FromSlash(n)))
	}
	if filepath.IsAbs(home) {
		for _, n := range namedHome {
			files = append(files, filepath.Join(home, filepath.FromSlash(n)))
		}
	}
	if dir := getenv("CLAUDE_CONFIG_DIR"); filepath.IsAbs(dir) {
		files = append(files, filepath.Join(dir, "settings.json"))
	}
	var out []string
	seen := map[string]bool{}
	for _, f := range files {
		text, ok := readSettings(f)
		if !ok {
			continue
		}
		var cmds []string
		if strings.HasSuffix(f, ".toml") {
			cmds = tomlCommands(text)
		} else {
			cmds = jsonCommands(gjson.Parse(text), 0, nil)
		}
		for _, c := range cmds {
			for _, p := range CommandPaths(c, root, home) {
				if !seen[p] {
					seen[p] = true
					out = append(out, p)
				}
			}
		}
	}
	return out
}

// readSettings reads at most maxSettings bytes of file f.
func readSettings(f string) (string, bool) {
	fh, err := os.Open(f)
	if err != nil {
		return "", false
	}
	defer fh.Close()
	b, err := io.ReadAll(io.LimitReader(fh, maxSettings))
	if err != nil {
		return "", false
	}
	return string(b), true
}

// jsonCommands returns the strings of v under commandKeys, at most 12
// levels down and 256 in all.
func jsonCommands(v gjson.Result, depth int, out []string) []string {
	if depth > 12 || len(out) >= 256 || !v.IsObject() && !v.IsArray() {
		return out
	}
	v.ForEach(func(k, x gjson.Result) bool {
		if commandKey(k.String()) {
			switch {
			case x.Type == gjson.String:
				out = append(out, x.String())
			case x.IsArray(): // ["node", "tools/x.js"]: one command line
				var words []string
				x.ForEach(func(_, e gjson.Result) bool {
					if e.Type == gjson.String {
						words = append(words, "'"+e.String()+"'")
					}
					return len(words) < 64
				})
				out = append(out, strings.Join(words, " "))
				return len(out) < 256
			}
		}
		out = jsonCommands(x, depth+1, out)
		return len(out) < 256
	})
	return out
}

// tomlCommands returns the strings of Codex's config.toml lines that set
// notify, command or args: a string or a list of strings on the line.
func tomlCommands(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		k, v, ok := strings.Cut(line, "=")
		if !ok || !commandKey(strings.TrimSpace(k)) {
			continue
		}
		var words []string
		for _, part := range strings.Split(v, ",") {
			part = strings.Trim(strings.TrimSpace(part), "[]")
			part = strings.TrimSpace(part)
			if len(part) >= 2 && (part[0] == '"' || part[0] == '\'') && part[len(part)-1] == part[0] {
				words = append(words, "'"+part[1:len(part)-1]+"'")
			}
		}
		out = append(out, strings.Join(words, " ")) // notify = ["python3", "x.py"]: one command line
		if len(out) >= 256 {
			break
		}
	}
	return out
}

// hookProgram reports whether s is one of ralph's own programs, which
// other rules guard.
func hookProgram(s string) bool {
	switch s {
	case "pre-tool-call", "post-tool-call", "post-iteration-reflect", "stop", "ralph":
		return true
	}
	return false
}

// CommandPaths returns the files inside root or home that the command
// line cmd runs: each simple command's program when it is a path, the
// script an interpreter (bash, node, python …) is given, and any word
// ending in a script's extension; $CLAUDE_PROJECT_DIR (and Gemini's and
// Cursor's like it) read as root, ~ as home, a relative path against root.
// The other words (pytest tests/, --root src) are data, not code.
func CommandPaths(cmd, root, home string) []string {
	for _, v := range []string{"CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR", "CURSOR_PROJECT_DIR", "PWD"} {
		cmd = strings.ReplaceAll(cmd, "${"+v+"}", root)
		cmd = strings.ReplaceAll(cmd, "$"+v, root)
	}
	var out []string
	base := root // where relative paths lead: cd changes it
	add := func(w string) {
		if w == "" || strings.Contains(w, "://") || strings.ContainsAny(w, "$*?") {
			return
		}
		p := w
		switch {
		case p == "~" || strings.HasPrefix(p, "~/"):
			if !filepath.IsAbs(home) {
				return
			}
			p = filepath.Join(home, p[1:])
		case !filepath.IsAbs(p):
			p = filepath.Join(base, p)
		}
		p = filepath.Clean(p)
		if hookProgram(filepath.Base(p)) || p == root || p == home || !(within(p, root) || filepath.IsAbs(home) && within(p, home)) {
			return
		}
		out = append(out, p)
	}
	for _, seg := range strings.FieldsFunc(cmd, func(r rune) bool { return strings.ContainsRune(";&|()\n", r) }) {
		seg = strings.NewReplacer(`"`, "", "'", "").Replace(seg) // "$CLAUDE_PROJECT_DIR"/x.sh
		words := strings.FieldsFunc(seg, func(r rune) bool { return strings.ContainsRune(" \t\r<>`", r) })
		if len(words) > 1 && words[0] == "cd" {
			if filepath.IsAbs(words[1]) {
				base = words[1]
			} else {
				base = filepath.Join(base, words[1])
			}
			continue
		}
		prog := -1 // the program's word, then the interpreter's script
		for i, w := range words {
			if _, v, ok := strings.Cut(w, "="); ok && strings.HasPrefix(w, "-") {
				w = v // --config=tools/x.js
			}
			switch {
			case prog < 0 && strings.Contains(w, "=") && !strings.HasPrefix(w, "-"):
				continue // X=1 before the program
			case prog < 0:
				prog = i
				if strings.Contains(w, "/") || scriptExt(w) {
					add(w)
				}
				if !interpreter(filepath.Base(w)) && !strings.HasPrefix(filepath.Base(w), "python") {
					prog = len(words) // no script argument to look for
				}
				continue
			case prog < len(words) && !strings.HasPrefix(w, "-"):
				prog = len(words)
				if words[i-1] != "-m" && words[i-1] != "-c" && words[i-1] != "-e" {
					add(w) // bash x.sh, node tools/x.js
					continue
				}
			}
			if scriptExt(w) && !strings.HasPrefix(w, "-") {
				add(w)
			}
		}
	}
	return out
}

// interpreter reports whether program s runs the script its first operand
// names.
func interpreter(s string) bool {
	switch s {
	case "sh", "bash", "zsh", "dash", "ksh", "fish", "node", "nodejs", "deno", "bun", "tsx",
		"ts-node", "ruby", "perl", "php", "lua", "pwsh":
		return true
	}
	return false
}

// scriptExt reports whether w names a script by its extension.
func scriptExt(w string) bool {
	switch filepath.Ext(w) {
	case ".sh", ".bash", ".zsh", ".js", ".mjs", ".cjs", ".ts", ".mts", ".py", ".rb", ".pl", ".php", ".lua", ".ps1":
		return true
	}
	return false
}

// within reports whether p is dir or below it.
func within(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
