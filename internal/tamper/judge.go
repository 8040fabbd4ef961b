package tamper

import (
	"bytes"
	"errors"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/ralph-hooks/ralph-hooks/internal/answer"
	"github.com/ralph-hooks/ralph-hooks/internal/config"
	"github.com/ralph-hooks/ralph-hooks/internal/event"
	"github.com/ralph-hooks/ralph-hooks/internal/ondisk"
	"github.com/ralph-hooks/ralph-hooks/internal/testindex"
	"github.com/ralph-hooks/ralph-hooks/internal/testscan"
)

// MaxFile is the largest test file judged; a larger one is let through
// unread (reading and scanning it would cost every call on it).
const MaxFile = 4 << 20

// Verdict is [Judge]'s answer on a call that changes a test file.
type Verdict struct {
	*Finding
	Abs    string          // the file's absolute path
	Level  string          // critical or high
	Action answer.Decision // deny, or as the detection mode lowers it; allow when exceptions allow it all
}

// Judge judges a PreToolUse event of a Write, Edit or MultiEdit call on a
// test file in the project at root (NotebookEdit is not judged: notebooks
// hold no tests package testscan reads). It returns nil when the call
// does not tamper with tests, when it is not such a call, when
// test_integrity is disabled, or when the call cannot succeed as it
// stands (an old_string not in the file): the tool then fails by itself.
// An error is a tool input of the wrong shape.
func Judge(cfg *config.Config, root string, ev *event.Event) (*Verdict, error) {
	if !cfg.TestIntegrity.Enabled {
		return nil, nil
	}
	switch ev.Tool {
	case "Write", "Edit", "MultiEdit":
	default:
		return nil, nil
	}
	p, err := ev.Str("file_path")
	if err != nil || p == "" {
		return nil, err
	}
	cwd := ev.Cwd
	if cwd == "" {
		cwd = root
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(cwd, p)
	}
	p = filepath.Clean(p)
	if folds(root) {
		p = ondisk.Name(root, p) // TESTS/A_TEST.GO is tests/a_test.go there
	}
	return judge(cfg, root, through(root, p), ev.Tool, func(before []byte) ([]byte, bool, error) {
		if ev.Tool == "Write" {
			content, err := ev.Str("content")
			return []byte(content), err == nil, err
		}
		edits, err := ev.Edits()
		if err != nil {
			return nil, false, err
		}
		s, err := Apply(string(before), edits)
		if err != nil {
			return nil, false, nil // the tool refuses the call by itself
		}
		return []byte(s), true, nil
	})
}

// folds reports whether a project's filesystem folds case (package
// ondisk; a variable: tests simulate macOS's on Linux).
var folds = ondisk.Folds

// through returns the file a write of p changes: where p is a link in the
// project to a file in it (notes.txt -> tests/a_test.go), that file, which
// a file tool that opens the path and writes to it changes (Claude Code's
// refuses to write through a link; an agent's that does not check would
// follow it), spelled from root. Otherwise p.
func through(root, p string) string {
	if fi, err := os.Lstat(p); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		return p
	}
	q, err := filepath.EvalSymlinks(p)
	if err != nil {
		return p
	}
	r, err := filepath.EvalSymlinks(root)
	if err != nil {
		r = root
	}
	rel, err := filepath.Rel(r, q)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return p
	}
	return filepath.Join(root, rel)
}

// JudgeWrite judges a Bash command that writes content to test file p
// (absolute) whole, as a Write would (cat > tests/x_test.go <<EOF …);
// tool names the writer in the reason. It returns nil as [Judge] does.
func JudgeWrite(cfg *config.Config, root, p, tool string, content []byte) (*Verdict, error) {
	if !cfg.TestIntegrity.Enabled {
		return nil, nil
	}
	return judge(cfg, root, filepath.Clean(p), tool, func([]byte) ([]byte, bool, error) { return content, true, nil })
}

// judge compares test file p before and after a change that after
// computes from its contents.
func judge(cfg *config.Config, root, p, tool string, after func(before []byte) ([]byte, bool, error)) (*Verdict, error) {
	name := relName(root, p)
	var as string // the name to read the file as, if not its own
	switch lang := testscan.Lang(name); {
	case testindex.Fixture(name) || testindex.Vendored(name):
		return nil, nil // go test never builds what is under testdata; a dependency's tests are not the project's
	case lang == "":
		if !testindex.IsTestFile(cfg.TestFiles, name) {
			return nil, nil
		}
		if as = langName(name); as == "" {
			return nil, nil
		}
	}
	before, err := readSmall(p)
	if err != nil {
		// A new file, or one that cannot be read: nothing to compare
		// with, but a new Go test file can still keep its package's
		// tests from running (testmain.go).
		if next, ok, _ := after(nil); ok && strings.HasSuffix(name, "_test.go") {
			if how, line := runBypass(next); how != "" {
				return bypassVerdict(cfg, p, name, tool, how, line), nil
			}
		} else if ok && path.Base(name) == "conftest.py" {
			// A new conftest.py: pytest reads it before any test.
			if how, line := pytestBypass(nil, next); how != "" {
				return newFileVerdict(cfg, p, name, tool, Problem{Kind: Deselected, Line: line, How: how}), nil
			}
		}
		return nil, nil
	}
	next, ok, err := after(before)
	if err != nil || !ok || bytes.Equal(before, next) {
		return nil, err
	}
	opt := Options{Tool: tool, Allow: cfg.TestIntegrity.Allow, Elsewhere: siblings(p, name), As: as,
		Prior: func() []byte { return committed(root, name) }, Excluded: sync.OnceValue(func() map[string]string { return ExcludedTags(root) })}
	f := Check(name, before, next, opt)
	if f == nil {
		return nil, nil
	}
	v := &Verdict{Finding: f, Abs: p, Level: f.Level(), Action: answer.Deny}
	if len(f.Problems) == 0 {
		v.Action = answer.Allow
	} else {
		v.Action = shift(cfg.AgentPersistence.DetectionMode, v.Level)
	}
	return v, nil
}

// bypassVerdict is the verdict on a new Go test file that keeps its
// package's tests from running.
func bypassVerdict(cfg *config.Config, p, name, tool, how string, line int) *Verdict {
	return newFileVerdict(cfg, p, name, tool, Problem{Kind: Bypassed, Line: line, How: how})
}

// newFileVerdict is the verdict on a new file whose problem pr keeps
// tests from running.
func newFileVerdict(cfg *config.Config, p, name, tool string, pr Problem) *Verdict {
	f := &Finding{Path: name, Tool: tool}
	if why, ok := allowed(cfg.TestIntegrity.Allow, name, pr); ok {
		f.Allowed, f.Exceptions = []Problem{pr}, []string{why}
		return &Verdict{Finding: f, Abs: p, Level: f.Level(), Action: answer.Allow}
	}
	f.Problems = []Problem{pr}
	return &Verdict{Finding: f, Abs: p, Level: f.Level(), Action: shift(cfg.AgentPersistence.DetectionMode, Critical)}
}

// shift applies the detection mode to the rule's deny, as package risk
// does for every rule: off keeps only critical rules, minimal lowers the
// others one step.
func shift(mode, level string) answer.Decision {
	if level == Critical {
		return answer.Deny
	}
	switch mode {
	case "off":
		return answer.Allow
	case "minimal":
		return answer.Ask
	}
	return answer.Deny
}

// relName is p relative to root, slash-separated, when inside it; else p.
func relName(root, p string) string {
	rel, err := filepath.Rel(root, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(p)
	}
	return filepath.ToSlash(rel)
}

// langName gives a file that test_files calls a test file, but whose name
// package testscan does not know, a name it reads in the language of its
// extension; "" for an extension of no known language.
func langName(name string) string {
	dir, base := path.Split(name)
	ext := filepath.Ext(base)
	var as string
	switch ext {
	case ".go":
		as = "x_test.go"
	case ".py":
		as = "test_x.py"
	case ".js", ".jsx", ".ts", ".tsx", ".mjs", ".cjs", ".mts", ".cts":
		as = "x.test" + ext
	case ".java":
		as = "XTest.java"
	case ".rb":
		as = "x_spec.rb"
	default:
		return ""
	}
	return dir + as
}

// pathMatch matches an exception's glob against a file name.
func pathMatch(glob, name string) bool { return doublestar.MatchUnvalidated(glob, name) }

// readSmall reads a regular file of at most MaxFile bytes.
func readSmall(p string) ([]byte, error) {
	fi, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() || fi.Size() > MaxFile {
		return nil, errors.New("not a regular file of a readable size")
	}
	return os.ReadFile(p)
}

// Limits of the search for a removed test in the sibling files.
const (
	maxSiblings    = 64      // files looked at
	maxSiblingSize = 1 << 20 // bytes per file
)

// siblings returns the Elsewhere of a change to the file at p (named name):
// whether a test removed from it is in another test file of its directory
// in the same language, with a body like its own and as many real
// assertions, not skipped: the test was moved there.
func siblings(p, name string) func(test, body string, real int) bool {
	lang := testscan.Lang(name)
	if lang == "" {
		return nil
	}
	var files []*scanned // read on first use
	read := false
	return func(test, body string, real int) bool {
		if !read {
			read = true
			files = readSiblings(p, lang)
		}
		leaf := leafName(test)
		for _, sf := range files {
			if leaf != "" && !strings.Contains(sf.side.src, leaf) {
				continue
			}
			if sf.side.f == nil {
				f, _ := testscan.Scan(sf.name, []byte(sf.side.src))
				if f == nil {
					f = &testscan.File{}
				}
				sf.side.f = f
			}
			for i, t := range sf.side.f.Tests {
				if t.Skipped || leafName(t.Name) != leaf || sf.side.real(i) < real {
					continue
				}
				if similarity(body, tbody(sf.side.seg(i), t.Name)) >= 0.8 {
					return true
				}
			}
		}
		return false
	}
}

type scanned struct {
	name string
	side side
}

func readSiblings(p, lang string) []*scanned {
	dir := filepath.Dir(p)
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []*scanned
	for _, e := range ents {
		if len(out) >= maxSiblings {
			break
		}
		sp := filepath.Join(dir, e.Name())
		if sp == p || !e.Type().IsRegular() || testscan.Lang(filepath.ToSlash(sp)) != lang {
			continue
		}
		if fi, err := e.Info(); err != nil || fi.Size() > maxSiblingSize {
			continue
		}
		data, err := os.ReadFile(sp)
		if err != nil {
			continue
		}
		out = append(out, &scanned{name: filepath.ToSlash(sp), side: side{src: string(data)}})
	}
	return out
}
