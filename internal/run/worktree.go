package run

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/ralph-hooks/ralph-hooks/internal/config"
	"github.com/ralph-hooks/ralph-hooks/internal/project"
	"github.com/ralph-hooks/ralph-hooks/internal/registry"
	"github.com/ralph-hooks/ralph-hooks/internal/task"
)

// With --parallel N, each task runs in a git worktree of its own,
// .aiwg/worktrees/{id}, on branch ralph/{id} from the project's HEAD: the
// agents of two tasks never edit the same files, and each worktree is the
// project root of its task's loop (its own .aiwg/ralph, which the guard
// protects there). When the task ends, its work is committed on the branch,
// the loop's archive moves to the project's, and the worktree is removed;
// merging the branch is the human's decision.

// worktree is the git worktree of one task.
type worktree struct {
	dir, branch string
	copied      []string // files copied in from the project (removed before the commit)
	finished    bool     // its work is committed: remove it
}

// WorktreesDir is where the task worktrees live, relative to the root.
const WorktreesDir = ".aiwg/worktrees"

// configFiles are copied into a worktree that lacks them (untracked in the
// project): ralph's configuration and the agent's hook registration.
var configFiles = []string{project.ConfigFile, config.SpecFile, ".claude/settings.json", ".claude/settings.local.json"}

// checkGit checks that root is a git repository with a commit to start
// worktrees from.
func checkGit(root string) error {
	if _, err := git(root, "rev-parse", "--verify", "-q", "HEAD^{commit}"); err != nil {
		return fmt.Errorf("run: --parallel runs each task in a git worktree: %s must be a git repository with a commit (%v)", root, err)
	}
	return nil
}

// freeSlots returns how many loops may start beside the project's active
// ones.
func freeSlots(root string) int {
	r, err := registry.Read(root)
	if err != nil {
		return MaxParallel
	}
	r.Reclaim()
	return max(registry.MaxConcurrent-len(r.ActiveLoops), 0)
}

// openWorktree opens (or creates) the worktree of a task.
func (r *Runner) openWorktree(s *session) (*worktree, error) {
	id := s.t.ID
	wt := &worktree{dir: filepath.Join(r.o.Root, WorktreesDir, id), branch: "ralph/" + id}
	if _, err := os.Stat(filepath.Join(wt.dir, ".git")); err != nil {
		r.gitMu.Lock()
		defer r.gitMu.Unlock()
		if _, err := git(r.o.Root, "rev-parse", "--verify", "-q", "refs/heads/"+wt.branch); err == nil {
			_, err = git(r.o.Root, "worktree", "add", "-q", wt.dir, wt.branch)
			if err != nil {
				return nil, fmt.Errorf("task %s: creating its worktree: %w", id, err)
			}
		} else if _, err := git(r.o.Root, "worktree", "add", "-q", "-b", wt.branch, wt.dir, "HEAD"); err != nil {
			return nil, fmt.Errorf("task %s: creating its worktree: %w", id, err)
		}
	}
	for _, f := range configFiles {
		src, dst := filepath.Join(r.o.Root, f), filepath.Join(wt.dir, f)
		data, err := os.ReadFile(src)
		if err != nil {
			continue
		}
		if _, err := os.Lstat(dst); err == nil {
			if old, _ := os.ReadFile(dst); !bytes.Equal(old, data) && !wt.wasCopied(f) {
				r.disp.Note(fmt.Sprintf("%s: %s in the worktree differs from the project's (it is committed; the worktree keeps its own)", id, f))
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			return nil, err
		}
		wt.copied = append(wt.copied, f)
	}
	rel, _ := filepath.Rel(r.o.Root, wt.dir)
	s.pl.Checkpoint.StateData.Worktree, s.pl.Checkpoint.StateData.Branch = rel, wt.branch
	return wt, nil
}

func (wt *worktree) wasCopied(f string) bool {
	for _, c := range wt.copied {
		if c == f {
			return true
		}
	}
	return false
}

// finishWorktree commits the task's work on its branch and moves its
// loop's archive into the project's, before the task file moves.
func (s *session) finishWorktree(state string) error {
	wt := s.wt
	if wt == nil {
		return nil
	}
	for _, f := range wt.copied {
		os.Remove(filepath.Join(wt.dir, f))
	}
	wt.copied = nil
	if _, err := git(wt.dir, "add", "-A"); err != nil {
		return fmt.Errorf("task %s: staging its work in %s: %w", s.t.ID, wt.dir, err)
	}
	// ralph's own state is not the task's work.
	if _, err := git(wt.dir, "rm", "-r", "-q", "--cached", "--ignore-unmatch", "--", ".aiwg"); err != nil {
		return fmt.Errorf("task %s: staging its work in %s: %w", s.t.ID, wt.dir, err)
	}
	if _, err := git(wt.dir, "diff", "--cached", "--quiet"); err != nil {
		args := []string{"commit", "-q", "--no-verify", "-m", fmt.Sprintf("ralph run: task %s, %s after %d iterations\n\nLoop %s.", s.t.ID, state, s.pl.Iteration, s.id)}
		if who, _ := git(wt.dir, "config", "user.email"); strings.TrimSpace(who) == "" {
			args = append([]string{"-c", "user.name=ralph run", "-c", "user.email=ralph-run@localhost"}, args...)
		}
		if _, err := git(wt.dir, args...); err != nil {
			return fmt.Errorf("task %s: committing its work on %s: %w", s.t.ID, wt.branch, err)
		}
	}
	if s.id != "" {
		from := filepath.Join(project.Layout{Root: wt.dir}.Archive(), s.id)
		to := filepath.Join(project.Layout{Root: s.r.o.Root}.Archive(), s.id)
		if _, err := os.Stat(from); err == nil {
			if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
				return err
			}
			if err := os.Rename(from, to); err != nil && !errors.Is(err, fs.ErrExist) {
				return fmt.Errorf("task %s: moving its loop's archive: %w", s.t.ID, err)
			}
		}
	}
	wt.finished = true
	return nil
}

// closeWorktree removes a finished task's worktree (its branch stays).
func (s *session) closeWorktree() {
	if s.wt == nil || !s.wt.finished {
		return
	}
	s.r.gitMu.Lock()
	defer s.r.gitMu.Unlock()
	if _, err := git(s.r.o.Root, "worktree", "remove", "--force", s.wt.dir); err != nil {
		s.r.disp.Note(fmt.Sprintf("%s: removing its worktree: %v", s.t.ID, err))
	}
}

// loopRoots are the project roots a task's loop may live in: the
// project's, and its worktree's.
func (r *Runner) loopRoots(t *task.Task) []string {
	roots := []string{r.o.Root}
	if t.Loop != nil && t.Loop.Checkpoint.StateData.Worktree != "" {
		// Where ralph run puts it, whatever the file says.
		roots = append(roots, filepath.Join(r.o.Root, WorktreesDir, t.ID))
	}
	return roots
}

// git runs git in dir and returns its output.
func git(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(errb.String())
		if msg == "" {
			return out.String(), err
		}
		return out.String(), fmt.Errorf("git %s: %s", args[0], msg)
	}
	return out.String(), nil
}
