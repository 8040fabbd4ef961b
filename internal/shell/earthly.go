package shell

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// earthly runs an Earthfile's target in containers, but a target that
// says LOCALLY runs its RUN commands on the host, in the Earthfile's
// directory, and SAVE ARTIFACT … AS LOCAL PATH writes a file the build
// made over PATH on the host. The target named (+NAME, ./dir+NAME) and
// the targets it names with
// BUILD, FROM or COPY +T are read. Earthly is not installed here: from
// its documentation.

// maxEarthTargets bounds the targets followed from one earthly run.
const maxEarthTargets = 16

var earthTargetRe = func() *regexp.Regexp { return earthTargetReLazy.get() }
var earthTargetReLazy = lazy[*regexp.Regexp]{f: func() *regexp.Regexp {
	return regexp.MustCompile(`^([A-Za-z][\w.-]*):\s*$`)
}}

// earthly walks what an earthly command line runs on the host.
func (w *walker) earthly(c *ctx, args []Word, sc *scope) {
	ref := ""
	for _, a := range args {
		if s := a.Lit(); !strings.HasPrefix(s, "-") && strings.Contains(s, "+") {
			ref = s
			break
		}
	}
	if ref == "" || sc.cwd == "" {
		return
	}
	dir, name, _ := strings.Cut(ref, "+")
	d := dirOf(dir, sc)
	if dir == "" {
		d = sc.cwd
	}
	p := filepath.Join(d, "Earthfile")
	text, ok := w.readText(p)
	if !ok {
		return
	}
	targets := map[string][]string{}
	cur := ""
	for _, line := range strings.Split(text, "\n") {
		if m := earthTargetRe().FindStringSubmatch(line); m != nil {
			cur = m[1]
			continue
		}
		if cur != "" && (strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t")) {
			targets[cur] = append(targets[cur], strings.TrimSpace(line))
		}
	}
	nsc := sc.child()
	nsc.setCwd(d)
	prev := w.file
	w.file = p
	defer func() { w.file = prev }()
	queue := []string{name}
	seen := map[string]bool{}
	for len(queue) > 0 && len(seen) < maxEarthTargets {
		t := queue[0]
		queue = queue[1:]
		if seen[t] {
			continue
		}
		seen[t] = true
		locally := false
		for _, l := range targets[t] {
			f := strings.Fields(l)
			if len(f) == 0 {
				continue
			}
			switch strings.ToUpper(f[0]) {
			case "LOCALLY":
				locally = true
			case "BUILD", "FROM", "COPY":
				for _, x := range f[1:] {
					if strings.HasPrefix(x, "+") {
						n, _, _ := strings.Cut(x[1:], "/")
						queue = append(queue, n)
					}
				}
			case "RUN":
				if locally {
					w.earthRun(c.with("earthly +"+t), strings.TrimSpace(l[3:]), nsc)
				}
			case "SAVE":
				if k := slices.Index(f, "LOCAL"); k > 0 && k+1 < len(f) && f[k-1] == "AS" {
					w.synthetic(c.with("earthly +"+t+" SAVE ARTIFACT"), []string{"tee"}, []codeArg{{val: f[k+1], lit: true, raw: f[k+1]}}, nsc)
				}
			}
		}
	}
}

// earthRun walks the command of a RUN line: its options (--push,
// --no-cache …) dropped, the exec form ["rm", "-rf", "x"] read as words.
func (w *walker) earthRun(c *ctx, line string, sc *scope) {
	for strings.HasPrefix(line, "--") {
		_, line, _ = strings.Cut(line, " ")
		line = strings.TrimSpace(line)
	}
	if strings.HasPrefix(line, "[") {
		var argv []string
		if json.Unmarshal([]byte(line), &argv) == nil && len(argv) > 0 {
			w.synthetic(c, argv, nil, sc)
			return
		}
	}
	w.shellString(c, line, sc)
}
