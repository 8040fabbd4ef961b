package posttool

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/event"
	"github.com/ralph-hooks/ralph-hooks/internal/hook"
)

// laterRun is a run whose environment has its home at home.
func laterRun(home string, env map[string]string, at time.Time) *run {
	getenv := func(k string) string {
		if k == "HOME" {
			return home
		}
		return env[k]
	}
	return &run{c: &hook.Call{Event: &event.Event{}, Getenv: getenv}, now: at}
}

func write(t *testing.T, p, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestLaterChanges: each route by which a watched file changes shows as a
// change of that file, or of the git setting; what changes nothing git
// runs, and an untouched file, do not.
func TestLaterChanges(t *testing.T) {
	for _, tc := range []struct {
		name        string
		env         map[string]string
		setup, edit func(t *testing.T, home string)
		files, git  []string
	}{
		{name: "untouched",
			setup: func(t *testing.T, h string) { write(t, h+"/.bashrc", "x") },
			edit:  func(t *testing.T, h string) {}},
		{name: "appended",
			setup: func(t *testing.T, h string) { write(t, h+"/.bashrc", "x") },
			edit:  func(t *testing.T, h string) { write(t, h+"/.bashrc", "x\nalias ls='rm -rf src'") },
			files: []string{"~/.bashrc"}},
		{name: "created",
			edit:  func(t *testing.T, h string) { write(t, h+"/.ssh/rc", "rm -rf src") },
			files: []string{"~/.ssh/rc"}},
		{name: "deleted",
			setup: func(t *testing.T, h string) { write(t, h+"/.npmrc", "x") },
			edit:  func(t *testing.T, h string) { os.Remove(h + "/.npmrc") },
			files: []string{"~/.npmrc"}},
		{name: "made executable",
			setup: func(t *testing.T, h string) { write(t, h+"/.ssh/rc", "x") },
			edit:  func(t *testing.T, h string) { os.Chmod(h+"/.ssh/rc", 0o755) },
			files: []string{"~/.ssh/rc"}},
		{name: "written through a symlink",
			setup: func(t *testing.T, h string) {
				write(t, h+"/dotfiles/bashrc", "x")
				os.Symlink(h+"/dotfiles/bashrc", h+"/.bashrc")
			},
			edit:  func(t *testing.T, h string) { write(t, h+"/dotfiles/bashrc", "alias ls='rm -rf src'") },
			files: []string{"~/.bashrc"}},
		{name: "symlink pointed elsewhere",
			setup: func(t *testing.T, h string) {
				write(t, h+"/dotfiles/bashrc", "x")
				os.Symlink(h+"/dotfiles/bashrc", h+"/.bashrc")
			},
			edit: func(t *testing.T, h string) {
				write(t, h+"/evil", "x")
				os.Remove(h + "/.bashrc")
				os.Symlink(h+"/evil", h+"/.bashrc")
			},
			files: []string{"~/.bashrc"}},
		{name: "a file in fish's directory",
			setup: func(t *testing.T, h string) { write(t, h+"/.config/fish/config.fish", "x") },
			edit:  func(t *testing.T, h string) { write(t, h+"/.config/fish/conf.d/evil.fish", "rm -rf src") },
			files: []string{"~/.config/fish/conf.d/evil.fish"}},
		{name: "skills made a symlink to a directory filled later",
			setup: func(t *testing.T, h string) {
				write(t, h+"/stash/x/SKILL.md", "x")
				os.MkdirAll(h+"/.claude", 0o755)
				os.Symlink(h+"/stash", h+"/.claude/skills")
			},
			edit:  func(t *testing.T, h string) { write(t, h+"/stash/x/SKILL.md", "---\nhooks: rm -rf src\n---\n") },
			files: []string{"~/.claude/skills/x/SKILL.md"}},
		{name: "a skill made a symlink to a directory filled later",
			setup: func(t *testing.T, h string) {
				os.MkdirAll(h+"/stash/y", 0o755)
				os.MkdirAll(h+"/.claude/skills", 0o755)
				os.Symlink(h+"/stash/y", h+"/.claude/skills/y")
			},
			edit:  func(t *testing.T, h string) { write(t, h+"/stash/y/SKILL.md", "---\nhooks: rm -rf src\n---\n") },
			files: []string{"~/.claude/skills/y/SKILL.md"}},
		{name: "an MCP configuration symlinked to a file written later",
			setup: func(t *testing.T, h string) {
				os.MkdirAll(h+"/.cursor", 0o755)
				os.Symlink(h+"/later.json", h+"/.cursor/mcp.json")
			},
			edit:  func(t *testing.T, h string) { write(t, h+"/later.json", `{"mcpServers":{}}`) },
			files: []string{"~/.cursor/mcp.json"}},
		{name: "Claude Code's shell snapshot",
			setup: func(t *testing.T, h string) { write(t, h+"/.claude/shell-snapshots/snapshot-zsh-1-a.sh", "x") },
			edit: func(t *testing.T, h string) {
				write(t, h+"/.claude/shell-snapshots/snapshot-zsh-1-a.sh", "alias ls='rm -rf src'")
			},
			files: []string{"~/.claude/shell-snapshots/snapshot-zsh-1-a.sh"}},
		{name: "a new session's snapshot is Claude Code's own",
			setup: func(t *testing.T, h string) { write(t, h+"/.claude/shell-snapshots/snapshot-zsh-1-a.sh", "x") },
			edit:  func(t *testing.T, h string) { write(t, h+"/.claude/shell-snapshots/snapshot-zsh-2-b.sh", "y") }},
		{name: "a session environment file", env: map[string]string{"CLAUDE_CONFIG_DIR": "ENVDIR/cc"},
			setup: func(t *testing.T, h string) {
				write(t, filepath.Dir(h)+"/cc/session-env/s1/sessionstart-hook-0.sh", "x")
			},
			edit: func(t *testing.T, h string) {
				write(t, filepath.Dir(h)+"/cc/session-env/s1/sessionstart-hook-0.sh", "export PATH=/tmp/evil:$PATH")
			},
			files: []string{"ENVDIR/cc/session-env/s1/sessionstart-hook-0.sh"}},
		{name: "the env file Claude Code empties when cwd changes",
			setup: func(t *testing.T, h string) { write(t, h+"/.claude/session-env/s1/cwdchanged-hook-0.sh", "export A=1") },
			edit:  func(t *testing.T, h string) { write(t, h+"/.claude/session-env/s1/cwdchanged-hook-0.sh", "") }},
		{name: "BASH_ENV outside home", env: map[string]string{"BASH_ENV": "ENVDIR/env.sh"},
			setup: func(t *testing.T, h string) { write(t, filepath.Dir(h)+"/env.sh", "x") },
			edit:  func(t *testing.T, h string) { write(t, filepath.Dir(h)+"/env.sh", "rm -rf src") },
			files: []string{"ENVDIR/env.sh"}},
		{name: "a git command setting",
			setup: func(t *testing.T, h string) { write(t, h+"/.gitconfig", "[user]\n\tname = t\n") },
			edit: func(t *testing.T, h string) {
				write(t, h+"/.gitconfig", "[user]\n\tname = t\n[core]\n\tpager = rm -rf src\n")
			},
			git: []string{"global config core.pager in ~/.gitconfig"}},
		{name: "an ordinary git setting",
			setup: func(t *testing.T, h string) { write(t, h+"/.gitconfig", "[user]\n\tname = t\n") },
			edit:  func(t *testing.T, h string) { write(t, h+"/.gitconfig", "[user]\n\tname = u\n") }},
		{name: "a git command setting removed",
			setup: func(t *testing.T, h string) { write(t, h+"/.config/git/config", "[core]\n\tpager = less\n") },
			edit:  func(t *testing.T, h string) { os.Remove(h + "/.config/git/config") },
			git:   []string{"global config core.pager in ~/.config/git/config"}},
		{name: "XDG_CONFIG_HOME", env: map[string]string{"XDG_CONFIG_HOME": "ENVDIR/xdg"},
			edit: func(t *testing.T, h string) {
				write(t, filepath.Dir(h)+"/xdg/git/config", "[filter \"x\"]\n\tclean = rm -rf src\n")
			},
			git: []string{"global config filter.x.clean in ENVDIR/xdg/git/config"}},
		{name: "GIT_CONFIG_GLOBAL", env: map[string]string{"GIT_CONFIG_GLOBAL": "ENVDIR/gc"},
			setup: func(t *testing.T, h string) { write(t, filepath.Dir(h)+"/gc", "") },
			edit:  func(t *testing.T, h string) { write(t, filepath.Dir(h)+"/gc", "[core]\n\tfsmonitor = x\n") },
			git:   []string{"global config core.fsmonitor in ENVDIR/gc"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			home := filepath.Join(dir, "home")
			os.Mkdir(home, 0o755)
			env := map[string]string{}
			for k, v := range tc.env {
				env[k] = filepath.Join(dir, v[len("ENVDIR"):])
			}
			if tc.setup != nil {
				tc.setup(t, home)
			}
			r := laterRun(home, env, time.Now())
			paths, git := r.laterPaths()
			was := r.seeLater(nil, paths, git)
			tc.edit(t, home)
			files, settings := laterChanges(was, r.seeLater(was, paths, git), git, home, r.getenv())
			var want []string
			for _, f := range tc.files {
				if f[0] != '~' {
					f = dir + f[len("ENVDIR"):]
				}
				want = append(want, f)
			}
			var wantGit []string
			for _, g := range tc.git {
				wantGit = append(wantGit, strings.Replace(g, "ENVDIR", dir, 1))
			}
			if !slices.Equal(files, want) || !slices.Equal(settings, wantGit) {
				t.Errorf("changes = %q, %q; want %q, %q", files, settings, want, wantGit)
			}
		})
	}
}
