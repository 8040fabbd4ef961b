package shell

import (
	"path/filepath"
	"strings"
)

// Linters and formatters whose configuration is code: eslint imports
// eslint.config.js (or the legacy .eslintrc.js) and prettier its
// prettier.config.js, .prettierrc.js and the plugins its configuration
// names, before they look at a single file. `eslint .` or `prettier
// --check .` runs whatever those files do, the project modules they name
// included; they are read like a test runner's configuration.

// lintConfigs returns the configuration files linter name loads, nearest up
// from the working directory first.
func lintConfigs(name string) []string {
	switch name {
	case "eslint":
		return []string{"eslint.config.js", "eslint.config.mjs", "eslint.config.cjs", "eslint.config.ts", "eslint.config.mts",
			"eslint.config.cts", ".eslintrc.js", ".eslintrc.cjs", ".eslintrc.json", ".eslintrc.yml", ".eslintrc.yaml", ".eslintrc"}
	case "prettier":
		return []string{".prettierrc", ".prettierrc.json", ".prettierrc.yaml", ".prettierrc.yml", ".prettierrc.json5",
			".prettierrc.js", ".prettierrc.cjs", ".prettierrc.mjs", ".prettierrc.ts", "prettier.config.js",
			"prettier.config.cjs", "prettier.config.mjs", "prettier.config.ts", ".prettierrc.toml", "package.json"}
	// atk6: stylelint and commitlint load theirs the same way (and the
	// plugins and extends they name).
	case "stylelint":
		return []string{"stylelint.config.js", "stylelint.config.mjs", "stylelint.config.cjs", "stylelint.config.ts",
			".stylelintrc.js", ".stylelintrc.mjs", ".stylelintrc.cjs", ".stylelintrc.json", ".stylelintrc.yaml",
			".stylelintrc.yml", ".stylelintrc", "package.json"}
	case "commitlint":
		return []string{"commitlint.config.js", "commitlint.config.mjs", "commitlint.config.cjs", "commitlint.config.ts",
			"commitlint.config.cts", ".commitlintrc.js", ".commitlintrc.mjs", ".commitlintrc.cjs", ".commitlintrc.ts",
			".commitlintrc.cts", ".commitlintrc.json", ".commitlintrc.yaml", ".commitlintrc.yml", ".commitlintrc", "package.json"}
	}
	return nil
}

// lintCode walks the configuration linter name loads (-c/--config FILE,
// else the nearest of its names) and the project modules it names:
// --plugin and --rulesdir of the command line too.
func (w *walker) lintCode(c *ctx, name string, args []Word, sc *scope) {
	for _, a := range args {
		switch a.Lit() {
		case "--version", "-v", "--help", "-h", "--no-config", "--no-eslintrc":
			return
		}
	}
	lc := c.with(name)
	file := optValue1(args, "-c", "--config")
	p, text, ok := w.nearest(sc.cwd, file, lintConfigs(name)...)
	if ok && filepath.Base(p) == "package.json" && !strings.Contains(text, `"`+name+`"`) {
		ok = false // a package.json without the linter's key configures nothing
	}
	if ok {
		w.jsConfigFiles(lc, p, text, sc)
	}
	for i, a := range args {
		s := a.Lit()
		if (s == "--plugin" || s == "--rulesdir") && i+1 < len(args) {
			w.nodeModule(lc, args[i+1].Lit(), sc)
		} else if v, ok := strings.CutPrefix(s, "--plugin="); ok {
			w.nodeModule(lc, v, sc)
		}
	}
}

// jsConfigFiles walks the configuration file p (code unless JSON, YAML or
// TOML) and the project modules it names by a relative path
// ('./rules/x.js', "../shared/plugin").
func (w *walker) jsConfigFiles(c *ctx, p, text string, sc *scope) {
	dir := filepath.Dir(p)
	switch filepath.Ext(p) {
	case ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts":
		w.readCode(c, "node", p, sc)
	}
	for _, m := range jsConfigRe().FindAllStringSubmatch(text, 64) {
		if strings.HasPrefix(m[1], "<rootDir>/") {
			continue
		}
		f := filepath.Join(dir, m[1])
		if filepath.Ext(f) == "" {
			for _, ext := range []string{".js", ".cjs", ".mjs", ".ts", "/index.js"} {
				if _, ok := w.readText(f + ext); ok {
					f += ext
					break
				}
			}
		}
		switch filepath.Ext(f) {
		case ".js", ".ts", ".mjs", ".cjs", ".mts", ".cts":
			w.readCode(c, "node", f, sc)
		}
	}
}
