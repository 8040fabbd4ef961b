package completion

import (
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
