package shell

import (
	"slices"
	"testing"
)

// TestPyLint checks what pylint, mypy, flake8 and rubocop run from the
// project's configuration.
func TestPyLint(t *testing.T) {
	files := map[string]string{
		"/p/.git/HEAD":            "ref: refs/heads/main\n",
		"/p/pl/.pylintrc":         "[MASTER]\ninit-hook='import os; os.remove(\"h1\")'\nload-plugins=plug,\n  other\n",
		"/p/pl/plug.py":           "import os\nos.remove('h2')\n",
		"/p/pl/other/__init__.py": "import os\nos.remove('h3')\n",
		"/p/pt/pyproject.toml":    "[tool.pylint.main]\ninit-hook = \"import os; os.remove(\\\"h4\\\")\"\n[tool.mypy]\nplugins = [\"tools/m.py\", \"mplug\"]\n",
		"/p/pt/tools/m.py":        "import os\nos.remove('m1')\n",
		"/p/pt/mplug.py":          "import os\nos.remove('m2')\n",
		"/p/f8/tox.ini":           "[tox]\n[flake8:local-plugins]\nextension =\n    A1 = fplug:A\nreport =\n    B1 = rep.x:B\npaths = lint\n[other]\nextension = X = notread:X\n",
		"/p/f8/lint/fplug.py":     "import os\nos.remove('f1')\n",
		"/p/f8/lint/rep/x.py":     "import os\nos.remove('f2')\n",
		"/p/f8/notread.py":        "import os\nos.remove('f3')\n",
		"/p/rb/.rubocop.yml":      "inherit_from:\n  - cfg/a.yml\nrequire: ./cops/one\n",
		"/p/rb/cfg/a.yml":         "plugins:\n  - rubocop-rspec\n  - \"../cops/two.rb\"\n",
		"/p/rb/cops/one.rb":       "File.delete('r1')\n",
		"/p/rb/cops/two.rb":       "File.delete('r2')\n",
	}
	for _, tc := range []struct {
		src, dir string
		want     []string
	}{
		{"pylint x.py", "/p/pl", []string{"pylint x.py", "rm -f h1 [via pylint]", "rm -f h2 [via pylint]", "rm -f h3 [via pylint]"}},
		{"pylint x.py; mypy x.py", "/p/pt", []string{"pylint x.py", "mypy x.py", "rm -f h4 [via pylint]", "rm -f m1 [via mypy]", "rm -f m2 [via mypy]"}},
		{"flake8", "/p/f8", []string{"flake8", "rm -f f1 [via flake8]", "rm -f f2 [via flake8]"}},
		{"rubocop -a", "/p/rb", []string{"rubocop -a", "rm -f r1 [via rubocop]", "rm -f r2 [via rubocop]"}},
		{"pylint --version", "/p/pl", []string{"pylint --version"}},
	} {
		checkRuns(t, files, tc.src, tc.dir, tc.want)
	}
	if got := iniValues("a = 1\n[s]\n  a: 'x y'\nab = 2\n", "a"); !slices.Equal(got, []string{"1", "x y"}) {
		t.Errorf("iniValues = %q", got)
	}
	if got := listItems("[\"a\", 'b'],c\n  # d\n e"); !slices.Equal(got, []string{"a", "b", "c", "e"}) {
		t.Errorf("listItems = %q", got)
	}
}

func FuzzPyLint(f *testing.F) {
	f.Add("[MASTER]\ninit-hook='import os'\nload-plugins=a,\n b", "[flake8:local-plugins]\nextension =\n  X = a:b\npaths = .", "inherit_from: x.yml\nrequire:\n  - ./a")
	f.Add("init-hook = \"\\\"", "[flake8:local-plugins]", "require: [")
	f.Fuzz(func(t *testing.T, pylintrc, flake8, rubocop string) {
		if len(pylintrc)+len(flake8)+len(rubocop) > 8192 {
			return
		}
		files := map[string]string{
			"/p/.git/HEAD": "ref: refs/heads/main\n", "/p/.pylintrc": pylintrc, "/p/mypy.ini": pylintrc, "/p/.flake8": flake8,
			"/p/.rubocop.yml": rubocop, "/p/x.yml": rubocop, "/p/a.py": pylintrc, "/p/a.rb": rubocop,
		}
		for _, src := range []string{"pylint a.py", "mypy .", "flake8", "rubocop"} {
			checkAnalysis(t, src, toolAnalyzer(files).Analyze(src, "/p"))
		}
		iniValues(pylintrc, "init-hook")
		listItems(flake8)
	})
}
