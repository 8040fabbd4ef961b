package event

import (
	"github.com/tidwall/gjson"
)

// A Task is work the agent still had going in the background when it
// stopped, as its Stop event lists it: Claude Code's background_tasks
// (2.1.332: a Bash call with run_in_background, a workflow, a subagent),
// each {"id", "type", "status", "description", "command"}. Such work can
// change the project while the Stop runs the completion command, and
// after.
type Task struct {
	ID, Type, Status, Description, Command string
}

// Live reports whether t may still be running: every status but the
// ones that say it ended (a status ralph does not know counts as live).
func (t Task) Live() bool {
	switch t.Status {
	case "completed", "failed", "killed", "stopped", "cancelled", "canceled", "done", "error", "exited":
		return false
	}
	return true
}

// tasks decodes background_tasks: an array of objects. An element that is
// not an object is kept as a task ralph knows nothing of (live).
func tasks(v gjson.Result) ([]Task, error) {
	if !v.IsArray() {
		return nil, fieldErr("background_tasks", "an array", v)
	}
	var out []Task
	v.ForEach(func(_, e gjson.Result) bool {
		if !e.IsObject() {
			out = append(out, Task{Description: e.Raw})
			return true
		}
		out = append(out, Task{ID: str(e, "id"), Type: str(e, "type"), Status: str(e, "status"),
			Description: str(e, "description"), Command: str(e, "command")})
		return true
	})
	return out, nil
}

// str is the string at key of the object o, or the JSON text of what is
// there when it is not a string.
func str(o gjson.Result, key string) string {
	v := o.Get(key)
	if v.Type == gjson.String {
		return v.Str
	}
	return v.Raw
}
