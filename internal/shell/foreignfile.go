package shell

import (
	"bytes"
	"strings"
)

// The interpreters ralph has no reader for (tclsh, groovy, jshell,
// Rscript, julia, elixir, kotlin, dart…) run a script file as they run
// the code of their -e option: `tclsh x.tcl` with `file delete -force
// tests` (tcl 8.6 here) and `groovy x.groovy` with `new
// File("tests").deleteDir()` (groovy 2.4 here) each deleted tests/
// while their -e form asked. The script, the first word that is no option
// and names a text file ralph can read, is judged as that code is: one
// that names a way to delete or to run commands is opaque.

// foreignScript judges the script file a foreign interpreter name runs.
func (w *walker) foreignScript(name string, args []Word, sc *scope) {
	if name == "pwsh" || name == "powershell" || sc.cwd == "" || w.a.ReadFile == nil {
		return
	}
	for _, a := range args {
		s, ok := a.Value()
		if !ok || s == "" || strings.HasPrefix(s, "-") {
			continue
		}
		p := dirOf(s, sc)
		data, err := w.a.ReadFile(p)
		if err != nil || len(data) > maxWritten {
			text, ok := w.writtenText(p, "", false)
			if !ok {
				continue
			}
			data = []byte(text)
		}
		if bytes.IndexByte(data[:min(len(data), 512)], 0) >= 0 {
			return // a program or an archive: not a script to judge
		}
		if deletes(string(data)) {
			w.opaque(name + " script " + s + " that ralph cannot read, which deletes files or runs commands")
		}
		return
	}
}

// foreignShebang judges a script run by path whose #! line names one of
// those interpreters (#!/usr/bin/tclsh, #!/usr/bin/env groovy), as the
// interpreter given the file.
func (w *walker) foreignShebang(v string, sc *scope) {
	if w.a.ReadFile == nil || w.file != "" || sc.cwd == "" {
		return
	}
	data, err := w.a.ReadFile(dirOf(v, sc))
	if err != nil || !bytes.HasPrefix(data, []byte("#!")) {
		return
	}
	first, _, _ := bytes.Cut(data, []byte("\n"))
	f := strings.Fields(strings.TrimPrefix(string(first), "#!"))
	for i, a := range f {
		if i > 0 && (strings.HasPrefix(a, "-") || strings.Contains(a, "=")) {
			continue
		}
		name := strings.ToLower(a[strings.LastIndexByte(a, '/')+1:])
		if name == "env" {
			continue
		}
		if _, ok := foreignCode[name]; ok {
			w.foreignScript(name, []Word{{Raw: v, Values: []string{v}}}, sc)
		}
		return
	}
}
