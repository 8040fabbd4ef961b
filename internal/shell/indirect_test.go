package shell

import (
	"io/fs"
	"slices"
	"strings"
	"testing"
)

// filesAnalyzer reads scripts from files (path to text) and git aliases
// from aliases.
func filesAnalyzer(files, aliases map[string]string) *Analyzer {
	return &Analyzer{
		Env: testEnv,
		ReadFile: func(p string) ([]byte, error) {
			if t, ok := files[p]; ok {
				return []byte(t), nil
			}
			return nil, fs.ErrNotExist
		},
		GitConfig: func(dir, key string) (string, bool) {
			v, ok := aliases[strings.TrimPrefix(key, "alias.")]
			return v, ok
		},
	}
}

// TestIndirect checks what make and just recipes, package.json scripts,
// git aliases from git's configuration and script files run, as commands
// read from their files.
func TestIndirect(t *testing.T) {
	files := map[string]string{
		"/proj/Makefile":     "D := out\nOUT ?= $(D)/x\ninclude extra.mk\nall: a b\na:\n\t@rm -rf $(OUT) \\\n\t  more\nb: ; echo $$HOME\n%.o: %.c\n\tcc $<\n",
		"/proj/extra.mk":     "c:\n\t-rm c.txt\n",
		"/proj/justfile":     "default: t\nt:\n    @go test {{flags}}\n",
		"/proj/package.json": `{"scripts":{"pretest":"echo pre","test":"jest","postinstall":"rm -rf cache"}}`,
		"/proj/.git/HEAD":    "ref: refs/heads/main\n",
		"/proj/x.py":         "import shutil\nshutil.rmtree('gone')\n",
	}
	aliases := map[string]string{"zap": "!rm -rf z", "wipe": "clean -fdx"}
	tests := []struct {
		src, cwd string
		want     []string
	}{
		{"make", "/proj", []string{"rm -rf out/x more [via make a]", "echo /home/u [via make b]", "make"}},
		{"make c", "/proj", []string{"rm c.txt [via make c]", "make c"}},
		{"make -n a", "/proj", []string{"make -n a"}},
		{"make OUT=/tmp/o a", "/proj", []string{"rm -rf /tmp/o more [via make a]", "make OUT=/tmp/o a"}},
		{"just", "/proj", []string{"go test ?${JUST_flags} [via just t]", "just"}},
		{"npm test", "/proj", []string{"echo pre [via npm run pretest]", "jest [via npm run test]", "npm test"}},
		{"npm ci", "/proj", []string{"rm -rf cache [via npm run postinstall]", "npm ci"}},
		{"yarn test", "/proj", []string{"echo pre [via yarn run pretest]", "jest [via yarn run test]", "yarn test"}},
		{"npm install left-pad", "/proj", []string{"npm install left-pad"}},
		{"git zap", "/proj/sub", []string{"git zap", "rm -rf z [via git alias zap (git config)]"}},
		{"git wipe", "/proj", []string{"git wipe", "git clean -fdx [via git alias wipe (git config)]"}},
		{"git status", "/proj", []string{"git status"}},
		{"git config alias.y '!rm -rf y'", "/proj", []string{"git config alias.y !rm -rf y", "rm -rf y [via git config alias.y]"}},
		{"python3 x.py", "/proj", []string{"python3 x.py", "rm -r -f gone [via python3 x.py]"}},
	}
	for _, tt := range tests {
		a := filesAnalyzer(files, aliases).Analyze(tt.src, tt.cwd)
		got := renderAll(a)
		slices.Sort(got)
		want := slices.Clone(tt.want)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("Analyze(%q) =\n\t%q\nwant\n\t%q", tt.src, got, want)
		}
	}
}

// FuzzProjectFiles checks that no Makefile, justfile or package.json makes
// the analysis of make, just or npm panic or loop: they are the project's
// files, which the agent writes.
func FuzzProjectFiles(f *testing.F) {
	f.Add("all: a\na:\n\trm -rf x\n", "t:\n    rm y\n", `{"scripts":{"test":"rm z"}}`)
	f.Add("include Makefile\nX = $(X)\na: a\n\t$(X)\n", "a: a\n    x\n", `{"scripts":{"pretest":"npm test","test":"npm test"}}`)
	f.Add("a:\\\n\\\n", "[private]\n@a b c: (d e)\n", `{"scripts":[]}`)
	f.Fuzz(func(t *testing.T, mk, just, pkg string) {
		if len(mk)+len(just)+len(pkg) > 4096 {
			return
		}
		files := map[string]string{"/proj/Makefile": mk, "/proj/justfile": just, "/proj/package.json": pkg}
		for _, src := range []string{"make", "make all a", "just", "just a", "npm test", "npm install", "yarn a"} {
			a := filesAnalyzer(files, nil).Analyze(src, "/proj")
			checkAnalysis(t, src, a)
		}
	})
}

// TestIndirectBounded checks that recipes that call themselves, and
// variables that double at each expansion, end quickly.
func TestIndirectBounded(t *testing.T) {
	files := map[string]string{
		"/proj/Makefile":     "X = $(X)$(X)$(X)$(X)$(X)$(X)$(X)$(X)$(X)$(X)\na: b c d\n\t$(MAKE) a; echo $(X)\nb: a\n\tmake b c d\nc: a b\n\tnpm test\nd:\n\tmake\n",
		"/proj/package.json": `{"scripts":{"pretest":"make a","test":"npm test","posttest":"yarn test"}}`,
	}
	a := filesAnalyzer(files, nil).Analyze("make a", "/proj")
	if n := len(a.Cmds); n > 5000 {
		t.Errorf("make a: %d commands walked, want a bounded walk", n)
	}
}
