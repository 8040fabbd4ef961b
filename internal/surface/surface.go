// Package surface reads the public surface of a project's source files:
// the exported or public functions and methods, the command-line flags and
// the HTTP routes that Go, Python, JavaScript/TypeScript, Rust, Java and
// Ruby make visible in their source. The feature_removal detector compares
// the surface at a loop's start with the surface at a Stop (Removed).
//
// Go is parsed (go/parser); the other languages are read line by line with
// patterns of their common forms (def, export function, pub fn, public
// methods, argparse and commander flags, Flask, Express, Spring and Rails
// routes). Reading is deterministic and conservative: what is not
// recognised is not part of the surface, so it can never be reported gone.
package surface

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// Kinds of symbols.
const (
	Func   = "func"   // an exported or public function
	Method = "method" // Type.Name
	Flag   = "flag"   // --name (Go: -name)
	Route  = "route"  // /path
)

// Symbol is one element of the surface.
type Symbol struct {
	Kind string `json:"kind"`
	Name string `json:"name"`
	File string `json:"file,omitempty"` // relative to the project root
}

func (s Symbol) String() string {
	what := s.Kind + " " + s.Name
	if s.File != "" {
		what += " (" + s.File + ")"
	}
	return what
}

// key identifies a symbol across files: a function that moves to another
// file is not gone.
func (s Symbol) key() string { return s.Kind + " " + s.Name }

// Lang returns the language whose surface File reads for a file name, ""
// for none.
func Lang(name string) string {
	switch path.Ext(name) {
	case ".go":
		return "go"
	case ".py":
		return "python"
	case ".js", ".jsx", ".ts", ".tsx", ".mjs", ".cjs", ".mts", ".cts":
		if strings.HasSuffix(name, ".d.ts") {
			return ""
		}
		return "js"
	case ".rs":
		return "rust"
	case ".java":
		return "java"
	case ".rb":
		return "ruby"
	}
	return ""
}

// File returns the surface of one source file, sorted and without
// duplicates; rel is its path, which the symbols carry.
func File(rel string, src []byte) []Symbol {
	var syms []Symbol
	switch Lang(rel) {
	case "go":
		syms = goFile(src)
	case "":
		return nil
	default:
		syms = lines(Lang(rel), string(src))
	}
	for i := range syms {
		syms[i].File = rel
	}
	sort.Slice(syms, func(i, j int) bool { return syms[i].key() < syms[j].key() })
	out := syms[:0]
	for i, s := range syms {
		if i == 0 || s.key() != syms[i-1].key() {
			out = append(out, s)
		}
	}
	return out
}

// flagFuncs are the flag package's definers: the name is the first
// argument, or the second for the *Var forms.
var flagFuncs = map[string]int{
	"String": 0, "Bool": 0, "Int": 0, "Int64": 0, "Uint": 0, "Uint64": 0, "Float64": 0, "Duration": 0, "Func": 0, "BoolFunc": 0, "TextVar": 1,
	"StringVar": 1, "BoolVar": 1, "IntVar": 1, "Int64Var": 1, "UintVar": 1, "Uint64Var": 1, "Float64Var": 1, "DurationVar": 1, "Var": 1,
}

// routeFuncs register HTTP handlers with the path as first argument
// (net/http, gorilla/mux, chi, gin, echo).
var routeFuncs = map[string]bool{
	"HandleFunc": true, "Handle": true, "GET": true, "POST": true, "PUT": true, "DELETE": true, "PATCH": true,
	"Get": true, "Post": true, "Put": true, "Delete": true, "Patch": true,
}

// goFile reads a Go file's surface: exported functions, exported methods
// of exported types, flags and routes. A file that does not parse has none.
func goFile(src []byte) []Symbol {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	var syms []Symbol
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || !fn.Name.IsExported() {
			continue
		}
		if fn.Recv == nil || len(fn.Recv.List) == 0 {
			syms = append(syms, Symbol{Kind: Func, Name: fn.Name.Name})
			continue
		}
		if t := recvType(fn.Recv.List[0].Type); t != "" && ast.IsExported(t) {
			syms = append(syms, Symbol{Kind: Method, Name: t + "." + fn.Name.Name})
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		if i, ok := flagFuncs[sel.Sel.Name]; ok && len(call.Args) > i+1 {
			if s, ok := strLit(call.Args[i]); ok && s != "" {
				syms = append(syms, Symbol{Kind: Flag, Name: "-" + s})
			}
		}
		if routeFuncs[sel.Sel.Name] && len(call.Args) >= 2 {
			if s, ok := strLit(call.Args[0]); ok && strings.Contains(s, "/") {
				syms = append(syms, Symbol{Kind: Route, Name: s})
			}
		}
		return true
	})
	return syms
}

func recvType(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.StarExpr:
		return recvType(t.X)
	case *ast.Ident:
		return t.Name
	case *ast.IndexExpr:
		return recvType(t.X)
	case *ast.IndexListExpr:
		return recvType(t.X)
	}
	return ""
}

func strLit(e ast.Expr) (string, bool) {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(lit.Value)
	return s, err == nil
}

// pattern reads one kind of symbol from a line: its last group is the name.
type pattern struct {
	kind string
	re   *regexp.Regexp
}

// patterns are compiled on first use: post-tool-call and stop link this
// package, and most of their calls read no source file.
var patterns = sync.OnceValue(func() map[string][]pattern {
	return map[string][]pattern{
		"python": {
			{Func, regexp.MustCompile(`^\s*(?:async\s+)?def\s+([A-Za-z]\w*)\s*\(`)},
			{Flag, regexp.MustCompile(`add_argument\(\s*(?:['"]-\w['"]\s*,\s*)?['"](--[\w-]+)['"]`)},
			{Route, regexp.MustCompile(`@\w+(?:\.\w+)*\.(?:route|get|post|put|delete|patch)\(\s*['"](/[^'"]*)['"]`)},
		},
		"js": {
			{Func, regexp.MustCompile(`^export\s+(?:default\s+)?(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)`)},
			{Func, regexp.MustCompile(`^export\s+(?:const|let|var|class)\s+([A-Za-z_$][\w$]*)`)},
			{Func, regexp.MustCompile(`^(?:module\.)?exports\.([A-Za-z_$][\w$]*)\s*=`)},
			{Flag, regexp.MustCompile(`\.(?:option|requiredOption)\(\s*['"][^'"]*?(--[\w-]+)`)},
			{Route, regexp.MustCompile(`\b(?:app|router|server)\.(?:get|post|put|delete|patch|all)\(\s*['"](/[^'"]*)['"]`)},
		},
		"rust": {
			{Func, regexp.MustCompile(`^\s*pub\s+(?:const\s+)?(?:async\s+)?(?:unsafe\s+)?(?:extern\s+"[^"]*"\s+)?fn\s+([A-Za-z_]\w*)`)},
			{Flag, regexp.MustCompile(`\.long\(\s*"([\w-]+)"\s*\)`)},
		},
		"java": {
			{Func, regexp.MustCompile(`^\s*public\s+(?:(?:static|final|synchronized|abstract|default)\s+)*(?:<[^>]*>\s+)?[\w.<>\[\], ?]+\s+([a-zA-Z_]\w*)\s*\(`)},
			{Route, regexp.MustCompile(`@(?:Get|Post|Put|Delete|Patch|Request)Mapping\(\s*(?:(?:value|path)\s*=\s*)?"(/[^"]*)"`)},
		},
		"ruby": {
			{Func, regexp.MustCompile(`^\s*def\s+((?:self\.)?[a-z_]\w*[?!=]?)`)},
			{Route, regexp.MustCompile(`^\s*(?:get|post|put|patch|delete)\s+['"](/[^'"]*)['"]`)},
		},
	}
})

// classes name the enclosing class of indented definitions: Python's and
// Ruby's methods are Class.name.
var classRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^class\s+([A-Z]\w*)`) })

// lines reads a file of a language other than Go.
func lines(lang, src string) []Symbol {
	var syms []Symbol
	class := ""
	private := false // Ruby: after a bare private, a class's methods are not public
	for _, line := range strings.Split(src, "\n") {
		if m := classRe().FindStringSubmatch(line); m != nil && (lang == "python" || lang == "ruby") {
			class, private = m[1], false
		} else if lang == "python" && line != "" && line[0] != ' ' && line[0] != '\t' && line[0] != '#' && line[0] != '@' && line[0] != ')' {
			class = ""
		}
		if lang == "ruby" {
			switch {
			case strings.TrimSpace(line) == "private" || strings.TrimSpace(line) == "protected":
				private = true
			case strings.HasPrefix(line, "end"):
				class, private = "", false // the class (or module) ends
			}
		}
		for _, p := range patterns()[lang] {
			m := p.re.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			name, kind := m[len(m)-1], p.kind
			switch {
			case kind != Func:
			case lang == "python":
				indented := line[0] == ' ' || line[0] == '\t'
				switch {
				case strings.HasPrefix(name, "_"):
					continue
				case indented && class != "":
					kind, name = Method, class+"."+name
				case indented:
					continue // a nested function
				}
			case lang == "ruby":
				if private || strings.HasPrefix(name, "_") {
					continue
				}
				if class != "" && (line[0] == ' ' || line[0] == '\t') {
					kind, name = Method, class+"."+strings.TrimPrefix(name, "self.")
				}
			}
			syms = append(syms, Symbol{Kind: kind, Name: name})
		}
	}
	return syms
}

// Removed returns the symbols of base that cur no longer has anywhere,
// sorted.
func Removed(base, cur []Symbol) []Symbol {
	have := map[string]bool{}
	for _, s := range cur {
		have[s.key()] = true
	}
	var gone []Symbol
	for _, s := range base {
		if !have[s.key()] {
			gone = append(gone, s)
		}
	}
	sort.Slice(gone, func(i, j int) bool { return gone[i].key() < gone[j].key() })
	return gone
}

// Word is the name by which code and tests refer to a symbol: a
// function's or method's last part, a flag without its dashes, a route.
func (s Symbol) Word() string {
	switch s.Kind {
	case Method:
		return s.Name[strings.LastIndexByte(s.Name, '.')+1:]
	case Flag:
		return strings.TrimLeft(s.Name, "-")
	}
	return s.Name
}
