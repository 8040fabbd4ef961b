package risk

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/answer"
	"github.com/ralph-hooks/ralph-hooks/internal/config"
	"github.com/ralph-hooks/ralph-hooks/internal/event"
)

// TestMain moves the tests' temp directories out of the guard's temp
// directories (/tmp, $TMPDIR, ~/.cache, …): a sample project must look
// like a real one, not like scratch space the guard lets go. The user's
// cache directory serves, else the home directory, else the checkout
// (.test-tmp, ignored by git); when all are temp directories themselves
// (HOME and the checkout under /tmp), the tests that depend on it say so
// and skip (see outsideTemp).
func TestMain(m *testing.M) {
	for _, dir := range fixtureBases() {
		tmp := filepath.Join(dir, "ralph-hooks-test")
		if os.MkdirAll(tmp, 0o755) == nil {
			os.Setenv("TMPDIR", tmp)
			fixturesOutsideTemp = true
			break
		}
	}
	os.Exit(m.Run())
}

// fixturesOutsideTemp says the tests' temp directories are in none of the
// guard's temp directories.
var fixturesOutsideTemp bool

// fixtureBases returns the directories that may hold the tests' fixtures:
// the user's cache and home directories and the checkout, unless the
// guard would call them temp, as it does whatever is under /tmp.
func fixtureBases() []string {
	var out []string
	cache, _ := os.UserCacheDir()
	checkout, _ := filepath.Abs("../../.test-tmp") // this package is internal/risk
	for _, dir := range []string{cache, os.Getenv("HOME"), checkout} {
		if !filepath.IsAbs(dir) {
			continue
		}
		if real, err := filepath.EvalSymlinks(dir); err == nil {
			dir = real
		}
		temp := false
		for _, t := range tempDirs(os.Getenv) {
			// ~/.cache is a temp directory only for the guard's own HOME,
			// which the tests set apart (fakeHome).
			if t != filepath.Join(os.Getenv("HOME"), ".cache") && within(dir, t) {
				temp = true
			}
		}
		if !temp {
			out = append(out, dir)
		}
	}
	return out
}

// outsideTemp skips a test whose sample project must not be in a temp
// directory when there is no other place for it.
func outsideTemp(t *testing.T) {
	t.Helper()
	if !fixturesOutsideTemp {
		t.Skip("the cache and home directories and the checkout are all in temp directories (under /tmp): no place for a sample project that is not scratch space; set XDG_CACHE_HOME to a directory outside /tmp")
	}
}

// fakeHome is the HOME of the sample project's guard. It is not under a
// temp directory (where everything is fair game) and need not exist: home
// paths are judged by where they are.
const fakeHome = "/home/ralph-test"

// sample builds the sample project the corpus is judged against and
// returns its root. Everything but build output, node_modules, app.log and
// .aiwg is committed to git, when git is installed.
func sample(t testing.TB) string {
	t.Helper()
	root := t.TempDir()
	files := map[string]string{
		"src/main.go":              "package main\n\nfunc main() {}\n",
		"src/main_test.go":         "package main\n\nimport \"testing\"\n\nfunc TestMain(t *testing.T) {}\n",
		"pkg/foo/foo.go":           "package foo\n",
		"pkg/foo/foo_test.go":      "package foo\n",
		"tests/test_a.py":          "def test_a():\n    assert 1 == 1\n",
		"web/app.ts":               "export const x = 1\n",
		"web/app.test.ts":          "test('x', () => expect(1).toBe(1))\n",
		"web/__tests__/x.test.js":  "test('x', () => {})\n",
		"docs/guide.md":            "# guide\n",
		"README.md":                "# sample\n",
		"scripts/check.sh":         "go vet ./...\ngo test ./...\n",
		"scripts/clean.sh":         "rm -rf tests\n",
		"gen/gen.go":               "package gen\n\n//go:generate rm -rf ../tests\n",
		"gen/ok/ok.go":             "package ok\n\n//go:generate go run golang.org/x/tools/cmd/stringer -type=Kind\n",
		"pyproj/setup.py":          "import shutil\nshutil.rmtree('../tests')\n",
		"tools/clean/main.go":      "package main\n\nimport \"os\"\n\nfunc main() { os.RemoveAll(\"tests\") }\n",
		"tools/sh/main.go":         "package main\n\nimport \"os/exec\"\n\nfunc main() { exec.Command(\"sh\", \"-c\", \"rm -rf src/main_test.go\").Run() }\n",
		"tools/ok/main.go":         "package main\n\nimport (\n\t\"fmt\"\n\t\"os\"\n)\n\nfunc main() {\n\tos.WriteFile(\"build/gen.txt\", nil, 0o644)\n\tfmt.Println(\"ok\")\n}\n",
		"scripts/cron.txt":         "# nightly\nMAILTO=dev\n0 3 * * * cd /srv && rm -rf tests\n",
		".github/workflows/ci.yml": "on: push\n",
		".claude/settings.json":    "{}\n",
		".gitignore":               "build/\nnode_modules/\napp.log\n.aiwg/\n",
		"build/out.o":              "obj",
		"build/output.log":         "log",
		"node_modules/x/index.js":  "module.exports = 1\n",
		".aiwg/ralph/state.json":   "{}\n",
		"app.log":                  "log\n",
	}
	for name, body := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := exec.LookPath("git"); err == nil {
		for _, args := range [][]string{
			{"init", "-q"},
			{"add", "-A"},
			{"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "init"},
		} {
			cmd := exec.Command("git", args...)
			cmd.Dir = root
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("git %v: %v\n%s", args, err, out)
			}
		}
	}
	return root
}

func testEnv(root string) func(string) string {
	env := map[string]string{"HOME": fakeHome, "TMPDIR": "/tmp/ralph-tmpdir", "USER": "ralph"}
	return func(k string) string { return env[k] }
}

func newGuard(t testing.TB, root string, cfg *config.Config) *Guard {
	t.Helper()
	if cfg == nil {
		var err error
		if cfg, err = config.Default(); err != nil {
			t.Fatal(err)
		}
	}
	g, err := New(cfg, root, testEnv(root))
	if err != nil {
		t.Fatal(err)
	}
	return g
}

type corpusCase struct {
	line     int
	decision answer.Decision
	rule     string
	command  string
}

func readCorpus(t testing.TB, path string) []corpusCase {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []corpusCase
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.SplitN(line, " | ", 3)
		if len(parts) != 3 {
			t.Fatalf("%s:%d: want DECISION | RULE | COMMAND", path, n)
		}
		cases = append(cases, corpusCase{n, answer.Decision(parts[0]), parts[1], strings.ReplaceAll(parts[2], "⏎", "\n")})
	}
	if len(cases) == 0 {
		t.Fatalf("%s: no cases", path)
	}
	return cases
}

// TestCommands judges every command of testdata/commands.txt.
func TestCommands(t *testing.T) {
	outsideTemp(t)
	root := sample(t)
	g := newGuard(t, root, nil)
	for _, c := range readCorpus(t, "testdata/commands.txt") {
		checkCase(t, "commands.txt", c, g.Command(c.command, root), "")
	}
}

// checkCase reports a corpus case of file whose verdict v is not the one
// written, with more (how the command was read) when it is not "".
func checkCase(t *testing.T, file string, c corpusCase, v *Verdict, more string) bool {
	t.Helper()
	rule := "-"
	if v.Top != nil {
		rule = v.Top.Rule
	}
	if v.Decision == c.decision && (rule == c.rule || c.rule == "*") {
		return true
	}
	reason := ""
	if v.Top != nil {
		reason = v.Top.Reason
	}
	if more != "" {
		reason += "\n\t" + more
	}
	t.Errorf("%s:%d: %q = %s (%s), want %s (%s)\n\t%s", file, c.line, c.command, v.Decision, rule, c.decision, c.rule, reason)
	return false
}

// TestBuiltinExamples checks that every built-in rule's documented example
// is caught by that rule.
func TestBuiltinExamples(t *testing.T) {
	outsideTemp(t)
	root := sample(t)
	g := newGuard(t, root, nil)
	for _, b := range Builtins {
		v := g.Command(b.Example, root)
		if b.Name == "shell-state" {
			// Only a shell that outlives the call keeps a definition.
			v = g.bashCall(&event.Event{Agent: "cursor", Tool: "Bash", Shell: event.ShellPersistent}, b.Example, root)
		}
		found := false
		for _, f := range v.Findings {
			if f.Rule == b.Name {
				found = true
			}
		}
		if !found {
			t.Errorf("example of %s, %q: findings %v", b.Name, b.Example, v.Findings)
		}
	}
}

func TestChangesAreCheckpointed(t *testing.T) {
	root := sample(t)
	g := newGuard(t, root, nil)
	tests := []struct {
		cmd  string
		want []string
	}{
		{"rm -rf build", []string{"build"}},
		{"rm -f app.log build/out.o", []string{"app.log", "build/out.o"}},
		{"find . -name '*.o' -delete", []string{"build/out.o"}},
		{"sed -i s/a/b/ tests/test_a.py", []string{"tests/test_a.py"}},
		{"echo x > app.log", []string{"app.log"}},
		{"rm -rf node_modules", nil},
		{"sed -i s/a/b/ src/main.go", nil},
		{"rm -rf tests", nil}, // denied: nothing to checkpoint
		{"ls", nil},
	}
	for _, tt := range tests {
		v := g.Command(tt.cmd, root)
		var got []string
		for _, p := range v.Changes {
			r, _ := filepath.Rel(root, p)
			got = append(got, filepath.ToSlash(r))
		}
		if strings.Join(got, ",") != strings.Join(tt.want, ",") {
			t.Errorf("Command(%q).Changes = %v, want %v", tt.cmd, got, tt.want)
		}
	}
}

func TestFileTools(t *testing.T) {
	root := sample(t)
	g := newGuard(t, root, nil)
	p := func(rel string) string { return filepath.Join(root, rel) }
	tests := []struct {
		tool, path string
		want       answer.Decision
		rule       string
		changes    bool
	}{
		{"Edit", p("src/main.go"), answer.Allow, "", false},
		{"Write", p("src/new.go"), answer.Allow, "", false},
		{"Edit", p("pkg/foo/foo_test.go"), answer.Warn, "test-files", true},
		{"Write", p("pkg/foo/new_test.go"), answer.Allow, "", false}, // a new test risks nothing
		{"MultiEdit", p("tests/test_a.py"), answer.Warn, "test-files", true},
		{"Edit", p(".github/workflows/ci.yml"), answer.Warn, "ci-config", true},
		{"Edit", p(".aiwg/ralph/state.json"), answer.Deny, "tamper", false},
		{"Write", p(".aiwg/ralph/new.json"), answer.Deny, "tamper", false},
		{"Write", p("aiwg.yml"), answer.Deny, "tamper", false},
		{"Edit", p(".specify/config/persistence.yaml"), answer.Deny, "tamper", false},
		{"Edit", p(".claude/settings.json"), answer.Deny, "tamper", false},
		{"Write", fakeHome + "/.claude/settings.json", answer.Deny, "tamper", false},
		{"Write", fakeHome + "/.local/lib/ralph-hooks/bin/stop", answer.Deny, "tamper", false},
		{"NotebookEdit", p("nb.ipynb"), answer.Allow, "", false},
	}
	for _, tt := range tests {
		v := g.File(tt.tool, tt.path)
		rule := ""
		if v.Top != nil {
			rule = v.Top.Rule
		}
		if v.Decision != tt.want || rule != tt.rule || (len(v.Changes) > 0) != tt.changes {
			t.Errorf("File(%s, %s) = %s (%s) changes %v, want %s (%s) changes %v", tt.tool, tt.path, v.Decision, rule, v.Changes, tt.want, tt.rule, tt.changes)
		}
	}
}

func TestEventTools(t *testing.T) {
	root := sample(t)
	g := newGuard(t, root, nil)
	tests := []struct {
		json string
		want answer.Decision
	}{
		{`{"tool_name":"Bash","tool_input":{"command":"rm -rf tests"}}`, answer.Deny},
		{`{"tool_name":"Read","tool_input":{"file_path":".aiwg/ralph/state.json"}}`, answer.Allow},
		{`{"tool_name":"Edit","tool_input":{"file_path":".aiwg/ralph/state.json"}}`, answer.Deny},
		{`{"tool_name":"mcp__fs__write_file","tool_input":{"path":".aiwg/ralph/state.json","content":"x"}}`, answer.Deny},
		{`{"tool_name":"mcp__fs__read_file","tool_input":{"path":".aiwg/ralph/state.json"}}`, answer.Allow},
		{`{"tool_name":"mcp__fs__delete","tool_input":{"paths":[".aiwg"]}}`, answer.Deny},
		{`{"tool_name":"WebFetch","tool_input":{"url":"https://x"}}`, answer.Allow},
	}
	for _, tt := range tests {
		ev, err := event.Decode([]byte(tt.json), "")
		if err != nil {
			t.Fatal(err)
		}
		ev.Cwd = root
		v, err := g.Event(ev)
		if err != nil {
			t.Fatal(err)
		}
		if v.Decision != tt.want {
			t.Errorf("Event(%s) = %s, want %s", tt.json, v.Decision, tt.want)
		}
	}
	ev, _ := event.Decode([]byte(`{"tool_name":"Bash","tool_input":{"command":42}}`), "")
	if _, err := g.Event(ev); err == nil || !strings.Contains(err.Error(), "tool_input.command") {
		t.Errorf("Event(command: 42) error = %v, want one naming tool_input.command", err)
	}
}

func TestDetectionModes(t *testing.T) {
	root := sample(t)
	tests := []struct {
		mode, cmd string
		want      answer.Decision
	}{
		{"standard", "git push --force", answer.Deny},
		{"minimal", "git push --force", answer.Ask},
		{"minimal", "rm -rf /", answer.Deny},     // critical: never lowered
		{"minimal", "rm -rf .aiwg", answer.Deny}, // tamper: never lowered
		{"off", "git push --force", answer.Allow},
		{"off", "rm -rf ~", answer.Deny},
		{"off", "echo x > .aiwg/ralph/state.json", answer.Deny},
		{"aggressive", "rm -rf \"$DIR\"", answer.Deny},
		{"aggressive", "sed -i s/a/b/ tests/test_a.py", answer.Ask},
		{"standard", "sed -i s/a/b/ tests/test_a.py", answer.Warn},
		{"minimal", "sed -i s/a/b/ tests/test_a.py", answer.Allow},
	}
	for _, tt := range tests {
		cfg, err := config.Parse("aiwg.yml", []byte("agent_persistence:\n  detection_mode: "+tt.mode+"\n"))
		if err != nil {
			t.Fatal(err)
		}
		g := newGuard(t, root, cfg)
		if got := g.Command(tt.cmd, root).Decision; got != tt.want {
			t.Errorf("mode %s: Command(%q) = %s, want %s", tt.mode, tt.cmd, got, tt.want)
		}
	}
}

func TestRuleOverrides(t *testing.T) {
	root := sample(t)
	tests := []struct {
		yml, cmd string
		want     answer.Decision
		err      string
	}{
		{"risk_rules:\n  - name: git-push-force\n    action: ask\n", "git push -f", answer.Ask, ""},
		{"risk_rules:\n  - name: test-files\n    action: allow\n", "sed -i s/a/b/ tests/test_a.py", answer.Allow, ""},
		{"risk_rules:\n  - name: no-publish\n    tools: [Bash]\n    commands: [\"npm publish*\"]\n    level: high\n    action: deny\n", "npm publish --tag next", answer.Deny, ""},
		{"risk_rules:\n  - name: secrets\n    paths: [\"**/*.pem\"]\n    level: high\n    action: ask\n", "ls", answer.Allow, ""},
		{"risk_rules:\n  - name: tamper\n    action: allow\n", "", "", "cannot be changed"},
		{"risk_rules:\n  - name: rm-critical\n    paths: [x]\n", "", "", "built in"},
		{"risk_rules:\n  - name: lonely\n    level: low\n    action: warn\n", "", "", "matches nothing"},
	}
	for _, tt := range tests {
		cfg, err := config.Parse("aiwg.yml", []byte(tt.yml))
		if err != nil {
			if tt.err == "" || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("Parse(%q) error = %v, want %q", tt.yml, err, tt.err)
			}
			continue
		}
		g, err := New(cfg, root, testEnv(root))
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) || !strings.Contains(err.Error(), "aiwg.yml:") {
				t.Errorf("New(%q) error = %v, want one with %q naming aiwg.yml", tt.yml, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if got := g.Command(tt.cmd, root).Decision; got != tt.want {
			t.Errorf("with %q: Command(%q) = %s, want %s", tt.yml, tt.cmd, got, tt.want)
		}
	}
}

func TestAnswer(t *testing.T) {
	root := sample(t)
	g := newGuard(t, root, nil)
	a := g.Command("rm -rf tests", root).Answer()
	if a.Decision != answer.Deny || !strings.HasPrefix(a.Reason, "Blocked by ralph-hooks (rule test-delete): `rm -rf tests` deletes test tests/test_a.py") {
		t.Errorf("Answer = %+v", a)
	}
	a = g.Command("sed -i s/a/b/ tests/test_a.py", root).Answer()
	if a.Decision != answer.Warn || !strings.HasPrefix(a.Context, "You are about to modify test file tests/test_a.py. Verify this is a fix, not a deletion") {
		t.Errorf("Answer = %+v", a)
	}
}

func FuzzCommand(f *testing.F) {
	root := sample(f)
	g := newGuard(f, root, nil)
	for _, c := range readCorpus(f, "testdata/commands.txt") {
		f.Add(c.command)
	}
	for _, c := range readPeerCases(f) {
		f.Add(c.command)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		v := g.Command(cmd, root)
		switch v.Decision {
		case answer.Allow, answer.Warn, answer.Ask, answer.Deny:
		default:
			t.Fatalf("Command(%q).Decision = %q", cmd, v.Decision)
		}
		if v.Decision == answer.Deny && len(v.Changes) > 0 {
			t.Fatalf("Command(%q): denied with changes %v", cmd, v.Changes)
		}
		for _, p := range v.Changes {
			if _, ok := g.inProject(p); !ok {
				t.Fatalf("Command(%q): change %s outside the project", cmd, p)
			}
		}
	})
}

// TestOutsideClobber: replacing a file of the user's outside the project
// is refused; appending to it, or writing a new one, is not — but for the
// files later shells and tools run (startup-config), which ask.
func TestOutsideClobber(t *testing.T) {
	outsideTemp(t)
	root := sample(t)
	home := t.TempDir()
	for _, n := range []string{".bashrc", "notes.txt"} {
		if err := os.WriteFile(filepath.Join(home, n), []byte("export A=1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg, _ := config.Default()
	g, err := New(cfg, root, func(k string) string {
		if k == "HOME" {
			return home
		}
		return ""
	})
	if err != nil {
		t.Fatal(err)
	}
	for cmd, want := range map[string]answer.Decision{
		"echo 'alias x=y' > ~/.bashrc":  answer.Deny,
		"cp /tmp/rc ~/.bashrc":          answer.Deny,
		"echo 'alias x=y' >> ~/.bashrc": answer.Ask,
		"echo 'x' >> ~/notes.txt":       answer.Allow,
		"echo x > ~/new-notes.txt":      answer.Allow,
		"echo x > ~/.zshenv":            answer.Ask,
	} {
		if got := g.Command(cmd, root).Decision; got != want {
			t.Errorf("Command(%q) = %s, want %s", cmd, got, want)
		}
	}
}
