package shell

import (
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"
)

// go-task's includes: a task NS:NAME is task NAME of the Taskfile the
// includes entry NS names (a path, a directory holding a Taskfile, or a
// map with taskfile and dir), run in that Taskfile's directory or the
// entry's dir; flatten: true includes its tasks without the prefix. A
// task there was only a warn ("a task of an included Taskfile"), which
// lets it run (from go-task's documentation: task is not installed here).

// goTaskInclude walks task t of a Taskfile p (text) includes, with the
// tasks it calls there; it reports whether t was found there.
func (w *walker) goTaskInclude(c *ctx, name, p, text, t string, sc *scope) bool {
	var tf struct {
		Includes map[string]yaml.Node `yaml:"includes"`
	}
	if yaml.Unmarshal([]byte(text), &tf) != nil || len(tf.Includes) == 0 {
		return false
	}
	ns, rest, prefixed := strings.Cut(t, ":")
	for key, node := range tf.Includes {
		file, dir, flat := "", "", false
		switch node.Kind {
		case yaml.ScalarNode:
			file = node.Value
		case yaml.MappingNode:
			for i := 0; i+1 < len(node.Content); i += 2 {
				switch k, v := node.Content[i].Value, node.Content[i+1].Value; k {
				case "taskfile":
					file = v
				case "dir":
					dir = v
				case "flatten":
					flat = v == "true"
				}
			}
		}
		task := ""
		switch {
		case prefixed && key == ns:
			task = rest
		case flat:
			task = t
		default:
			continue
		}
		if file == "" || strings.Contains(file, "{{") {
			continue
		}
		f := file
		if !filepath.IsAbs(f) {
			f = filepath.Join(filepath.Dir(p), f)
		}
		ip, itext, ok := w.nearest(f, "", "Taskfile.yml", "taskfile.yml", "Taskfile.yaml", "taskfile.yaml")
		if !ok || filepath.Dir(ip) != f {
			if itext, ok = w.readText(f); !ok {
				continue
			}
			ip = f
		}
		var inc struct {
			Tasks map[string]yaml.Node `yaml:"tasks"`
		}
		if yaml.Unmarshal([]byte(itext), &inc) != nil {
			w.opaqueCode(name + ": " + ip + " does not parse as YAML")
			return true
		}
		if _, ok := inc.Tasks[task]; !ok {
			continue
		}
		run := filepath.Dir(ip)
		if dir != "" {
			run = dirOf(dir, &scope{cwd: filepath.Dir(p)})
		}
		eachTask([]string{task}, func(t string) []string {
			n, ok := inc.Tasks[t]
			if !ok {
				return nil
			}
			cmds, calls, tdir := goTaskBody(&n)
			at := run
			if tdir != "" {
				at = dirOf(tdir, &scope{cwd: run})
			}
			body := goTaskVar().ReplaceAllString(strings.Join(cmds, "\n"), "$${TASK_$1}")
			w.inFile(c, ip, name+" "+key+":"+t, body, at, sc)
			return calls
		})
		return true
	}
	return false
}
