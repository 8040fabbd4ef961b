package shell

import (
	"path/filepath"
	"sort"
	"strings"
)

// gradleWritten walks the Gradle scripts under root that this command
// line wrote (`echo 'project.delete("tests")' > build.gradle && gradle
// build`: gradle 4.4.1 here deleted tests/): the build's scripts are
// found by listing its directories, which the written file is not in
// yet.
func (w *walker) gradleWritten(c *ctx, root string, sc *scope) {
	var files []string
	for p := range w.written {
		if (strings.HasSuffix(p, ".gradle") || strings.HasSuffix(p, ".gradle.kts")) &&
			(p == root || strings.HasPrefix(p, root+string(filepath.Separator))) {
			files = append(files, p)
		}
	}
	sort.Strings(files)
	for _, f := range files {
		w.gradleFile(c, f, root, "", sc)
	}
}
