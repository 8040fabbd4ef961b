package tamper

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
)

// A Go test file can keep every test of its package from running without
// touching one: a TestMain that never calls Run on its *testing.M, or an
// init that exits, and go test passes with nothing run (checked with go
// 1.24: func TestMain(m *testing.M) { os.Exit(0) } in a new file, "ok",
// exit 0). The new file is no test's deletion, so the comparison of tests
// does not see it; runBypass reads it.

// runBypass says how a Go test file's text keeps the tests of its package
// from running, and at which line; "" when it does not.
func runBypass(src []byte) (string, int) {
	if !strings.Contains(string(src), "TestMain") && !strings.Contains(string(src), "Exit") {
		return "", 0
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
	if err != nil {
		return "", 0
	}
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Recv != nil || fn.Body == nil {
			continue
		}
		line := fset.Position(fn.Pos()).Line
		switch fn.Name.Name {
		case "TestMain":
			m := testingM(fn)
			if m == "" {
				continue
			}
			runs := func(c *ast.CallExpr) bool {
				if selector(c.Fun, m, "Run") {
					return true
				}
				for _, a := range c.Args { // m handed to a helper, which may run it
					if id, ok := a.(*ast.Ident); ok && id.Name == m {
						return true
					}
				}
				return false
			}
			if !calls(fn.Body, runs) {
				return "adds a TestMain that never calls " + m + ".Run(), so no test of the package runs", line
			}
		case "init":
			if calls(fn.Body, func(c *ast.CallExpr) bool { return selector(c.Fun, "os", "Exit") }) {
				return "adds an init that calls os.Exit, which ends the test binary before any test runs", line
			}
		}
	}
	return "", 0
}

// testingM returns the name of fn's *testing.M parameter, or "".
func testingM(fn *ast.FuncDecl) string {
	ps := fn.Type.Params.List
	if len(ps) != 1 || len(ps[0].Names) != 1 {
		return ""
	}
	star, ok := ps[0].Type.(*ast.StarExpr)
	if !ok || !selector(star.X, "", "M") {
		return ""
	}
	return ps[0].Names[0].Name
}

// selector reports whether e is x.sel (any x when x is "").
func selector(e ast.Expr, x, sel string) bool {
	s, ok := e.(*ast.SelectorExpr)
	if !ok || s.Sel.Name != sel {
		return false
	}
	id, ok := s.X.(*ast.Ident)
	return ok && (x == "" || id.Name == x)
}

// calls reports whether body holds a call that match accepts.
func calls(body ast.Node, match func(*ast.CallExpr) bool) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok && match(c) {
			found = true
		}
		return !found
	})
	return found
}
