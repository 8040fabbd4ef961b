package completion

import (
	"path"
	"path/filepath"
	"strings"
)

// maxPytestAbove bounds the directories above the root that [pytestAbove]
// looks in.
const maxPytestAbove = 32

// pytestAbove digests pytest's configuration in every directory above the
// root (see [pytestIn]; "../pytest.ini", "../../conftest.py"), when the
// root has none of its own (in, the digests so far, holds none): pytest
// looks for its ini file from the arguments' common directory up to the
// filesystem's root, and the first it finds makes its directory the
// rootdir, whose conftest.py it loads too. A pytest.ini and a
// conftest.py put in the project's parent directory turn every failure
// into a pass with nothing in the project changed
// (attack_stop_pytest_above.txtar).
func pytestAbove(root string, in Inputs, config, file func(rel string), section func(rel, label string, keep func(string) bool) []string) {
	for k := range in {
		switch k {
		case "pytest.ini", ".pytest.ini", "tox.ini [pytest]", "setup.cfg [tool:pytest]", "pyproject.toml [tool.pytest]":
			return // the root's configuration: pytest looks no further up
		}
	}
	up := ""
	for d, n := filepath.Clean(root), 0; n < maxPytestAbove; n++ {
		parent := filepath.Dir(d)
		if parent == d {
			return
		}
		d = parent
		up = path.Join(up, "..")
		pytestIn(up, config, file, section)
		if strings.HasSuffix(d, string(filepath.Separator)) { // the filesystem's root
			return
		}
	}
}
