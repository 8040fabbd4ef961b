package risk

import (
	"strings"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/answer"
	"github.com/ralph-hooks/ralph-hooks/internal/config"
)

// TestGitHelperEnv checks the ssh helper git takes from the environment
// the hook shares with the agent's shell: a program of the project ralph
// cannot read asks when git goes to a remote; ssh itself, an installed
// program (an absolute path) and an unset variable do not.
func TestGitHelperEnv(t *testing.T) {
	root := sample(t)
	cfg, err := config.Default()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		env  map[string]string
		cmd  string
		want answer.Decision
	}{
		{map[string]string{"GIT_SSH_COMMAND": "./malicious"}, "git fetch origin", answer.Ask},
		{map[string]string{"GIT_SSH": "./malicious"}, "git push origin main", answer.Ask},
		{map[string]string{"GIT_SSH_COMMAND": "./malicious"}, "git status", answer.Allow},
		{map[string]string{"GIT_SSH_COMMAND": "./malicious", "GIT_SSH": "./malicious"}, "unset GIT_SSH_COMMAND GIT_SSH; git fetch origin", answer.Allow},
		{map[string]string{"GIT_SSH_COMMAND": "ssh -i ~/.ssh/work_key -o IdentitiesOnly=yes"}, "git pull", answer.Allow},
		{map[string]string{"GIT_SSH": "/usr/local/bin/ssh-wrapper"}, "git fetch", answer.Allow},
		{map[string]string{"GIT_SSH_COMMAND": "ssh; rm -rf ~"}, "git fetch", answer.Deny},
	}
	for _, tt := range tests {
		env := map[string]string{"HOME": fakeHome, "USER": "ralph", "TMPDIR": "/tmp/ralph-tmpdir"}
		for k, v := range tt.env {
			env[k] = v
		}
		g, err := New(cfg, root, func(k string) string { return env[k] })
		if err != nil {
			t.Fatal(err)
		}
		if v := g.Command(tt.cmd, root); v.Decision != tt.want {
			t.Errorf("%v %s = %s, want %s", tt.env, tt.cmd, v.Decision, tt.want)
		}
	}
}

// shellChange returns a change to the tree at root: cmds run by sh, each
// with ROOT standing for root, the test failing on the first that fails.
func shellChange(t *testing.T, root string, cmds ...string) func() {
	return func() {
		for _, c := range cmds {
			c = strings.ReplaceAll(c, "ROOT", root)
			if out, err := runSh(c); err != nil {
				t.Fatalf("%s: %v: %s", c, err, out)
			}
		}
	}
}
