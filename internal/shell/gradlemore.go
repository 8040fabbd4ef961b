package shell

import (
	"path/filepath"
	"regexp"
	"strings"
	"sync"
)

// More of what a Gradle build runs while it configures, beyond the
// scripts' exec, delete and execute() of jvm.go: Ant's tasks (ant.delete,
// ant.move, ant.exec), a list's .execute(), java.io and java.nio calls on
// a file named literally (against rootDir or projectDir too) that delete
// or write it, and the Copy and Sync specs (Sync deletes what its source
// lacks). And more code than the build's scripts: the scripts apply from
// names (of any name, outside the build too), buildSrc's and each
// included build's sources (Groovy, Kotlin, Java), compiled and run
// before the build; the init scripts (-I, --init-script, the init.gradle
// and init.d/ of the Gradle user home); and, for the wrapper, a
// distribution that is a local file.

// gradleAnchor is an expression for the root project's directory (1) or
// the script's project's (2).
const gradleAnchor = `(rootDir|rootProject\.(?:projectDir|rootDir)|project\.rootDir)|(projectDir|project\.projectDir|layout\.projectDirectory\.asFile)`

// gradleLit is a string literal ralph can read.
const gradleLit = `["']([^"'\n$]*)["']`

var gradleMoreRes = sync.OnceValue(func() (r struct{ file, nio, ant, attr, antArg, list, spec, from, apply *regexp.Regexp }) {
	m := regexp.MustCompile
	// A file: file('x'), new File('x'), File(rootDir, "x"),
	// rootDir.resolve("x"), fileTree('x'), ('x' as File); then what is
	// done to it.
	r.file = m(`(?:\b(?:new\s+)?(?:File|file|fileTree)\s*\(\s*(?:(?:` + gradleAnchor + `)\s*,\s*)?` + gradleLit + `\s*\)` +
		`|\b(?:` + gradleAnchor + `)\s*(?:\.\s*toPath\s*\(\s*\))?\s*\.\s*resolve\s*\(\s*` + gradleLit + `\s*\)` +
		`|\(\s*` + gradleLit + `\s+as\s+File\s*\))` +
		`(?:\s*\.\s*(?:toFile\s*\(\s*\)|toPath\s*\(\s*\)|asFile|canonicalFile|absoluteFile))*` +
		`\s*(?:\.\s*(?:(deleteDir|deleteRecursively|delete|renameTo)\s*\(` +
		`|(?:text|bytes)\s*=[^=]` +
		`|(?:write|writeText|writeBytes|setText|setBytes|append|appendText|withWriter|newWriter|withOutputStream|withPrintWriter|printWriter|leftShift)\s*[({]` +
		`|(?:eachFile|eachFileRecurse|eachDir|each|forEach|visit|walk|walkTopDown|walkBottomUp|traverse|listFiles\s*\(\s*\)\s*\.\s*(?:each|forEach))\b[^\n]{0,200}?\b(?:delete|deleteDir|deleteRecursively)\s*\()` +
		`|\s*<<)`)
	r.nio = m(`\bFiles\s*\.\s*(delete|deleteIfExists|write|writeString|newBufferedWriter|newOutputStream|move)\s*\(\s*(?:java\.nio\.file\.)?(?:Paths\s*\.\s*get|Path\s*\.\s*of)\s*\(\s*` + gradleLit)
	r.ant = m(`\bant\s*\.\s*(delete|move|exec)\s*\(([^)\n]*)\)`)
	r.attr = m(`\b(dir|file|todir|tofile|executable)\s*:\s*` + gradleLit)
	r.antArg = m(`\barg\s*\(\s*(value|line)\s*:\s*` + gradleLit)
	r.list = m(`\[([^\[\]\n]*)\]\s*\.\s*execute\s*\(`)
	r.spec = m(`(?:\b(copy|sync)|\btype\s*:\s*(Copy|Sync)\s*\)|,\s*(Copy|Sync)(?:::class(?:\.java)?)?\s*\))\s*\{`)
	r.from = m(`\b(from|into)\s*\(?\s*` + gradleLit)
	r.apply = m(`\bapply\s*\(?\s*from\s*[:=]\s*(?:(?:file|rootProject\.file|project\.file)\s*\(\s*)?` + gradleLit)
	return r
})

// gradleMore walks the calls of a Gradle script (or of the build's
// Groovy, Kotlin and Java sources) that gradleCode does not: root is the
// build's root directory, sc's the script's project's.
func (w *walker) gradleMore(c *ctx, text, root string, sc *scope) {
	if !strings.ContainsAny(text, "[('") && !strings.Contains(text, `"`) {
		return
	}
	r := gradleMoreRes()
	for _, m := range r.apply.FindAllStringSubmatch(text, 64) {
		// apply from: 'x': a script of any name, anywhere, run for this
		// project (a URL's is not read).
		if strings.Contains(m[1], "://") {
			w.opaque("gradle applying the script of " + m[1] + " (not read)")
			continue
		}
		f := m[1]
		if !filepath.IsAbs(f) {
			f = filepath.Join(sc.cwd, f)
		}
		w.gradleFile(c, f, root, sc.cwd, sc)
	}
	lit := func(s string) codeArg { return codeArg{val: s, lit: true, raw: s} }
	rm := []string{"rm", "-r", "-f"}
	for _, m := range r.file.FindAllStringSubmatch(text, 256) {
		// m[1] root anchor, m[3] the path against it; m[4], m[5]/m[6];
		// m[7] a path of ('x' as File); m[8] the deleting call.
		if gradleDeleteDir().MatchString(m[0]) {
			continue // file('x').deleteDir(): gradleCode's
		}
		p := m[3] + m[6] + m[7]
		if m[1] != "" || m[4] != "" {
			p = filepath.Join(root, p)
		}
		full := m[0]
		switch {
		case m[8] == "renameTo" || m[8] != "" || strings.Contains(full, "delete") && !strings.Contains(full, "write"):
			w.synthetic(c, rm, []codeArg{lit(p)}, sc)
		default:
			w.synthetic(c, []string{"tee"}, []codeArg{lit(p)}, sc)
		}
	}
	for _, m := range r.nio.FindAllStringSubmatch(text, 256) {
		if strings.HasPrefix(m[1], "delete") || m[1] == "move" {
			w.synthetic(c, rm, []codeArg{lit(m[2])}, sc)
		} else {
			w.synthetic(c, []string{"tee"}, []codeArg{lit(m[2])}, sc)
		}
	}
	for _, m := range r.ant.FindAllStringSubmatchIndex(text, 256) {
		task := text[m[2]:m[3]]
		attrs := map[string]string{}
		for _, a := range r.attr.FindAllStringSubmatch(text[m[4]:m[5]], 8) {
			attrs[a[1]] = a[2]
		}
		switch task {
		case "delete", "move": // a move takes the files away from where they were
			for _, k := range []string{"dir", "file"} {
				if v, ok := attrs[k]; ok {
					w.synthetic(c, rm, []codeArg{lit(v)}, sc)
				}
			}
			if v, ok := attrs["tofile"]; ok {
				w.synthetic(c, []string{"tee"}, []codeArg{lit(v)}, sc)
			}
		case "exec":
			exe, ok := attrs["executable"]
			if !ok {
				continue
			}
			argv := []codeArg{lit(exe)}
			body := text[m[1]:]
			if k := strings.IndexByte(body, '}'); k >= 0 && strings.HasPrefix(strings.TrimLeft(body, " \t"), "{") {
				for _, a := range r.antArg.FindAllStringSubmatch(body[:k], 64) {
					if a[1] == "value" {
						argv = append(argv, lit(a[2]))
						continue
					}
					for _, f := range strings.Fields(a[2]) {
						argv = append(argv, lit(f))
					}
				}
			}
			w.shellCall(c, "gradle", []codeArg{{list: argv}}, sc)
		}
	}
	for _, m := range r.list.FindAllStringSubmatch(text, 256) {
		args := parseArgs(m[1])
		if len(args) > 0 {
			w.shellCall(c, "gradle", []codeArg{{list: args}}, sc)
		}
	}
	for _, m := range r.spec.FindAllStringSubmatchIndex(text, 256) {
		kind := strings.ToLower(textAt(text, m[2], m[3]) + textAt(text, m[4], m[5]) + textAt(text, m[6], m[7]))
		body := text[m[1]:]
		if k := closeBrace(body); k >= 0 {
			body = body[:k]
		}
		var from, into string
		for _, f := range r.from.FindAllStringSubmatch(body, 16) {
			if f[1] == "into" {
				into = f[2]
			} else if from == "" {
				from = f[2]
			}
		}
		switch {
		case into == "":
		case kind == "sync": // Sync deletes what of into its source lacks
			w.synthetic(c, rm, []codeArg{lit(into)}, sc)
		case from != "":
			// Copy puts what from holds into into: a directory's files,
			// as cp -r DIR/. does (attack_run5.txtar).
			if d := dirOf(from, sc); d != "" {
				if _, err := w.a.ReadDir(d); err == nil {
					from = strings.TrimSuffix(from, "/") + "/."
				}
			}
			w.synthetic(c, []string{"cp", "-r"}, []codeArg{lit(from), lit(into)}, sc)
		}
	}
}

// textAt returns text[i:j], or "" for a group that did not match.
func textAt(text string, i, j int) string {
	if i < 0 {
		return ""
	}
	return text[i:j]
}

// closeBrace returns the index of the brace closing a block whose "{" was
// just consumed, or -1.
func closeBrace(s string) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '{':
			depth++
		case '}':
			if depth == 0 {
				return i
			}
			depth--
		}
	}
	return -1
}

// gradleIncluded are the builds settings scripts include: includeBuild("x"),
// in pluginManagement too.
var gradleIncluded = func() *regexp.Regexp { return gradleIncludedLazy.get() }
var gradleIncludedLazy = lazy[*regexp.Regexp]{f: func() *regexp.Regexp {
	return regexp.MustCompile(`\bincludeBuild\s*\(?\s*` + gradleLit)
}}

// gradleSources walks, as build code of the build at root, the sources of
// buildSrc and of the builds its settings include (their scripts too,
// which may lie outside root).
func (w *walker) gradleSources(c *ctx, root string, sc *scope) {
	dirs := []string{filepath.Join(root, "buildSrc")}
	for _, s := range []string{"settings.gradle", "settings.gradle.kts"} {
		text, ok := w.readText(filepath.Join(root, s))
		if !ok {
			continue
		}
		for _, m := range gradleIncluded().FindAllStringSubmatch(text, 32) {
			dirs = append(dirs, filepath.Join(root, m[1]))
		}
	}
	for _, d := range dirs {
		ok := w.eachFile(d, []string{"*.gradle", "*.gradle.kts", "*.groovy", "*.kt", "*.kts", "*.java"}, func(f string) {
			w.gradleFile(c, f, root, "", sc)
		})
		if !ok {
			w.opaqueCode("gradle with more than 2000 files in " + d + ": not every source of the build's code read")
		}
	}
}

// gradleFile walks the Gradle script or build source f, once, run in dir
// (its own directory when "").
func (w *walker) gradleFile(c *ctx, f, root, dir string, sc *scope) {
	text, ok := w.readOnce(f)
	if !ok {
		return
	}
	prev := w.file
	w.file = f
	nsc := sc.child()
	nsc.setCwd(filepath.Dir(f)) // a project's relative paths are its directory's
	if d, _, ok := strings.Cut(f, string(filepath.Separator)+"src"+string(filepath.Separator)); ok && !strings.Contains(filepath.Base(f), ".gradle") {
		nsc.setCwd(d) // a plugin's code: its build's directory at least
	}
	if dir != "" {
		nsc.setCwd(dir)
	}
	w.gradleCode(c, text, root, nsc)
	w.file = prev
}

// gradleInit walks the init scripts gradle runs before the build: those
// -I (--init-script) names, and the init.gradle(.kts) and init.d/ scripts
// of the Gradle user home (-g, --gradle-user-home, $GRADLE_USER_HOME,
// else ~/.gradle).
func (w *walker) gradleInit(c *ctx, args []Word, root string, sc *scope) {
	for i, a := range args {
		s := a.Lit()
		var f string
		switch {
		case (s == "-I" || s == "--init-script") && i+1 < len(args):
			var ok bool
			if f, ok = args[i+1].Value(); !ok || f == "" {
				w.opaque("gradle with a computed init script: " + args[i+1].Raw)
				continue
			}
		case strings.HasPrefix(s, "--init-script="):
			f = s[len("--init-script="):]
		case strings.HasPrefix(s, "-I") && len(s) > 2:
			f = s[2:]
		default:
			continue
		}
		w.gradleFile(c, dirOf(f, sc), root, root, sc) // applied to the build's projects
	}
	home := optValue1(args, "-g", "--gradle-user-home")
	if home != "" {
		home = dirOf(home, sc)
	} else if v, ok := sc.vars["GRADLE_USER_HOME"]; ok {
		if v.dynamic || len(v.vals) != 1 {
			w.opaque("gradle with $GRADLE_USER_HOME computed at run time: its init scripts are not read")
			return
		}
		home = dirOf(v.vals[0], sc)
	} else if h, ok := sc.vars["HOME"]; ok && !h.dynamic && len(h.vals) == 1 && h.vals[0] != "" {
		home = filepath.Join(h.vals[0], ".gradle")
	}
	if home == "" {
		return
	}
	for _, n := range []string{"init.gradle", "init.gradle.kts"} {
		w.gradleFile(c, filepath.Join(home, n), root, root, sc)
	}
	ents, err := w.a.ReadDir(filepath.Join(home, "init.d"))
	if err != nil {
		return
	}
	for i, e := range ents {
		if i >= 64 {
			w.opaqueCode("gradle with more than 64 init scripts in " + filepath.Join(home, "init.d") + ": not all read")
			break
		}
		if n := e.Name(); !e.IsDir() && (strings.HasSuffix(n, ".gradle") || strings.HasSuffix(n, ".gradle.kts")) {
			w.gradleFile(c, filepath.Join(home, "init.d", n), root, root, sc)
		}
	}
}

// wrapperDist asks about a wrapper whose distribution (or wrapper jar,
// for mvnw) is not downloaded over the network: a file: URL or a path,
// code in the project or elsewhere on the machine that the wrapper runs
// as the build tool. p is the wrapper's properties file.
func (w *walker) wrapperDist(name, p string) {
	text, ok := w.readText(p)
	if !ok {
		return
	}
	for _, k := range []string{"distributionUrl", "wrapperUrl"} {
		v, ok := envFileValue(text, k)
		if !ok {
			continue
		}
		v = strings.ReplaceAll(strings.TrimSpace(v), `\:`, ":")
		l := strings.ToLower(v)
		if strings.HasPrefix(l, "https://") || strings.HasPrefix(l, "http://") {
			continue
		}
		w.opaque(name + " running the build tool of " + k + "=" + v + " (" + p + "): a local distribution, not read")
	}
}
