package shell

import (
	"testing"
)

// TestInstallScripts checks the install scripts of local dependencies and
// workspaces an install runs, and the setup.py of the local directories a
// requirements file lists.
func TestInstallScripts(t *testing.T) {
	files := map[string]string{
		"/p/.git/HEAD":               "ref: refs/heads/main\n",
		"/p/package.json":            `{"dependencies": {"a": "file:./a", "b": "link:../q/b", "c": "^1.0.0", "t": "file:./t.tgz"}, "devDependencies": {"d": "./d"}, "workspaces": ["packages/*", "tools/x", "!packages/skip"]}`,
		"/p/a/package.json":          `{"scripts": {"postinstall": "rm -rf i1", "test": "rm -rf not-an-install-script"}}`,
		"/q/b/package.json":          `{"scripts": {"preinstall": "rm -rf i2"}}`,
		"/p/d/package.json":          `{"scripts": {"prepare": "rm -rf i3"}}`,
		"/p/packages/w/package.json": `{"scripts": {"install": "rm -rf i4"}}`,
		"/p/tools/x/package.json":    `{"scripts": {"postinstall": "rm -rf i5"}}`,
		"/p/e/package.json":          `{"scripts": {"postinstall": "rm -rf i6"}}`,
		"/r/requirements.txt":        "requests==2.0\n-e ./s1  # editable\nfile:./s2\nx @ file:///r/s3\n-r more.txt\n",
		"/r/more.txt":                "./s4\n-r requirements.txt\n",
		"/r/s1/setup.py":             "import os\nos.remove('r1')\n",
		"/r/s2/setup.py":             "import os\nos.remove('r2')\n",
		"/r/s3/setup.py":             "import os\nos.remove('r3')\n",
		"/b/pyproject.toml":          "[build-system]\nrequires = []\nbuild-backend = \"tools.backend:api\"\nbackend-path = [\".\"]\n[tool.hatch.build.hooks.custom]\n[tool.hatch.metadata.hooks.custom]\npath = \"meta_hook.py\"\n",
		"/b/tools/backend.py":        "import os\nos.remove('b1')\n",
		"/b/hatch_build.py":          "import os\nos.remove('b2')\n",
		"/b/meta_hook.py":            "import os\nos.remove('b3')\n",
		"/c/pyproject.toml":          "[build-system]\nrequires = [\"pdm-backend\"]\nbuild-backend = \"pdm.backend\"\n",
		"/c/pdm_build.py":            "import os\nos.remove('c1')\n",
		"/r/s4/setup.py":             "import os\nos.remove('r4')\n",
	}
	all := []string{"rm -rf i1 [via npm install, script postinstall]", "rm -rf i2 [via npm install, script preinstall]",
		"rm -rf i3 [via npm install, script prepare]", "rm -rf i4 [via npm install, script install]",
		"rm -rf i5 [via npm install, script postinstall]"}
	tests := []struct {
		src, dir string
		want     []string
	}{
		{"npm install", "/p", append([]string{"npm install"}, all...)},
		{"npm ci --ignore-scripts=false", "/p", append([]string{"npm ci --ignore-scripts=false"}, all...)},
		{"npm install ./e", "/p", append([]string{"npm install ./e", "rm -rf i6 [via npm install, script postinstall]"}, all...)},
		{"npm test", "/p", []string{"npm test"}},
		{"pip install -r requirements.txt", "/r", []string{"pip install -r requirements.txt", "rm -f r1 [via pip install, python setup.py]",
			"rm -f r2 [via pip install, python setup.py]", "rm -f r3 [via pip install, python setup.py]", "rm -f r4 [via pip install, python setup.py]"}},
		{"pip install requests", "/r", []string{"pip install requests"}},
		{"pip install -e .", "/b", []string{"pip install -e .", "rm -f b1 [via pip install]", "rm -f b2 [via pip install]", "rm -f b3 [via pip install]"}},
		{"python3 -m build", "/b", []string{"python3 -m build", "rm -f b1 [via python -m build]", "rm -f b2 [via python -m build]", "rm -f b3 [via python -m build]"}},
		{"pip wheel /c", "/r", []string{"pip wheel /c", "rm -f c1 [via pip wheel]"}},
	}
	for _, tt := range tests {
		checkRuns(t, files, tt.src, tt.dir, tt.want)
	}
}

// FuzzInstallFiles checks that no package.json, requirements file or
// pyproject.toml makes
// the analysis panic or loop.
func FuzzInstallFiles(f *testing.F) {
	f.Add(`{"dependencies": {"a": "file:./a"}, "workspaces": ["p/*"]}`, "-r r.txt\n./a\n-e .\n")
	f.Add(`{"workspaces": {"packages": ["*/*", "["]}}`, "x @ file://\n-r\n-r")
	f.Fuzz(func(t *testing.T, pkg, req string) {
		if len(pkg)+len(req) > 8192 {
			return
		}
		files := map[string]string{"/p/package.json": pkg, "/p/a/package.json": pkg, "/p/p/x/package.json": pkg,
			"/p/r.txt": req, "/p/requirements.txt": req, "/p/a/setup.py": req, "/p/a/pyproject.toml": req,
			"/p/pyproject.toml": req, "/p/hatch_build.py": req}
		for _, src := range []string{"npm install", "yarn", "pip install -r requirements.txt", "pip install .", "python -m build"} {
			checkAnalysis(t, src, toolAnalyzer(files).Analyze(src, "/p"))
		}
		localDepDir(pkg, "/p")
	})
}
