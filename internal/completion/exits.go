package completion

import (
	"path"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/treeview"
)

// exitWhat names the digest of [exitLines] in a file: "exit in REL:
// process exit".
const exitWhat = "process exit"

// exitChecks are, by the extensions of the files they are looked in, the
// lines that end the process of a Python, Ruby or Rust test run from
// inside it with a status the test runner did not choose, or
// replace it by another program: a test or the code under test that
// prints the runner's PASS lines (or writes its report) and then does one
// of these ends the run with status 0 before the failing test runs. The
// exits a runner catches (sys.exit and SystemExit under pytest, which
// count as a failure) are not among them; Go's are goStart's. Nor are
// JavaScript's: jest and vitest catch process.exit in a test's process
// and fail the run, and their reports, and mocha's (written by ralph's
// plugin at the process's exit), hold only the tests that ran, whatever
// the output says.
var exitChecks = sync.OnceValue(func() map[string]*regexp.Regexp {
	py := regexp.MustCompile(`\bos\s*\.\s*(_exit|exec\w*|kill\w*|abort|fork\w*)\b|\b_exit\b|\bexec[lv]p?e?\b|\bimport\s+posix\b|\bposix\s*\.|\bpytest\s*\.\s*exit\b|\bctypes\b|\bgetattr\s*\(\s*(os|sys|posix|pytest)\b|\bos\s*\.\s*__dict__` + pyComputed)
	rb := regexp.MustCompile(`\bexit!|\b(Process|Kernel)\s*\.\s*(exit!?|abort|kill|exec|spawn|_fork|fork)\b|\bexec\b|\bat_exit\b|\bsyscall\b|\bFiddle\b|\bsend\s*\(\s*:(exit!?|exec)` + rbComputed)
	rs := regexp.MustCompile(`\bprocess\s*::\s*(exit|abort)\b|\blibc\s*::\s*(_?exit|_Exit|exec\w*|kill|syscall|raise)\b|\.exec\s*\(\s*\)|\b(asm|global_asm|naked_asm)!|extern\s+"C"`)
	return map[string]*regexp.Regexp{".py": py, ".rb": rb, ".rs": rs}
})

// exitExts are the extensions exitChecks has a pattern for, known
// without compiling them (TestExitExts holds the two to the same).
var exitExts = map[string]bool{".py": true, ".rb": true, ".rs": true}

// exitLines returns the lines of the file rel, whose text is src, that
// can end a test run's process (see [exitChecks]), trimmed.
func exitLines(rel string, src []byte) []string {
	re := exitChecks()[path.Ext(rel)]
	if re == nil || !re.Match(src) {
		return nil
	}
	var out []string
	for _, l := range strings.Split(string(src), "\n") {
		if re.MatchString(l) {
			out = append(out, strings.TrimSpace(l))
		}
	}
	return out
}

// exitsIn digests, in every Python, Ruby and Rust file of the project, tests and code under test alike, the lines that can
// end a test run's process ([exitLines]): "exit in calc.py: process exit".
// One added or changed since the start is completion_tampered: a pytest
// run whose code under test prints the short summary's PASSED lines to
// the terminal and calls os._exit(0) exits 0 having run nothing after it.
// A file unchanged since base was collected keeps base's digest.
func exitsIn(v *treeview.View, in, base Inputs, since time.Time) {
	rels := v.Files(func(name string) bool { return exitExts[path.Ext(name)] }, nil)
	eachChanged(v, rels, in, base, since, []string{exitLabel}, func(rel string, src []byte) {
		if ls := exitLines(rel, src); len(ls) > 0 {
			in.add(exitLabel+rel+": "+exitWhat, []byte(strings.Join(ls, "\n")))
		}
	})
}
