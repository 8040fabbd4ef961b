package proc

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

func TestAlive(t *testing.T) {
	if !Alive(os.Getpid()) {
		t.Error("Alive(self) = false")
	}
	for _, pid := range []int{0, -1} {
		if Alive(pid) {
			t.Errorf("Alive(%d) = true", pid)
		}
	}
	cmd := exec.Command("sh", "-c", "exit 0")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	if Alive(cmd.Process.Pid) {
		t.Errorf("Alive(%d) = true after it exited and was reaped", cmd.Process.Pid)
	}
}

func TestOwnerSkipsShells(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the process table is read from /proc")
	}
	if os.Getenv("PROC_TEST_OWNER") == "1" {
		os.Stdout.WriteString(strconv.Itoa(Owner()))
		os.Exit(0)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// test binary → sh → sh → test binary (child): the child's owner is us.
	cmd := exec.Command("sh", "-c", `sh -c '"$0" -test.run=TestOwnerSkipsShells; true' "$0"`, exe)
	cmd.Env = append(os.Environ(), "PROC_TEST_OWNER=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(out), strconv.Itoa(os.Getpid()); got != want {
		t.Errorf("Owner() through two shells = %s, want %s (the test process)", got, want)
	}
}

func TestStat(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the process table is read from /proc")
	}
	name, ppid, ok := stat(os.Getpid())
	if !ok || ppid != os.Getppid() || name == "" {
		t.Errorf("stat(self) = %q, %d, %v; want ppid %d", name, ppid, ok, os.Getppid())
	}
	if _, _, ok := stat(-5); ok {
		t.Error("stat(-5) ok")
	}
}

func TestAgentOf(t *testing.T) {
	for _, c := range []struct {
		name string
		argv []string
		want string
	}{
		{"claude", []string{"claude", "--resume"}, "claude"},
		{"node", []string{"node", "/usr/lib/node_modules/@anthropic-ai/claude-code/cli.js"}, "claude-code"},
		{"node", []string{"node", "/home/u/.npm/bin/codex"}, "codex"},
		{"node", []string{"/usr/bin/node", "/usr/local/bin/gemini", "-p", "x"}, "gemini"},
		{"bun", []string{"bun", "/opt/opencode/bin/opencode.js"}, "opencode"},
		{"MainThread", []string{"/usr/local/bin/cursor-agent"}, "cursor-agent"},
		{"copilot", nil, "copilot"},
		{"codex-x86_64-u", []string{"/usr/lib/node_modules/@openai/codex/vendor/x86_64-unknown-linux-musl/codex/codex-x86_64-unknown-linux-musl"}, "codex"},
		{"node", []string{"node", "server.js", "--claude"}, ""},
		{"node", []string{"node", "/srv/app/index.js"}, ""},
		{"bash", []string{"bash", "-c", "claude"}, ""}, // a shell is not an interpreter of agents: its child would be
		{"vim", []string{"vim", "claude"}, ""},
		{"sshd", nil, ""},
	} {
		if got := agentOf(c.name, c.argv); got != c.want {
			t.Errorf("agentOf(%q, %q) = %q, want %q", c.name, c.argv, got, c.want)
		}
	}
}

func TestAgentEnv(t *testing.T) {
	for _, k := range agentEnv {
		getenv := func(s string) string {
			if s == k {
				return "1"
			}
			return ""
		}
		if got := Agent(getenv, os.Getpid()); got == "" {
			t.Errorf("Agent with %s set = \"\", want a reason", k)
		}
	}
}

// TestAgentAncestor runs the test binary under a copy of itself named
// claude: the child finds the agent among its ancestors; run directly, it
// finds none below this test process.
func TestAgentAncestor(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the process table is read from /proc")
	}
	none := func(string) string { return "" }
	switch os.Getenv("PROC_TEST_AGENT") {
	case "child":
		top, _ := strconv.Atoi(os.Getenv("PROC_TEST_TOP"))
		os.Stdout.WriteString(Agent(none, top))
		os.Exit(0)
	case "claude": // the fake agent: run the child through a shell
		cmd := exec.Command("sh", "-c", `"$0" -test.run=TestAgentAncestor`, os.Args[0])
		cmd.Env = append(os.Environ(), "PROC_TEST_AGENT=child")
		cmd.Stdout = os.Stdout
		if err := cmd.Run(); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	claude := filepath.Join(t.TempDir(), "claude")
	data, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(claude, data, 0o755); err != nil {
		t.Fatal(err)
	}
	top := "PROC_TEST_TOP=" + strconv.Itoa(os.Getpid())
	cmd := exec.Command(claude, "-test.run=TestAgentAncestor")
	cmd.Env = append(os.Environ(), "PROC_TEST_AGENT=claude", top)
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(out), "claude (pid ") {
		t.Errorf("Agent under a process named claude = %q, want claude (pid …)", out)
	}
	cmd = exec.Command(exe, "-test.run=TestAgentAncestor")
	cmd.Env = append(os.Environ(), "PROC_TEST_AGENT=child", top)
	out, err = cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 0 {
		t.Errorf("Agent under the test itself = %q, want \"\"", out)
	}
}
