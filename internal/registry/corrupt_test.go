package registry

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/project"
)

// TestReadCorrupt reads registries a crash, a disk or a hand edit left
// broken: Read and Update name the file and what is wrong with it in
// words (the field, the type it wants), never encoding/json's Go types,
// and leave the file as it is.
func TestReadCorrupt(t *testing.T) {
	tests := []struct{ name, data, why string }{
		{"empty", "", "truncated: it ends at byte 0"},
		{"truncated", `{"version":"2.0.0","active_loops":[{"loop_id":"ra`, "truncated: it ends at byte 49"},
		{"garbage", "\x04\x88binary", "not valid JSON at byte 1"},
		{"active_loops a string", `{"active_loops":"x"}`, "active_loops: want a list, got a string"},
		{"pid a string", `{"active_loops":[{"loop_id":"ralph-a-12345678","pid":"12"}]}`, "active_loops.pid: want a whole number, got a string"},
		{"owner_pid a list", `{"active_loops":[{"loop_id":"ralph-a-12345678","owner_pid":[1]}]}`, "active_loops.owner_pid: want a whole number, got a list"},
		{"iteration negative float", `{"active_loops":[{"loop_id":"ralph-a-12345678","iteration":-1.5}]}`, "active_loops.iteration: want a whole number, got the number -1.5"},
		{"version a number", `{"version":2}`, "version: want a string, got a number"},
		{"a list", `[]`, "want an object, got a list"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			path := project.Layout{Root: root}.Registry()
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(tt.data), 0o644); err != nil {
				t.Fatal(err)
			}
			want := "loop registry " + path + " is corrupt (" + tt.why + "); it was left as is: move it aside to start afresh"
			if _, err := Read(root); err == nil || err.Error() != want {
				t.Errorf("Read = %v\nwant %s", err, want)
			}
			err := Update(root, time.Now(), func(*Registry) error { return nil })
			if err == nil || err.Error() != want {
				t.Errorf("Update = %v\nwant %s", err, want)
			}
			if data, _ := os.ReadFile(path); string(data) != tt.data {
				t.Errorf("the registry was changed to %q", data)
			}
		})
	}
}
