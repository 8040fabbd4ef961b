package completion

import (
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/ralph-hooks/ralph-hooks/internal/treeview"
)

// quotedPath matches a quoted string that may name a file: './x.js',
// "<rootDir>/setup.ts", 'test/setup.mjs'.
var quotedPath = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`['"` + "`" + `]((?:<rootDir>/|\./|\.\./)?[\w@][\w@./-]*)['"` + "`" + `]`)
})

// pluginOpt matches pytest's -p NAME (not -p no:NAME) in its options.
var pluginOpt = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:^|\s)-p\s*([A-Za-z_][\w.]*)`)
})

// patternKey reports whether the configuration key k holds patterns of
// files the runner selects or leaves out (collectCoverageFrom,
// testPathIgnorePatterns, exclude, testMatch, roots), which name the code
// under test and the tests, not code the runner loads.
func patternKey(k string) bool {
	k = strings.ToLower(k)
	for _, w := range []string{"coverage", "ignore", "exclude", "include", "match", "regex", "roots", "watch"} {
		if strings.Contains(k, w) {
			return true
		}
	}
	return false
}

// configKey matches a key of a JavaScript object or JSON text: setupFiles:,
// "collectCoverageFrom":.
var configKey = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`([A-Za-z_]\w*)['"]?\s*:`)
})

// rspecRequire matches --require NAME and -r NAME in .rspec.
var rspecRequire = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:^|\s)(?:--require[=\s]|-r\s*)\s*(\S+)`)
})

// namedFiles digests the project's files that the runners' configuration
// names, which run in the tests' process and so decide their outcome as
// much as the configuration does: a jest setupFiles, a vitest globalSetup,
// a transform, a moduleNameMapper target, a mocha --require, a pytest
// plugin module given to -p, a file .rspec requires. configs are the
// configuration texts by the name they are reported under. A file is
// digested under "NAME (named by the tests' configuration)", whichever
// configuration names it; a quoted name without an extension is looked
// for with the JavaScript extensions only when it is a path ('./setup',
// '<rootDir>/setup'), and the values of keys that select files
// ([patternKey]) are skipped. Only files the configuration names are
// read, not the modules they import in turn.
func namedFiles(root string, configs map[string][]byte, in Inputs) {
	for from, src := range configs {
		dir := ""
		if !strings.Contains(from, " ") { // a file of its own, not package.json's key
			dir = path.Dir(from)
		}
		if base := path.Base(strings.Fields(from)[0]); strings.HasPrefix(base, "pytest") || strings.HasPrefix(base, ".pytest") ||
			strings.Contains(from, "[tool") || base == "tox.ini" {
			// A plugin module is found on sys.path: the root, or the
			// configuration's own directory (its rootdir).
			cdir := path.Dir(strings.Fields(from)[0])
			for _, m := range pluginOpt().FindAllStringSubmatch(string(src), -1) {
				mod := strings.ReplaceAll(m[1], ".", "/")
				for _, rel := range []string{mod + ".py", mod + "/__init__.py"} {
					named(root, rel, from, in)
					if cdir != "." {
						named(root, path.Join(cdir, rel), from, in)
					}
				}
			}
			continue
		}
		if strings.HasPrefix(from, ".rspec") {
			for _, m := range rspecRequire().FindAllStringSubmatch(string(src), -1) {
				name := strings.TrimSuffix(strings.Trim(m[1], `"'`), ".rb") + ".rb"
				for _, d := range []string{"spec", "lib", "."} {
					named(root, path.Join(d, name), from, in)
				}
			}
			continue
		}
		for _, line := range strings.Split(string(src), "\n") {
			for _, ix := range quotedPath().FindAllStringSubmatchIndex(line, -1) {
				if k := configKey().FindAllStringSubmatch(line[:ix[0]], -1); len(k) > 0 && patternKey(k[len(k)-1][1]) {
					continue
				}
				m := []string{line[ix[0]:ix[1]], line[ix[2]:ix[3]]}
				p := strings.TrimPrefix(m[1], "<rootDir>/")
				explicit := p != m[1] || strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../")
				if p == m[1] {
					p = path.Join(dir, p)
				}
				switch {
				case path.Ext(p) != "":
					named(root, path.Clean(p), from, in)
				case explicit: // require('./setup'): the module's file
					for _, ext := range jsExts {
						named(root, p+ext, from, in)
					}
				}
			}
		}
	}
}

// named digests the file rel of the project, if it is one, as named by
// from.
func named(root, rel, from string, in Inputs) {
	if rel == "" || strings.HasPrefix(rel, "../") || rel == ".." || strings.HasPrefix(rel, "node_modules/") {
		return
	}
	p := filepath.Join(root, filepath.FromSlash(rel))
	if info, err := os.Stat(p); err != nil || !info.Mode().IsRegular() {
		return
	}
	if d := digestFile(p); d != "" {
		in[rel+" (named by the tests' configuration)"] = d
	}
}

// supportTree digests, through file, the files ending in ext under the
// directory dir of the view (spec/support/**/*.rb, which spec_helper.rb
// loads by a glob), up to a bound.
func supportTree(v *treeview.View, dir, ext string, file func(rel string)) {
	n := 0
	var walk func(rel string)
	walk = func(rel string) {
		ents, ok := v.List(rel)
		if !ok {
			return
		}
		for _, e := range ents {
			p := rel + "/" + e.Name
			switch {
			case n >= 500:
				return
			case e.Kind == treeview.Dir:
				walk(p)
			case e.Kind == treeview.File && strings.HasSuffix(e.Name, ext):
				n++
				file(p)
			}
		}
	}
	walk(dir)
}
