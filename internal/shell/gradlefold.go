package shell

import (
	"regexp"
	"strings"
	"sync"
)

// A Gradle script computes what it deletes, runs or copies in ways the
// literal readers (jvm.go, gradlemore.go) missed; each ran for real here
// (gradle 4.4.1) and was allowed: "te" + "sts", "${rootDir}/tests" (a
// warn), Kotlin's ProcessBuilder(listOf("rm", "-rf", "tests")), a list
// `as String[]` given to Runtime.runtime.exec. gradleFold rewrites those
// forms into the literal ones before the script is read: the root and
// project directories put into GStrings, literal strings joined by +
// joined, listOf/arrayOf/mutableListOf(…) and `[…] as String[]` made
// lists, Runtime.runtime the Runtime.getRuntime() the readers know.

var gradleFoldRes = sync.OnceValue(func() (r struct{ root, proj, concat, list, asArray *regexp.Regexp }) {
	m := regexp.MustCompile
	r.root = m(`\$\{\s*(?:rootDir|project\.rootDir|rootProject\.(?:projectDir|rootDir))(?:\.(?:path|absolutePath))?\s*\}|\$rootDir\b`)
	r.proj = m(`\$\{\s*(?:projectDir|project\.projectDir)(?:\.(?:path|absolutePath))?\s*\}|\$projectDir\b`)
	r.concat = m(`(["'])([^"'\n$\\]*)["']\s*\+\s*["']([^"'\n$\\]*)["']`)
	r.list = m(`\b(?:listOf|arrayOf|mutableListOf|arrayListOf|Arrays\.asList|List\.of)\s*\(([^()\n]*)\)`)
	r.asArray = m(`(\[[^\[\]\n]*\])\s+as\s+(?:String\[\]|List)`)
	return r
})

// gradleFold returns the script text with those forms made literal; root
// is the build's directory, proj the script's project's.
func gradleFold(text, root, proj string) string {
	if !strings.ContainsAny(text, "$+(") {
		return text
	}
	r := gradleFoldRes()
	if root != "" && strings.Contains(text, "$") {
		text = r.root.ReplaceAllLiteralString(text, root)
	}
	if proj != "" && strings.Contains(text, "$") {
		text = r.proj.ReplaceAllLiteralString(text, proj)
	}
	for range 8 {
		n := r.concat.ReplaceAllString(text, `$1$2$3$1`)
		if n == text {
			break
		}
		text = n
	}
	text = r.list.ReplaceAllString(text, `[$1]`)
	text = r.asArray.ReplaceAllString(text, `$1`)
	return strings.ReplaceAll(text, "Runtime.runtime.exec", "Runtime.getRuntime().exec")
}
