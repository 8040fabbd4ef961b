package task

import (
	"bytes"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Render returns the file with state and persistence_loop replaced (a nil
// loop removes the key) and more appended to the body. Every other byte of
// the file is kept: the keys ralph does not own, their comments, the body.
// The result is parsed again before it is returned, so a file that would
// not read back is never produced.
func (t *Task) Render(state string, l *Loop, more []byte) ([]byte, error) {
	if !contains(States, state) {
		return nil, fmt.Errorf("task %s: rendering an unknown state %q", t.ID, state)
	}
	stateText := "state: " + state + t.nl
	var loopText string
	if l != nil {
		var buf bytes.Buffer
		enc := yaml.NewEncoder(&buf)
		enc.SetIndent(2)
		if err := enc.Encode(map[string]*Loop{"persistence_loop": l}); err != nil {
			return nil, fmt.Errorf("task %s: encoding persistence_loop: %w", t.ID, err)
		}
		enc.Close()
		loopText = buf.String()
		if t.nl != "\n" {
			loopText = strings.ReplaceAll(loopText, "\n", t.nl)
		}
	}
	var out bytes.Buffer
	out.Grow(len(t.data) + len(loopText) + len(more))
	out.Write(t.data[:t.fmStart])
	off := t.fmStart
	hasLoop := false
	for _, k := range t.keys {
		out.Write(t.data[off:k.start])
		switch k.name {
		case "state":
			out.WriteString(stateText)
		case "persistence_loop":
			out.WriteString(loopText)
			hasLoop = true
		default:
			out.Write(t.data[k.start:k.end])
		}
		off = k.end
	}
	out.Write(t.data[off:t.fmEnd])
	if !hasLoop && loopText != "" {
		if b := out.Bytes(); len(b) > 0 && b[len(b)-1] != '\n' {
			out.WriteString(t.nl)
		}
		out.WriteString(loopText)
	}
	out.Write(t.data[t.fmEnd:])
	if len(more) > 0 && len(t.data) > 0 && t.data[len(t.data)-1] != '\n' {
		out.WriteString(t.nl) // what is appended starts on a line of its own
	}
	out.Write(more)
	data := out.Bytes()
	back, err := Parse(t.Path, data)
	if err != nil {
		return nil, fmt.Errorf("task %s: the rewritten file would not parse (%v); it was not written", t.ID, err)
	}
	if back.ID != t.ID || back.State != state || (l == nil) != (back.Loop == nil) {
		return nil, fmt.Errorf("task %s: the rewritten file would not read back as written; it was not written", t.ID)
	}
	return data, nil
}

// Human returns the file without the two keys ralph owns (state and
// persistence_loop): what the human wrote, which ralph never changes. Two
// versions of a task file with the same Human differ only by ralph's
// writes.
func (t *Task) Human() []byte {
	var out bytes.Buffer
	out.Grow(len(t.data))
	off := 0
	for _, k := range t.keys {
		if k.name == "state" || k.name == "persistence_loop" {
			out.Write(t.data[off:k.start])
			off = k.end
		}
	}
	out.Write(t.data[off:])
	return out.Bytes()
}

// Clone returns a deep copy of l (nil for nil), through its YAML form.
func (l *Loop) Clone() *Loop {
	if l == nil {
		return nil
	}
	data, err := yaml.Marshal(l)
	if err != nil {
		c := *l
		return &c
	}
	var c Loop
	if err := yaml.Unmarshal(data, &c); err != nil {
		c = *l
	}
	return &c
}
