// Package audit appends one JSON line per hook call to hook-log.jsonl and
// reads the log back for `ralph log`.
//
// Each append is one write(2) of one whole line to a file opened O_APPEND:
// the kernel positions and writes it atomically against other appenders
// (on the local filesystems of Linux and macOS), so parallel hooks never
// interleave or lose lines, without a lock, and the cost of a call does not
// grow with the size of the log.
package audit

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/tidwall/gjson"
)

// Entry is one hook call.
type Entry struct {
	Time       time.Time       `json:"time"`
	Hook       string          `json:"hook"`
	Event      string          `json:"event"`
	Session    string          `json:"session_id,omitempty"`
	Loop       string          `json:"loop_id,omitempty"`
	Tool       string          `json:"tool,omitempty"`
	ToolUseID  string          `json:"tool_use_id,omitempty"`
	Target     string          `json:"target,omitempty"`
	Rule       string          `json:"rule,omitempty"`
	Level      string          `json:"level,omitempty"`
	Decision   string          `json:"decision"`
	Reason     string          `json:"reason,omitempty"`
	Checkpoint string          `json:"checkpoint,omitempty"`
	Error      string          `json:"error,omitempty"`
	DurationMS float64         `json:"duration_ms"`
	Cwd        string          `json:"cwd,omitempty"`
	Input      json.RawMessage `json:"tool_input,omitempty"` // kept when small, for replay
}

// MaxInput is the largest tool_input kept in a log line.
const MaxInput = 4 << 10

// Line encodes e as one line of JSON, as json.Marshal would, but without
// its reflection, which would cost every hook call a tenth of a millisecond.
func (e Entry) Line() []byte {
	b := make([]byte, 0, 256+len(e.Input)+len(e.Reason))
	field := func(key string) {
		if len(b) > 0 {
			b = append(b, ',')
		} else {
			b = append(b, '{')
		}
		b = gjson.AppendJSONString(b, key)
		b = append(b, ':')
	}
	str := func(key, v string, omitEmpty bool) {
		if v == "" && omitEmpty {
			return
		}
		field(key)
		b = gjson.AppendJSONString(b, v)
	}
	field("time")
	b = append(b, '"')
	b = e.Time.AppendFormat(b, time.RFC3339Nano)
	b = append(b, '"')
	str("hook", e.Hook, false)
	str("event", e.Event, false)
	str("session_id", e.Session, true)
	str("loop_id", e.Loop, true)
	str("tool", e.Tool, true)
	str("tool_use_id", e.ToolUseID, true)
	str("target", e.Target, true)
	str("rule", e.Rule, true)
	str("level", e.Level, true)
	str("decision", e.Decision, false)
	str("reason", e.Reason, true)
	str("checkpoint", e.Checkpoint, true)
	str("error", e.Error, true)
	field("duration_ms")
	b = strconv.AppendFloat(b, e.DurationMS, 'f', -1, 64)
	str("cwd", e.Cwd, true)
	if len(e.Input) > 0 {
		var in bytes.Buffer
		if json.Compact(&in, e.Input) == nil {
			field("tool_input")
			b = append(b, in.Bytes()...)
		}
	}
	return append(b, '}', '\n')
}

// Append adds e to the log at path, creating it (and its directory) if
// needed.
func Append(path string, e Entry) error {
	line := e.Line()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return fmt.Errorf("creating audit log directory: %w", err)
		}
		f, err = os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	}
	if err != nil {
		return fmt.Errorf("opening audit log: %w", err)
	}
	if _, err := f.Write(line); err != nil {
		f.Close()
		return fmt.Errorf("writing audit log %s: %w", path, err)
	}
	return f.Close()
}

// Read calls fn for each entry of the log at path, oldest first. A missing
// log has no entries. A line that does not parse is reported with its
// number and skipped, so one torn line never hides the rest.
func Read(path string, fn func(Entry) error, bad func(line int, err error)) error {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("opening audit log: %w", err)
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 64<<10)
	for n := 1; ; n++ {
		line, err := r.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			var e Entry
			if jerr := json.Unmarshal(line, &e); jerr != nil {
				if bad != nil {
					bad(n, jerr)
				}
			} else if ferr := fn(e); ferr != nil {
				return ferr
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("reading audit log %s: %w", path, err)
		}
	}
}
