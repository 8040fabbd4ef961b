package shell

import (
	"path/filepath"
	"regexp"
	"strings"

	"github.com/tidwall/gjson"
	"go.yaml.in/yaml/v3"
)

// Task runners whose tasks are shell command lines in a project file, as
// make's and npm's are: deno task (deno.json), composer's scripts
// (composer.json; install, update and dump-autoload run their event
// scripts), and go-task (Taskfile.yml). The task named, its dependencies
// and the tasks it calls are walked like a script file.

// tasks walks what the task runner name runs for args.
func (w *walker) tasks(c *ctx, name string, args []Word, sc *scope) {
	switch name {
	case "deno":
		if len(args) > 0 && args[0].Lit() == "task" {
			w.denoTask(c, args[1:], sc)
		}
	case "composer":
		w.composer(c, args, sc)
	case "task", "go-task":
		w.goTask(c, name, args, sc)
	}
}

// eachTask calls visit for each task of names, and of the names visit
// returns (its dependencies, the tasks it calls), once each and at most
// maxTargets.
func eachTask(names []string, visit func(t string) []string) {
	seen := map[string]bool{}
	for len(names) > 0 && len(seen) < maxTargets {
		t := names[0]
		names = names[1:]
		if !seen[t] {
			seen[t] = true
			names = append(names, visit(t)...)
		}
	}
}

// taskArgs splits a runner's arguments into its directory option (one of
// dirOpts, with its value), the first word that is no option, and
// whether that word is computed.
func taskArgs(args []Word, dirOpts, fileOpts, valueOpts string) (dir, file, first string, computed bool) {
	has := func(list, s string) bool { return s != "" && strings.Contains(" "+list+" ", " "+s+" ") }
	for i := 0; i < len(args); i++ {
		s, ok := args[i].Value()
		if !ok {
			return dir, file, "", true
		}
		k, v, eq := strings.Cut(s, "=")
		switch {
		case s == "--":
			if i+1 < len(args) {
				f, ok := args[i+1].Value()
				return dir, file, f, !ok
			}
			return dir, file, "", false
		case has(dirOpts, k) || has(fileOpts, k) || has(valueOpts, k):
			if !eq {
				if i+1 >= len(args) {
					return dir, file, "", false
				}
				i++
				v = args[i].Lit()
			}
			if has(dirOpts, k) {
				dir = v
			} else if has(fileOpts, k) {
				file = v
			}
		case strings.HasPrefix(s, "-"):
		default:
			return dir, file, s, false
		}
	}
	return dir, file, "", false
}

// denoTask walks deno task NAME: deno.json's (or deno.jsonc's) tasks.NAME,
// a command line or {"command", "dependencies"}, in the file's directory.
func (w *walker) denoTask(c *ctx, args []Word, sc *scope) {
	dir, file, name, computed := taskArgs(args, "--cwd", "-c --config", "")
	d := dirOf(dir, sc)
	if d == "" || name == "" && !computed {
		return // deno task alone lists the tasks
	}
	p, text, ok := w.nearest(d, file, "deno.json", "deno.jsonc")
	if !ok {
		return
	}
	text = stripJSONComments(text)
	names := []string{name}
	if computed {
		names = jsonKeys(text, "tasks")
	}
	eachTask(names, func(t string) (deps []string) {
		v := gjson.Get(text, "tasks."+gjsonKey(t))
		body := v.Str
		if v.IsObject() {
			body = v.Get("command").Str
			for _, dep := range v.Get("dependencies").Array() {
				deps = append(deps, dep.Str)
			}
		}
		if body != "" {
			w.inFile(c, p, "deno task "+t, body, filepath.Dir(p), sc)
		}
		return deps
	})
}

// composerEvents are the scripts composer's own commands run.
var composerEvents map[string][]string

// composerBuiltins are composer's commands that run no script of the
// project's (others name a script: composer test).
var composerBuiltins map[string]bool

// composer walks the scripts composer runs: run-script NAME (or run, or a
// script named as a command), and the event scripts of install, update
// and dump-autoload. An entry is a command line, @NAME (another script),
// @php or @composer (those programs), @putenv, or a PHP callback
// (Class::method), which ralph cannot read.
func (w *walker) composer(c *ctx, args []Word, sc *scope) {
	dir, _, sub, computed := taskArgs(args, "-d --working-dir", "", "")
	var names []string
	switch {
	case computed:
		names = []string{"*"}
	case sub == "run-script" || sub == "run":
		rest := args
		for i, a := range args {
			if a.Lit() == sub {
				rest = args[i+1:]
				break
			}
		}
		_, _, n, comp := taskArgs(rest, "", "", "--timeout")
		switch {
		case comp:
			names = []string{"*"}
		case n != "":
			names = []string{n}
		}
	case composerEvents[sub] != nil:
		names = composerEvents[sub]
	case sub != "" && !composerBuiltins[sub]:
		names = []string{sub}
	}
	d := dirOf(dir, sc)
	if len(names) == 0 || d == "" {
		return
	}
	p := filepath.Join(d, "composer.json")
	text, ok := w.readText(p)
	if !ok {
		return
	}
	if names[0] == "*" {
		names = jsonKeys(text, "scripts")
	}
	eachTask(names, func(t string) (calls []string) {
		v := gjson.Get(text, "scripts."+gjsonKey(t))
		entries := []gjson.Result{v}
		if v.IsArray() {
			entries = v.Array()
		}
		for _, e := range entries {
			s := strings.TrimSpace(e.Str)
			switch {
			case s == "":
			case strings.HasPrefix(s, "@php "), strings.HasPrefix(s, "@composer "):
				w.inFile(c, p, "composer "+t, s[1:], d, sc)
			case strings.HasPrefix(s, "@putenv "):
			case strings.HasPrefix(s, "@"):
				calls = append(calls, strings.Fields(s[1:])[0])
			case phpCallback().MatchString(s):
				w.opaqueCode("composer " + t + " calls " + s + " (PHP)")
			default:
				w.inFile(c, p, "composer "+t, s, d, sc)
			}
		}
		return calls
	})
}

var phpCallback = func() *regexp.Regexp { return phpCallbackLazy.get() }
var phpCallbackLazy = lazy[*regexp.Regexp]{f: func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_\\][\w\\]*::\w+$`) }}

// goTask walks go-task's task NAME (default when none is named) from the
// Taskfile: its cmds (command lines, or {cmd}, or {task} calling another),
// cmd, and deps, in the task's dir. Templates ({{.VAR}}) are variables.
func (w *walker) goTask(c *ctx, name string, args []Word, sc *scope) {
	dir, file, first, computed := taskArgs(args, "-d --dir", "-t --taskfile", "-o --output --concurrency -C --interval -I")
	for _, a := range args {
		switch a.Lit() {
		case "-l", "--list", "-a", "--list-all", "--summary", "-n", "--dry", "--init", "-i", "--version", "--help", "-h":
			return
		}
	}
	d := dirOf(dir, sc)
	if d == "" {
		return
	}
	p, text, ok := w.nearest(d, file, "Taskfile.yml", "taskfile.yml", "Taskfile.yaml", "taskfile.yaml", "Taskfile.dist.yml", "Taskfile.dist.yaml")
	if !ok {
		return
	}
	var tf struct {
		Tasks map[string]yaml.Node `yaml:"tasks"`
	}
	if err := yaml.Unmarshal([]byte(text), &tf); err != nil {
		w.opaqueCode(name + ": " + p + " does not parse as YAML")
		return
	}
	names := []string{first}
	switch {
	case computed:
		names = nil
		for t := range tf.Tasks {
			names = append(names, t)
		}
	case first == "":
		names = []string{"default"}
	}
	eachTask(names, func(t string) []string {
		node, ok := tf.Tasks[t]
		if !ok {
			if !w.goTaskInclude(c, name, p, text, t, sc) && strings.Contains(t, ":") { // taskinclude.go
				w.opaqueCode(name + " " + t + ": a task of an included Taskfile")
			}
			return nil
		}
		cmds, calls, tdir := goTaskBody(&node)
		run := filepath.Dir(p)
		if tdir != "" {
			run = dirOf(tdir, &scope{cwd: run})
		}
		body := goTaskVar().ReplaceAllString(strings.Join(cmds, "\n"), "$${TASK_$1}")
		w.inFile(c, p, name+" "+t, body, run, sc)
		return calls
	})
}

var goTaskVar = func() *regexp.Regexp { return goTaskVarLazy.get() }
var goTaskVarLazy = lazy[*regexp.Regexp]{f: func() *regexp.Regexp { return regexp.MustCompile(`\{\{\s*\.?([A-Za-z_]\w*)?[^}]*\}\}`) }}

// goTaskBody reads one task: a command line, a list of them, or a map with
// cmds, cmd, deps and dir. It returns the command lines, the tasks it
// calls or depends on, and its dir.
func goTaskBody(n *yaml.Node) (cmds, calls []string, dir string) {
	item := func(n *yaml.Node) {
		switch n.Kind {
		case yaml.ScalarNode:
			cmds = append(cmds, n.Value)
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				switch k, v := n.Content[i].Value, n.Content[i+1]; k {
				case "cmd", "defer":
					if v.Kind == yaml.ScalarNode {
						cmds = append(cmds, v.Value)
					}
				case "task":
					calls = append(calls, v.Value)
				}
			}
		}
	}
	switch n.Kind {
	case yaml.ScalarNode:
		cmds = append(cmds, n.Value)
	case yaml.SequenceNode:
		for _, c := range n.Content {
			item(c)
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			switch k, v := n.Content[i].Value, n.Content[i+1]; k {
			case "cmds", "deps":
				for _, c := range v.Content {
					if k == "deps" && c.Kind == yaml.ScalarNode {
						calls = append(calls, c.Value)
						continue
					}
					item(c)
				}
			case "cmd":
				cmds = append(cmds, v.Value)
			case "dir":
				dir = v.Value
			}
		}
	}
	return cmds, calls, dir
}

// nearest reads file (against d) when given, else the first of names in d
// or the directories above it.
func (w *walker) nearest(d, file string, names ...string) (string, string, bool) {
	if file != "" {
		p := file
		if !filepath.IsAbs(p) {
			p = filepath.Join(d, p)
		}
		text, ok := w.readText(p)
		return p, text, ok
	}
	for at := d; ; at = filepath.Dir(at) {
		for _, n := range names {
			p := filepath.Join(at, n)
			if text, ok := w.readText(p); ok {
				return p, text, true
			}
		}
		if filepath.Dir(at) == at {
			return "", "", false
		}
	}
}

// jsonKeys returns the keys of the object at path in text, at most
// maxTargets.
func jsonKeys(text, path string) []string {
	var out []string
	gjson.Get(text, path).ForEach(func(k, _ gjson.Result) bool {
		out = append(out, k.String())
		return len(out) < maxTargets
	})
	return out
}

// stripJSONComments blanks // and /* */ comments outside strings (deno.jsonc).
func stripJSONComments(s string) string {
	if !strings.Contains(s, "/") {
		return s
	}
	b := []byte(s)
	in := false
	for i := 0; i < len(b); i++ {
		switch {
		case in && b[i] == '\\':
			i++
		case b[i] == '"':
			in = !in
		case !in && b[i] == '/' && i+1 < len(b) && b[i+1] == '/':
			for ; i < len(b) && b[i] != '\n'; i++ {
				b[i] = ' '
			}
		case !in && b[i] == '/' && i+1 < len(b) && b[i+1] == '*':
			for ; i < len(b) && !(b[i] == '*' && i+1 < len(b) && b[i+1] == '/'); i++ {
				if b[i] != '\n' {
					b[i] = ' '
				}
			}
			if i+1 < len(b) {
				b[i], b[i+1] = ' ', ' '
				i++
			}
		}
	}
	return string(b)
}
