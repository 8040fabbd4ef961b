package risk

import (
	"os"
	"path"
	"slices"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/ralph-hooks/ralph-hooks/internal/event"
)

// An MCP server's tool (mcp__desktop-commander__start_process,
// mcp__filesystem__write_file, mcp__serena__execute_shell_command, …)
// does what a built-in tool does, under another name: a command line it
// runs is judged as a Bash command, a file it deletes or moves as rm or mv
// of it, and a file it writes as a Write (checkpointed, its new text
// checked as a test's when it is one). What its input does not say is
// caught after the call (post-tool-call checks the tree).

// mcpRuns are words of a tool's name that say it runs what its input
// gives; mcpKeys the input's keys that hold the command line.
var (
	mcpRuns = []string{"exec", "shell", "command", "terminal", "bash", "process", "run", "spawn", "cmd", "script", "interact", "send_keys", "pty", "tmux", "console"}
	mcpKeys = []string{"command", "cmd", "shell_command", "commandline", "command_line", "cmdline", "script"}
	// mcpCmdKeys hold nothing but a command line, in any tool.
	mcpCmdKeys = []string{"command", "cmd", "shell_command", "commandline", "command_line", "cmdline"}
	// mcpShells read a script from their standard input (mcp-server-commands'
	// run_command passes its stdin to the command: {"command":"bash","stdin":…}).
	mcpShells = []string{"sh", "bash", "zsh", "dash", "ksh", "mksh", "fish", "ash", "busybox"}
	mcpInput  = []string{"input", "text", "keys", "data"} // a line typed into a process or terminal
	mcpArgs   = []string{"args", "argv", "arguments"}
	mcpDirs   = []string{"cwd", "workdir", "working_directory", "workingdirectory", "directory", "dir"}
	mcpTexts  = []string{"content", "contents", "text", "data", "file_text", "new_content", "body"}
)

// mcp adds to v what the input of ev's tool, one ralph does not know, says
// the tool does. It reports whether the tool is a git tool, judged as the
// git command line it runs (its paths name the repository, not files it
// deletes or writes).
func (g *Guard) mcp(v *Verdict, ev *event.Event, cwd string) (git bool) {
	name := strings.ToLower(ev.Tool)
	in := gjson.ParseBytes(ev.Input)
	if !in.IsObject() {
		return false
	}
	if line, dir := mcpGit(ev.Tool, in, cwd); line != "" {
		g.merge(v, g.Command(line, dir))
		return true
	}
	if line := mcpInfra(ev.Tool, in); line != "" {
		g.merge(v, g.Command(line, cwd))
		return true
	}
	if why := mcpData(ev.Tool, in); why != "" {
		g.add(v, g.builtin("sql-drop", "`"+ev.Tool+"` "+why, ev.Tool, nil))
	}
	has := func(words ...string) bool {
		return slices.ContainsFunc(words, func(w string) bool { return strings.Contains(name, w) })
	}
	// A command line under a key that names one is judged whatever the
	// tool's name says: a tool a new release adds (Claude Code's Monitor
	// was one) is not let through for a name ralph has not heard of.
	// It may be an argv list (Codex's shell takes ["bash","-lc",…]), or
	// sit in an object of options or a list of steps, each judged in
	// the directory its object names.
	top := cwd
	if d, ok := field(in, mcpDirs); ok {
		top = abs(cwd, d)
	}
	var inner []cmdAt
	in.ForEach(func(k, x gjson.Result) bool {
		inner = append(inner, nestedCmds(x, top, 1)...)
		if strings.EqualFold(k.Str, "commands") {
			for _, c := range x.Array() {
				if c.Type == gjson.String {
					inner = append(inner, cmdAt{c.Str, top})
				}
			}
		}
		return true
	})
	_, named := field(in, mcpCmdKeys)
	if _, argv := argvField(in, append([]string{"argv"}, mcpCmdKeys...)); argv {
		named = true
	}
	for _, c := range inner {
		g.merge(v, g.Command(c.line, c.dir))
	}
	if has(mcpRuns...) || named {
		line, ok := field(in, mcpKeys)
		if !ok {
			line, ok = argvField(in, mcpCmdKeys)
		}
		args := mcpArgs
		if !ok {
			line, ok = argvField(in, []string{"argv"})
			args = []string{"args", "arguments"} // argv is the line
		}
		if !ok && has("process", "terminal", "interact", "send_keys", "pty", "tmux", "console", "session") {
			line, ok = field(in, mcpInput)
		}
		if ok {
			for _, k := range args {
				for _, a := range in.Get(k).Array() {
					line += " " + quote(a.String())
				}
			}
			dir := cwd
			if d, ok := field(in, mcpDirs); ok {
				dir = abs(cwd, d)
			}
			g.merge(v, g.Command(line, dir))
			if stdin, ok := field(in, []string{"stdin", "input"}); ok && stdin != "" {
				if w := strings.Fields(line); len(w) > 0 && slices.Contains(mcpShells, path.Base(strings.Trim(w[0], "'"))) {
					g.merge(v, g.Command(stdin, dir))
				}
			}
		}
	}
	for _, k := range []string{"owner", "repo", "repository", "bucket", "url", "remote", "host", "project_id"} {
		if in.Get(k).Exists() {
			return false // the paths are another machine's (a GitHub repository's, a bucket's)
		}
	}
	paths := pathStrings(ev.Input)
	quoted := make([]string, len(paths))
	for i, p := range paths {
		quoted[i] = quote(abs(cwd, p))
	}
	switch {
	case len(paths) == 0:
	case has("delete", "remove", "unlink", "trash", "rmdir", "erase", "destroy"):
		g.merge(v, g.Command("rm -rf -- "+strings.Join(quoted, " "), cwd))
	case has("move", "rename") && len(paths) == 2:
		g.merge(v, g.Command("mv -- "+strings.Join(quoted, " "), cwd))
	case has("write", "edit", "create", "patch", "replace", "insert", "append", "save", "modify", "update", "put"):
		text, full := field(in, mcpTexts)
		// desktop-commander's write_file appends with mode "append".
		appends := strings.EqualFold(in.Get("mode").String(), "append") || in.Get("append").Bool()
		full = full && !appends && !has("append", "insert", "patch", "edit", "replace")
		for _, p := range paths {
			ap := g.through(g.onDisk(g.procPath(abs(cwd, p), cwd)))
			if _, ok := g.inProject(ap); !ok || !exists(ap) {
				continue
			}
			fv := g.File("Write", ap)
			g.merge(v, fv)
			if len(paths) != 1 || !g.IsTestPath(g.rel(ap)) {
				continue
			}
			if !full {
				// Edits given as old and new text (filesystem's edit_file,
				// desktop-commander's edit_block): applied to the file.
				text, full = mcpEdits(in, ap)
			}
			if full {
				if v.Writes == nil {
					v.Writes = map[string]string{}
				}
				v.Writes[ap] = text
			}
		}
	}
	return false
}

// merge adds the findings of w, a judgement of what v's call does, to v,
// with the files it changes and writes.
func (g *Guard) merge(v, w *Verdict) {
	v.Findings = append(v.Findings, w.Findings...)
	for _, p := range w.Changes {
		if !slices.Contains(v.Changes, p) {
			v.Changes = append(v.Changes, p)
		}
	}
	for p, text := range w.Writes {
		if v.Writes == nil {
			v.Writes = map[string]string{}
		}
		v.Writes[p] = text
	}
}

// field returns the first string in o under one of keys (any case).
func field(o gjson.Result, keys []string) (string, bool) {
	var val string
	found := false
	o.ForEach(func(k, x gjson.Result) bool {
		if x.Type == gjson.String && slices.Contains(keys, strings.ToLower(k.Str)) {
			val, found = x.Str, true
			return false
		}
		return true
	})
	if !found {
		return "", false
	}
	return val, true
}

// cmdAt is a command line a tool's input holds, and where it runs.
type cmdAt struct{ line, dir string }

// nestedCmds returns the command lines in x, a value within a tool's
// input, and in the objects and lists within it: a string or an argv
// list under one of mcpCmdKeys (any case) or argv, with the directory of
// the object that holds it (a relative one from dir).
func nestedCmds(x gjson.Result, dir string, depth int) []cmdAt {
	if depth > 4 {
		return nil
	}
	var out []cmdAt
	switch {
	case x.IsObject():
		if d, ok := field(x, mcpDirs); ok {
			dir = abs(dir, d)
		}
		if line, ok := field(x, mcpCmdKeys); ok {
			out = append(out, cmdAt{line, dir})
		} else if line, ok := argvField(x, append([]string{"argv"}, mcpCmdKeys...)); ok {
			out = append(out, cmdAt{line, dir})
		}
		x.ForEach(func(_, y gjson.Result) bool {
			out = append(out, nestedCmds(y, dir, depth+1)...)
			return true
		})
	case x.IsArray():
		for _, y := range x.Array() {
			out = append(out, nestedCmds(y, dir, depth+1)...)
		}
	}
	return out
}

// argvField returns the first list of strings in o under one of keys
// (any case) as a command line, each word quoted.
func argvField(o gjson.Result, keys []string) (string, bool) {
	var words []string
	o.ForEach(func(k, x gjson.Result) bool {
		if !x.IsArray() || !slices.Contains(keys, strings.ToLower(k.Str)) {
			return true
		}
		var ws []string
		for _, a := range x.Array() {
			if a.Type != gjson.String {
				return true
			}
			ws = append(ws, quote(a.Str))
		}
		words = ws
		return len(words) == 0
	})
	return strings.Join(words, " "), len(words) > 0
}

// mcpEdits applies to the file at p the replacements an edit tool's
// input gives as old and new text: a list under "edits" (the filesystem
// server's edit_file: each in turn, the first occurrence), or one pair
// (desktop-commander's edit_block, with expected_replacements). It
// returns the file's new text, or false when the input holds none, an old
// text is not in the file (the tool refuses the edit), or it is a dry run.
func mcpEdits(in gjson.Result, p string) (string, bool) {
	if in.Get("dryRun").Bool() || in.Get("dry_run").Bool() {
		return "", false
	}
	olds := []string{"oldText", "old_text", "old_string", "old_str", "oldString", "search"}
	news := []string{"newText", "new_text", "new_string", "new_str", "newString", "replace", "replacement"}
	pairs := in.Get("edits").Array()
	if len(pairs) == 0 {
		pairs = []gjson.Result{in}
	}
	data, err := os.ReadFile(p)
	if err != nil || len(data) > 4<<20 {
		return "", false
	}
	text := string(data)
	for _, e := range pairs {
		old, ok1 := field(e, lower(olds))
		repl, ok2 := field(e, lower(news))
		if !ok1 || !ok2 || old == "" || !strings.Contains(text, old) {
			return "", false
		}
		n := 1
		if k := e.Get("expected_replacements").Int(); k > 1 {
			n = int(k)
		}
		if e.Get("replace_all").Bool() || e.Get("replaceAll").Bool() {
			n = -1
		}
		text = strings.Replace(text, old, repl, n)
	}
	return text, true
}

func lower(keys []string) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = strings.ToLower(k)
	}
	return out
}
