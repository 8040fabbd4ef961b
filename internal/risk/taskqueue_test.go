package risk

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/run"
	"github.com/ralph-hooks/ralph-hooks/internal/task"
)

// TestQueueEntries keeps the guard's spelling of a tasks directory's
// entries that of packages task and run.
func TestQueueEntries(t *testing.T) {
	want := append(slices.Clone(task.States), run.StopFile)
	if !slices.Equal(queueEntries, want) {
		t.Errorf("queueEntries = %q, want %q (task.States and run.StopFile)", queueEntries, want)
	}
}

func TestTaskQueues(t *testing.T) {
	root := filepath.FromSlash("/p")
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	tests := []struct {
		name string
		env  map[string]string
		want []string
	}{
		{"project", nil, []string{"/p/tasks/Approved", "/p/tasks/Done", "/p/tasks/Rejected", "/p/tasks/.stop"}},
		{"same queue", map[string]string{"RALPH_TASK_FILE": "/p/tasks/Approved/t.md"}, []string{"/p/tasks/Approved", "/p/tasks/Done", "/p/tasks/Rejected", "/p/tasks/.stop"}},
		{"another queue", map[string]string{"RALPH_TASK_FILE": "/q/work/Approved/t.md"}, []string{"/p/tasks/Approved", "/p/tasks/Done", "/p/tasks/Rejected", "/p/tasks/.stop", "/q/work/Approved", "/q/work/Done", "/q/work/Rejected", "/q/work/.stop"}},
		{"relative, ignored", map[string]string{"RALPH_TASK_FILE": "work/Approved/t.md"}, []string{"/p/tasks/Approved", "/p/tasks/Done", "/p/tasks/Rejected", "/p/tasks/.stop"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := taskQueues(root, env(tt.env))
			for i := range tt.want {
				tt.want[i] = filepath.FromSlash(tt.want[i])
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("taskQueues = %q, want %q", got, tt.want)
			}
		})
	}
}
