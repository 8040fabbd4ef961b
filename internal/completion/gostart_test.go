package completion

import (
	"path"
	"sort"
	"strings"
	"testing"
)

// TestGoStartCode: the Go code that can end a test binary or choose its
// tests before they run is digested, by each route an agent could print
// go test's PASS lines from (branch atk's attacks a1–a5 and more); code
// that does neither is not.
func TestGoStartCode(t *testing.T) {
	for _, c := range []struct {
		name, src string
		want      []string // keys, the file's place left as F
	}{
		{"init that exits", "package p\nimport \"os\"\nfunc init() { os.Exit(0) }", []string{"exit in F: init #1"}},
		{"var initializer that exits", "package p\nimport \"os\"\nvar _ = func() int { os.Exit(0); return 0 }()", []string{"exit in F: var _ #1"}},
		{"init through a helper", "package main\nimport \"os\"\nfunc init() { done() }\nfunc done() { os.Exit(0) }", []string{"exit in F: init #1"}},
		{"exit as a value", "package main\nimport \"os\"\nvar quit = os.Exit\nfunc init() { quit(0) }", []string{"exit in F: init #2", "exit in F: var quit #1"}},
		{"TestMain without m.Run", "package p\nimport \"testing\"\nfunc TestMain(m *testing.M) {}", []string{"test start in F: TestMain #1"}},
		{"TestMain that exits", "package p\nimport (\"os\"; \"testing\")\nfunc TestMain(m *testing.M) { os.Exit(m.Run()) }", []string{"exit in F: TestMain #1"}},
		{"init setting a test flag", "package p\nimport (\"flag\"; \"testing\")\nfunc init() { testing.Init(); flag.Set(\"test.run\", \"X\") }", []string{"test start in F: init #1"}},
		{"init rewriting os.Args", "package p\nimport \"os\"\nfunc init() { os.Args = append(os.Args, \"-test.run=X\") }", []string{"test start in F: init #1"}},
		{"raw exit in the code under test", "package p\nimport \"syscall\"\nfunc Sub(a, b int) int { syscall.Exit(0); return 0 }", []string{"exit in F: func Sub #1"}},
		{"an alias of os", "package p\nimport sys \"os\"\nfunc init() { sys.Exit(0) }", []string{"exit in F: init #1"}},
		{"x/sys/unix", "package p\nimport \"golang.org/x/sys/unix\"\nfunc Sub() { unix.Exit(0) }", []string{"exit in F: func Sub #1"}},
		{"exec in the code under test", "package p\nimport \"syscall\"\nfunc Sub() { syscall.Exec(\"/bin/true\", nil, nil) }", []string{"exit in F: func Sub #1"}},
		{"x/sys/unix exec", "package p\nimport \"golang.org/x/sys/unix\"\nfunc Sub() { unix.Exec(\"/bin/true\", nil, nil) }", []string{"exit in F: func Sub #1"}},
		{"any raw system call", "package p\nimport sc \"syscall\"\nfunc Sub() { sc.RawSyscallNoError(231, 0, 0, 0) }", []string{"exit in F: func Sub #1"}},
		{"a main's code under test that execs", "package main\nimport \"syscall\"\nfunc Sub() { syscall.Exec(\"/bin/true\", nil, nil) }", []string{"exit in F: func Sub #1"}},
		{"a main's os.Exit in a helper is its business", "package main\nimport \"os\"\nfunc fatal() { os.Exit(1) }", nil},
		{"a method named Exit is no exit", "package p\ntype app struct{}\nfunc (app) Exit() {}\nvar a app\nfunc Stop() { a.Exit() }\nfunc init() { a.Exit() }", nil},
		{"a main's own exit is its business", "package main\nimport \"os\"\nfunc main() { os.Exit(run()) }\nfunc run() int { return 0 }", nil},
		{"an init that exits nothing", "package p\nimport \"fmt\"\nfunc init() { fmt.Println(\"hi\") }\nvar x = fmt.Sprint(1)", nil},
		// What parses of a broken file is judged: it does not build anyway.
		{"does not parse", "package p\nimport \"os\"\nfunc init() { os.Exit(", []string{"exit in F: init #1"}},
	} {
		var got []string
		for k := range goStartCode([]byte(c.src)) {
			got = append(got, strings.Replace(k, "\x00", "F", 1))
		}
		sort.Strings(got)
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

// TestGoNative: the code a Go test binary runs that no Go selector names
// (linkname, a cgo preamble) is digested; a file without either is not.
func TestGoNative(t *testing.T) {
	for _, c := range []struct {
		name, src string
		want      string // the keys, sorted, joined by |
	}{
		{"linkname to runtime.exit", "package p\nimport _ \"unsafe\"\n//go:linkname quit runtime.exit\nfunc quit(int32)\n", "go:linkname"},
		{"cgo preamble", "package p\n// #include <stdlib.h>\n// static void q(void) { _Exit(0); }\nimport \"C\"\nfunc Sub() { C.q() }\n", "cgo preamble"},
		{"cgo in an import block", "package p\n/*\nvoid q(void) {}\n*/\nimport (\n\t\"C\"\n\t\"fmt\"\n)\n", "cgo preamble"},
		{"a string \"C\" is no cgo", "package p\nvar x = \"C\"\n", ""},
		{"plain Go", "package p\nfunc Sub(a, b int) int { return a - b }\n", ""},
	} {
		var got []string
		for k := range goNative("f.go", []byte(c.src)) {
			got = append(got, k)
		}
		sort.Strings(got)
		if strings.Join(got, "|") != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
	// The preamble's C is what is digested: a change to it changes the digest.
	a, _ := cgoPreamble([]byte("package p\n// static void q(void) {}\nimport \"C\"\n"))
	b, _ := cgoPreamble([]byte("package p\n// static void q(void) { _Exit(0); }\nimport \"C\"\n"))
	if string(a) == string(b) {
		t.Errorf("cgo preambles digested alike: %q", a)
	}
}

// TestExitLines: the lines of Python, Ruby and Rust files that
// can end a test run's process are found; the exits a runner catches and
// look-alikes are not.
func TestExitLines(t *testing.T) {
	for _, c := range []struct {
		rel, src string
		want     string // the lines found, joined by |
	}{
		{"calc.py", "import os\ndef sub(a, b):\n    os._exit(0)\n", "os._exit(0)"},
		{"calc.py", "from os import _exit\n", "from os import _exit"},
		{"calc.py", "import os\nos.execv('/bin/true', ['true'])\n", "os.execv('/bin/true', ['true'])"},
		{"calc.py", "import pytest\npytest.exit('done', returncode=0)\n", "pytest.exit('done', returncode=0)"},
		{"calc.py", "getattr(os, '_' + 'exit')(0)\n", "getattr(os, '_' + 'exit')(0)"},
		{"calc.py", "import ctypes\n", "import ctypes"},
		{"calc.py", "import sys\nif __name__ == '__main__':\n    sys.exit(main())\nif os.name == 'posix':\n    pass\n", ""},
		// jest and vitest catch process.exit, and their reports hold only
		// the tests that ran: not digested (cheat_jest, cheat_vitest).
		{"src/calc.js", "function sub(a, b) { process.exit(0) }\n", ""},
		{"lib/calc.rb", "def sub(a, b)\n  exit!(0)\nend\n", "exit!(0)"},
		{"lib/calc.rb", "Process.kill(:KILL, Process.ppid)\n", "Process.kill(:KILL, Process.ppid)"},
		{"lib/calc.rb", "at_exit { exit 0 }\n", "at_exit { exit 0 }"},
		{"lib/calc.rb", "def executor; end\n", ""},
		{"src/lib.rs", "pub fn sub(a: i32, b: i32) -> i32 { std::process::exit(0) }\n", "pub fn sub(a: i32, b: i32) -> i32 { std::process::exit(0) }"},
		{"src/lib.rs", "use std::process::exit;\n", "use std::process::exit;"},
		{"src/lib.rs", "unsafe { libc::_exit(0) }\n", "unsafe { libc::_exit(0) }"},
		{"src/lib.rs", "pub fn sub(a: i32, b: i32) -> i32 { a - b }\n", ""},
		{"README.md", "os._exit(0)\n", ""},
	} {
		if got := strings.Join(exitLines(c.rel, []byte(c.src)), "|"); got != c.want {
			t.Errorf("%s %q: got %q, want %q", c.rel, c.src, got, c.want)
		}
	}
}

// TestRelDir: the directory goNativeFiles groups a view's paths by is
// path.Dir's, for every path a view makes.
func TestRelDir(t *testing.T) {
	for _, rel := range []string{"x.go", "a/x.go", "a/b/c/x.s", ".hidden/x.go", "a/.x", "a b/c d.go", "ä/ö.go"} {
		if got, want := relDir(rel), path.Dir(rel); got != want {
			t.Errorf("relDir(%q) = %q, path.Dir %q", rel, got, want)
		}
	}
}
