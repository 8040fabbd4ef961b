package risk

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ralph-hooks/ralph-hooks/internal/shell"
)

// moreOps adds what ops does not read itself: links created (ln, cp -s,
// cp -l), trees written (cp -r, rsync, tar -x, unzip), and the programs
// that edit or replace a file in place (sort -o, ed, ex, vim, awk -i
// inplace, sponge, yq -i, sd, dos2unix, patch, uniq's output).
func (g *Guard) moreOps(c *shell.Cmd, out []op) []op {
	defer g.noteLineLinks(c)
	defer func() { g.noteLineTexts(out) }()
	out = append(out, g.outputFiles(c)...)
	out = append(out, g.flagOutputs(c)...)
	out = append(out, g.patchOps(c)...)
	out = append(out, g.compressOps(c)...)
	args := c.Args
	switch c.Name {
	case "ln", "link", "cp":
		fl, paths := splitFlags(args, "tSgmobT")
		linking := c.Name != "cp" || fl.has("s", "l", "symbolic-link", "link")
		if c.Name == "cp" && fl.has("r", "R", "a", "recursive", "archive") {
			for i := range out {
				if out[i].cmd == c && out[i].kind == opWrite {
					out[i].tree = true
				}
			}
		}
		if !linking {
			break
		}
		srcs := paths
		dest := ""
		if d := fl.value("t", "target-directory"); !empty(d) {
			dest, _ = d.Value()
		} else if len(paths) >= 2 {
			srcs = paths[:len(paths)-1]
			dest, _ = paths[len(paths)-1].Value()
		}
		for _, s := range srcs {
			o := g.target(c, opLink, s, nil)
			// ln -s resolves a relative target from the link's directory.
			if v, ok := s.Value(); ok && !filepath.IsAbs(v) && dest != "" && (fl.has("s", "symbolic", "symbolic-link")) {
				if d, ok := g.resolve(c, dest); ok {
					if !g.isDir(c, shell.Word{Raw: dest, Values: []string{dest}}) {
						d = filepath.Dir(d)
					}
					o.paths = append(o.paths, filepath.Join(d, v))
				}
			}
			out = append(out, o)
		}
	case "rsync":
		for i := range out {
			if out[i].cmd == c && out[i].kind == opWrite {
				out[i].tree = true
				if _, paths := splitFlags(args, "eBfT"); len(paths) == 2 {
					if v, ok := paths[0].Value(); ok {
						out[i].src, _ = g.resolve(c, strings.TrimSuffix(v, "/"))
						if !strings.HasSuffix(v, "/") && out[i].src != "" {
							// rsync src dest copies src into dest.
							out[i].paths = []string{filepath.Join(firstOr(out[i].paths), filepath.Base(out[i].src))}
						}
					}
				}
			}
		}
	case "tar", "bsdtar", "gtar":
		if dir, ok := tarExtract(args); ok {
			o := g.treeInto(c, dir)
			if f, ok := tarFile(args); ok {
				o.archive, _ = g.resolve(c, f.Lit())
			} else {
				o.entries = g.gitArchived(c.Input)
			}
			out = append(out, o)
		}
	case "unzip":
		if !hasShort(args, "l") && !hasShort(args, "t") && !hasShort(args, "Z") {
			fl, operands := splitFlags(args, "dxP")
			dir := fl.value("d")
			if empty(dir) {
				dir = shell.Word{Raw: ".", Values: []string{"."}}
			}
			o := g.treeInto(c, dir)
			if len(operands) > 0 {
				if f, ok := fileWord(operands[0]); ok {
					o.archive, _ = g.resolve(c, f.Lit())
				}
			}
			out = append(out, o)
		}
	case "curl", "wget":
		// Flags of curl and wget that take no value, which may stand
		// clustered before the output's letter.
		const quietFlags = "sSLfkiIvqgN46#JRZnc"
		// The file a download is written to: text ralph cannot see.
		short, long := "o", "output"
		if c.Name == "wget" {
			short, long = "O", "output-document"
		}
		for i, a := range args {
			var w shell.Word
			s := a.Lit()
			switch {
			case (s == "-"+short || s == "--"+long) && i+1 < len(args):
				w = args[i+1]
			case strings.HasPrefix(s, "--"+long+"="):
				v := s[len(long)+3:]
				w = shell.Word{Raw: v, Values: []string{v}}
			case len(s) > 1 && s[0] == '-' && s[1] != '-':
				// A cluster of flags that take no value, then the
				// output's letter: -sSLo FILE, -qO FILE, -oFILE.
				j := 1
				for j < len(s) && s[j:j+1] != short && strings.IndexByte(quietFlags, s[j]) >= 0 {
					j++
				}
				switch {
				case j >= len(s) || s[j:j+1] != short:
					continue
				case j == len(s)-1 && i+1 < len(args):
					w = args[i+1]
				case j < len(s)-1:
					v := s[j+1:]
					w = shell.Word{Raw: v, Values: []string{v}}
				default:
					continue
				}
			default:
				continue
			}
			if v, ok := w.Value(); ok && v == "-" {
				continue // standard output
			}
			out = append(out, g.target(c, opWrite, w, func(o *op) { o.clobber = true }))
		}
	case "sort":
		fl, _ := splitFlags(args, "okStT")
		if o := fl.value("o", "output"); !empty(o) {
			out = append(out, g.target(c, opWrite, o, func(o *op) { o.clobber = true }))
		}
	case "uniq":
		if _, paths := splitFlags(args, "fsw"); len(paths) == 2 {
			out = append(out, g.target(c, opWrite, paths[1], func(o *op) { o.clobber = true }))
		}
	case "sponge":
		fl, paths := splitFlags(args, "")
		out = append(out, g.targets(c, opWrite, paths, func(o *op) { o.clobber = !fl.has("a"); o.append = fl.has("a") })...)
	case "ed", "red", "ex", "vi", "vim", "nvim", "view", "gvim", "evim", "rvim", "vim.basic", "vim.tiny", "nano", "emacs", "kak", "micro":
		out = append(out, g.targets(c, opModify, editorFiles(c.Name, args), nil)...)
	case "awk", "gawk":
		if files, ok := awkInplace(args); ok {
			out = append(out, g.targets(c, opModify, files, nil)...)
		}
	case "yq":
		fl, paths := splitFlags(args, "pIo")
		if fl.has("i", "inplace") && len(paths) > 1 {
			out = append(out, g.targets(c, opModify, paths[1:], nil)...)
		}
	case "sd":
		if _, paths := splitFlags(args, "fn"); len(paths) > 2 {
			out = append(out, g.targets(c, opModify, paths[2:], nil)...)
		}
	case "rpl", "replace":
		var paths []shell.Word
		for _, a := range args {
			if s := a.Lit(); !strings.HasPrefix(s, "-") || a.Dynamic {
				paths = append(paths, a)
			}
		}
		if len(paths) > 2 && (c.Name == "rpl" || slices.ContainsFunc(args, func(a shell.Word) bool { return a.Lit() == "--" })) {
			out = append(out, g.targets(c, opModify, paths[2:], nil)...)
		}
	case "comby", "fastmod", "ruplacer":
		files, ok := rewriterFiles(c)
		if !ok {
			break
		}
		ops := g.targets(c, opModify, files, func(o *op) { o.recursive = true })
		out = append(out, ops...)
		// A directory they walk is rewritten file by file; they skip
		// hidden ones unless named, so a hidden directory named (or one
		// under it) that holds ralph's or the agents' files is written.
		for _, o := range ops {
			for _, p := range o.paths {
				if rel, ok := g.inProject(p); ok && hiddenPath(rel) && isDir(p) && g.protectedDelete(p) {
					out = append(out, op{kind: opMeta, cmd: c, paths: []string{p}, recursive: true}) // judged as a write of all it holds
				}
			}
		}
	case "script":
		// util-linux script [FILE] writes the session's typescript over
		// FILE (util-linux 2.38 here: `script -q -c true f` replaced f),
		// -a appends; -O/-I/-B/-T name more logs.
		fl, paths := splitFlags(args, "cEIOBTmo")
		clobber := func(o *op) { o.clobber = !fl.has("a", "append"); o.append = fl.has("a", "append") }
		if len(paths) > 0 {
			out = append(out, g.target(c, opWrite, paths[0], clobber))
		}
		for _, n := range []string{"I", "O", "B", "T"} {
			if v := fl.value(n); !empty(v) {
				out = append(out, g.target(c, opWrite, v, clobber))
			}
		}
	case "xxd":
		// xxd -r INFILE OUTFILE writes the bytes of a hex dump into
		// OUTFILE.
		if fl, paths := splitFlags(args, "cglosn"); fl.has("r", "revert") && len(paths) == 2 {
			out = append(out, g.target(c, opWrite, paths[1], func(o *op) { o.clobber = true }))
		}
	case "objcopy":
		// objcopy IN OUT: OUT is the copy, a binary ralph cannot see.
		if _, paths := splitFlags(args, "IOBjRKNLGWbiF"); len(paths) == 2 {
			out = append(out, g.target(c, opWrite, paths[1], func(o *op) { o.clobber = true }))
		}
	case "gofmt", "ast-grep":
		// A rewrite by a pattern ralph cannot apply, in place: gofmt -r
		// 'a -> b' -w (go 1.26 here: 't.Errorf(a, b) -> t.Logf(a, b)'
		// turned a failing check into a log line), ast-grep -r … -U.
		fl, paths := splitFlags(args, "rplc")
		if c.Name == "gofmt" && !(fl.has("w") && !empty(fl.value("r"))) {
			break
		}
		if c.Name == "ast-grep" {
			if !(fl.has("U", "update-all") || fl.abbrev("update-all")) || !(fl.has("r", "rewrite") || fl.abbrev("rewrite")) {
				break
			}
			if len(paths) > 0 && (paths[0].Lit() == "run" || paths[0].Lit() == "scan") {
				paths = paths[1:]
			}
		}
		if len(paths) == 0 {
			paths = []shell.Word{{Raw: ".", Values: []string{"."}}}
		}
		out = append(out, g.targets(c, opModify, paths, func(o *op) { o.recursive = true })...)
	case "dos2unix", "unix2dos", "mac2unix", "unix2mac":
		if fl, paths := splitFlags(args, "cm"); !fl.has("n", "newfile") {
			out = append(out, g.targets(c, opModify, paths, nil)...)
		}
	case "patch":
		fl, paths := splitFlags(args, "BbDdFgiopVYzr")
		if o := fl.value("o", "output"); !empty(o) {
			out = append(out, g.target(c, opWrite, o, func(o *op) { o.clobber = true }))
		} else if len(paths) > 0 {
			out = append(out, g.target(c, opModify, paths[0], nil))
		}
	case "go", "gcc", "cc", "clang", "g++", "c++", "clang++", "rustc", "tinygo":
		// The program a compiler writes (go build -o FILE, cc -o FILE),
		// judged only where it lands on something protected (a git hook,
		// a hook binary) or shadows a program on PATH: build outputs are
		// not checkpointed.
		for i, a := range args {
			var w shell.Word
			if s := a.Lit(); s == "-o" && i+1 < len(args) {
				w = args[i+1]
			} else if v, ok := strings.CutPrefix(s, "-o="); ok && c.Name == "go" {
				w = shell.Word{Raw: v, Values: []string{v}}
			} else {
				continue
			}
			if o := g.target(c, opWrite, w, nil); slices.ContainsFunc(o.paths, g.protectedWrite) || slices.ContainsFunc(o.paths, g.shadowing) {
				out = append(out, o)
			}
		}
		if c.Name != "go" {
			break
		}
		out = append(out, g.goInstalls(c, args)...) // gotoolchain.go
		// go work init/use/edit/sync writes go.work, which decides what
		// go test builds.
		if len(args) > 1 && args[0].Lit() == "work" {
			switch args[1].Lit() {
			case "init", "use", "edit", "sync", "vendor":
				out = append(out, g.target(c, opWrite, shell.Word{Raw: "go.work", Values: []string{"go.work"}}, nil))
			}
		}
	case "mmv":
		// mmv [-m|x|r|c|o|a|l|s] FROM TO (its manual): FROM is a
		// pattern of the files moved (* ? [..] over path parts); -c, -o,
		// -a, -l and -s copy, append or link and leave them.
		fl, paths := splitFlags(args, "")
		if len(paths) > 0 && !fl.has("c", "o", "a", "l", "s") {
			from := paths[0]
			if v, ok := from.Value(); ok && strings.ContainsAny(v, "*?[") {
				from.Glob = true
			}
			out = append(out, g.target(c, opMoveFrom, from, func(o *op) { o.recursive = true }))
		}
	case "rename", "prename", "perl-rename", "file-rename", "rename.ul":
		// rename EXPR FILE… (perl) or rename FROM TO FILE… (util-linux):
		// every operand after the first may be a file it moves away.
		if _, paths := splitFlags(args, "e"); len(paths) > 1 {
			out = append(out, g.targets(c, opMoveFrom, paths[1:], nil)...)
		}
	case "install":
		if fl, paths := splitFlags(args, "tSgmobT"); fl.has("d", "directory") {
			out = append(out, g.targets(c, opWrite, paths, nil)...)
		}
	}
	return out
}

func firstOr(list []string) string {
	if len(list) > 0 {
		return list[0]
	}
	return ""
}

// hasShort reports whether letter is among args' short options.
func hasShort(args []shell.Word, letter string) bool {
	for _, a := range args {
		s := a.Lit()
		if len(s) > 1 && s[0] == '-' && s[1] != '-' && strings.Contains(s[1:], letter) {
			return true
		}
	}
	return false
}

// tarExtract reports whether tar extracts, and into which directory
// (-C DIR, --directory DIR; "." when none).
func tarExtract(args []shell.Word) (shell.Word, bool) {
	extract := false
	dir := shell.Word{Raw: ".", Values: []string{"."}}
	for i := 0; i < len(args); i++ {
		s := args[i].Lit()
		switch {
		case s == "-C" || s == "--directory":
			if i+1 < len(args) {
				dir = args[i+1]
				i++
			}
		case strings.HasPrefix(s, "--directory="):
			v := strings.TrimPrefix(s, "--directory=")
			dir = shell.Word{Raw: v, Values: []string{v}}
		case s == "--extract" || s == "--get":
			extract = true
		case strings.HasPrefix(s, "--"):
		case strings.HasPrefix(s, "-") || i == 0 && !args[i].Dynamic:
			// -xzf, or the old form without a dash (tar xzf a.tar).
			letters := strings.TrimPrefix(s, "-")
			if k := strings.IndexByte(letters, 'C'); k >= 0 {
				if k < len(letters)-1 {
					v := letters[k+1:]
					dir = shell.Word{Raw: v, Values: []string{v}}
				} else if i+1 < len(args) && strings.HasPrefix(s, "-") {
					dir = args[i+1]
					i++
				}
				letters = letters[:k]
			}
			if strings.ContainsAny(letters, "x") && !strings.ContainsAny(letters, "ct") {
				extract = true
			}
		}
	}
	return dir, extract
}

// treeInto is the write of an archive's unknown contents into dir.
func (g *Guard) treeInto(c *shell.Cmd, dir shell.Word) op {
	o := g.target(c, opWrite, dir, nil)
	o.tree, o.overwrite = true, true
	return o
}

// editorOpt reports whether s is an option of editors that takes a value.
func editorOpt(s string) bool {
	switch s {
	case "-c", "--cmd", "-S", "-u", "-U", "-i", "-T", "-w", "-W", "-t", "-q", "-p", "--eval", "-l", "--load", "-f":
		return true
	}
	return false
}

// editorFiles returns the files an editor run from a command line opens:
// the operands (an editor run by an agent is scripted: -c, -es, a heredoc,
// and may write any file it opens).
func editorFiles(name string, args []shell.Word) []shell.Word {
	var out []shell.Word
	for i := 0; i < len(args); i++ {
		a := args[i]
		s := a.Lit()
		switch {
		case s == "--":
			return append(out, args[i+1:]...)
		case editorOpt(s) || s == "-s" && name != "ed" && name != "red" && !hasShort(args, "e") && !hasShort(args, "E"):
			i++ // vim -s SCRIPTIN (in ex mode, -s is silent)
		case strings.HasPrefix(s, "+") && !a.Dynamic, strings.HasPrefix(s, "-") && !a.Dynamic && len(s) > 1:
		default:
			out = append(out, a)
		}
	}
	return out
}

// awkInplace returns the files gawk -i inplace edits: the operands after
// the program.
func awkInplace(args []shell.Word) ([]shell.Word, bool) {
	inplace, program := false, false
	var files []shell.Word
	for i := 0; i < len(args); i++ {
		s := args[i].Lit()
		switch {
		case (s == "-i" || s == "--include") && i+1 < len(args):
			if v := args[i+1].Lit(); strings.TrimSuffix(v, ".awk") == "inplace" {
				inplace = true
			}
			i++
		case strings.HasPrefix(s, "--include=inplace") || s == "-iinplace":
			inplace = true
		case (s == "-f" || s == "--file" || s == "-e" || s == "--source") && i+1 < len(args):
			program = true
			i++
		case (s == "-v" || s == "-F" || s == "--assign" || s == "--field-separator") && i+1 < len(args):
			i++
		case strings.HasPrefix(s, "-") && len(s) > 1 && !args[i].Dynamic:
		case !program:
			program = true
		default:
			files = append(files, args[i])
		}
	}
	return files, inplace
}

// judgeLink judges a link created to a path (ln, cp -s, os.symlink): a
// second name for ralph's files is a way to write them unseen.
func (g *Guard) judgeLink(v *Verdict, o *op, text string) {
	for _, p := range o.paths {
		if q, ok := g.linkSource(p); ok && g.gitExecOnly(q) {
			g.add(v, g.gitExecFinding(text, q))
		} else if ok {
			g.add(v, g.builtin("tamper", fmt.Sprintf("%s creates a link to %s, which is or holds a file of ralph-hooks (loop state, configuration, hook settings): a second name to change it by. The agent may not link to ralph's files; copy what you need to read instead.", text, g.rel(q)), text, nil))
			return
		}
	}
}

// treeReaches reports whether writing a tree into dest (cp -r, rsync, tar
// -x, unzip) can change something protected that dest holds. Into a
// directory such as .aiwg or .claude it can, whatever the source: what a
// source holds can change in the same command. Into the project root, the
// home directory or /, which hold so much that trees land there every day,
// only a source directory holding something by a protected name counts
// (aiwg.yml, .aiwg/ralph); an archive there is left to the checks after
// the call.
func (g *Guard) treeReaches(o *op, dest string) (string, bool) {
	dest = g.real(dest, true)
	wide := dest == g.Root || dest == g.Home || dest == "/"
	var entries map[string]bool // a local archive's: what it lands on is known
	if wide && o.archive != "" {
		entries = archivedNames(o.archive)
	}
	if o.entries != nil {
		entries = o.entries
	}
	git := ""
	for _, q := range g.Protected {
		if !withinFold(q, dest) || q == dest {
			continue
		}
		reach := !wide
		if wide {
			rel, err := filepath.Rel(dest, q)
			reach = err == nil && (o.src != "" && exists(filepath.Join(o.src, rel)) || entries[filepath.ToSlash(rel)])
		}
		switch {
		case !reach:
		case g.gitExec[q] == "":
			return q, true
		case git == "":
			git = q // git's files: keep looking for ralph's
		}
	}
	return git, git != ""
}

// findReaches reports whether a write or an edit driven by find (find
// -exec sed -i {}, find | xargs sed -i) reaches ralph's files: one of the
// files the find selects is protected.
func (g *Guard) findReaches(o *op) (string, bool) {
	s := o.find
	if s == nil || s.injected || s.unknown {
		return "", false
	}
	for _, root := range s.roots {
		if _, ok := g.inProject(root); !ok && !(g.Home != "" && within(root, g.Home)) {
			continue
		}
		git := ""
		for _, m := range s.matches(g, root) {
			if q, ok := g.protectedAt(m.path, true, true); ok && m.path != g.Root {
				if !g.gitExecOnly(q) {
					return q, true
				}
				if git == "" {
					git = q // git's files: keep looking for ralph's
				}
			}
		}
		if git != "" {
			return git, true
		}
		// By name, whether or not the file is there yet.
		base := strings.Count(root, string(filepath.Separator))
		for _, q := range g.Protected {
			if q != root && within(q, root) && s.matchOne(q, strings.Count(q, string(filepath.Separator))-base) {
				return q, true
			}
		}
	}
	return "", false
}
