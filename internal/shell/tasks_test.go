package shell

import (
	"slices"
	"testing"
)

// TestTasks checks what deno task, composer's scripts and go-task run, as
// commands read from deno.json(c), composer.json and Taskfile.yml.
func TestTasks(t *testing.T) {
	files := map[string]string{
		"/proj/deno.jsonc": "{\n // tasks\n \"tasks\": {\"clean\": \"rm -rf out\", \"test\": {\"command\": \"deno test\", \"dependencies\": [\"clean\"]}}}",
		"/proj/composer.json": `{"scripts": {"clean": "rm -rf var", "test": ["@clean", "phpunit", "@php bin/x.php"],
			"post-install-cmd": ["App\\Setup::run", "rm -rf cache"], "post-autoload-dump": "@putenv X=1"}}`,
		"/proj/Taskfile.yml": "version: '3'\ntasks:\n  default:\n    cmds:\n      - task: clean\n  clean:\n    cmds:\n      - rm -rf dist\n      - cmd: rm -rf {{.OUT}}\n  test:\n    deps: [build]\n    cmds: [go test ./...]\n  build: go build ./...\n  sub:\n    dir: tests\n    cmds:\n      - rm -rf *\n",
	}
	tests := []struct {
		src  string
		want []string
	}{
		{"deno task clean", []string{"deno task clean", "rm -rf out [via deno task clean]"}},
		{"deno task test", []string{"deno task test", "deno test [via deno task test]", "rm -rf out [via deno task clean]"}},
		{"deno task", []string{"deno task"}},
		{"deno test", []string{"deno test"}},
		{"composer clean", []string{"composer clean", "rm -rf var [via composer clean]"}},
		{"composer run-script test", []string{"composer run-script test", "phpunit [via composer test]", "php bin/x.php [via composer test]", "rm -rf var [via composer clean]"}},
		{"composer install", []string{"composer install", "rm -rf cache [via composer post-install-cmd]"}},
		{"composer show", []string{"composer show"}},
		{"task", []string{"task", "rm -rf dist [via task clean]", "rm -rf ?${TASK_OUT} [via task clean]"}},
		{"task test", []string{"task test", "go test ./... [via task test]", "go build ./... [via task build]"}},
		{"task --list", []string{"task --list"}},
		{"task -d /proj sub", []string{"task -d /proj sub", "rm -rf * [via task sub]"}},
	}
	for _, tt := range tests {
		a := filesAnalyzer(files, nil).Analyze(tt.src, "/proj")
		got := renderAll(a)
		slices.Sort(got)
		want := slices.Clone(tt.want)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("Analyze(%q) =\n\t%q\nwant\n\t%q", tt.src, got, want)
		}
	}
	if a := filesAnalyzer(files, nil).Analyze("composer install", "/proj"); len(a.OpaqueCode) != 1 {
		t.Errorf("composer install: opaque code %q, want the PHP callback", a.OpaqueCode)
	}
}

// FuzzTaskFiles checks that no deno.json, composer.json or Taskfile makes
// the analysis panic or loop: they are the project's files, which the
// agent writes.
func FuzzTaskFiles(f *testing.F) {
	f.Add(`{"tasks":{"a":{"command":"rm x","dependencies":["a"]}}}`, `{"scripts":{"a":["@a","rm y"]}}`, "tasks:\n  a:\n    deps: [a]\n    cmds: [{task: a}, rm z]\n")
	f.Add("{/* x */\"tasks\":[]}", `{"scripts":[]}`, "tasks: [1, 2]\n")
	f.Fuzz(func(t *testing.T, deno, composer, taskfile string) {
		if len(deno)+len(composer)+len(taskfile) > 4096 {
			return
		}
		files := map[string]string{"/proj/deno.json": deno, "/proj/composer.json": composer, "/proj/Taskfile.yml": taskfile}
		for _, src := range []string{"deno task a", "composer a", "composer install", "task", "task a", "task $x"} {
			checkAnalysis(t, src, filesAnalyzer(files, nil).Analyze(src, "/proj"))
		}
	})
}
