package event

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/tidwall/gjson"
)

// Gemini decodes Gemini CLI's hook JSON: BeforeTool, AfterTool and
// AfterAgent (its Stop), with Gemini's tool names and input shapes
// (run_shell_command, write_file, replace, …). Its samples are recorded
// from the real client (../../testdata/events/gemini-*).
//
// AfterAgent's prompt_response is not the last message: Gemini CLI sends
// every reply of the prompt so far, continuations included, each with the
// last streamed piece repeated. The last message is read from the
// transcript instead (its last "gemini" record), and taken only when
// prompt_response holds it, so that the file can never say more than the
// event; else prompt_response stands.
type Gemini struct{}

// Name returns "gemini".
func (Gemini) Name() string { return "gemini" }

// geminiNames maps Gemini CLI's event names onto Claude Code's.
func geminiNames(s string) (string, bool) {
	switch s {
	case "BeforeTool":
		return PreToolUse, true
	case "AfterTool":
		return PostToolUse, true
	case "AfterAgent":
		return Stop, true
	}
	return "", false
}

// geminiTools maps Gemini CLI's read-only and search tools onto Claude
// Code's names; their input is not read.
func geminiTools(s string) (string, bool) {
	switch s {
	case "read_file", "read_many_files":
		return "Read", true
	case "glob":
		return "Glob", true
	case "search_file_content", "grep_search":
		return "Grep", true
	case "list_directory":
		return "LS", true
	case "web_fetch":
		return "WebFetch", true
	case "google_web_search":
		return "WebSearch", true
	case "write_todos":
		return "TodoWrite", true
	case "ask_user":
		return "AskUserQuestion", true
	case "enter_plan_mode":
		return "EnterPlanMode", true
	case "exit_plan_mode":
		return "ExitPlanMode", true
	case "list_mcp_resources":
		return "ListMcpResourcesTool", true
	case "read_mcp_resource":
		return "ReadMcpResourceTool", true
	case "list_background_processes", "read_background_output":
		return "BashOutput", true // 0.61.0's background shells, read
	}
	return "", false
}

// Decode decodes one Gemini CLI hook event.
func (Gemini) Decode(data []byte) (*Event, error) {
	root, err := parseObject(data)
	if err != nil {
		return nil, err
	}
	f := &fields{root: root}
	ev := &Event{
		Native:         f.str("hook_event_name"),
		SessionID:      f.str("session_id"),
		TranscriptPath: f.str("transcript_path"),
		Cwd:            f.str("cwd"),
		NativeTool:     f.str("tool_name"),
	}
	ev.Name = ev.Native
	if n, ok := geminiNames(ev.Native); ok {
		ev.Name = n
	}
	in := f.object("tool_input")
	ev.Response = f.raw("tool_response")
	ev.StopHookActive = f.boolean("stop_hook_active")
	ev.LastAssistantMessage = f.str("prompt_response")
	if f.err != nil {
		return nil, f.err
	}
	if ev.Name == Stop && ev.TranscriptPath != "" {
		if last := geminiLast(ev.TranscriptPath); last != "" && strings.Contains(ev.LastAssistantMessage, last) {
			ev.LastAssistantMessage = last
		}
	}
	if ev.Name == PostToolUse {
		// A tool that failed says so in tool_response.error.
		r := &fields{root: root.Get("tool_response"), prefix: "tool_response."}
		if e := r.get("error"); e.Exists() && e.Raw != `""` {
			ev.Name, ev.Error = PostToolUseFailure, r.text("error")
		}
	}
	ev.Tool, ev.Input = ev.NativeTool, in
	switch ev.NativeTool {
	case "run_shell_command":
		ev.Tool = "Bash"
		ev.Input = input("command", keep(in, "command"), "description", keep(in, "description"))
		ev.Runs, ev.Rewritten = geminiRuns(inStr(in, "command"))
		geminiPowerShell(ev, inStr(in, "command")) // on Windows: PowerShell
		// The command runs in dir_path, relative to the project.
		dir := inStr(in, "dir_path")
		if dir == "" {
			dir = inStr(in, "directory")
		}
		switch {
		case filepath.IsAbs(dir):
			ev.Cwd = dir
		case dir != "" && ev.Cwd != "":
			ev.Cwd = filepath.Join(ev.Cwd, dir)
		}
	case "write_file":
		ev.Tool = "Write"
		ev.Input = input("file_path", keep(in, "file_path"), "content", keep(in, "content"))
	case "replace":
		ev.Tool = "Edit"
		all := inBool(in, "allow_multiple") || inNum(in, "expected_replacements") > 1
		ev.Input = input("file_path", keep(in, "file_path"), "old_string", keep(in, "old_string"),
			"new_string", keep(in, "new_string"), "replace_all", all)
	default:
		if t, ok := geminiTools(ev.NativeTool); ok {
			ev.Tool = t
		}
	}
	if ev.NativeTool == "" {
		ev.Tool, ev.Input = "", in
	}
	return ev, nil
}

// transcriptTail is how much of the end of a transcript is read for its
// last message.
const transcriptTail = 1 << 20

// geminiLast returns the text of the last model message of a Gemini CLI
// transcript (JSON lines; a model message is {"type":"gemini","content":
// TEXT}), or "" when there is none or the file cannot be read.
func geminiLast(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return ""
	} else if fi.Size() > transcriptTail {
		if _, err := f.Seek(fi.Size()-transcriptTail, io.SeekStart); err != nil {
			return ""
		}
	}
	last := ""
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, transcriptTail)
	for sc.Scan() {
		line := sc.Bytes()
		if !bytes.Contains(line, []byte(`"gemini"`)) || !gjson.ValidBytes(line) {
			continue // a line cut by the seek, or no model message
		}
		r := gjson.ParseBytes(line)
		if c := r.Get("content"); r.Get("type").Str == "gemini" && c.Type == gjson.String && c.Str != "" {
			last = c.Str
		}
	}
	return last
}

// geminiWrapper matches the shell wrapper Gemini CLI strips from a command
// before it runs it (stripShellWrapper, bundle chunk-5FZXKDXH.js of
// 0.61.0): sh, bash or zsh -c, cmd.exe /c, powershell or pwsh -Command.
var geminiWrapper = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^\s*(?:(?:(?:\S+/)?(?:sh|bash|zsh))\s+-c|cmd\.exe\s+/c|powershell(?:\.exe)?\s+(?:-NoProfile\s+)?-Command|pwsh(?:\.exe)?\s+(?:-NoProfile\s+)?-Command)\s+`)
})

// geminiRuns returns the scripts Gemini CLI 0.61.0 runs with bash -c for a
// run_shell_command command on Linux and macOS (wrapCommandForBackgroundPIDs):
// the command, its shell wrapper stripped, inside a subshell of Gemini's
// own,
//
//	_bgpids_file=FILE
//	(
//	  trap 'jobs -p > "$_bgpids_file"' EXIT
//	COMMAND
//	)
//	__code=$?
//	exit $__code
//
// A command that closes the subshell early runs outside it, and a text
// that does not parse alone may parse there. Stripping the wrapper
// removes its first and last quote characters, unescaping nothing for
// single quotes: sh -c 'x' '; rm -rf src; echo ' runs rm. For double
// quotes Gemini unquotes the text when it is one word, else strips the
// quote characters: both are returned. rewritten reports whether the
// command was changed beyond the wrapping (a wrapper stripped).
func geminiRuns(cmd string) (runs []string, rewritten bool) {
	inner := strings.TrimSpace(cmd)
	variants := []string{inner}
	if m := geminiWrapper().FindString(cmd); m != "" {
		rewritten = true
		inner = strings.TrimSpace(cmd[len(m):])
		variants = []string{inner}
		if len(inner) >= 2 && (inner[0] == '"' && inner[len(inner)-1] == '"' || inner[0] == '\'' && inner[len(inner)-1] == '\'') {
			variants = []string{inner[1 : len(inner)-1]}
			if inner[0] == '"' && strings.HasSuffix(strings.TrimSpace(m), "-c") {
				unq := strings.NewReplacer(`\"`, `"`, `\\`, `\`, `\$`, `$`, "\\`", "`").Replace(inner[1 : len(inner)-1])
				if unq != variants[0] {
					variants = append(variants, unq)
				}
			}
		}
	}
	for _, v := range variants {
		v = strings.TrimSpace(v)
		if v == "" {
			continue
		}
		if strings.HasSuffix(v, "\\") {
			v += " "
		}
		runs = append(runs, "_bgpids_file=/tmp/gemini-shell/bgpids.tmp\n(\n  trap 'jobs -p > \"$_bgpids_file\"' EXIT\n"+v+"\n)\n__code=$?\nexit $__code")
	}
	return runs, rewritten
}
