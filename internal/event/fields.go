package event

import (
	"encoding/json"
	"strings"

	"github.com/tidwall/gjson"
)

// fields reads typed top-level fields of an event object. The first field
// of the wrong type is kept as err, naming it; later reads return zero
// values. null counts as missing.
type fields struct {
	root   gjson.Result
	prefix string // "" at the top level, "tool_info." below it
	err    error
}

func (f *fields) get(key string) gjson.Result {
	v := f.root.Get(gjson.Escape(key))
	if v.Type == gjson.Null {
		return gjson.Result{}
	}
	return v
}

func (f *fields) fail(key, want string, v gjson.Result) {
	if f.err == nil {
		f.err = fieldErr(f.prefix+key, want, v)
	}
}

// str returns the string field key ("" when missing).
func (f *fields) str(key string) string {
	v := f.get(key)
	if v.Exists() && v.Type != gjson.String {
		f.fail(key, "a string", v)
		return ""
	}
	return v.Str
}

// boolean returns the boolean field key (false when missing).
func (f *fields) boolean(key string) bool {
	v := f.get(key)
	if v.Exists() && v.Type != gjson.True && v.Type != gjson.False {
		f.fail(key, "a boolean", v)
		return false
	}
	return v.Type == gjson.True
}

// num returns the number field key (0 when missing).
func (f *fields) num(key string) int64 {
	v := f.get(key)
	if v.Exists() && v.Type != gjson.Number {
		f.fail(key, "a number", v)
		return 0
	}
	return int64(v.Num)
}

// object returns the object field key, or nil when missing. A string that
// holds a JSON object is taken as that object: Copilot CLI and Cursor send
// some inputs so.
func (f *fields) object(key string) json.RawMessage {
	v := f.get(key)
	switch {
	case !v.Exists():
		return nil
	case v.IsObject():
		return json.RawMessage(v.Raw)
	case v.Type == gjson.String:
		s := strings.TrimSpace(v.Str)
		if gjson.Valid(s) && gjson.Parse(s).IsObject() {
			return json.RawMessage(s)
		}
	}
	f.fail(key, "an object", v)
	return nil
}

// raw returns field key as JSON, whatever its type (nil when missing).
func (f *fields) raw(key string) json.RawMessage {
	if v := f.get(key); v.Exists() {
		return json.RawMessage(v.Raw)
	}
	return nil
}

// rawStr is raw for a field that must be a string: one of another type
// is named as the agent sent it (command), not as ralph reads it
// (tool_input.command).
func (f *fields) rawStr(key string) json.RawMessage {
	if v := f.get(key); v.Exists() && v.Type != gjson.String {
		f.fail(key, "a string", v)
	}
	return f.raw(key)
}

// text returns field key as text: a string as it is, anything else as its
// JSON.
func (f *fields) text(key string) string {
	v := f.get(key)
	if v.Type == gjson.String {
		return v.Str
	}
	return v.Raw
}

// input builds a tool input object in Claude Code's shape from pairs of
// key and value (a string, a bool, or JSON as json.RawMessage); empty
// strings and nil JSON are left out.
func input(kv ...any) json.RawMessage {
	b := []byte{'{'}
	for i := 0; i+1 < len(kv); i += 2 {
		var val []byte
		switch v := kv[i+1].(type) {
		case string:
			if v == "" {
				continue
			}
			val = gjson.AppendJSONString(nil, v)
		case bool:
			if !v {
				continue
			}
			val = []byte("true")
		case json.RawMessage:
			if v == nil {
				continue
			}
			val = v
		}
		if len(b) > 1 {
			b = append(b, ',')
		}
		b = gjson.AppendJSONString(b, kv[i].(string))
		b = append(b, ':')
		b = append(b, val...)
	}
	return append(b, '}')
}

// inStr returns the string field key of a tool input object ("" when
// missing or not a string: the guard reads the rebuilt input, which says
// the same).
func inStr(in json.RawMessage, key string) string {
	return gjson.GetBytes(in, gjson.Escape(key)).Str
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./@%+=:,-") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// keep returns field key of a tool input as JSON, or nil when missing: a
// value of the wrong type is kept, so that the guard's reader names it.
func keep(in json.RawMessage, key string) json.RawMessage {
	if v := gjson.GetBytes(in, gjson.Escape(key)); v.Exists() {
		return json.RawMessage(v.Raw)
	}
	return nil
}

func inBool(in json.RawMessage, key string) bool {
	return gjson.GetBytes(in, gjson.Escape(key)).Type == gjson.True
}

func inNum(in json.RawMessage, key string) float64 {
	return gjson.GetBytes(in, gjson.Escape(key)).Num
}
