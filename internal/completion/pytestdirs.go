package completion

import (
	"path"
	"sort"
	"strings"

	"github.com/ralph-hooks/ralph-hooks/internal/testindex"
)

// maxPytestDirs bounds the directories whose pytest configuration is
// looked for below the root.
const maxPytestDirs = 2000

// pytestDirs returns the directories below the root ("tests",
// "tests/unit") that hold the census's Python files or are above one:
// those pytest may take as its rootdir, reading its configuration there,
// when the command names them (`pytest tests`: the first directory from
// the arguments' common one up that has a pytest.ini, .pytest.ini,
// pyproject.toml with [tool.pytest.ini_options], tox.ini with [pytest] or
// setup.cfg with [tool:pytest]), and whose conftest.py it loads.
func pytestDirs(idx testindex.Index) []string {
	seen := map[string]bool{}
	for p := range idx {
		if !strings.HasSuffix(p, ".py") {
			continue
		}
		for d := path.Dir(p); d != "." && d != "/" && !seen[d] && len(seen) < maxPytestDirs; d = path.Dir(d) {
			seen[d] = true
		}
	}
	out := make([]string, 0, len(seen))
	for d := range seen {
		out = append(out, d)
	}
	sort.Strings(out)
	return out
}

// pytestIn digests, through config, file and section, pytest's
// configuration in the directory dir of the project: pytest.ini and
// .pytest.ini (through config, which also reads the plugins they name),
// tox.ini's [pytest], setup.cfg's [tool:pytest], pyproject.toml's
// [tool.pytest.ini_options], and conftest.py. dir "" is the root.
func pytestIn(dir string, config, file func(rel string), section func(rel, label string, keep func(string) bool) []string) {
	j := func(f string) string { return path.Join(dir, f) }
	if dir != "" {
		config(j("pytest.ini")) // the root's is digested with the other runners'
		file(j("conftest.py"))
	}
	config(j(".pytest.ini"))
	if dir != "" {
		section(j("tox.ini"), "[pytest]", func(h string) bool { return h == "[pytest]" })
	}
	section(j("setup.cfg"), "[tool:pytest]", func(h string) bool { return h == "[tool:pytest]" })
	section(j("pyproject.toml"), "[tool.pytest]", func(h string) bool { return h == "[tool.pytest.ini_options]" || h == "[tool.pytest]" })
}
