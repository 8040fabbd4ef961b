package procscan

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// fake is a process of a fake /proc.
type fake struct {
	pid, ppid int
	comm      string
	state     string
	start     uint64 // ticks after boot
	cwd       string
	env       string // NUL-separated
	argv      []string
	exe       string
	noExe     bool // its memory gone: exiting
}

const boot = 1_700_000_000 // btime of the fake /proc

// fakeProc writes a /proc holding ps and returns its directory.
func fakeProc(t *testing.T, ps []fake) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "stat"), fmt.Appendf(nil, "cpu  1 2 3\nbtime %d\nprocesses 9\n", boot), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		d := filepath.Join(dir, fmt.Sprint(p.pid))
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		st := p.state
		if st == "" {
			st = "S"
		}
		stat := fmt.Sprintf("%d (%s) %s %d 1 1 0 -1 4194304 0 0 0 0 0 0 0 0 20 0 1 0 %d 1000 100 18446744073709551615", p.pid, p.comm, st, p.ppid, p.start)
		must(t, os.WriteFile(filepath.Join(d, "stat"), []byte(stat), 0o644))
		must(t, os.WriteFile(filepath.Join(d, "cmdline"), []byte(strings.Join(p.argv, "\x00")+"\x00"), 0o644))
		must(t, os.WriteFile(filepath.Join(d, "environ"), []byte(p.env), 0o644))
		if p.cwd != "" {
			must(t, os.Symlink(p.cwd, filepath.Join(d, "cwd")))
		}
		exe := p.exe
		if exe == "" {
			exe = "/usr/bin/" + p.comm
		}
		if !p.noExe {
			must(t, os.Symlink(exe, filepath.Join(d, "exe")))
		}
	}
	return dir
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestLive: which processes count as left running by the loop's agent.
func TestLive(t *testing.T) {
	root := t.TempDir()
	since := time.Unix(boot+1000, 0) // the loop began 1000 s after boot
	at := func(s int) uint64 { return uint64(s) * ticks }
	// The agent (claude, pid 100) ran before the loop began; its hook
	// runs sh -c (200) which runs stop (201), this process.
	base := []fake{
		{pid: 1, ppid: 0, comm: "systemd", start: 0, cwd: "/"},
		{pid: 100, ppid: 1, comm: "claude", start: at(10), cwd: root, argv: []string{"claude"}},
		{pid: 200, ppid: 100, comm: "sh", start: at(2000), cwd: root, argv: []string{"sh", "-c", "stop"}},
		{pid: 201, ppid: 200, comm: "stop", start: at(2000), cwd: root, argv: []string{"/opt/ralph/stop"}, exe: "/opt/ralph/stop"},
	}
	cases := []struct {
		name string
		ps   []fake
		want []int
	}{
		{"nothing left", nil, nil},
		{"a sleep detached into the project", []fake{{pid: 300, ppid: 1, comm: "sleep", start: at(1500), cwd: root + "/tests", argv: []string{"sleep", "60"}}}, []int{300}},
		{"a shell still running in the background", []fake{{pid: 301, ppid: 100, comm: "bash", start: at(1200), cwd: root, argv: []string{"bash", "-c", "npm run dev"}}, {pid: 302, ppid: 301, comm: "node", start: at(1200), cwd: root, argv: []string{"node", "server.js"}}}, []int{301, 302}},
		{"started before the loop", []fake{{pid: 303, ppid: 1, comm: "sleep", start: at(500), cwd: root}}, nil},
		{"started in the loop's first second", []fake{{pid: 304, ppid: 1, comm: "sleep", start: at(1000) - 50, cwd: root}}, []int{304}},
		{"working elsewhere", []fake{{pid: 305, ppid: 1, comm: "sleep", start: at(1500), cwd: "/tmp"}}, nil},
		{"working in a directory named like the project", []fake{{pid: 306, ppid: 1, comm: "sleep", start: at(1500), cwd: root + "-other"}}, nil},
		{"elsewhere, with the loop's id", []fake{{pid: 307, ppid: 1, comm: "sleep", start: at(1500), cwd: "/", env: "A=1\x00RALPH_LOOP_ID=ralph-x-0123abcd\x00"}}, []int{307}},
		{"elsewhere, with the session's id", []fake{{pid: 320, ppid: 1, comm: "python3", start: at(1500), cwd: "/", env: "CLAUDE_CODE_SESSION_ID=s1\x00"}}, []int{320}},
		{"elsewhere, with another session's id", []fake{{pid: 321, ppid: 1, comm: "python3", start: at(1500), cwd: "/", env: "CLAUDE_CODE_SESSION_ID=s10\x00CLAUDE_PID=1000\x00"}}, nil},
		{"elsewhere, with the agent's pid", []fake{{pid: 322, ppid: 1, comm: "python3", start: at(1500), cwd: "/", env: "CLAUDECODE=1\x00CLAUDE_PID=100\x00"}}, []int{322}},
		{"the agent's shell waiting for ralph's status line", []fake{{pid: 323, ppid: 100, comm: "sh", start: at(1500), cwd: root}, {pid: 324, ppid: 323, comm: "ralph-statusline", start: at(1500), cwd: root, exe: "/opt/ralph/ralph-statusline"}}, nil},
		{"the agent's shell running ralph and another", []fake{{pid: 325, ppid: 100, comm: "sh", start: at(1500), cwd: root}, {pid: 326, ppid: 325, comm: "ralph", start: at(1500), cwd: root, exe: "/opt/ralph/ralph"}, {pid: 327, ppid: 325, comm: "sleep", start: at(1500), cwd: root}}, []int{325, 327}},
		{"a shell not the agent's waiting for ralph", []fake{{pid: 328, ppid: 1, comm: "sh", start: at(1500), cwd: root}, {pid: 329, ppid: 328, comm: "ralph", start: at(1500), cwd: root, exe: "/opt/ralph/ralph"}}, []int{328}},
		{"elsewhere, with another loop's id", []fake{{pid: 308, ppid: 1, comm: "sleep", start: at(1500), cwd: "/", env: "RALPH_LOOP_ID=ralph-x-0123abcdef\x00"}}, nil},
		{"a zombie", []fake{{pid: 309, ppid: 1, comm: "sleep", state: "Z", start: at(1500), cwd: root}}, nil},
		{"stopped, not dead", []fake{{pid: 310, ppid: 1, comm: "sleep", state: "T", start: at(1500), cwd: root}}, []int{310}},
		{"the agent's MCP server", []fake{{pid: 311, ppid: 100, comm: "node", start: at(1100), cwd: root, argv: []string{"node", "mcp.js"}}, {pid: 312, ppid: 311, comm: "chrome", start: at(1150), cwd: root}}, nil},
		{"another hook of the same Stop", []fake{{pid: 313, ppid: 100, comm: "sh", start: at(2000), cwd: root}, {pid: 314, ppid: 313, comm: "npm", start: at(2000), cwd: root}}, nil},
		{"a shell started long before this hook", []fake{{pid: 315, ppid: 100, comm: "sh", start: at(1900), cwd: root}}, []int{315}},
		{"ralph's own binary", []fake{{pid: 316, ppid: 1, comm: "ralph-statusline", start: at(1500), cwd: root, exe: "/opt/ralph/ralph-statusline"}}, nil},
		{"a copy named like ralph's", []fake{{pid: 317, ppid: 1, comm: "stop", start: at(1500), cwd: root, exe: root + "/stop"}}, []int{317}},
		{"exiting: no command line, no program", []fake{{pid: 332, ppid: 1, comm: "pre-tool-call", start: at(1500), cwd: root, noExe: true}}, nil},
		{"no command line, a program", []fake{{pid: 333, ppid: 1, comm: "sleep", start: at(1500), cwd: root}}, []int{333}},
		{"a command line, no program", []fake{{pid: 334, ppid: 1, comm: "sleep", start: at(1500), cwd: root, argv: []string{"sleep", "600"}, noExe: true}}, []int{334}},
		{"a kernel thread", []fake{{pid: 318, ppid: 2, comm: "kworker/0:1", start: at(1500), cwd: root}}, nil},
		{"elsewhere, the loop's id after a megabyte of environment", []fake{{pid: 330, ppid: 1, comm: "sleep", start: at(1500), cwd: "/", env: "PAD=" + strings.Repeat("x", 1<<20) + "\x00RALPH_LOOP_ID=ralph-x-0123abcd\x00"}}, []int{330}},
		{"working in a directory of a long name", []fake{{pid: 331, ppid: 1, comm: "sleep", start: at(1500), cwd: root + "/" + strings.Repeat("d", 200) + "/" + strings.Repeat("e", 200)}}, []int{331}},
		{"comm with spaces and parentheses", []fake{{pid: 319, ppid: 1, comm: "a) (b", start: at(1500), cwd: root}}, []int{319}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := fakeProc(t, append(slices.Clone(base), tc.ps...))
			got, err := Live(Options{Proc: dir, Root: root, Loop: "ralph-x-0123abcd", Session: "s1", Since: since, Self: 201, Own: "/opt/ralph"})
			if err != nil {
				t.Fatal(err)
			}
			var pids []int
			for _, p := range got {
				pids = append(pids, p.PID)
				if p.Cmdline == "" || p.Cwd == "" {
					t.Errorf("pid %d: cmdline %q, cwd %q: want both", p.PID, p.Cmdline, p.Cwd)
				}
				for _, f := range tc.ps {
					if f.pid == p.PID && f.cwd != p.Cwd {
						t.Errorf("pid %d: cwd %q, want %q", p.PID, p.Cwd, f.cwd)
					}
				}
			}
			if !slices.Equal(pids, tc.want) {
				t.Errorf("pids %v, want %v", pids, tc.want)
			}
		})
	}
}

// TestLiveNoAgent: with no coding agent among the ancestors (a script or a
// test drives the loop), none of its children is kept as the agent's own.
func TestLiveNoAgent(t *testing.T) {
	root := t.TempDir()
	dir := fakeProc(t, []fake{
		{pid: 50, ppid: 1, comm: "go", start: 100, cwd: root},
		{pid: 60, ppid: 50, comm: "stop", start: 900, cwd: root},
		{pid: 61, ppid: 50, comm: "sleep", start: 900, cwd: root, argv: []string{"sleep", "60"}},
	})
	got, err := Live(Options{Proc: dir, Root: root, Since: time.Unix(boot, 0), Self: 60})
	if err != nil || len(got) != 1 || got[0].PID != 61 || got[0].Cmdline != "sleep 60" {
		t.Fatalf("Live = %+v, %v; want pid 61, sleep 60", got, err)
	}
}

// TestLiveHookShell: with no agent known, what the shell running this
// hook pipes it into is the hook's; a process that shell left in the
// background and that outlived it (reparented to init) is not.
func TestLiveHookShell(t *testing.T) {
	root := t.TempDir()
	dir := fakeProc(t, []fake{
		{pid: 50, ppid: 1, comm: "bash", start: 100, cwd: root},
		{pid: 60, ppid: 50, comm: "stop", start: 900, cwd: root},
		{pid: 61, ppid: 50, comm: "head", start: 900, cwd: root, argv: []string{"head"}},
		{pid: 62, ppid: 1, comm: "python3", start: 800, cwd: root, argv: []string{"python3", "swap.py"}},
	})
	got, err := Live(Options{Proc: dir, Root: root, Since: time.Unix(boot, 0), Self: 60})
	if err != nil || len(got) != 1 || got[0].PID != 62 {
		t.Fatalf("Live = %+v, %v; want pid 62 alone", got, err)
	}
}

// TestLiveBadProc: a /proc that cannot be read is an error, not an empty list.
func TestLiveBadProc(t *testing.T) {
	dir := t.TempDir()
	if _, err := Live(Options{Proc: dir}); err == nil {
		t.Error("no stat: no error")
	}
	must(t, os.WriteFile(filepath.Join(dir, "stat"), []byte("cpu 1\n"), 0o644))
	if _, err := Live(Options{Proc: dir}); err == nil || !strings.Contains(err.Error(), "btime") {
		t.Errorf("no btime: error %v", err)
	}
}

func TestParseStat(t *testing.T) {
	tail := " 1 1 0 -1 4194304 0 0 0 0 0 0 0 0 20 0 1 0 4242 1000 100"
	cases := []struct {
		in   string
		want Proc
		bad  bool
	}{
		{in: "12 (sleep) S 7" + tail, want: Proc{PID: 12, PPID: 7, Comm: "sleep", State: 'S', Start: 4242}},
		{in: "12 (a) (b)) R 7" + tail, want: Proc{PID: 12, PPID: 7, Comm: "a) (b)", State: 'R', Start: 4242}},
		{in: "12 () S 7" + tail, want: Proc{PID: 12, PPID: 7, State: 'S', Start: 4242}},
		{in: "12 (sleep) S 7 1 1", bad: true},
		{in: "x (sleep) S 7" + tail, bad: true},
		{in: "-3 (sleep) S 7" + tail, bad: true},
		{in: "12 (sleep) S -7" + tail, bad: true},
		{in: "12 (sleep) SS 7" + tail, bad: true},
		{in: "12 sleep S 7" + tail, bad: true},
		{in: "12 (sleep S 7" + tail, bad: true},
		{in: "", bad: true},
	}
	for _, tc := range cases {
		got, err := ParseStat([]byte(tc.in))
		if tc.bad != (err != nil) || !tc.bad && got != tc.want {
			t.Errorf("ParseStat(%q) = %+v, %v; want %+v, bad %v", tc.in, got, err, tc.want, tc.bad)
		}
	}
}

func TestParseBootTime(t *testing.T) {
	if got, err := ParseBootTime([]byte("cpu 1\nbtime 1700000000\n")); err != nil || got.Unix() != 1700000000 {
		t.Errorf("got %v, %v", got, err)
	}
	for _, in := range []string{"", "cpu 1\n", "btime x\n", "btime -5\n", "btime\n"} {
		if _, err := ParseBootTime([]byte(in)); err == nil {
			t.Errorf("ParseBootTime(%q): no error", in)
		}
	}
}

func TestParseCmdline(t *testing.T) {
	cases := map[string]string{
		"":                            "",
		"sleep\x0060\x00":             "sleep 60",
		"sh\x00-c\x00sleep 1; rm\x00": `sh -c "sleep 1; rm"`,
		"a\x00\x00b":                  `a "" b`,
	}
	for in, want := range cases {
		if got := ParseCmdline([]byte(in)); got != want {
			t.Errorf("ParseCmdline(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestInside(t *testing.T) {
	cases := []struct {
		path, dir string
		want      bool
	}{
		{"/p", "/p", true}, {"/p/a/b", "/p", true}, {"/p-x", "/p", false}, {"/", "/p", false},
		{"", "/p", false}, {"/p", "", false}, {"/..p", "/", true},
	}
	for _, tc := range cases {
		if got := inside(tc.path, tc.dir); got != tc.want {
			t.Errorf("inside(%q, %q) = %v", tc.path, tc.dir, got)
		}
	}
}

// BenchmarkLive: one listing of this machine's /proc, as the Stop does
// it, for a loop begun an hour ago (every process started since is looked
// into).
func BenchmarkLive(b *testing.B) {
	if !Supported() {
		b.Skip("no /proc")
	}
	root := b.TempDir()
	o := Options{Proc: "/proc", Root: root, Loop: os.Getenv("BENCH_LOOP"), Since: time.Now().Add(-time.Hour), Self: os.Getpid()}
	n := 0
	for b.Loop() {
		ps, err := Live(o)
		if err != nil {
			b.Fatal(err)
		}
		n = len(ps)
	}
	ents, _ := os.ReadDir("/proc")
	b.ReportMetric(float64(len(ents)), "proc-entries")
	b.ReportMetric(float64(n), "found")
}
