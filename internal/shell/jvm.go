package shell

import (
	"path/filepath"
	"regexp"
	"strings"
	"sync"
)

// Gradle runs the build scripts (settings.gradle, build.gradle and their
// .kts forms, in every project of the build) whole while it configures,
// before any task: their exec { commandLine … }, delete, "…".execute()
// and ProcessBuilder calls run at every gradle command. Maven runs the
// exec plugin's <executable> and the antrun plugin's <delete> and <exec>
// of pom.xml in the phases they are bound to. Both are read from the
// project's files like a script file.

// gradleOps are the calls of a Gradle script that run or delete.
var gradleOps = sync.OnceValue(func() []struct {
	re    *regexp.Regexp
	argv  []string
	shell bool
} {
	m := regexp.MustCompile
	return []struct {
		re    *regexp.Regexp
		argv  []string
		shell bool
	}{
		{re: m(`\bcommandLine\s*(?:=\s*(?:listOf|arrayOf|mutableListOf)\s*\(|\(|[ \t]+)`), shell: true},
		{re: m(`\b(?:ProcessBuilder|Runtime\.getRuntime\(\)\.exec)\s*\(`), shell: true},
		{re: m(`(?m)(?:^|[^\w.])(?:project\.)?delete\s*(?:\(|[ \t]+)`), argv: []string{"rm", "-r", "-f"}},
	}
})

// gradleFile matches file("x").deleteDir() and "cmd".execute().
var (
	gradleDeleteDir     = func() *regexp.Regexp { return gradleDeleteDirLazy.get() }
	gradleDeleteDirLazy = lazy[*regexp.Regexp]{f: func() *regexp.Regexp {
		return regexp.MustCompile(`\b(?:file|File|new\s+File)\s*\(\s*["']([^"'\n$]*)["']\s*\)\s*\.(?:deleteDir|deleteRecursively|delete)\s*\(`)
	}}
	gradleExecute     = func() *regexp.Regexp { return gradleExecuteLazy.get() }
	gradleExecuteLazy = lazy[*regexp.Regexp]{f: func() *regexp.Regexp {
		return regexp.MustCompile(`["']([^"'\n$]*)["']\s*\.execute\s*\(`)
	}}
)

// gradle walks the build scripts of the Gradle build at the nearest
// settings.gradle(.kts) (or build script) up from the directory.
func (w *walker) gradle(c *ctx, args []Word, sc *scope, wrapper bool) {
	for _, a := range args {
		switch a.Lit() {
		case "--version", "-v", "--help", "-h", "--stop", "--status":
			return
		}
	}
	dir := sc.cwd
	if d := optValue1(args, "-p", "--project-dir"); d != "" {
		dir = dirOf(d, sc)
	}
	// The build's root: its settings script, else the nearest build script.
	p, _, ok := w.nearest(dir, "", "settings.gradle", "settings.gradle.kts")
	if !ok {
		if p, _, ok = w.nearest(dir, "", "build.gradle", "build.gradle.kts"); !ok {
			return
		}
	}
	root := filepath.Dir(p)
	gc := c.with("gradle")
	w.gradleJVM(gc, root, sc) // preload.go
	ok = w.eachFile(root, []string{"*.gradle", "*.gradle.kts"}, func(f string) {
		w.gradleFile(gc, f, root, "", sc)
	})
	if !ok {
		w.opaqueCode("gradle over a tree of more than 2000 files: not every build script read")
	}
	w.gradleWritten(gc, root, sc) // gradlewritten.go
	w.gradleSources(gc, root, sc) // gradlemore.go
	w.gradleInit(gc, args, root, sc)
	if wrapper {
		w.wrapperDist("gradlew", filepath.Join(root, "gradle", "wrapper", "gradle-wrapper.properties"))
	}
}

// gradleCode walks the calls of a Gradle script that run or delete.
func (w *walker) gradleCode(c *ctx, text, root string, sc *scope) {
	prev := w.inCode
	w.inCode = true
	defer func() { w.inCode = prev }()
	text = gradleFold(text, root, sc.cwd) // gradlefold.go
	vars := assignments(text)
	for _, o := range gradleOps() {
		for _, m := range o.re.FindAllStringIndex(text, 256) {
			args := evalArgs(parseArgs(text[m[1]:]), vars)
			switch {
			case len(args) == 0:
			case o.shell && len(args) == 1 && args[0].lit:
				w.shellString(c, args[0].val, sc) // Runtime.exec("cmd"): split on spaces
			case o.shell:
				w.shellCall(c, "gradle", args, sc)
			case !args[0].lit && (strings.Contains(args[0].raw, "buildDir") || strings.Contains(args[0].raw, "buildDirectory")):
				// the clean task of every template: the build's own output
			default:
				w.synthetic(c, o.argv, args[:1], sc)
			}
		}
	}
	for _, m := range gradleDeleteDir().FindAllStringSubmatch(text, 256) {
		w.synthetic(c, []string{"rm", "-r", "-f"}, []codeArg{{val: m[1], lit: true, raw: m[1]}}, sc)
	}
	for _, m := range gradleExecute().FindAllStringSubmatch(text, 256) {
		w.shellString(c, m[1], sc)
	}
	w.gradleMore(c, text, root, sc) // gradlemore.go
}

// maven walks what the exec and antrun plugins of pom.xml run.
func (w *walker) maven(c *ctx, args []Word, sc *scope, wrapper bool) {
	for _, a := range args {
		switch a.Lit() {
		case "--version", "-v", "--help", "-h":
			return
		}
	}
	file := optValue1(args, "-f", "--file")
	p, text, ok := w.nearest(sc.cwd, file, "pom.xml")
	if !ok {
		return
	}
	w.fileCommands(c.with("mvn"), p, mavenCommands(text), sc)
	w.mavenMore(c.with("mvn"), p, text, sc) // mavenmore.go
	// exec:java's main classes: mavenexec.go
	w.mavenExecJava(c.with("mvn"), args, p, text, sc)
	if wrapper {
		if wp, _, ok := w.nearest(filepath.Dir(p), "", filepath.Join(".mvn", "wrapper", "maven-wrapper.properties")); ok {
			w.wrapperDist("mvnw", wp)
		}
	}
}

var (
	xmlTag     = func() *regexp.Regexp { return xmlTagLazy.get() }
	xmlTagLazy = lazy[*regexp.Regexp]{f: func() *regexp.Regexp {
		return regexp.MustCompile(`<(executable|argument)>\s*([^<]*?)\s*</(?:executable|argument)>|</configuration>`)
	}}
	antTask     = func() *regexp.Regexp { return antTaskLazy.get() }
	antTaskLazy = lazy[*regexp.Regexp]{f: func() *regexp.Regexp {
		return regexp.MustCompile(`<(delete|exec|arg)\b([^>]*)>`)
	}}
	xmlAttr     = func() *regexp.Regexp { return xmlAttrLazy.get() }
	xmlAttrLazy = lazy[*regexp.Regexp]{f: func() *regexp.Regexp { return regexp.MustCompile(`\b(dir|file|executable|value|line)\s*=\s*"([^"]*)"`) }}
)

// mavenCommands returns the commands of pom.xml's exec plugin
// (<executable> and its <argument>s, up to </configuration>) and of its
// antrun targets (<delete dir|file>, <exec executable> with its <arg>s).
// ${…} is computed.
func mavenCommands(text string) [][]Word {
	var out [][]Word
	var cur []Word
	flush := func() {
		if len(cur) > 0 {
			out = append(out, cur)
		}
		cur = nil
	}
	for _, m := range xmlTag().FindAllStringSubmatch(text, 1024) {
		switch m[1] {
		case "executable":
			flush()
			cur = []Word{mavenWord(m[2])}
		case "argument":
			if cur != nil {
				cur = append(cur, mavenWord(m[2]))
			}
		default:
			flush()
		}
	}
	flush()
	for _, m := range antTask().FindAllStringSubmatch(text, 1024) {
		attrs := map[string]string{}
		for _, a := range xmlAttr().FindAllStringSubmatch(m[2], 8) {
			attrs[a[1]] = a[2]
		}
		switch m[1] {
		case "delete":
			flush()
			for _, k := range []string{"dir", "file"} {
				if v, ok := attrs[k]; ok {
					out = append(out, []Word{{Raw: "rm", Values: []string{"rm"}}, {Raw: "-r", Values: []string{"-r"}},
						{Raw: "-f", Values: []string{"-f"}}, mavenWord(v)})
				}
			}
		case "exec":
			flush()
			if v, ok := attrs["executable"]; ok {
				cur = []Word{mavenWord(v)}
			}
		case "arg":
			if cur == nil {
				continue
			}
			if v, ok := attrs["value"]; ok {
				cur = append(cur, mavenWord(v))
			} else if v, ok := attrs["line"]; ok {
				for _, f := range strings.Fields(v) {
					cur = append(cur, mavenWord(f))
				}
			}
		}
	}
	flush()
	return out
}

// mavenWord is an XML value as a word: computed when it expands ${…}.
func mavenWord(v string) Word {
	v = strings.NewReplacer("&amp;", "&", "&lt;", "<", "&gt;", ">", "&quot;", `"`, "&apos;", "'").Replace(v)
	if strings.Contains(v, "${") {
		return Word{Raw: v, Dynamic: true}
	}
	return Word{Raw: v, Values: []string{v}}
}
