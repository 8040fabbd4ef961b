package testscan

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// testifyNames are the assertion functions and methods of testify's assert
// and require and of gotest.tools' assert, without their f variants.
var testifyNames = words(`Equal EqualValues EqualError EqualExportedValues Exactly
		NotEqual NotEqualValues True False Nil NotNil NoError Error ErrorIs NotErrorIs ErrorAs
		NotErrorAs ErrorContains Contains NotContains Len Empty NotEmpty Zero NotZero Greater
		GreaterOrEqual Less LessOrEqual Positive Negative Panics NotPanics PanicsWithValue
		PanicsWithError ElementsMatch NotElementsMatch Subset NotSubset JSONEq YAMLEq InDelta
		InDeltaSlice InDeltaMapValues InEpsilon InEpsilonSlice IsType IsNotType Implements
		NotImplements Same NotSame Regexp NotRegexp FileExists NoFileExists DirExists NoDirExists
		Eventually EventuallyWithT Never Condition Fail FailNow WithinDuration WithinRange
		IsIncreasing IsDecreasing IsNonIncreasing IsNonDecreasing HTTPSuccess HTTPError
		HTTPRedirect HTTPStatusCode HTTPBodyContains HTTPBodyNotContains Assert Check DeepEqual
		NilError ErrorType`)

// scanGo reads a Go test file with go/parser.
func scanGo(src []byte) (*File, error) {
	fset := token.NewFileSet()
	mode := parser.SkipObjectResolution
	if bytes.Contains(src, []byte("Example")) {
		mode |= parser.ParseComments // for their Output comments
	}
	af, err := parser.ParseFile(fset, "x_test.go", src, mode)
	if af == nil {
		return nil, err
	}
	g := &goScan{fset: fset, file: fset.File(af.Pos()), af: af, src: src,
		tvars: map[string]bool{}, avars: map[string]string{}, topSkips: map[*ast.CallExpr]bool{}}
	g.imports()
	g.run()
	return g.c.file("go"), err
}

type goScan struct {
	fset *token.FileSet
	file *token.File
	af   *ast.File
	src  []byte
	c    collector

	testing string          // local name of package testing
	apkgs   map[string]bool // local names of assertion packages: true for testify-like, false for quicktest
	tvars   map[string]bool // names declared as *testing.T, B, F or testing.TB
	avars   map[string]string
	// avars maps names assigned from assert.New(t) and the like, and
	// receivers of suite methods, to "all" (testify-like) or "qt".
	topSkips map[*ast.CallExpr]bool // skips that make their test Skipped
}

func (g *goScan) off(p token.Pos) int {
	if !p.IsValid() || g.file == nil {
		return 0
	}
	o := int(p) - g.file.Base()
	return max(0, min(o, g.file.Size()))
}

func (g *goScan) line(p token.Pos) int {
	if !p.IsValid() || g.file == nil {
		return 0
	}
	return g.file.Line(p)
}

// text returns the source of node n, white space squeezed.
func (g *goScan) text(n ast.Node) string {
	a, b := g.off(n.Pos()), g.off(n.End())
	if a >= b || b > len(g.src) || b-a > 1024 {
		return "" // too long to be a name or a trivial operand
	}
	return squeeze(string(g.src[a:b]))
}

func (g *goScan) imports() {
	g.testing = ""
	g.apkgs = map[string]bool{}
	for _, im := range g.af.Imports {
		p, err := strconv.Unquote(im.Path.Value)
		if err != nil {
			continue
		}
		name := path.Base(p)
		if len(name) > 1 && name[0] == 'v' && strings.Trim(name[1:], "0123456789") == "" {
			name = path.Base(path.Dir(p))
		}
		base := name
		if im.Name != nil {
			name = im.Name.Name
		}
		switch {
		case p == "testing":
			g.testing = name
		case base == "assert" || base == "require":
			g.apkgs[name] = true
		case base == "quicktest" || p == "github.com/go-quicktest/qt":
			if im.Name == nil && base == "quicktest" {
				name = "quicktest"
			}
			g.apkgs[name] = false
		}
	}
}

// testingType reports whether type expression e is *testing.T, *testing.B,
// *testing.F or testing.TB.
func (g *goScan) testingType(e ast.Expr) (string, bool) {
	if g.testing == "" {
		return "", false
	}
	star := false
	if s, ok := e.(*ast.StarExpr); ok {
		e, star = s.X, true
	}
	sel, ok := e.(*ast.SelectorExpr)
	if !ok {
		return "", false
	}
	if x, ok := sel.X.(*ast.Ident); !ok || x.Name != g.testing {
		return "", false
	}
	switch n := sel.Sel.Name; {
	case star && (n == "T" || n == "B" || n == "F"):
		return n, true
	case !star && n == "TB":
		return n, true
	}
	return "", false
}

// param returns the name of the only parameter of ft when it is of a
// testing type, with that type.
func (g *goScan) param(ft *ast.FuncType) (name, typ string, ok bool) {
	if ft == nil || ft.Params == nil || len(ft.Params.List) != 1 || ft.Results != nil && len(ft.Results.List) > 0 {
		return "", "", false
	}
	f := ft.Params.List[0]
	if len(f.Names) > 1 {
		return "", "", false
	}
	typ, ok = g.testingType(f.Type)
	if !ok {
		return "", "", false
	}
	if len(f.Names) == 1 {
		name = f.Names[0].Name
	}
	return name, typ, true
}

// isTestName reports whether name is prefix followed by nothing or by a
// rune that is not a lower-case letter, as go test requires.
func isTestName(name, prefix string) bool {
	if !strings.HasPrefix(name, prefix) {
		return false
	}
	if len(name) == len(prefix) {
		return true
	}
	r, _ := utf8.DecodeRuneInString(name[len(prefix):])
	return !unicode.IsLower(r)
}

// declare notes the names n declares that matter: a field or parameter of
// a testing type, x := assert.New(t). Declarations come before their uses,
// except struct fields, which run collects first.
func (g *goScan) declare(n ast.Node) {
	switch n := n.(type) {
	case *ast.Field:
		if _, ok := g.testingType(n.Type); ok {
			for _, id := range n.Names {
				g.tvars[id.Name] = true
			}
		}
	case *ast.AssignStmt:
		if len(n.Lhs) == 1 && len(n.Rhs) == 1 {
			if id, ok := n.Lhs[0].(*ast.Ident); ok {
				if kind := g.newAssertion(n.Rhs[0]); kind != "" {
					g.avars[id.Name] = kind
				}
			}
		}
	case *ast.ValueSpec:
		if len(n.Names) == 1 && len(n.Values) == 1 {
			if kind := g.newAssertion(n.Values[0]); kind != "" {
				g.avars[n.Names[0].Name] = kind
			}
		}
	}
}

func (g *goScan) run() {
	suites := map[string]bool{} // struct types embedding a …Suite
	for _, d := range g.af.Decls {
		if gd, ok := d.(*ast.GenDecl); ok {
			ast.Inspect(gd, func(n ast.Node) bool {
				g.declare(n)
				if ts, ok := n.(*ast.TypeSpec); ok {
					if st, ok := ts.Type.(*ast.StructType); ok && st.Fields != nil {
						for _, f := range st.Fields.List {
							if len(f.Names) == 0 && strings.HasSuffix(g.text(f.Type), "Suite") {
								suites[ts.Name.Name] = true
							}
						}
					}
				}
				return true
			})
		}
	}
	for _, d := range g.af.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		ast.Inspect(fd.Type, func(n ast.Node) bool {
			g.declare(n)
			return true
		})
		name := fd.Name.Name
		isTest := false
		tvar := ""
		if fd.Recv == nil {
			pname, typ, ok := g.param(fd.Type)
			switch {
			case ok && typ == "T" && isTestName(name, "Test"),
				ok && typ == "B" && isTestName(name, "Benchmark"),
				ok && typ == "F" && isTestName(name, "Fuzz"):
				isTest, tvar = true, pname
			case isTestName(name, "Example") && fd.Type.Params != nil && len(fd.Type.Params.List) == 0 &&
				(fd.Type.Results == nil || len(fd.Type.Results.List) == 0):
				isTest = true
			}
		} else if len(fd.Recv.List) == 1 {
			// A testify suite: its TestX methods are tests, its receiver
			// asserts (s.Equal).
			recv := fd.Recv.List[0]
			rtype := recvType(recv.Type)
			suite := strings.Contains(rtype, "Suite") || suites[rtype]
			if len(recv.Names) == 1 && suite {
				g.avars[recv.Names[0].Name] = "all"
			}
			if suite && isTestName(name, "Test") && fd.Type.Params != nil && len(fd.Type.Params.List) == 0 {
				isTest = true
				name = rtype + "." + name
			}
		}
		ti := -1
		if isTest {
			ti = g.c.addTest(name, g.line(fd.Name.Pos()), g.off(fd.Pos()), g.off(fd.End()))
			g.c.tests[ti].Empty = fd.Body == nil || emptyBlock(fd.Body)
			if g.skipsAtTop(fd.Body, tvar) {
				g.c.skipTest(g.off(fd.Pos()), ti)
			}
			if strings.HasPrefix(fd.Name.Name, "Example") && fd.Body != nil {
				g.exampleOutput(fd.Body)
			}
		}
		if fd.Body != nil {
			g.walk(fd.Body, name, ti >= 0)
		}
	}
}

// newAssertion returns the kind of assertion object e makes: "all" for
// assert.New(t), require.New(t), is.New(t), "qt" for qt.New(t), else "".
func (g *goScan) newAssertion(e ast.Expr) string {
	call, ok := e.(*ast.CallExpr)
	if !ok {
		return ""
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "New" {
		return ""
	}
	x, ok := sel.X.(*ast.Ident)
	if !ok {
		return ""
	}
	if all, ok := g.apkgs[x.Name]; ok {
		if all {
			return "all"
		}
		return "qt"
	}
	if x.Name == "is" {
		return "all"
	}
	return ""
}

func recvType(e ast.Expr) string {
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		case *ast.ParenExpr:
			e = t.X
		case *ast.Ident:
			return t.Name
		default:
			return ""
		}
	}
}

func emptyBlock(b *ast.BlockStmt) bool {
	for _, s := range b.List {
		if _, ok := s.(*ast.EmptyStmt); !ok {
			return false
		}
	}
	return true
}

// skipsAtTop reports whether body calls tvar.Skip, Skipf or SkipNow as one
// of its own statements, so the test always skips. It remembers the call,
// which then counts for the test, not as a skip of its own.
func (g *goScan) skipsAtTop(body *ast.BlockStmt, tvar string) bool {
	if body == nil || tvar == "" {
		return false
	}
	for _, s := range body.List {
		es, ok := s.(*ast.ExprStmt)
		if !ok {
			continue
		}
		call, ok := es.X.(*ast.CallExpr)
		if !ok {
			continue
		}
		if sel, ok := call.Fun.(*ast.SelectorExpr); ok && isSkip(sel.Sel.Name) {
			if x, ok := sel.X.(*ast.Ident); ok && x.Name == tvar {
				g.topSkips[call] = true
				return true
			}
		}
	}
	return false
}

func isSkip(name string) bool { return name == "Skip" || name == "Skipf" || name == "SkipNow" }

// exampleOutput counts an Example's Output comment as its assertion.
func (g *goScan) exampleOutput(body *ast.BlockStmt) {
	for _, cg := range g.af.Comments {
		if cg.Pos() < body.Lbrace || cg.End() > body.Rbrace {
			continue
		}
		t := strings.ToLower(strings.TrimSpace(cg.Text()))
		if strings.HasPrefix(t, "output:") || strings.HasPrefix(t, "unordered output:") {
			g.c.assert(g.off(cg.Pos()), false)
		}
	}
}

// walk finds subtests, assertions and skips under n, in a test named name
// (when inTest) or in a helper.
func (g *goScan) walk(root ast.Node, name string, inTest bool) {
	var stack []ast.Node
	ast.Inspect(root, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		g.declare(n)
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		m := sel.Sel.Name
		recv := g.receiver(sel.X)
		switch {
		case recv == "t" && m == "Run" && len(call.Args) == 2 && inTest:
			lit, ok := call.Args[1].(*ast.FuncLit)
			if !ok {
				return true
			}
			ast.Inspect(lit.Type, func(n ast.Node) bool {
				g.declare(n)
				return true
			})
			sub := joinName(name, "/", g.subName(call.Args[0]))
			ti := g.c.addTest(sub, g.line(call.Pos()), g.off(call.Pos()), g.off(call.End()))
			g.c.tests[ti].Empty = emptyBlock(lit.Body)
			if pname, _, ok := g.param(lit.Type); ok && g.skipsAtTop(lit.Body, pname) {
				g.c.skipTest(g.off(call.Pos()), ti)
			}
			// The subtest's own body is walked with its name; the rest of
			// this call (its name expression) needs nothing.
			g.walk(lit.Body, sub, true)
			stack = stack[:len(stack)-1] // no f(nil) follows a false
			return false
		case recv == "t" && isSkip(m):
			if !g.topSkips[call] {
				g.c.looseSkip(g.off(call.Pos()))
			}
		case recv == "t" && isFailure(m):
			g.c.assert(g.off(call.Pos()), neverRuns(stack, g))
		case len(call.Args) > 0 && (recv == "all" && testifyNames()[strings.TrimSuffix(m, "f")] ||
			recv == "qt" && (m == "Assert" || m == "Check")):
			g.c.assert(g.off(call.Pos()), g.trivialTestify(sel, call))
		}
		return true
	})
}

// receiver classifies the receiver of a method call: "t" for a testing
// variable (or x.T()), "all" for a testify-like package or assertion object
// (or x.Require(), x.Assert()), "qt" for quicktest, else "".
func (g *goScan) receiver(x ast.Expr) string {
	switch x := x.(type) {
	case *ast.Ident:
		if g.tvars[x.Name] {
			return "t"
		}
		if all, ok := g.apkgs[x.Name]; ok {
			if all {
				return "all"
			}
			return "qt"
		}
		return g.avars[x.Name]
	case *ast.SelectorExpr: // env.t, s.require
		if g.tvars[x.Sel.Name] {
			return "t"
		}
		return g.avars[x.Sel.Name]
	case *ast.CallExpr:
		if sel, ok := x.Fun.(*ast.SelectorExpr); ok && len(x.Args) == 0 {
			switch sel.Sel.Name {
			case "T":
				return "t"
			case "Require", "Assert":
				return "all"
			}
		}
	}
	return ""
}

func isFailure(m string) bool {
	switch m {
	case "Error", "Errorf", "Fatal", "Fatalf", "Fail", "FailNow":
		return true
	}
	return false
}

// subName is the name part of a t.Run subtest: the string, with spaces
// made underscores as go test does, or the expression's source.
func (g *goScan) subName(e ast.Expr) string {
	if bl, ok := e.(*ast.BasicLit); ok && bl.Kind == token.STRING {
		if s, err := strconv.Unquote(bl.Value); err == nil {
			return strings.Join(strings.Fields(s), "_")
		}
	}
	return g.text(e)
}

// neverRuns reports whether the call on top of stack sits in the body of an
// if whose condition is constant false (false, !true, x != x), so the
// failure it reports can never happen.
func neverRuns(stack []ast.Node, g *goScan) bool {
	for i := len(stack) - 2; i >= 1; i-- {
		ifs, ok := stack[i-1].(*ast.IfStmt)
		if !ok || stack[i] != ifs.Body {
			continue
		}
		return g.constFalse(ifs.Cond)
	}
	return false
}

func (g *goScan) constFalse(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.ParenExpr:
		return g.constFalse(e.X)
	case *ast.Ident:
		return e.Name == "false"
	case *ast.UnaryExpr:
		if e.Op == token.NOT {
			return g.constTrue(e.X)
		}
	case *ast.BinaryExpr:
		switch e.Op {
		case token.NEQ, token.LSS, token.GTR:
			return g.text(e.X) != "" && g.text(e.X) == g.text(e.Y)
		case token.LAND:
			return g.constFalse(e.X) || g.constFalse(e.Y)
		}
	}
	return false
}

func (g *goScan) constTrue(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.ParenExpr:
		return g.constTrue(e.X)
	case *ast.Ident:
		return e.Name == "true"
	case *ast.UnaryExpr:
		if e.Op == token.NOT {
			return g.constFalse(e.X)
		}
	case *ast.BinaryExpr:
		switch e.Op {
		case token.EQL, token.LEQ, token.GEQ:
			return g.text(e.X) != "" && g.text(e.X) == g.text(e.Y)
		case token.LOR:
			return g.constTrue(e.X) || g.constTrue(e.Y)
		}
	}
	return false
}

// trivialTestify reports whether an assert.X / require.X / s.X call is
// trivially true: True(true), False(false), Nil(nil), Equal(x, x), and
// quicktest's Assert(t, x, qt.Equals, x).
func (g *goScan) trivialTestify(sel *ast.SelectorExpr, call *ast.CallExpr) bool {
	args := call.Args
	// Package functions take t (or a quicktest C's receiver none) first.
	if x, ok := sel.X.(*ast.Ident); ok {
		if _, pkg := g.apkgs[x.Name]; pkg && len(args) > 0 {
			args = args[1:]
		}
	}
	m := strings.TrimSuffix(sel.Sel.Name, "f")
	arg := func(i int) ast.Expr {
		if i < len(args) {
			return args[i]
		}
		return nil
	}
	switch m {
	case "True", "Assert", "Check":
		if m != "True" && len(args) >= 3 {
			// quicktest: Assert(t, got, qt.Equals, want)
			return g.sameExpr(arg(0), arg(2)) && strings.HasSuffix(g.text(arg(1)), "Equals")
		}
		if c, ok := arg(0).(*ast.CallExpr); ok && len(c.Args) == 2 {
			// go-quicktest/qt: Assert(t, qt.Equals(got, want))
			if s, ok := c.Fun.(*ast.SelectorExpr); ok && strings.HasSuffix(s.Sel.Name, "Equals") {
				return g.sameExpr(c.Args[0], c.Args[1])
			}
		}
		return arg(0) != nil && g.constTrue(arg(0))
	case "False":
		return arg(0) != nil && g.constFalse(arg(0))
	case "Nil", "NoError", "NilError":
		id, ok := arg(0).(*ast.Ident)
		return ok && id.Name == "nil"
	case "Equal", "EqualValues", "Exactly", "Same", "DeepEqual", "ElementsMatch", "JSONEq", "YAMLEq", "Subset":
		return g.sameExpr(arg(0), arg(1))
	}
	return false
}

func (g *goScan) sameExpr(a, b ast.Expr) bool {
	if a == nil || b == nil {
		return false
	}
	x := g.text(a)
	return x != "" && x == g.text(b)
}
