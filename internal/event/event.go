// Package event decodes the JSON an agent sends to a hook on stdin into one
// agent-neutral Event.
//
// Each agent speaks its own dialect of the hook protocol. A Dialect turns its
// wire format into an Event: Claude Code (claude.go), OpenAI Codex CLI
// (codex.go), Gemini CLI (gemini.go), GitHub Copilot CLI (copilot.go),
// Cursor (cursor.go) and OpenCode, through ralph's plugin (opencode.go).
// An Event always speaks Claude Code's names: a Gemini BeforeTool of
// run_shell_command is a PreToolUse of Bash with a command, a Cursor stop
// is a Stop. The agent's own names stay in Native and
// NativeTool, for the answer. Decoding is lenient where the agents are
// (unknown fields are ignored, missing ones are tolerated) and strict where
// a wrong value would mislead a guard (a field of the wrong type is an error
// that names the field).
//
// # Shells that outlive a call
//
// The guard judges a Bash call as the shell that runs it will read it, and
// that depends on the agent's tool (Shell, recorded from the real agents in
// ../../testdata/events/*/shell-state):
//
//   - ShellFresh: a new shell per call, in the event's cwd; nothing of an
//     earlier call carries over. Codex CLI's exec_command, Gemini CLI's
//     run_shell_command (a subshell it closes itself), Copilot CLI's bash
//     (1.0.x: "each command runs in a fresh process"), OpenCode's bash
//     (its description says "a persistent shell session"; it is not).
//   - ShellKeepsDir: a new shell per call, started in the directory the
//     last one ended in, and the event's cwd is that directory (Claude
//     Code's Bash: captured, a cd in one call is the next event's cwd);
//     variables, aliases and functions do not carry over.
//   - ShellPersistent: one shell for the session, which keeps everything:
//     the directory (the event's cwd need not follow it), variables,
//     aliases, functions, traps, options, and a line left unfinished,
//     which the next call's text completes. Copilot CLI's bash with a
//     sessionId (the releases before 1.0, whose sessions persisted), and
//     Cursor's Shell: Cursor runs its agent's commands in a terminal, its
//     documentation does not say what carries over, and it cannot run
//     here, so it is judged as the shell that keeps the most.
//   - ShellTyped: text typed into a running process (Copilot CLI's
//     write_bash; Codex's write_stdin, were it ever sent to a hook), whose
//     reader ralph does not know: a shell, an interpreter, a prompt.
//
// Unseen marks a shell call of an agent that can later type into a process
// the call leaves running without any hook seeing the text: Codex CLI's
// write_stdin fires no PreToolUse (captured with 0.169.0).
package event

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/tidwall/gjson"
)

// Event names, as Claude Code spells them. Other dialects map onto these.
const (
	PreToolUse         = "PreToolUse"
	PostToolUse        = "PostToolUse"
	PostToolUseFailure = "PostToolUseFailure"
	Stop               = "Stop"
	SubagentStop       = "SubagentStop"
)

// How a shell tool runs a Bash call; see the package doc.
const (
	ShellFresh      = "fresh"
	ShellKeepsDir   = "keeps-dir"
	ShellPersistent = "persistent"
	ShellTyped      = "typed"
)

// Outlives reports whether what a Bash call defines (an alias, a function,
// a variable, an option, the directory, a line left open) is still there
// when the next call runs.
func (e *Event) Outlives() bool { return e.Shell == ShellPersistent || e.Shell == ShellTyped }

// MaxSize is the largest event ralph reads. Real events are a few KiB; a
// Write of a large file can reach a few MiB.
const MaxSize = 8 << 20

// Event is one hook call, in agent-neutral form.
type Event struct {
	Agent          string // dialect that decoded it, e.g. "claude"
	Name           string // PreToolUse, PostToolUse, PostToolUseFailure, Stop, …
	Native         string // the event's name as the agent spells it (BeforeTool, preToolUse, …); "" if it sent none
	NativeTool     string // the tool's name as the agent spells it (run_shell_command, Shell, …)
	SessionID      string
	TranscriptPath string
	Cwd            string
	PermissionMode string
	AgentID        string // set inside a subagent

	// Shell is how the agent's shell tool runs a Bash call (ShellFresh,
	// ShellKeepsDir, ShellPersistent, ShellTyped; see the package doc),
	// and Unseen whether text typed later into what it leaves running
	// reaches no hook. DirUnknown is set by the guard, not the agent:
	// the directory a persistent shell is in could not be followed.
	Shell      string
	Unseen     bool
	DirUnknown bool
	// Runs are the scripts the agent's shell runs for the command when it
	// rewrites it (Gemini CLI strips a bash -c wrapper and wraps the rest
	// in a subshell of its own), and Rewritten whether the rewriting
	// changed more than that wrapping: the guard then judges Runs, not
	// the command (see gemini.go).
	Runs      []string
	Rewritten bool

	// Tool events.
	Tool        string          // tool name, in Claude Code's spelling (Bash, Write, Edit, …)
	ToolUseID   string          //
	Input       json.RawMessage // tool_input object, or nil
	Response    json.RawMessage // tool_response (PostToolUse), or nil
	Error       string          // PostToolUseFailure: what failed
	IsInterrupt bool            //
	DurationMS  int64           // PostToolUse*: how long the tool ran

	// Parts are a call that changes several files at once (a patch of
	// Codex or Copilot CLI) as one call per file, in Claude Code's terms.
	Parts []*Event

	// Stop events.
	StopHookActive       bool
	LastAssistantMessage string
	Tasks                []Task // work still going in the background (background.go)

	Raw []byte // the bytes as received
}

// A Dialect decodes one agent's hook JSON.
type Dialect interface {
	Name() string
	Decode(data []byte) (*Event, error)
}

// dialects are the known dialects (a slice, not a map: it costs nothing
// at start-up).
var dialects = []Dialect{Claude{}, Codex{}, Gemini{}, Copilot{}, Cursor{}, OpenCode{}}

// dialect returns the dialect named agent.
func dialect(agent string) (Dialect, bool) {
	for _, d := range dialects {
		if d.Name() == agent {
			return d, true
		}
	}
	return nil, false
}

// Agents lists the dialect names, sorted.
func Agents() []string {
	var names []string
	for _, d := range dialects {
		names = append(names, d.Name())
	}
	sort.Strings(names)
	return names
}

// Read reads one event from r, refusing empty input and input over MaxSize.
func Read(r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxSize+1))
	if err != nil {
		return nil, fmt.Errorf("reading event from stdin: %w", err)
	}
	if len(data) > MaxSize {
		return nil, fmt.Errorf("event on stdin is larger than %d MiB", MaxSize>>20)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, errors.New("event on stdin is empty: a hook expects one JSON object")
	}
	return data, nil
}

// Decode decodes data with the named dialect, or, when agent is "", with the
// dialect the data looks like.
func Decode(data []byte, agent string) (*Event, error) {
	if agent == "" {
		agent = detect(data)
	}
	d, ok := dialect(agent)
	if !ok {
		return nil, fmt.Errorf("unknown agent %q (known: %s)", agent, strings.Join(Agents(), ", "))
	}
	ev, err := d.Decode(data)
	if err != nil {
		return nil, err
	}
	ev.Agent = d.Name()
	ev.Raw = data
	if ev.NativeTool == "" {
		ev.NativeTool = ev.Tool
	}
	if ev.Tool == "Bash" && ev.Shell == "" {
		ev.Shell = ShellFresh
	}
	return ev, nil
}

// Detect names the dialect data looks like, as Decode reads it when no
// agent is given: a hook tells the human which --agent an event it could
// not read may need.
func Detect(data []byte) string { return detect(data) }

// geminiEvent reports whether s is an event name only Gemini CLI sends.
func geminiEvent(s string) bool {
	switch s {
	case "BeforeTool", "AfterTool", "BeforeAgent", "AfterAgent", "BeforeModel", "AfterModel", "BeforeToolSelection", "PreCompress":
		return true
	}
	return false
}

// detect names the dialect data is in, from the fields only one agent
// sends: Cursor's cursor_version and conversation_id, Copilot CLI's
// camelCase sessionId and toolName, Gemini CLI's own event names and
// string timestamp, the OpenCode plugin's dotted event names, Codex's
// turn_id. Anything else is Claude Code's (whose shape Copilot CLI and VS
// Code also send for PascalCase event names). Where the shape cannot tell,
// the registration says --agent NAME.
func detect(data []byte) string {
	root := gjson.ParseBytes(data)
	if !root.IsObject() {
		return "claude" // Claude's decoder explains what is wrong
	}
	agent := "claude"
	root.ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "cursor_version", "conversation_id", "generation_id", "workspace_roots":
			agent = "cursor"
			return false
		case "sessionId", "toolName", "toolArgs", "toolResult", "stopReason", "transcriptPath":
			agent = "copilot"
			return false
		case "hook_event_name":
			if geminiEvent(v.Str) {
				agent = "gemini"
				return false
			}
			if _, ok := opencodeNames(v.Str); ok {
				agent = "opencode"
				return false
			}
		case "timestamp":
			if v.Type == gjson.String {
				agent = "gemini" // an ISO time; Copilot CLI's is a number
			}
		case "turn_id":
			agent = "codex" // no return: a Cursor or Copilot field still wins
		}
		return true
	})
	return agent
}

// Str returns the string field key of the tool input. A missing field is "";
// a field of another type is an error naming it.
func (e *Event) Str(key string) (string, error) {
	r := gjson.GetBytes(e.Input, key)
	switch {
	case !r.Exists() || r.Type == gjson.Null:
		return "", nil
	case r.Type != gjson.String:
		return "", fmt.Errorf("event field tool_input.%s: want a string, got %s", key, Kind(r))
	}
	return r.Str, nil
}

// Bool returns the boolean field key of the tool input (false if missing).
func (e *Event) Bool(key string) (bool, error) {
	r := gjson.GetBytes(e.Input, key)
	switch {
	case !r.Exists() || r.Type == gjson.Null:
		return false, nil
	case r.Type != gjson.True && r.Type != gjson.False:
		return false, fmt.Errorf("event field tool_input.%s: want a boolean, got %s", key, Kind(r))
	}
	return r.Bool(), nil
}

// Edit is one replacement of an Edit or MultiEdit call.
type Edit struct {
	Old, New   string
	ReplaceAll bool
}

// Edits returns the replacements of an Edit or MultiEdit call.
func (e *Event) Edits() ([]Edit, error) {
	if arr := gjson.GetBytes(e.Input, "edits"); arr.Exists() && arr.Type != gjson.Null {
		if !arr.IsArray() {
			return nil, fmt.Errorf("event field tool_input.edits: want an array, got %s", Kind(arr))
		}
		var out []Edit
		for i, it := range arr.Array() {
			if !it.IsObject() {
				return nil, fmt.Errorf("event field tool_input.edits[%d]: want an object, got %s", i, Kind(it))
			}
			var ed Edit
			for _, f := range []struct {
				key string
				dst *string
			}{{"old_string", &ed.Old}, {"new_string", &ed.New}} {
				v := it.Get(f.key)
				if v.Exists() && v.Type != gjson.String {
					return nil, fmt.Errorf("event field tool_input.edits[%d].%s: want a string, got %s", i, f.key, Kind(v))
				}
				*f.dst = v.Str
			}
			ra := it.Get("replace_all")
			if ra.Exists() && ra.Type != gjson.Null && ra.Type != gjson.True && ra.Type != gjson.False {
				return nil, fmt.Errorf("event field tool_input.edits[%d].replace_all: want a boolean, got %s", i, Kind(ra))
			}
			ed.ReplaceAll = ra.Type == gjson.True
			out = append(out, ed)
		}
		return out, nil
	}
	old, err := e.Str("old_string")
	if err != nil {
		return nil, err
	}
	nw, err := e.Str("new_string")
	if err != nil {
		return nil, err
	}
	all, err := e.Bool("replace_all")
	if err != nil {
		return nil, err
	}
	return []Edit{{Old: old, New: nw, ReplaceAll: all}}, nil
}

// Kind names the JSON type of r for messages: "an object", "a string", …
func Kind(r gjson.Result) string {
	switch {
	case r.IsArray():
		return "an array"
	case r.IsObject():
		return "an object"
	}
	switch r.Type {
	case gjson.String:
		return "a string"
	case gjson.Number:
		return "a number"
	case gjson.True, gjson.False:
		return "a boolean"
	case gjson.Null:
		return "null"
	}
	return r.Type.String()
}
