package bench

import (
	"bufio"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// maxOwnInitBytes bounds what ralph's own packages allocate while
// pre-tool-call initialises them, before a call is read: package-level
// maps, tables built by function calls and compiled regular expressions
// run on every call, needed or not (a switch, a constant slice or a
// sync.OnceValue costs nothing, or a few bytes). 702 allocations and
// 68,768 bytes before branch start8; 123 and 4,504 after, nearly all
// sync.OnceValue's own two small objects each; 169 and 7,456 before
// branch perf12 (internal/shell's 50 sync.OnceValues), 79 and 4,184
// after (shell's lazy values are laid out in the binary).
const maxOwnInitBytes = 6 << 10

// initCost is one package's line of GODEBUG=inittrace=1.
type initCost struct {
	pkg           string
	bytes, allocs int
}

// ownInits reads the lines of GODEBUG=inittrace=1 output (init PKG @T ms,
// C ms clock, B bytes, A allocs) for ralph's own packages.
func ownInits(out string) ([]initCost, error) {
	var cs []initCost
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 11 || f[0] != "init" || f[8] != "bytes," || f[10] != "allocs" {
			continue
		}
		if !strings.HasPrefix(f[1], "github.com/ralph-hooks/ralph-hooks/") {
			continue
		}
		b, err1 := strconv.Atoi(f[7])
		a, err2 := strconv.Atoi(f[9])
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("inittrace line %q: bytes or allocs not a number", sc.Text())
		}
		cs = append(cs, initCost{strings.TrimPrefix(f[1], "github.com/ralph-hooks/ralph-hooks/"), b, a})
	}
	return cs, sc.Err()
}

func TestOwnInits(t *testing.T) {
	out := "init internal/bytealg @0 ms, 0 ms clock, 0 bytes, 0 allocs\n" +
		"init go.yaml.in/yaml/v3 @0.72 ms, 0.12 ms clock, 25720 bytes, 276 allocs\n" +
		"init github.com/ralph-hooks/ralph-hooks/internal/risk @0.98 ms, 0.080 ms clock, 41064 bytes, 451 allocs\n" +
		"ralph: reading event from stdin: …\n" +
		"init github.com/ralph-hooks/ralph-hooks/internal/pretool @1.0 ms, 0.003 ms clock, 256 bytes, 2 allocs\n"
	cs, err := ownInits(out)
	if err != nil {
		t.Fatal(err)
	}
	want := []initCost{{"internal/risk", 41064, 451}, {"internal/pretool", 256, 2}}
	if fmt.Sprint(cs) != fmt.Sprint(want) {
		t.Fatalf("ownInits = %v, want %v", cs, want)
	}
	if _, err := ownInits("init github.com/ralph-hooks/ralph-hooks/internal/risk @1 ms, 0 ms clock, many bytes, 2 allocs\n"); err == nil {
		t.Fatal("ownInits took a line whose bytes are not a number")
	}
}

// pre-tool-call runs on every tool call: its own packages' initialisation
// must stay near nothing (see maxOwnInitBytes).
func TestPreToolCallOwnInitBytes(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "pre-tool-call")
	build := exec.Command("go", "build", "-o", bin, "../../hooks/pre-tool-call")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build pre-tool-call: %v\n%s", err, out)
	}
	run := exec.Command(bin)
	run.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	run.Stdin = strings.NewReader("")
	var stderr strings.Builder
	run.Stderr = &stderr
	_ = run.Run() // an empty event is refused: only the initialisation matters
	cs, err := ownInits(stderr.String())
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) < 10 {
		t.Fatalf("GODEBUG=inittrace=1 showed %d of ralph's packages, want pre-tool-call's (10 or more):\n%s", len(cs), stderr.String())
	}
	total := 0
	var list []string
	for _, c := range cs {
		total += c.bytes
		list = append(list, fmt.Sprintf("%s %d bytes, %d allocs", c.pkg, c.bytes, c.allocs))
	}
	if total > maxOwnInitBytes {
		t.Errorf("ralph's packages allocate %d bytes initialising pre-tool-call, over %d: make the package-level maps switches or constant slices, the regexps lazy (sync.OnceValue, or in internal/shell a lazy value the binary lays out)\n%s",
			total, maxOwnInitBytes, strings.Join(list, "\n"))
	}
}

// A regular expression a library compiles in a package-level variable is
// compiled at start-up in every hook call, used or not: go.yaml.in/yaml/v3
// and mvdan.cc/sh/v3's fileutil and expand did so (six expressions, about
// 0.3 ms of CPU a call; third_party/README.md). No package pre-tool-call
// links, the standard library's and ralph's own included, may.
func TestLibrariesCompileNoRegexpAtInit(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}\t{{.Dir}}\t{{join .GoFiles \" \"}}", "../../hooks/pre-tool-call").Output()
	if err != nil {
		t.Fatalf("go list -deps pre-tool-call: %v", err)
	}
	pkgs := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(line, "\t")
		if len(f) != 3 {
			t.Fatalf("go list printed %q", line)
		}
		pkgs++
		for _, name := range strings.Fields(f[2]) {
			path := filepath.Join(f[1], name)
			for _, v := range initRegexps(t, path) {
				t.Errorf("%s: %s compiles a regular expression at initialisation (%s): make it sync.OnceValue", f[0], path, v)
			}
		}
	}
	if pkgs < 100 {
		t.Fatalf("go list showed %d packages, want pre-tool-call's (100 or more)", pkgs)
	}
}

// initRegexps returns the package-level variables of the Go file at path
// whose initial value calls regexp.MustCompile or regexp.Compile outside a
// function literal.
func initRegexps(t *testing.T, path string) []string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatalf("parse %s: %v", path, err)
	}
	var found []string
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.VAR {
			continue
		}
		for _, s := range g.Specs {
			vs := s.(*ast.ValueSpec)
			for _, v := range vs.Values {
				ast.Inspect(v, func(n ast.Node) bool {
					switch n := n.(type) {
					case *ast.FuncLit:
						return false // runs when called, not at init
					case *ast.CallExpr:
						if sel, ok := n.Fun.(*ast.SelectorExpr); ok {
							if x, ok := sel.X.(*ast.Ident); ok && x.Name == "regexp" && (sel.Sel.Name == "MustCompile" || sel.Sel.Name == "Compile" || sel.Sel.Name == "MustCompilePOSIX" || sel.Sel.Name == "CompilePOSIX") {
								found = append(found, fmt.Sprintf("%s at %s", vs.Names[0].Name, fset.Position(n.Pos())))
							}
						}
					}
					return true
				})
			}
		}
	}
	return found
}

// A hook lives for milliseconds: the runtime's goroutine that follows
// changes of the CPU limit (a cgroup's quota) would only be started, at
// every call's initialisation, to never run. Each hook's main turns it off
// with //go:debug updatemaxprocs=0 (0.1 ms of CPU a Read, BENCHMARKS.md,
// branch pre10).
func TestHooksStartNoMaxProcsUpdater(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}}\t{{.DefaultGODEBUG}}", "../../hooks/...").Output()
	if err != nil {
		t.Fatalf("go list ../../hooks/...: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 4 {
		t.Fatalf("go list showed %d hooks, want the four:\n%s", len(lines), out)
	}
	for _, line := range lines {
		pkg, godebug, _ := strings.Cut(line, "\t")
		if !slices.Contains(strings.Split(godebug, ","), "updatemaxprocs=0") {
			t.Errorf("%s: DefaultGODEBUG %q, want updatemaxprocs=0 (//go:debug in its main.go)", pkg, godebug)
		}
	}
}
