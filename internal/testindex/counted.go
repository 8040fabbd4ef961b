package testindex

import "path"

// Counted returns the test of a regular file's path (slash-separated,
// relative to the root) that ScanView lists it by: a test file the census
// counts under globs.
func Counted(globs []string) func(rel string) bool {
	return func(rel string) bool { return mayCount(path.Base(rel)) && Lang(globs, rel) != "" }
}
