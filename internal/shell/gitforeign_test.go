package shell

import (
	"io/fs"
	"strings"
	"testing"
)

// TestGitOtherConfig checks that the command settings of a configuration
// git reads that is not the project's (another repository, a file or git
// directory the line points git to) are walked as run.
func TestGitOtherConfig(t *testing.T) {
	files := map[string]string{
		"/p/.git/HEAD":               "ref: refs/heads/main\n",
		"/p/.git/config":             "[core]\n\tfsmonitor = rm own\n", // the project's: git's own file
		"/r/.git/HEAD":               "ref: refs/heads/main\n",
		"/r/.git/config":             "[core]\n\tfsmonitor = \"rm -rf /p/tests; false\"\n",
		"/h/.gitconfig":              "[core]\n\tpager = rm pager\n[user]\n\tname = x\n",
		"/x/git/config":              "[filter \"a\"]\n\tclean = rm clean\n",
		"/g/config":                  "[core]\n\tfsmonitor = rm gitdir\n",
		"/i.cfg":                     "[include]\n\tpath = /elsewhere\n",
		"/k.cfg":                     "[core]\n\thooksPath = /tmp/hooks\n",
		"/p/sub/.git":                "gitdir: ../.git/modules/sub\n",
		"/p/.git/modules/sub/HEAD":   "ref: refs/heads/main\n",
		"/p/.git/modules/sub/config": "[core]\n\tfsmonitor = rm sub\n",
	}
	a := &Analyzer{Env: testEnv, Root: "/p", ReadFile: func(p string) ([]byte, error) {
		if s, ok := files[p]; ok {
			return []byte(s), nil
		}
		return nil, fs.ErrNotExist
	}}
	tests := []struct {
		src  string
		want string // the first command, "" for none but git's
	}{
		{"git -C /r status", "rm -rf /p/tests [via git config core.fsmonitor in /r/.git/config]"},
		{"cd /r && git status", "rm -rf /p/tests [via git config core.fsmonitor in /r/.git/config]"},
		{"HOME=/h git log", "rm pager [via git config core.pager in /h/.gitconfig]"},
		{"XDG_CONFIG_HOME=/x git add .", "rm clean [via git config filter.a.clean in /x/git/config]"},
		{"GIT_DIR=/g git status", "rm gitdir [via git config core.fsmonitor in /g/config]"},
		{"git --git-dir=/g status", "rm gitdir [via git config core.fsmonitor in /g/config]"},
		{"git --git-dir /g status", "rm gitdir [via git config core.fsmonitor in /g/config]"},
		{"GIT_CONFIG_GLOBAL=/h/.gitconfig git diff", "rm pager [via git config core.pager in /h/.gitconfig]"},
		{"git -C sub status", "rm sub [via git config core.fsmonitor in /p/.git/modules/sub/config]"},
		{"git status", ""},
		{"HOME=/none git status", ""},
		{"HOME=/h git --version", ""},
		{"GIT_CONFIG_GLOBAL=/k.cfg git status", ""},
	}
	for _, tt := range tests {
		an := a.Analyze(tt.src, "/p")
		got := ""
		for _, line := range renderAll(an) {
			if !strings.HasPrefix(line, "git ") && !strings.HasPrefix(line, "cd ") {
				got = line
				break
			}
		}
		if got != tt.want || len(an.Opaque) > 0 {
			t.Errorf("%q: got %q (opaque %q), want %q", tt.src, got, an.Opaque, tt.want)
		}
	}
	for _, src := range []string{"GIT_CONFIG_GLOBAL=/i.cfg git status", "GIT_CONFIG_GLOBAL=/k.cfg git commit -m x", "HOME=$X git status", "git --git-dir=$D status"} {
		if an := a.Analyze(src, "/p"); len(an.Opaque) == 0 {
			t.Errorf("%q: not opaque", src)
		}
	}
}

// FuzzGitSettings: any configuration text reads without panicking, and
// gives only the keys asked for, lower-cased but for a subsection.
func FuzzGitSettings(f *testing.F) {
	for _, s := range []string{"", "[core]\nfsmonitor=x", "[filter \"a b\"]\n clean = \"x\\\\\" ;y", "[\n=\n\"", "[include]\npath"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for k := range GitSettings([]byte(s), func(k string) bool { return GitCommandKey(k) || gitInclude(k) }) {
			if !GitCommandKey(k) && !gitInclude(k) {
				t.Fatalf("key %q was not asked for", k)
			}
		}
	})
}

// FuzzGitOtherConfig: any configuration text of another repository or of
// a file the line points git to is judged without panicking, and the
// analysis stays well formed.
func FuzzGitOtherConfig(f *testing.F) {
	f.Add("[core]\n\tfsmonitor = rm -rf x\n", "[include]\n\tpath = /y\n")
	f.Add("[filter \"a\"]\n\tclean = \"$(x)\"\n", "[core]\n\thooksPath = h\n\tpager = `x`\n")
	f.Add("[alias]\n\tst = !rm x\n", "[core\n\tfsmonitor")
	f.Fuzz(func(t *testing.T, home, repo string) {
		if len(home)+len(repo) > 4096 {
			return
		}
		files := map[string]string{"/h/.gitconfig": home, "/r/.git/HEAD": "ref: x\n", "/r/.git/config": repo, "/p/.git/HEAD": "ref: x\n"}
		a := filesAnalyzer(files, nil)
		a.Root = "/p"
		for _, src := range []string{"HOME=/h git status", "git -C /r commit -m x", "GIT_CONFIG_GLOBAL=/r/.git/config git add ."} {
			checkAnalysis(t, src, a.Analyze(src, "/p"))
		}
	})
}
