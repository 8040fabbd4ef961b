package completion

import (
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/ralph-hooks/ralph-hooks/internal/testindex"
)

func TestMakeGoals(t *testing.T) {
	for cmd, want := range map[string][]string{
		"make test": {"test"},
		"make":      nil,
		"make -j4 -C sub -f ci.mk GO=go1 unit lint": {"unit", "lint"},
		"cd x && make check; make -k all":           {"check", "all"},
		"go test ./... && gmake integration":        {"integration"},
		"echo test":                                 nil,
	} {
		if got := makeGoals(cmd); !reflect.DeepEqual(got, want) {
			t.Errorf("makeGoals(%q) = %q, want %q", cmd, got, want)
		}
	}
}

// TestRecipeFiles: the makefile's includes and the scripts of the goal's
// recipes, its prerequisites' and the variables' are digested, and the
// scripts they run; another goal's script, a test file, a data file and
// a path outside the project are not.
func TestRecipeFiles(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		"Makefile": "include tests.mk\n-include missing.mk\nLINT := tools/lint.sh\n\n" +
			"all: build\n\nbuild:\n\tgo build ./...\n\n" +
			"test: gen | build\n\t$(GOTEST) ./...\n\tpython3 tests/test_calc.py\n\n" +
			"gen: ; ./gen.py --out x.txt\n\n" +
			"deploy: test\n\t./scripts/deploy.sh\n\t../outside.sh\n\n" +
			"check: t\n\t./t\n\t./bin/tool\n\nt: t.c\n\tcc -o t t.c\n",
		"tests.mk":           "GOTEST = ./scripts/test.sh\n",
		"scripts/test.sh":    "#!/bin/sh\n. scripts/lib.sh\ngo test ./...\n",
		"scripts/lib.sh":     "export X=1\n",
		"scripts/deploy.sh":  "#!/bin/sh\n",
		"tools/lint.sh":      "#!/bin/sh\n",
		"gen.py":             "print(1)\n",
		"x.txt":              "data\n",
		"tests/test_calc.py": "def test_x(): pass\n",
		"package.json": `{"scripts":{"pretest":"node scripts/pre.js","test":"npm run unit && jest","unit":"sh scripts/unit.sh",` +
			`"build":"node scripts/build.js"}}`,
		"scripts/pre.js":   "1\n",
		"scripts/unit.sh":  "jest\n",
		"scripts/build.js": "1\n",
		"t":                "#!/bin/sh\necho built\n",
		"bin/tool":         "\x7fELF\x00\x01",
	})
	idx := testindex.Index{"tests/test_calc.py": {}}
	for cmd, want := range map[string][]string{
		"make test": {"gen.py", "missing.mk", "scripts/lib.sh", "scripts/test.sh", "tests.mk", "tools/lint.sh"},
		// The variables' scripts, whatever the goal; a missing include is
		// digested as missing (one made later is a change).
		"make":     {"missing.mk", "scripts/lib.sh", "scripts/test.sh", "tests.mk", "tools/lint.sh"},
		"npm test": {"scripts/pre.js", "scripts/unit.sh"},
	} {
		var got []string
		recipeFiles(root, cmd, commandWords(cmd), idx, func(rel string) { got = append(got, rel) })
		sort.Strings(got)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: digested %q, want %q", cmd, got, want)
		}
	}
}

func TestNpmScripts(t *testing.T) {
	s := gjson.Parse(`{"test":"run-p lint unit","lint":"eslint .","unit":"jest","posttest":"node report.js","x":"sh x.sh"}`)
	got := npmScripts(s, "yarn test")
	for _, w := range []string{"run-p lint unit", "eslint .", "jest", "node report.js"} {
		if !contains(splitLines(got), w) {
			t.Errorf("npmScripts lacks %q: %q", w, got)
		}
	}
	if contains(splitLines(got), "sh x.sh") {
		t.Errorf("npmScripts has another script's: %q", got)
	}
	if npmScripts(gjson.Parse(`[1]`), "npm test") != "" {
		t.Error("scripts that are no object gave text")
	}
}

func splitLines(s string) []string { return strings.Split(s, "\n") }
