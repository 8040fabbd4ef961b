// Package audit appends one JSON line per hook call to hook-log.jsonl and
// reads the log back: from the start for `ralph log`, from the end for a
// reflection's trajectory. It alone knows the format of a line.
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
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/ralph-hooks/ralph-hooks/internal/rawfile"
)

// Entry is one hook call.
type Entry struct {
	Time       time.Time       `json:"time"`
	Hook       string          `json:"hook_name"` // the design's name; old logs say "hook", which reads too
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
	str("hook_name", e.Hook, false)
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
	err := rawfile.Append(path, line, 0o644)
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return fmt.Errorf("creating audit log directory: %w", err)
		}
		err = rawfile.Append(path, line, 0o644)
	}
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Op == "open" {
		return fmt.Errorf("opening audit log: %w", err)
	}
	if err != nil {
		return fmt.Errorf("writing audit log %s: %w", path, err)
	}
	return nil
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
			if e, perr := Parse(line); perr != nil {
				if bad != nil {
					bad(n, perr)
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

// ReadBack calls fn for the entries of the log at path, newest first, with
// their position from the end (1 for the last line; lines that do not
// parse are skipped but counted), until fn returns false or maxLines lines
// or maxBytes bytes were read: the log is read backwards in chunks, so
// reading its end costs the same however long it is. A missing log has no
// entries.
func ReadBack(path string, maxLines int, maxBytes int64, fn func(e Entry, n int) bool) error {
	return tail(path, maxLines, maxBytes, func(line []byte, n int) bool {
		e, err := Parse(line)
		return err != nil || fn(e, n)
	})
}

// tailChunk is how much of the log tail reads at a time.
const tailChunk = 64 << 10

// tail calls fn with the non-blank lines of the file at path, newest first,
// with their position from the end (1 for the last), until fn returns
// false or maxLines lines or maxBytes bytes have been read.
func tail(path string, maxLines int, maxBytes int64, fn func(line []byte, n int) bool) error {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("opening audit log: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return fmt.Errorf("reading audit log %s: %w", path, err)
	}
	end := st.Size()
	stop := max(end-maxBytes, 0)
	var rest []byte // the start of a line whose beginning is in an earlier chunk
	n := 0
	emit := func(line []byte) bool {
		if len(bytes.TrimSpace(line)) == 0 {
			return true
		}
		n++
		return n <= maxLines && fn(line, n)
	}
	for end > stop {
		off := max(end-tailChunk, stop)
		buf := make([]byte, int(end-off), int(end-off)+len(rest))
		if _, err := f.ReadAt(buf, off); err != nil && err != io.EOF {
			return fmt.Errorf("reading audit log %s: %w", path, err)
		}
		buf = append(buf, rest...)
		for {
			i := bytes.LastIndexByte(buf, '\n')
			if i < 0 {
				break
			}
			if !emit(buf[i+1:]) {
				return nil
			}
			buf = buf[:i]
		}
		rest = buf
		end = off
	}
	if stop == 0 && len(rest) > 0 {
		emit(rest) // the first line of the file
	}
	return nil
}

// Parse decodes one line of the log, as json.Unmarshal would into an
// Entry, but with gjson: reading the log back (ralph log, a reflection's
// trajectory) costs a fraction of encoding/json's reflection per line.
func Parse(line []byte) (Entry, error) {
	var e Entry
	if !gjson.ValidBytes(line) {
		return e, errors.New("not JSON")
	}
	root := gjson.ParseBytes(line)
	if !root.IsObject() {
		return e, errors.New("not a JSON object")
	}
	var err error
	str := func(dst *string, key string, v gjson.Result) {
		switch v.Type {
		case gjson.String:
			*dst = strings.ToValidUTF8(v.Str, "\uFFFD")
		case gjson.Null:
		default:
			err = fmt.Errorf("%s: want a string", key)
		}
	}
	root.ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "time":
			if v.Type == gjson.Null {
				break
			}
			if v.Type != gjson.String {
				err = errors.New("time: want a string")
				break
			}
			t, terr := time.Parse(time.RFC3339Nano, v.Str)
			if terr != nil {
				err = fmt.Errorf("time: %w", terr)
			}
			e.Time = t
		case "hook_name", "hook": // "hook": logs written before ralph took the design's name
			str(&e.Hook, k.Str, v)
		case "event":
			str(&e.Event, k.Str, v)
		case "session_id":
			str(&e.Session, k.Str, v)
		case "loop_id":
			str(&e.Loop, k.Str, v)
		case "tool":
			str(&e.Tool, k.Str, v)
		case "tool_use_id":
			str(&e.ToolUseID, k.Str, v)
		case "target":
			str(&e.Target, k.Str, v)
		case "rule":
			str(&e.Rule, k.Str, v)
		case "level":
			str(&e.Level, k.Str, v)
		case "decision":
			str(&e.Decision, k.Str, v)
		case "reason":
			str(&e.Reason, k.Str, v)
		case "checkpoint":
			str(&e.Checkpoint, k.Str, v)
		case "error":
			str(&e.Error, k.Str, v)
		case "cwd":
			str(&e.Cwd, k.Str, v)
		case "duration_ms":
			switch v.Type {
			case gjson.Number:
				e.DurationMS = v.Num
			case gjson.Null:
			default:
				err = errors.New("duration_ms: want a number")
			}
		case "tool_input":
			e.Input = json.RawMessage(v.Raw)
		}
		return err == nil
	})
	if err != nil {
		return Entry{}, err
	}
	return e, nil
}
