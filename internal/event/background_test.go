package event

import (
	"reflect"
	"testing"
)

// TestTasks decodes the background work a Claude Code Stop lists
// (background_tasks, as Claude Code 2.1.332 sends it) and says which of it
// may still run.
func TestTasks(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     []Task
		live     []bool
		err      string
	}{
		{"a shell still running (captured)", `{"hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"Done.","background_tasks":[{"id":"bo3i8iml9","type":"shell","status":"running","description":"bg","command":"sleep 8; touch bgdone"}],"session_crons":[]}`,
			[]Task{{ID: "bo3i8iml9", Type: "shell", Status: "running", Description: "bg", Command: "sleep 8; touch bgdone"}}, []bool{true}, ""},
		{"none", `{"hook_event_name":"Stop","background_tasks":[],"session_crons":[]}`, nil, nil, ""},
		{"absent", `{"hook_event_name":"Stop"}`, nil, nil, ""},
		{"null", `{"hook_event_name":"Stop","background_tasks":null}`, nil, nil, ""},
		{"ended and unknown statuses", `{"hook_event_name":"Stop","background_tasks":[{"id":"a","status":"completed"},{"id":"b","status":"killed"},{"id":"c","status":"paused"},{"id":"d"}]}`,
			[]Task{{ID: "a", Status: "completed"}, {ID: "b", Status: "killed"}, {ID: "c", Status: "paused"}, {ID: "d"}}, []bool{false, false, true, true}, ""},
		{"fields of another type kept as JSON", `{"hook_event_name":"Stop","background_tasks":[{"id":7,"status":"running","command":["sleep","9"]}]}`,
			[]Task{{ID: "7", Status: "running", Command: `["sleep","9"]`}}, []bool{true}, ""},
		{"an element that is no object is live", `{"hook_event_name":"Stop","background_tasks":["x"]}`,
			[]Task{{Description: `"x"`}}, []bool{true}, ""},
		{"not an array", `{"hook_event_name":"Stop","background_tasks":{"id":"a"}}`, nil, nil, "event field background_tasks: want an array, got an object"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ev, err := Claude{}.Decode([]byte(tc.in))
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(ev.Tasks, tc.want) {
				t.Fatalf("tasks %+v, want %+v", ev.Tasks, tc.want)
			}
			for i, task := range ev.Tasks {
				if task.Live() != tc.live[i] {
					t.Errorf("task %d (%q): live %v, want %v", i, task.Status, task.Live(), tc.live[i])
				}
			}
		})
	}
}
