package metrics

import (
	"strings"

	"github.com/tidwall/gjson"
)

// goRunner reads go test output: "--- FAIL: TestX (0.00s)" lines (all
// of them with -v, failures only without), "ok"/"FAIL" package lines,
// and -json events.
type goRunner struct {
	t        tally
	pkgFails int             // test failures since the last package line
	jsonFail map[string]bool // -json: packages with a failed test
}

func (g *goRunner) line(s, t string, n int) {
	switch {
	case strings.HasPrefix(t, "--- "):
		verb, rest, ok := strings.Cut(t[4:], ": ")
		if !ok || (verb != "PASS" && verb != "FAIL" && verb != "SKIP") {
			return
		}
		i := strings.LastIndex(rest, " (")
		if i <= 0 || !strings.HasSuffix(rest, "s)") {
			return
		}
		g.t.hit("go", n)
		name := rest[:i]
		switch verb {
		case "PASS":
			g.t.passed++
		case "FAIL":
			g.t.failed++
			g.pkgFails++
			g.t.fail(name)
		case "SKIP":
			g.t.skipped++
		}
	case strings.HasPrefix(s, "ok ") || strings.HasPrefix(s, "ok\t"):
		if f := strings.Fields(s); len(f) >= 3 && strings.Contains(s, "\t") {
			g.t.hit("go", n)
			g.pkgFails = 0
		}
	case strings.HasPrefix(s, "?   \t"):
		if strings.HasSuffix(s, "[no test files]") {
			g.t.hit("go", n)
		}
	case strings.HasPrefix(s, "FAIL\t"):
		f := strings.Fields(s)
		if len(f) < 2 {
			return
		}
		g.t.hit("go", n)
		if g.pkgFails == 0 { // the package failed outside any test
			name := f[1]
			for _, why := range []string{"[build failed]", "[setup failed]"} {
				if strings.Contains(s, why) {
					name += " " + why
				}
			}
			g.t.fail(name)
		}
		g.pkgFails = 0
	case strings.HasPrefix(t, `{"`) && strings.Contains(t, `"Action":"`):
		g.event(t, n)
	}
}

// event reads one go test -json event.
func (g *goRunner) event(s string, n int) {
	r := gjson.GetMany(s, "Action", "Test", "Package", "FailedBuild")
	action, test, pkg := r[0].String(), r[1].String(), r[2].String()
	if pkg == "" {
		return
	}
	switch action {
	case "pass", "fail", "skip":
	default:
		return
	}
	g.t.hit("go", n)
	if test == "" {
		if action == "fail" && !g.jsonFail[pkg] {
			name := pkg
			if r[3].String() != "" {
				name += " [build failed]"
			}
			g.t.fail(name)
		}
		return
	}
	switch action {
	case "pass":
		g.t.passed++
	case "fail":
		g.t.failed++
		if g.jsonFail == nil {
			g.jsonFail = map[string]bool{}
		}
		g.jsonFail[pkg] = true
		g.t.fail(test)
	case "skip":
		g.t.skipped++
	}
}

// done drops a failing test whose subtest also failed: the subtest says
// more.
func (g *goRunner) done() *tally {
	var leaves []string
	for _, a := range g.t.failing {
		parent := false
		for _, b := range g.t.failing {
			if len(b) > len(a) && b[len(a)] == '/' && strings.HasPrefix(b, a) {
				parent = true
				break
			}
		}
		if !parent {
			leaves = append(leaves, a)
		}
	}
	g.t.failing = leaves
	return &g.t
}
