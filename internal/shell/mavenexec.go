package shell

import (
	"path/filepath"
	"regexp"
	"strings"
)

// exec-maven-plugin's java goal runs a main class of the project inside
// Maven's JVM, in the project's directory: `mvn exec:java
// -Dexec.mainClass=x.Clean`, or a pom.xml whose plugin configuration
// names <mainClass> (bound to a phase, `mvn test` runs it). The class's
// source (src/main/java, src/test/java) is read as the build's Java
// sources are (gradleCode: ProcessBuilder, Runtime.exec, File deletes,
// java.nio). From the plugin's documentation: the plugin was not
// available offline here.

var mainClassRe = func() *regexp.Regexp { return mainClassReLazy.get() }
var mainClassReLazy = lazy[*regexp.Regexp]{f: func() *regexp.Regexp {
	return regexp.MustCompile(`<mainClass>\s*([\w.$]+)\s*</mainClass>`)
}}

// mavenExecJava walks the sources of the main classes exec:java runs for
// the mvn command line args and pom.xml p (text).
func (w *walker) mavenExecJava(c *ctx, args []Word, p, text string, sc *scope) {
	var classes []string
	for _, a := range args {
		if v, ok := strings.CutPrefix(a.Lit(), "-Dexec.mainClass="); ok && v != "" {
			classes = append(classes, v)
		}
	}
	if strings.Contains(text, "exec-maven-plugin") {
		for _, m := range mainClassRe().FindAllStringSubmatch(text, 16) {
			classes = append(classes, m[1])
		}
	}
	root := filepath.Dir(p)
	for _, cl := range classes {
		cl, _, _ = strings.Cut(cl, "$") // an inner class: its outer's file
		rel := filepath.FromSlash(strings.ReplaceAll(cl, ".", "/")) + ".java"
		for _, d := range []string{"src/main/java", "src/test/java"} {
			f := filepath.Join(root, filepath.FromSlash(d), rel)
			if _, ok := w.readText(f); ok {
				w.gradleFile(c.with("exec:java "+cl), f, root, root, sc)
				break
			}
		}
	}
}
