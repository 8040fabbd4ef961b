package risk

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/answer"
)

// TestIndirect judges programs whose command line does not show what they
// run: make and just recipes, package.json scripts, a git alias set in
// git's configuration, script files of every language. Each is read from
// the project and judged like a script file; ordinary targets stay
// allowed.
func TestIndirect(t *testing.T) {
	outsideTemp(t)
	root := sample(t)
	files := map[string]string{
		"Makefile": "STATE := .aiwg\nall: build\nbuild:\n\tgo build ./...\n" +
			"zap: helper\n\t@rm -rf $(STATE)\nhelper:\n\techo hi\n" +
			"deep: zap\n" +
			"clean:\n\trm -rf build\n" +
			"cfg:\n\tsed -i s/a/b/ aiwg.yml\n" +
			"cdzap:\n\tcd src && \\\n\trm -rf ../.aiwg\n" +
			"vars:\n\trm -rf $(OUT)/x\n",
		"sub/GNUmakefile":   "x:\n\techo '{}' > ../.aiwg/ralph/state.json\n",
		"other.mk":          "y:\n\trm aiwg.yml\n",
		"goal.mk":           "a:\n\techo a\nz:\n\trm -rf .aiwg\n.DEFAULT_GOAL := z\n",
		"pat.mk":            "%:\n\trm -rf .aiwg\n",
		"tools/noshebang":   "rm -rf .aiwg\n",
		"inc.mk":            "include rules/more.mk\n",
		"rules/more.mk":     "wipe:\n\trm -rf .aiwg\n",
		"tools/__init__.py": "",
		"tools/mod.py":      "import os\nos.remove('aiwg.yml')\n",
		"justfile":          "default: test\ntest:\n    go test ./...\nwipe:\n    rm -rf .aiwg\nchain: wipe\n",
		"package.json":      `{"scripts":{"test":"go test ./...","wipe":"rm -rf .aiwg","prebuild":"sort -o aiwg.yml aiwg.yml","build":"tsc","postinstall":"rm -rf .aiwg/ralph","lint":"eslint ."}}`,
		"tools/wipe.py":     "import shutil\nshutil.rmtree('.aiwg')\n",
		"tools/ok.py":       "import shutil\nshutil.rmtree('build')\nprint('ok')\n",
		"tools/calc.py":     "import os\ndef f(p):\n    os.remove(p)\n",
		"tools/wipe.js":     "require('fs').rmSync('.aiwg', {recursive: true})\n",
		"tools/wipe.rb":     "require 'fileutils'\nFileUtils.rm_rf('.aiwg')\n",
		"tools/wipe.pl":     "unlink 'aiwg.yml';\n",
		"tools/shebang":     "#!/usr/bin/env python3\nopen('aiwg.yml', 'w').write('')\n",
		"tools/wipe.sh":     "rm -rf .aiwg\n",
		"node_modules/x.js": "require('fs').rmSync('.aiwg', {recursive: true})\n",
	}
	for name, body := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		cmd  string
		want answer.Decision
	}{
		{"make zap", answer.Deny},
		{"make deep", answer.Deny},
		{"make cfg", answer.Deny},
		{"make cdzap", answer.Deny},
		{"make -C sub", answer.Deny},
		{"make -f other.mk y", answer.Deny},
		{"make -f inc.mk wipe", answer.Deny}, // a rule of an included file
		{"python3 -m tools.mod", answer.Deny},
		{"bash < tools/wipe.sh", answer.Deny},
		{"make -f goal.mk", answer.Deny},         // .DEFAULT_GOAL
		{"make -f pat.mk anything", answer.Deny}, // a pattern rule
		{"make $(echo zap)", answer.Deny},        // a computed target: any of them
		{"npm run $(echo wipe)", answer.Deny},    // a computed script: any of them
		{"just $(echo wipe)", answer.Deny},
		{"node -r ./tools/wipe.js -e 1", answer.Deny}, // a module loaded first
		{"python3 -W ignore tools/wipe.py", answer.Deny},
		{"ruby -r json tools/wipe.rb", answer.Deny},
		{"./tools/noshebang", answer.Deny}, // a text file with no #! runs as shell
		{"make STATE=.aiwg/ralph zap", answer.Deny},
		{"just wipe", answer.Deny},
		{"just chain", answer.Deny},
		{"npm run wipe", answer.Deny},
		{"npm run build", answer.Deny}, // its prebuild
		{"npm install", answer.Deny},   // postinstall
		{"yarn wipe", answer.Deny},
		{"pnpm run wipe", answer.Deny},
		{"bun run wipe", answer.Deny},
		{"cd src && npm run wipe", answer.Deny}, // the nearest package.json
		{"python3 tools/wipe.py", answer.Deny},
		{"node tools/wipe.js", answer.Deny},
		{"ruby tools/wipe.rb", answer.Deny},
		{"perl tools/wipe.pl", answer.Deny},
		{"./tools/shebang", answer.Deny},
		{"sh tools/wipe.sh", answer.Deny},
		// Ordinary work.
		{"make", answer.Allow},
		{"make build", answer.Allow},
		{"make -n zap", answer.Allow},
		{"just", answer.Allow},
		{"just test", answer.Allow},
		{"npm test", answer.Allow},
		{"npm run lint", answer.Allow},
		{"npm install left-pad", answer.Allow},
		{"yarn add left-pad", answer.Allow},
		{"python3 tools/ok.py", answer.Allow},
		{"node node_modules/x.js", answer.Allow},
		{"python3 -m pytest", answer.Allow},
	}
	if _, err := exec.LookPath("git"); err == nil {
		for _, args := range [][]string{
			{"config", "alias.zap", "!rm -rf .aiwg"},
			{"config", "alias.wipe", "clean -fdx"},
			{"config", "alias.st", "status"},
		} {
			cmd := exec.Command("git", args...)
			cmd.Dir = root
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("git %v: %v\n%s", args, err, out)
			}
		}
		cases = append(cases, []struct {
			cmd  string
			want answer.Decision
		}{
			// aiwg.yml, never committed: git stash -u would take it.
			{"git stash -u", answer.Deny},
			{"git -c clean.requireForce=false clean -d", answer.Deny},
			{"git zap", answer.Deny},
			{"git wipe", answer.Deny},
			{"cd src && git zap", answer.Deny},
			{"git st", answer.Allow},
			{"git status", answer.Allow},
		}...)
	}
	if err := os.WriteFile(filepath.Join(root, "aiwg.yml"), []byte("fail_closed: true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	g := newGuard(t, root, nil)
	for _, c := range cases {
		v := g.Command(c.cmd, root)
		if v.Decision != c.want {
			reason := ""
			if v.Top != nil {
				reason = v.Top.Rule + ": " + v.Top.Reason
			}
			t.Errorf("%q = %s, want %s\n\t%s", c.cmd, v.Decision, c.want, reason)
		}
	}
	// A script file that computes what it deletes is a warning, not a
	// question: it is the project's code.
	if v := g.Command("python3 tools/calc.py", root); v.Decision == answer.Deny || v.Decision == answer.Ask {
		t.Errorf("python3 tools/calc.py = %s, want allow or warn", v.Decision)
	}
}
