package audit

import "github.com/tidwall/gjson"

// ReadBackOf is ReadBack of the entries one hook wrote for one tool call:
// a line of another hook (hook not empty), or of another call (id not
// empty), is passed over before it is parsed. The tail of a long session
// is mostly other hooks' and other calls' entries, and a whole entry's
// parse (its time, every string made valid UTF-8) costs ten times the look
// at two keys. The look reads a line's first hook_name (or hook) and
// tool_use_id, the parse its last: the lines the hooks write have one.
func ReadBackOf(path, hook, id string, maxLines int, maxBytes int64, fn func(e Entry, n int) bool) error {
	return tail(path, maxLines, maxBytes, func(line []byte, n int) bool {
		if hook != "" {
			h := gjson.GetBytes(line, "hook_name")
			if !h.Exists() {
				h = gjson.GetBytes(line, "hook")
			}
			if h.Str != hook {
				return true
			}
		}
		if id != "" && gjson.GetBytes(line, "tool_use_id").Str != id {
			return true
		}
		e, err := parse(line)
		return err != nil || fn(e, n)
	})
}

// parse is Parse (tests count the calls).
var parse = Parse
