package shell

import (
	"maps"
	"slices"
	"testing"
)

// TestTOMLStrings checks the TOML the task runners use: tables, dotted
// and quoted keys, the four kinds of strings, arrays over lines, inline
// tables, comments; and that what it cannot read is reported.
func TestTOMLStrings(t *testing.T) {
	text := `# top
a = "x\ty\"z"   # comment
b.c = 'lit\n'
[tasks.clean]
run = ["rm -rf out", 'echo "done"',
  # between
  "x",]
[tasks."build:x"]
run = """
line1
line2 \
  joined"""
dir = '''
raw\n'''
[tool.pdm.scripts]
test = {cmd = ["pytest", "-q"], env = {A = "1"}}
n = 3
flag = true
[[arr]]
k = "v"
`
	kv, ok := tomlStrings(text)
	if !ok {
		t.Fatal("tomlStrings: not read")
	}
	want := tomlKV{
		"a": {"x\ty\"z"}, "b.c": {`lit\n`},
		"tasks.clean.run":           {"rm -rf out", `echo "done"`, "x"},
		`tasks."build:x".run`:       {"line1\nline2 joined"},
		`tasks."build:x".dir`:       {`raw\n`},
		"tool.pdm.scripts.test.cmd": {"pytest", "-q"}, "tool.pdm.scripts.test.env.A": {"1"},
		"tool.pdm.scripts.n": {"3"}, "tool.pdm.scripts.flag": {"true"}, "arr.[].k": {"v"},
	}
	for _, k := range slices.Sorted(maps.Keys(want)) {
		if !slices.Equal(kv[k], want[k]) {
			t.Errorf("%s = %q, want %q", k, kv[k], want[k])
		}
	}
	if len(kv) != len(want) {
		t.Errorf("%d keys, want %d: %q", len(kv), len(want), kv)
	}
	for _, bad := range []string{`a = "open`, "a = '''never", "[t", `a = "\q"`, "= 1", `a = "x" b`, `a = "\u12"`} {
		if _, ok := tomlStrings(bad); ok {
			t.Errorf("tomlStrings(%q) read, want refused", bad)
		}
	}
}

// TestTOMLTasks checks what mise, pdm, poe and hatch run.
func TestTOMLTasks(t *testing.T) {
	files := map[string]string{
		"/proj/mise.toml": "[tasks.clean]\nrun = \"rm -rf out\"\n[tasks.test]\nrun = [\"go vet ./...\", \"go test ./...\"]\ndepends = [\"clean\"]\n",
		"/proj/pyproject.toml": `[tool.pdm.scripts]
clean = "rm -rf build"
test = {cmd = ["pytest", "-q"]}
pre_test = "echo pre"
all = {composite = ["clean", "echo hi"]}
callit = {call = "pkg:main"}
odd = {weird = "x"}
[tool.poe.tasks]
seq = { sequence = ["rm -rf dist"] }
[tool.hatch.envs.default.scripts]
cov = ["pytest", "coverage report"]
`,
		"/proj/.mise/tasks/deploy": "#!/bin/sh\nrm -rf site\n",
	}
	tests := []struct {
		src    string
		want   []string
		opaque int
	}{
		{"mise run clean", []string{"clean [via mise run]", "rm -rf out [via mise run clean]"}, 0},
		{"mise r test", []string{"mise r test", "go vet ./... [via mise run test]", "go test ./... [via mise run test]", "rm -rf out [via mise run clean]"}, 0},
		{"mise run deploy", []string{"deploy [via mise run]", "rm -rf site [via mise run deploy]"}, 0},
		{"mise install", []string{"mise install"}, 0},
		{"pdm run test", []string{"test [via pdm run]", "echo pre [via pdm pre_test]", "pytest -q [via pdm test]"}, 0},
		{"pdm run all", []string{"all [via pdm run]", "rm -rf build [via pdm clean]", "echo hi [via pdm all]"}, 0},
		{"pdm run callit", []string{"callit [via pdm run]"}, 0},
		{"pdm run odd", []string{"odd [via pdm run]"}, 1},
		{"poe seq", []string{"poe seq", "rm -rf dist [via poe seq]"}, 0},
		{"hatch run cov", []string{"cov [via hatch run]", "pytest [via hatch cov]", "coverage report [via hatch cov]"}, 0},
	}
	for _, tt := range tests {
		a := filesAnalyzer(files, nil).Analyze(tt.src, "/proj")
		got := renderAll(a)
		slices.Sort(got)
		want := slices.Clone(tt.want)
		slices.Sort(want)
		if !slices.Equal(got, want) || len(a.Opaque) != tt.opaque {
			t.Errorf("Analyze(%q) =\n\t%q, opaque %q\nwant\n\t%q, %d opaque", tt.src, got, a.Opaque, want, tt.opaque)
		}
	}
}

// FuzzTOMLStrings checks that no TOML text makes the reader panic or loop:
// mise.toml and pyproject.toml are the project's files.
func FuzzTOMLStrings(f *testing.F) {
	f.Add("[tasks.a]\nrun = [\"rm x\", 'y']\n")
	f.Add("a = \"\"\"\nx\\\n  y\"\"\"\nb = {c = {d = '1'}}\n")
	f.Add("[[a]]\n[\"q\".b]\nc.d = [[1, 2], [\"x\"]]\n")
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 4096 {
			return
		}
		tomlStrings(text)
		files := map[string]string{"/proj/mise.toml": text, "/proj/pyproject.toml": text}
		for _, src := range []string{"mise run a", "pdm run a", "poe a", "hatch run a"} {
			checkAnalysis(t, src, filesAnalyzer(files, nil).Analyze(src, "/proj"))
		}
	})
}
