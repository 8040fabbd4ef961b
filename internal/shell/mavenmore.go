package shell

import (
	"path/filepath"
	"regexp"
	"strings"
)

// More of what Maven runs from pom.xml beyond the exec and antrun plugins
// of jvm.go: surefire and failsafe fork the tests' JVM with <argLine>
// (its -XX:OnOutOfMemoryError runs a shell command, -javaagent loads
// code) and start it with <jvm> (a program of the project's, if it says
// so); gmavenplus and groovy-maven-plugin run the Groovy of their inline
// <script> and <source>. mvnw runs the Maven distribution and wrapper jar
// of .mvn/wrapper/maven-wrapper.properties.

var mavenMoreRe = func() *regexp.Regexp { return mavenMoreReLazy.get() }
var mavenMoreReLazy = lazy[*regexp.Regexp]{f: func() *regexp.Regexp {
	return regexp.MustCompile(`(?s)<(argLine|jvm|script|source)>(.*?)</(?:argLine|jvm|script|source)>`)
}}

// mavenMore walks the forked JVMs' options and programs and the inline
// Groovy of pom.xml p (text).
func (w *walker) mavenMore(c *ctx, p, text string, sc *scope) {
	if !strings.Contains(text, "<argLine>") && !strings.Contains(text, "<jvm>") && !strings.Contains(text, "<script>") &&
		!strings.Contains(text, "<source>") {
		return
	}
	prev := w.file
	w.file = p
	defer func() { w.file = prev }()
	nsc := sc.child()
	nsc.setCwd(filepath.Dir(p))
	for _, m := range mavenMoreRe().FindAllStringSubmatch(text, 256) {
		v := strings.TrimSpace(m[2])
		if s, ok := strings.CutPrefix(v, "<![CDATA["); ok {
			v = strings.TrimSuffix(strings.TrimSpace(s), "]]>")
		} else {
			v = mavenWord(v).Raw // entities decoded
		}
		switch m[1] {
		case "argLine":
			w.jvmOptions(c.with("surefire argLine"), optFields(v), nsc)
		case "jvm":
			if strings.Contains(v, "${") { // ${java.home}/bin/java and the like
				continue
			}
			// The program is read as a script named on a command line
			// (exec reads none from a file's commands).
			w.file = ""
			w.exec(c.with("surefire jvm"), []Word{{Raw: v, Values: []string{v}}, {Raw: "-version", Values: []string{"-version"}}}, nsc, nil, nil)
			w.file = p
		case "script", "source":
			if strings.ContainsAny(v, "\n;({") || strings.Contains(v, "execute") { // inline code, not a file's name
				w.gradleCode(c.with("groovy"), v, filepath.Dir(p), nsc)
			}
		}
	}
}
