package shell

import (
	"path/filepath"
	"strings"
)

// Code a runtime loads from options it takes outside the command line:
// node reads NODE_OPTIONS (--require, --import, --loader), from the
// environment, from the file `node --env-file` names and from the
// project's .npmrc node-options, which npm passes to every script it runs;
// every JVM reads JAVA_TOOL_OPTIONS (the java launcher JDK_JAVA_OPTIONS
// and _JAVA_OPTIONS too), mvn MAVEN_OPTS and .mvn/jvm.config, gradle's
// start script GRADLE_OPTS and JAVA_OPTS. A JVM runs the shell command of
// -XX:OnOutOfMemoryError and -XX:OnError (an -Xmx small enough makes
// the first certain) and loads the compiled code of -javaagent and
// -agentpath. A command that names none of it runs it all.

// nodeOptVars and jvmOptVars are the variables a program started with
// them set passes on to the node or JVM it starts.
var (
	nodeOptVars = []string{"NODE_OPTIONS"}
	jvmOptVars  = []string{"JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS", "_JAVA_OPTIONS", "MAVEN_OPTS", "GRADLE_OPTS", "JAVA_OPTS"}
)

// preloadEnv walks what the runtime options of the scope's environment
// load, once per value, before program name runs with them set: any
// program may start node or a JVM.
func (w *walker) preloadEnv(c *ctx, name string, sc *scope) {
	if builtinOnly[name] || name == "" || len(sc.vars) == 0 {
		return
	}
	for _, vars := range [2][]string{nodeOptVars, jvmOptVars} {
		for _, k := range vars {
			val, ok := w.envOnce(k, sc)
			if !ok {
				continue
			}
			if k == "NODE_OPTIONS" {
				w.nodeOptions(c.with(k), val, sc)
			} else {
				w.jvmOptions(c.with(k), optFields(val), sc)
			}
		}
	}
}

// envOnce returns the value of the scope's variable k when it is set to
// one literal value not read before in this line (and marks it read); a
// computed value is opaque.
func (w *walker) envOnce(k string, sc *scope) (string, bool) {
	v, ok := sc.vars[k]
	if !ok {
		return "", false
	}
	if v.dynamic || len(v.vals) != 1 {
		w.opaque("a program started with $" + k + " computed at run time")
		return "", false
	}
	key := k + "\x00" + v.vals[0]
	if v.vals[0] == "" || w.envRead[key] {
		return "", false
	}
	if w.envRead == nil {
		w.envRead = map[string]bool{}
	}
	w.envRead[key] = true
	return v.vals[0], true
}

// optFields splits a list of runtime options at blanks, a "…" or '…'
// run kept whole, as node and the JVM split their variables.
func optFields(s string) []string {
	var out []string
	var cur strings.Builder
	var quote rune
	in := false
	for _, r := range s {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '"' || r == '\'':
			quote, in = r, true
		case r == ' ' || r == '\t' || r == '\n' || r == '\r':
			if in {
				out = append(out, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	if in {
		out = append(out, cur.String())
	}
	return out
}

// nodeOptions walks the project modules node options load first.
func (w *walker) nodeOptions(c *ctx, opts string, sc *scope) {
	fs := optFields(opts)
	for i := 0; i < len(fs); i++ {
		f := fs[i]
		switch {
		case (f == "-r" || f == "--require" || f == "--import" || f == "--loader" || f == "--experimental-loader") && i+1 < len(fs):
			w.nodeModule(c, fs[i+1], sc)
			i++
		default:
			for _, o := range []string{"--require=", "--import=", "--loader=", "--experimental-loader="} {
				if v, ok := strings.CutPrefix(f, o); ok {
					w.nodeModule(c, v, sc)
				}
			}
		}
	}
}

// nodeModule walks the module m a node option names, when it is a file of
// the project (./x.js, /abs/x): a package name is an installed dependency.
func (w *walker) nodeModule(c *ctx, m string, sc *scope) {
	if w.a.ReadFile == nil || c.depth >= MaxDepth {
		return
	}
	m = strings.TrimPrefix(m, "file://")
	if !strings.HasPrefix(m, "./") && !strings.HasPrefix(m, "../") && !filepath.IsAbs(m) {
		return
	}
	p := m
	if !filepath.IsAbs(p) {
		if sc.cwd == "" {
			w.opaque("node loading " + m + " from a directory not known")
			return
		}
		p = filepath.Join(sc.cwd, p)
	}
	for _, ext := range []string{"", ".js", ".cjs", ".mjs", "/index.js"} {
		if _, ok := w.readText(p + ext); ok {
			w.readCode(c, "node", p+ext, sc)
			return
		}
	}
}

// jvmOptions walks what JVM options run: the shell command lines of
// -XX:OnOutOfMemoryError and -XX:OnError (";" separates several), and
// the agents of -javaagent and -agentpath, compiled code not read (one
// of the build's dependencies, ${…} of Maven's repository, is not the
// project's). jdwp's launch= starts a program.
func (w *walker) jvmOptions(c *ctx, opts []string, sc *scope) {
	for _, o := range opts {
		switch {
		case strings.HasPrefix(o, "-XX:OnOutOfMemoryError=") || strings.HasPrefix(o, "-XX:OnError="):
			_, v, _ := strings.Cut(o, "=")
			v = strings.Trim(v, `"'`)
			if v != "" {
				w.shellString(c.with("java "+o[:strings.Index(o, "=")]), v, sc)
			}
		case strings.HasPrefix(o, "-javaagent:") || strings.HasPrefix(o, "-agentpath:"):
			if !strings.Contains(o, "${") {
				w.opaque("a JVM loading the compiled agent of " + o + " (not read)")
			}
		case strings.HasPrefix(o, "-agentlib:") || strings.HasPrefix(o, "-Xrunjdwp"):
			if strings.Contains(o, "launch=") {
				w.opaque("a JVM debug agent starting the program of " + o)
			}
		}
	}
}

// envFileNode walks the NODE_OPTIONS of the files node --env-file names
// (node 20.6 and later load them before the options they hold).
func (w *walker) envFileNode(c *ctx, args []Word, sc *scope) {
	for i, a := range args {
		s := a.Lit()
		var f string
		switch {
		case (s == "--env-file" || s == "--env-file-if-exists") && i+1 < len(args):
			f = args[i+1].Lit()
		case strings.HasPrefix(s, "--env-file=") || strings.HasPrefix(s, "--env-file-if-exists="):
			_, f, _ = strings.Cut(s, "=")
		case s == "--" || !strings.HasPrefix(s, "-") && (i == 0 || !nodeValueOpt(args[i-1].Lit())):
			return // the script and its own arguments
		default:
			continue
		}
		if a.Dynamic || f == "" {
			w.opaque("node --env-file of a file computed at run time")
			continue
		}
		if !filepath.IsAbs(f) && sc.cwd != "" {
			f = filepath.Join(sc.cwd, f)
		}
		if text, ok := w.readText(f); ok {
			if v, ok := envFileValue(text, "NODE_OPTIONS"); ok {
				w.nodeOptions(c.with("node --env-file"), v, sc)
			}
			w.envFileVars(c, "node", text, sc) // envfile.go
		}
	}
}

// nodeValueOpt reports whether s is one of node's options that take the
// next argument as value.
func nodeValueOpt(s string) bool {
	switch s {
	case "-r", "--require", "--import", "--loader", "--experimental-loader", "--env-file",
		"--env-file-if-exists", "-e", "--eval", "-p", "--print", "--input-type", "-C", "--conditions", "--title":
		return true
	}
	return false
}

// envFileValue returns the value of key in a dotenv file (KEY=value,
// export KEY=value, quoted or not); the last one counts.
func envFileValue(text, key string) (string, bool) {
	val, found := "", false
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "export "))
		k, v, ok := strings.Cut(line, "=")
		if !ok || strings.TrimSpace(k) != key {
			continue
		}
		v = strings.TrimSpace(v)
		if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
			v = v[1 : len(v)-1]
		}
		val, found = v, true
	}
	return val, found
}

// npmrcNode walks the node-options of the project's .npmrc (the nearest
// up from the directory), which npm, pnpm and yarn 1 put in NODE_OPTIONS
// for every script they run.
func (w *walker) npmrcNode(c *ctx, sc *scope) {
	p, text, ok := w.nearest(sc.cwd, "", ".npmrc")
	if !ok {
		return
	}
	if v, ok := envFileValue(text, "node-options"); ok {
		nsc := sc.child()
		nsc.setCwd(filepath.Dir(p))
		w.nodeOptions(c.with(".npmrc node-options"), v, nsc)
	}
}

// mavenJVM walks .mvn/jvm.config of the Maven project holding the
// directory (the nearest .mvn up from it): mvn and mvnw pass its options,
// split at blanks, to the JVM that runs Maven.
func (w *walker) mavenJVM(c *ctx, sc *scope) {
	p, text, ok := w.nearest(sc.cwd, "", filepath.Join(".mvn", "jvm.config"))
	if !ok {
		return
	}
	nsc := sc.child()
	nsc.setCwd(filepath.Dir(filepath.Dir(p)))
	prev := w.file
	w.file = p
	w.jvmOptions(c.with(".mvn/jvm.config"), strings.Fields(text), nsc)
	w.file = prev
}

// preloadFiles walks the runtime options program name takes from the
// project's files (and java from its command line).
func (w *walker) preloadFiles(c *ctx, name string, args []Word, sc *scope) {
	switch name {
	case "node":
		w.envFileNode(c, args, sc)
	case "npm", "npx", "pnpm", "yarn":
		w.npmrcNode(c, sc)
		w.npmSettings(c, name, args, sc) // npmenv.go
	case "mvn", "mvnw":
		w.mavenJVM(c, sc)
	case "java":
		var opts []string
		for _, a := range args {
			s := a.Lit()
			if !strings.HasPrefix(s, "-") || s == "-jar" || s == "-m" || s == "--module" {
				break // the main class, jar or module: its own arguments follow
			}
			opts = append(opts, s)
		}
		w.jvmOptions(c, opts, sc)
	}
}

// gradleJVM walks the org.gradle.jvmargs of the build's gradle.properties,
// the options of the JVM gradle starts to run the build (its daemon).
func (w *walker) gradleJVM(c *ctx, root string, sc *scope) {
	p := filepath.Join(root, "gradle.properties")
	text, ok := w.readText(p)
	if !ok || !strings.Contains(text, "jvmargs") {
		return
	}
	v, ok := envFileValue(strings.ReplaceAll(text, "\\\n", " "), "org.gradle.jvmargs")
	if !ok {
		return
	}
	nsc := sc.child()
	nsc.setCwd(root)
	prev := w.file
	w.file = p
	w.jvmOptions(c.with("org.gradle.jvmargs"), optFields(v), nsc)
	w.file = prev
}
