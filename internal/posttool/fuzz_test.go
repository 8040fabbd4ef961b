package posttool

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ralph-hooks/ralph-hooks/internal/signature"
)

// FuzzParseError: any error text gives a bounded, valid signature, and
// normalising is idempotent and leaves no digits.
func FuzzParseError(f *testing.F) {
	for _, s := range []string{
		"", "Exit code 1", "Exit code -1\n", "exit status 2: x",
		"Exit code 1\nTraceback (most recent call last):\n  File \"/tmp/x.py\", line 1\nTypeError: bad 'x'",
		"Exit code 1\n--- FAIL: TestAdd (0.00s)\nFAIL",
		"panic: runtime error: index out of range [5] with length 3\n[signal SIGSEGV code=0x1 addr=0x0 pc=0x4a2b3c]",
		"thread 'main' panicked at src/main.rs:2:5:\nboom", "error[E0425]: cannot find value",
		"Exception in thread \"main\" java.lang.IllegalStateException: x",
		"E       AssertionError: assert 3 == 4", "FAILED t.py::test_a - ValueError: 1",
		"KeyError: 'fcaaa940-d95a-4992-a5d1-09e1783c3923' at C:\\Users\\x\\a.py and file:///tmp/a",
		"\xff\xfe\x00bad utf8 /a/b/c 0xZZ", "String to replace not found in file.",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p := signature.ParseError(s)
		for _, tool := range []string{"Bash", "Edit", ""} {
			sig := p.Signature(tool)
			if sig == "" || len(sig) > signature.MaxLen || !utf8.ValidString(sig) {
				t.Fatalf("Signature(%q) = %q: empty, too long or not UTF-8", tool, sig)
			}
			if g := guidance(p, tool); !strings.HasPrefix(g, "Error detected: ") || !utf8.ValidString(g) {
				t.Fatalf("guidance = %q", g)
			}
		}
		if p2 := signature.ParseError(s); p2 != p {
			t.Fatalf("ParseError is not deterministic: %+v, %+v", p, p2)
		}
		n := signature.Normalize(s)
		if !utf8.ValidString(n) || strings.ContainsAny(n, "0123456789") {
			t.Fatalf("signature.Normalize(%q) = %q: not UTF-8, or digits left", s, n)
		}
		if n2 := signature.Normalize(n); n2 != n {
			t.Fatalf("normalize is not idempotent:\n%q\n%q\n%q", s, n, n2)
		}
	})
}

// FuzzReadCI: any CI file reads without panicking, every step has a key
// and its line, and a step's line read again gives that step.
func FuzzReadCI(f *testing.F) {
	f.Add(".github/workflows/ci.yml", workflow)
	for _, s := range []string{
		"script:\n  - python -m pytest -q\n  - npm run lint || true\n  allow_failure: true\n",
		"sh './gradlew check'; sh 'mvn -B verify'", ".\n-\n- id: ruff\n", "uses: a/b-lint@v1 # x",
		"make test lint && go vet ./... | tee x; cargo clippy", "if: ${{ false }}\nwhen: never",
		"\xff npm run \"test\"", "npm run", "yarn", "go", "- uses:", "continue-on-error:",
	} {
		f.Add(".pre-commit-config.yaml", s)
		f.Add(".gitlab-ci.yml", s)
	}
	f.Fuzz(func(t *testing.T, name, src string) {
		ci := ReadCI(name, []byte(src))
		for _, st := range ci.Steps {
			if st.Key == "" || st.Text == "" || strings.Contains(st.Text, "\n") {
				t.Fatalf("bad step %+v", st)
			}
			if strings.HasSuffix(st.Text, "…") {
				continue // clipped: the line read again is another line
			}
			again := ReadCI(name, []byte(st.Text))
			found := false
			for _, s2 := range again.Steps {
				found = found || s2.Key == st.Key && s2.Off == st.Off
			}
			if !found {
				t.Fatalf("step %+v: its line read again gives %+v", st, again.Steps)
			}
		}
		removed, disabled := compareCI(ci, ci)
		if len(removed)+len(disabled) > 0 {
			t.Fatalf("a file compared with itself lost %v, %v", removed, disabled)
		}
		if removed, _ := compareCI(ci, CI{}); len(removed) > len(ci.Steps) {
			t.Fatalf("more steps removed than there were")
		}
	})
}

// FuzzBypasses: any command line is judged without panicking, and every
// bypass names its command.
func FuzzBypasses(f *testing.F) {
	for _, s := range []string{
		"git commit --no-verify -m x", "HUSKY=0 git commit -anm x", "export SKIP=a; git push --no-verify",
		"bash -c 'env LEFTHOOK=0 git commit'", "eval \"git commit -n\"", "git -c core.hooksPath= commit",
		"sudo -u x nice -n 5 git merge --no-verify", "git commit -m \"$(cat <<'EOF'\nx\nEOF\n)\"",
		"sh -c 'sh -c \"sh -c \\\"HUSKY=0 git commit\\\"\"'", "git commit -- -n", "((", "${x",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		for _, b := range Bypasses(cmd, "/p") {
			if b.Command == "" || b.What == "" {
				t.Fatalf("Bypasses(%q): %+v", cmd, b)
			}
		}
	})
}
