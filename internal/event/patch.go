package event

import (
	"encoding/json"
	"strings"
)

// A patch is the text of an apply_patch call (Codex CLI, Copilot CLI,
// OpenCode):
//
//	*** Begin Patch
//	*** Add File: PATH        +lines follow
//	*** Delete File: PATH
//	*** Update File: PATH     optional "*** Move to: PATH", then hunks:
//	@@ …                      lines of " " context, "-" old, "+" new
//	*** End Patch
//
// ralph reads it as the calls it amounts to: a Write for an added file, an
// Edit (its hunks as old and new strings) for an updated one, and rm or mv
// for a deleted or moved one, so that the guard judges each as it would
// judge Claude Code's tools.

// patchOp is one file operation of a patch.
type patchOp struct {
	verb     string // Add, Delete, Update
	path, to string
	body     []string // Add: the file's lines; Update: hunk lines
}

// parsePatch reads the operations of a patch; nil when text is no patch.
func parsePatch(text string) []patchOp {
	var ops []patchOp
	for _, line := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		rest, isHead := strings.CutPrefix(line, "*** ")
		if isHead {
			for _, verb := range []string{"Add", "Delete", "Update"} {
				if p, ok := strings.CutPrefix(rest, verb+" File: "); ok {
					ops = append(ops, patchOp{verb: verb, path: strings.TrimSpace(p)})
				}
			}
			if p, ok := strings.CutPrefix(rest, "Move to: "); ok && len(ops) > 0 {
				ops[len(ops)-1].to = strings.TrimSpace(p)
			}
			continue
		}
		if len(ops) > 0 {
			ops[len(ops)-1].body = append(ops[len(ops)-1].body, line)
		}
	}
	return ops
}

// call returns the Claude Code tool and input op amounts to.
func (op patchOp) call() (string, json.RawMessage) {
	switch {
	case op.verb == "Add":
		return "Write", input("file_path", op.path, "content", jsonString(PatchFile{op: op}.Content()))
	case op.verb == "Delete":
		return "Bash", input("command", "rm -f -- "+shellQuote(op.path))
	case op.to != "":
		return "Bash", input("command", "mv -- "+shellQuote(op.path)+" "+shellQuote(op.to))
	}
	var edits []byte
	for _, h := range hunks(op.body) {
		if len(edits) > 0 {
			edits = append(edits, ',')
		}
		edits = append(edits, input("old_string", jsonString(h[0]), "new_string", jsonString(h[1]))...)
	}
	return "MultiEdit", input("file_path", op.path, "edits", json.RawMessage("["+string(edits)+"]"))
}

// hunks returns the old and new text of each hunk of an update.
func hunks(body []string) [][2]string {
	var out [][2]string
	var old, nw []string
	flush := func() {
		if len(old) > 0 || len(nw) > 0 {
			out = append(out, [2]string{strings.Join(old, "\n"), strings.Join(nw, "\n")})
		}
		old, nw = nil, nil
	}
	for _, l := range body {
		switch {
		case strings.HasPrefix(l, "@@"):
			flush()
		case strings.HasPrefix(l, "-"):
			old = append(old, l[1:])
		case strings.HasPrefix(l, "+"):
			nw = append(nw, l[1:])
		case strings.HasPrefix(l, " "):
			old, nw = append(old, l[1:]), append(nw, l[1:])
		case l == "":
			// a blank context line, as some models write it
		}
	}
	flush()
	return out
}

// jsonString is s as a JSON string, for input.
func jsonString(s string) json.RawMessage {
	b, _ := json.Marshal(s)
	return b
}

// patchText returns the patch an apply_patch input carries, in its input,
// patch, command (Codex CLI) or patchText (OpenCode) field.
func patchText(in json.RawMessage) string {
	for _, k := range []string{"input", "patch", "command", "patchText"} {
		if s := inStr(in, k); strings.Contains(s, "*** Begin Patch") {
			return s
		}
	}
	return ""
}

// patchTool maps an apply_patch call onto Claude Code's tools: one file's
// change is that tool's call; several files are judged one by one (Parts),
// the call itself keeping its name and a list of the files it touches.
func patchTool(in json.RawMessage) (string, json.RawMessage) {
	ops := parsePatch(patchText(in))
	switch len(ops) {
	case 0:
		return "apply_patch", in
	case 1:
		return ops[0].call()
	}
	var files []byte
	for _, op := range ops {
		for _, p := range []string{op.path, op.to} {
			if p == "" {
				continue
			}
			if len(files) > 0 {
				files = append(files, ',')
			}
			files = append(files, jsonString(p)...)
		}
	}
	return "apply_patch", input("files", json.RawMessage("["+string(files)+"]"))
}

// patchParts returns the calls of a patch that touches several files, each
// a copy of ev for one file.
func patchParts(ev *Event, in json.RawMessage) []*Event {
	ops := parsePatch(patchText(in))
	if len(ops) < 2 {
		return nil
	}
	parts := make([]*Event, len(ops))
	for i, op := range ops {
		p := *ev
		p.Parts = nil
		p.Tool, p.Input = op.call()
		parts[i] = &p
	}
	return parts
}

// PatchFile is one file of a patch, as the guard reads a patch applied
// from a command line (Codex's apply_patch program, which the agent's
// shell runs too).
type PatchFile struct {
	Verb     string // Add, Delete or Update
	Path, To string // To: where an update moves the file ("" if it stays)
	op       patchOp
}

// PatchFiles returns the files of a patch in the apply_patch format; nil
// when text is no patch.
func PatchFiles(text string) []PatchFile {
	var out []PatchFile
	for _, op := range parsePatch(text) {
		out = append(out, PatchFile{Verb: op.verb, Path: op.path, To: op.to, op: op})
	}
	return out
}

// Content is the text an added file is given.
func (f PatchFile) Content() string {
	var b strings.Builder
	for _, l := range f.op.body {
		if s, ok := strings.CutPrefix(l, "+"); ok {
			b.WriteString(s)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// Apply returns the text of an updated file that held old, its hunks
// applied in order as Edits; false when a hunk's old text is not there.
func (f PatchFile) Apply(old string) (string, bool) {
	for _, h := range hunks(f.op.body) {
		if h[0] == "" {
			return "", false // context-free hunk: where it goes is not known
		}
		i := strings.Index(old, h[0])
		if i < 0 {
			return "", false
		}
		old = old[:i] + h[1] + old[i+len(h[0]):]
	}
	return old, true
}
