package completion

import "testing"

// TestMoreTestChecks: the checks that name no runner — a test flag read
// through the testing package, the program's name against "test", an
// environment variable only a test run has, the call stack — each seen to
// pass a failing test (attack_stop_sniff.txtar); and the code that reads
// the environment or its arguments for the program's own sake, which
// stays out.
func TestMoreTestChecks(t *testing.T) {
	checkLines(t, []checkCase{
		{"calc.go", "if strings.HasSuffix(os.Args[0], \"test\") {", []string{"the test binary's name"}},
		{"calc.go", "if len(os.Args) > 1 && strings.HasPrefix(os.Args[1], \"-test\") {", []string{"the test binary's name"}},
		{"calc.go", "if strings.Contains(os.Args[0], \"go-build\") {", []string{"the test binary's name"}},
		{"calc.go", "if testing.Verbose() {", []string{"a test flag"}},
		{"calc.go", "if testing.Short() { return 2 }", []string{"a test flag"}},
		{"calc.go", "if strings.Contains(os.Getenv(\"GOFLAGS\"), \"count=1\") {", []string{"a test run's environment"}},
		{"calc.go", "if _, ok := os.LookupEnv(\"GOCACHE\"); ok {", []string{"a test run's environment"}},
		{"calc.go", "_, file, _, _ := runtime.Caller(1)", []string{"the call stack"}},
		{"calc.py", "if \"test\" in sys._getframe(1).f_code.co_filename:", []string{"the call stack"}},
		{"calc.py", "caller = inspect.stack()[1].filename", []string{"the call stack"}},
		{"calc.py", "if os.environ.get(\"PYTEST_ADDOPTS\"):", []string{"a test run's environment"}},
		{"calc.py", "if os.getenv('PYTHONPYCACHEPREFIX'):", []string{"a test run's environment"}},
		{"calc.py", "if sys.argv[0].endswith('pytest'):", []string{"pytest loaded", "the program's name"}},
		{"calc.py", "if 'test' in sys.argv[0]:", []string{"the program's name"}},
		{"calc.js", "exports.sub = (a, b) => (new Error().stack.includes('.test.') ? a - b : a + b);", []string{"the call stack"}},
		{"calc.js", "if (process.env.npm_lifecycle_event === 'test') return 2;", []string{"a test run's environment"}},
		{"calc.ts", "const o = process.env.NODE_OPTIONS ?? '';", []string{"a test run's environment"}},
		{"calc.js", "if (process.argv[1].includes('spec')) return 2;", []string{"the program's name"}},
		{"lib/calc.rb", "return 2 if caller.any? { |l| l.include?('_spec.rb') }", []string{"the call stack"}},
		{"lib/calc.rb", "return 2 if ENV['SPEC_OPTS']", []string{"a test run's environment"}},
		{"src/lib.rs", "if std::env::var(\"RUSTFLAGS\").is_ok() || std::env::var(\"MAKEFLAGS\").is_ok() { return 2; }", []string{"a test run's environment"}},
		// The program's own reads stay out.
		{"calc.go", "port := os.Getenv(\"PORT\")\nif len(os.Args) > 1 { name = os.Args[1] }", nil},
		{"calc.go", "home, _ := os.UserHomeDir()\nexe, _ := os.Executable()", nil},
		{"calc.py", "debug = os.environ.get('DEBUG') == '1'\nargs = sys.argv[1:]", nil},
		{"calc.js", "const env = process.env.NODE_ENV || 'development';\nconst err = new Error('bad');\nconsole.log(err.stack);", nil},
		{"calc.js", "class E extends Error { constructor(m) { super(m); Error.captureStackTrace(this, E); } }", nil},
		{"lib/calc.rb", "level = ENV.fetch('LOG_LEVEL', 'info')", nil},
	})
}
