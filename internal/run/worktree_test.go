package run

import (
	"fmt"
	"os"
	"os/exec"
	"sync"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/task"
)

// Tasks of --parallel open and close their worktrees at the same time: git
// reads every worktree's administrative files while it adds or removes one,
// so unserialised, two at once fail now and then ("failed to read
// .git/worktrees/…/commondir", seen under load). Eight at once, six times
// over, must all succeed.
func TestWorktreesAtOnce(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("worktrees need git")
	}
	root := t.TempDir()
	for _, args := range [][]string{{"init", "-q"}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "init"}} {
		if out, err := exec.Command("git", append([]string{"-C", root}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	r := &Runner{o: Options{Root: root}}
	for round := range 6 {
		var wg sync.WaitGroup
		sessions := make([]*session, 8)
		for i := range sessions {
			s := &session{r: r, t: &task.Task{ID: fmt.Sprintf("t%d-%d", round, i)}, pl: &task.Loop{}}
			sessions[i] = s
			wg.Add(1)
			go func() {
				defer wg.Done()
				wt, err := r.openWorktree(s)
				if err != nil {
					t.Error(err)
					return
				}
				s.wt = wt
			}()
		}
		wg.Wait()
		for _, s := range sessions {
			if s.wt == nil {
				continue
			}
			if _, err := os.Stat(s.wt.dir); err != nil {
				t.Errorf("%s: %v", s.t.ID, err)
			}
			s.wt.finished = true
			wg.Add(1)
			go func() { defer wg.Done(); s.closeWorktree() }()
		}
		wg.Wait()
		for _, s := range sessions {
			if s.wt == nil {
				continue
			}
			if _, err := os.Stat(s.wt.dir); err == nil {
				t.Errorf("%s: its worktree is still there after closeWorktree", s.t.ID)
			}
		}
	}
}
