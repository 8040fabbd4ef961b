package shell

import (
	"path/filepath"
	"strings"
)

// A build file written and run in one command line (`echo '…' >
// build.gradle && gradle build`, a justfile, package.json, a Python
// module then imported) was read from the disk as it was before the
// line: the tool's reader missed what the line wrote. Every project file
// a reader looks into (readText) now has the text the line wrote to it
// added to what the disk holds (both: `>>` appends, and what `>` replaced
// was there before the line, to be read anyway).

// writtenText returns the disk's text of p (ok when read) with the text
// the command line wrote to p.
func (w *walker) writtenText(p, disk string, ok bool) (string, bool) {
	if len(w.written) == 0 {
		return disk, ok
	}
	t, wrote := w.written[filepath.Clean(p)]
	switch {
	case !wrote:
		return disk, ok
	case !ok, !w.appended[filepath.Clean(p)] && oneDocument(p):
		// A file holding one document (JSON, TOML, YAML) the line
		// replaced: the two texts in a row are no document, and the
		// reader took the disk's (`echo '{"scripts":{"test":"rm -rf
		// tests"}}' > package.json && npm test` ran the disk's test).
		return t, true
	}
	return disk + "\n" + t, true
}

// oneDocument reports whether the file p names is read as one structured
// document, which a second text after it does not extend.
func oneDocument(p string) bool {
	switch strings.ToLower(filepath.Ext(p)) {
	case ".json", ".jsonc", ".json5", ".toml", ".yaml", ".yml":
		return true
	}
	return false
}
