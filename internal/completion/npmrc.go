package completion

import (
	"path/filepath"
	"strings"
)

// packageManagerFiles are the project's configuration files of npm, pnpm
// and yarn, which they read for every script they run: npm test runs
// through them (script-shell, node-options, yarnPath, nodeOptions, …).
var packageManagerFiles = []string{".npmrc", ".yarnrc", ".yarnrc.yml", ".yarnrc.yaml"}

// installOnly are words of the keys of those files that only concern
// installing packages (where from, with which credentials): a change of
// them is not one of what a script runs. Every other key is kept.
var installOnly = []string{"registry", "auth", "token", "proxy", "cafile", "cert", "strict-ssl", "strictssl",
	"email", "fund", "audit", "update-notifier", "progress", "color", "cache", "network", "fetch-", "httptimeout"}

// packageManagerInputs digests, under their names, the project's
// [packageManagerFiles] at root, less the lines of [installOnly] keys,
// blank lines and comments (a file left with nothing is left out).
func packageManagerInputs(root string, in Inputs) {
	for _, f := range packageManagerFiles {
		src, _ := readSmall(filepath.Join(root, f))
		if src == nil {
			continue
		}
		keep := packageManagerLines(src)
		if len(keep) > 0 {
			in.add(f, []byte(strings.Join(keep, "\n")))
		}
	}
}

// packageManagerLines returns the lines of a package manager's
// configuration src that are kept: all but blank lines, comments, a
// registry's credentials (//host/:_authToken=…) and [installOnly] keys.
func packageManagerLines(src []byte) []string {
	var keep []string
	for _, l := range strings.Split(string(src), "\n") {
		t := strings.TrimSpace(l)
		if t == "" || t[0] == '#' || t[0] == ';' || strings.HasPrefix(t, "//") {
			continue
		}
		k := ""
		if f := strings.FieldsFunc(t, func(r rune) bool { return r == '=' || r == ':' || r == ' ' }); len(f) > 0 {
			k = strings.ToLower(strings.Trim(f[0], `"'`))
		}
		drop := k == "ca" || k == "key"
		for _, w := range installOnly {
			drop = drop || strings.Contains(k, w)
		}
		if !drop {
			keep = append(keep, strings.TrimRight(l, "\r")) // indentation kept: YAML's nesting
		}
	}
	return keep
}
