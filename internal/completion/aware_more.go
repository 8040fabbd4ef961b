package completion

import (
	"regexp"
	"sync"
)

// ralphEnv are the environment variables a test run has and the program
// has not: ralph's completion environment sets them (see [Environ]), npm
// sets npm_lifecycle_* for the script it runs. Code under test that reads
// one can tell ralph's run of its tests from every other run.
const ralphEnv = `(GOFLAGS|GOCACHE|PYTEST_ADDOPTS|PYTHONPYCACHEPREFIX|NODE_OPTIONS|SPEC_OPTS|MAKEFLAGS|npm_lifecycle_event|npm_lifecycle_script|RALPH_\w+)`

// moreTestChecks are the checks of [testChecks] that name no runner: a
// test flag's value read through the testing package, the program's name
// compared with a string holding "test", an environment variable only a
// test run has, and the call stack (a caller's file name says whether a
// test calls). Each was seen to pass a failing test with the code under
// test still wrong (testdata/script/attack_stop_sniff.txtar).
var moreTestChecks = sync.OnceValue(func() []testCheck {
	c := func(label string, exts []string, needle, re string) testCheck {
		return testCheck{label, exts, needle, regexp.MustCompile(re)}
	}
	q := "[\"'`]" // a string's quote
	return []testCheck{
		c("a test flag", goExts, "testing.", `\btesting\.(Verbose|Short|CoverMode|Coverage)\(\)`),
		c("the test binary's name", goExts, "os.", `(os\.Args|os\.Executable\(\))[^\n]*`+q+`[^"'`+"`"+`\n]*(?i:test|go-build)|`+q+`[^"'`+"`"+`\n]*(?i:test|go-build)[^\n]*(os\.Args|os\.Executable\(\))`),
		c("the program's name", pyExts, "sys.", `(sys\.argv|sys\.executable|sys\.orig_argv)[^\n]*`+q+`[^"'\n]*(?i:test)|`+q+`[^"'\n]*(?i:test)[^\n]*(sys\.argv|sys\.executable|sys\.orig_argv)`),
		c("the program's name", jsExts, "process.", `(process\.argv|process\.execArgv|require\.main)[^\n]*`+q+`[^"'`+"`"+`\n]*(?i:test|spec)|`+q+`[^"'`+"`"+`\n]*(?i:test|spec)[^\n]*(process\.argv|process\.execArgv|require\.main)`),
		c("a test run's environment", goExts, "", `(Getenv|LookupEnv)\(\s*"`+ralphEnv+`"`),
		c("a test run's environment", pyExts, "", `(environ|getenv)\b[^\n]*["']`+ralphEnv+`["']`),
		c("a test run's environment", jsExts, "env", `process\.env\b[^\n]*\b`+ralphEnv+`\b`),
		c("a test run's environment", rbExts, "ENV", `\bENV\b[^\n]*["']`+ralphEnv+`["']`),
		c("a test run's environment", rsExts, "env", `env::var(_os)?\(\s*"`+ralphEnv+`"`),
		c("the call stack", goExts, "", `\bruntime\.(Caller|Callers|Stack|CallersFrames)\(|\bdebug\.Stack\(\)`),
		c("the call stack", pyExts, "", `\bsys\._getframe\b|\binspect\.(stack|currentframe|getouterframes|trace|getframeinfo)\b|\btraceback\.(extract_stack|format_stack|walk_stack|print_stack)\b|\bf_back\b`),
		c("the call stack", jsExts, "", `\bnew\s+Error\b[^;\n]*\)\s*\.\s*stack\b|\bError\.prepareStackTrace\b|\bcallsites?\(\)|\bgetFileName\(\)`),
		c("the call stack", rbExts, "caller", `\bcaller(_locations)?\b`),
		c("the call stack", rsExts, "", `\bBacktrace::(capture|force_capture|new)\b`),
	}
})
