package risk

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/ralph-hooks/ralph-hooks/internal/shell"
)

// ops lists what c does to files.
func (g *Guard) ops(c *shell.Cmd) []op {
	var out []op
	text, known := c.Output()
	for _, r := range c.Redirs {
		if r.Writes() {
			out = append(out, g.target(c, opWrite, r.Target, func(o *op) {
				o.clobber = r.Clobbers()
				o.append = !o.clobber
				o.text, o.known = text, known && (r.Fd == "" || r.Fd == "1" || r.Op == "&>" || r.Op == "&>>")
			}))
		}
	}
	args := c.Args
	switch c.Name {
	case "rm", "rimraf", "trash", "trash-put", "del", "del-cli", "trash-cli":
		fl, paths := splitFlags(args, "")
		whole := c.Name == "rimraf" || c.Name == "del" || c.Name == "del-cli" // directories and all, never asking
		rec := fl.has("r", "R", "recursive") || whole
		force := fl.has("f", "force") || whole
		// rm -rf with no operand deletes nothing (rm -rf 123>/dev/null;
		// checked with GNU rm: exit 0). An unquoted $TMPDIR that the hook
		// sees unset is still a word here: the agent's shell may set it.
		out = append(out, g.targets(c, opDelete, paths, func(o *op) { o.recursive, o.force = rec, force })...)
	case "gio", "kioclient", "kioclient5", "kioclient6":
		// gio trash|remove FILE…, kioclient move FILE trash:/ (the desktop's trash)
		if len(args) > 0 && (args[0].Lit() == "trash" || args[0].Lit() == "remove" || args[0].Lit() == "rm") {
			_, paths := splitFlags(args[1:], "")
			out = append(out, g.targets(c, opDelete, paths, func(o *op) { o.recursive, o.force = args[0].Lit() == "trash", true })...)
		}
	case "hg", "sl", "svn", "fossil":
		out = append(out, g.vcsOps(c)...)
	case "npm", "pnpm", "yarn", "pip", "pip3":
		out = append(out, g.configSetOps(c)...)
	case "rmdir", "unlink":
		_, paths := splitFlags(args, "")
		out = append(out, g.targets(c, opDelete, paths, nil)...)
	case "shred", "srm", "wipe":
		_, paths := splitFlags(args, "ns")
		out = append(out, g.targets(c, opDelete, paths, func(o *op) { o.force = true })...)
	case "mv":
		out = append(out, g.move(c, args, "S")...)
	case "cp", "install", "ln", "link":
		fl, paths := splitFlags(args, "tSgmobT")
		if dir := fl.value("t", "target-directory"); !empty(dir) {
			for _, p := range paths {
				out = append(out, g.into(c, dir, p, opWrite))
			}
		} else if len(paths) >= 2 {
			dest := paths[len(paths)-1]
			if len(paths) > 2 || g.isDir(c, dest) {
				for _, p := range paths[:len(paths)-1] {
					out = append(out, g.into(c, dest, p, opWrite))
				}
			} else {
				o := g.target(c, opWrite, dest, nil)
				if v, ok := paths[0].Value(); ok {
					o.src, _ = g.resolve(c, v)
				}
				out = append(out, o)
			}
		}
		fromNull := false
		for _, p := range paths {
			if v, _ := p.Value(); v == "/dev/null" {
				fromNull = true
			}
		}
		for i := range out {
			out[i].overwrite = true
			out[i].clobber = out[i].clobber || fromNull // cp /dev/null f empties f
			out[i].replace = c.Name == "ln" || c.Name == "link"
		}
	case "touch", "mkdir":
		_, paths := splitFlags(args, "dtrm")
		out = append(out, g.targets(c, opWrite, paths, nil)...)
	case "tee":
		fl, paths := splitFlags(args, "")
		app := fl.has("a", "append")
		in, known := c.StdinText()
		out = append(out, g.targets(c, opWrite, paths, func(o *op) {
			o.clobber, o.append = !app, app
			o.text, o.known = in, known
		})...)
	case "truncate":
		fl, paths := splitFlags(args, "sr")
		size := fl.values["s"]
		if v, ok := fl.values["size"]; ok {
			size = v
		}
		for _, o := range g.targets(c, opWrite, paths, nil) {
			// Growing a file loses nothing; shrinking it does.
			o.clobber = len(o.paths) != 1 || !grows(size, o.paths[0])
			out = append(out, o)
		}
	case "sed", "perl", "ruby":
		out = append(out, g.inPlace(c)...)
	case "dd":
		for _, a := range args {
			if s := a.Lit(); strings.HasPrefix(s, "of=") {
				w := a
				w.Raw = strings.TrimPrefix(a.Raw, "of=")
				if v, ok := a.Value(); ok {
					w.Values = []string{strings.TrimPrefix(v, "of=")}
				}
				out = append(out, g.target(c, opWrite, w, func(o *op) { o.clobber = true }))
			}
		}
	case "chmod", "chown", "chgrp", "chattr", "setfacl":
		rec, paths := permArgs(c)
		out = append(out, g.targets(c, opMeta, paths, func(o *op) { o.recursive = rec })...)
	case "find":
		if spec := g.findSpec(c); spec.deletes || spec.injected {
			out = append(out, op{kind: opDelete, cmd: c, find: spec, recursive: true, force: true, unknown: true})
		}
	case "rsync":
		fl, paths := splitFlags(args, "eBfT")
		if len(paths) >= 2 {
			dest := paths[len(paths)-1]
			if fl.has("delete", "del") || fl.hasPrefix("delete-") {
				out = append(out, g.target(c, opDelete, dest, func(o *op) { o.recursive, o.sync = true, true }))
			}
			out = append(out, g.target(c, opWrite, dest, nil))
			if fl.has("remove-source-files", "remove-sent-files") {
				// rsync's manual: the files sent are removed from the
				// sender, a move of every file under each source.
				out = append(out, g.targets(c, opMoveFrom, paths[:len(paths)-1], func(o *op) { o.recursive = true })...)
			}
		}
	case "git":
		out = append(out, g.gitOps(c)...)
	}
	return g.moreOps(c, out)
}

// flags are a command's options: short letters and long names, with the
// values of those that take one.
type flags struct {
	set    map[string]bool
	values map[string]string
	long   map[string]bool // long options as written (--forc)
}

// abbrev reports whether a long option given is name or an abbreviation
// of it: git (and other parse-options users) accept any unique prefix,
// and a prefix that is not unique only fails.
func (f flags) abbrev(names ...string) bool {
	for l := range f.long {
		for _, n := range names {
			if l != "" && strings.HasPrefix(n, l) {
				return true
			}
		}
	}
	return false
}

func (f flags) has(names ...string) bool {
	for _, n := range names {
		if f.set[n] {
			return true
		}
	}
	return false
}

func (f flags) hasPrefix(p string) bool {
	for n := range f.set {
		if strings.HasPrefix(n, p) {
			return true
		}
	}
	return false
}

func (f flags) value(names ...string) shell.Word {
	for _, n := range names {
		if v, ok := f.values[n]; ok {
			return shell.Word{Raw: v, Values: []string{v}}
		}
	}
	return shell.Word{}
}

// splitFlags separates options from operands. Short options listed in
// withArg take a value (-t DIR or -tDIR). Everything after -- is an operand.
func splitFlags(args []shell.Word, withArg string) (flags, []shell.Word) {
	f := flags{set: map[string]bool{}, values: map[string]string{}, long: map[string]bool{}}
	var rest []shell.Word
	for i := 0; i < len(args); i++ {
		a := args[i]
		s := dashes(a.Lit())
		switch {
		case a.Dynamic || a.FromInput || a.Glob || len(s) < 2 || s[0] != '-':
			rest = append(rest, a)
		case s == "--":
			return f, append(rest, args[i+1:]...)
		case strings.HasPrefix(s, "--"):
			name, val, ok := strings.Cut(s[2:], "=")
			f.set[name] = true
			f.long[strings.ToLower(name)] = true // --HARD: git refuses it, no need to let it by
			if ok {
				f.values[name] = val
			}
		default:
			for j := 1; j < len(s); j++ {
				l := string(s[j])
				f.set[l] = true
				if strings.Contains(withArg, l) {
					if j < len(s)-1 {
						f.values[l] = s[j+1:]
					} else if i+1 < len(args) {
						f.values[l] = args[i+1].Lit()
						i++
					}
					break
				}
			}
		}
	}
	return f, rest
}

// dashes turns the Unicode dashes a command line may carry (‐‐hard, copied
// from a document) into ASCII hyphens, so an option spelled with them is
// read as the option it looks like.
func dashes(s string) string {
	if s == "" || s[0] < 0x80 {
		return s
	}
	return strings.NewReplacer("‐", "-", "‑", "-", "‒", "-", "–", "-", "—", "-", "−", "-").Replace(s)
}

// empty reports whether w is the zero Word (an absent option value).
func empty(w shell.Word) bool { return w.Raw == "" && w.Values == nil && !w.Dynamic && !w.FromInput }

// target resolves one argument into an op.
func (g *Guard) target(c *shell.Cmd, kind opKind, w shell.Word, set func(*op)) op {
	if p, ok := shell.ZshPattern(w); ok {
		// ^src, *~src: everything but src, in a zsh with extendedglob.
		w.Values, w.Glob = append(slices.Clip(w.Values), p), true
	}
	if p := shell.ZshEquals(w); p != "" {
		// =ls: zsh's path of ls, a program of the system.
		w.Values = append(slices.Clip(w.Values), "/usr/bin/"+p)
	}
	o := op{kind: kind, cmd: c, word: w}
	if set != nil {
		set(&o)
	}
	switch {
	case w.FromInput:
		o.unknown = true
		if c.Input != nil && c.Input.Name == "find" {
			o.find = g.findSpec(c.Input)
		}
		if spec := g.lsFilesSpec(c.Input); spec != nil {
			o.find = spec
		}
	case w.Dynamic:
		o.unknown = true
		o.under = g.underDir(c, w.Prefix)
	default:
		for _, val := range w.Values {
			if c.Remote != "" {
				if filepath.IsAbs(val) {
					o.paths = append(o.paths, filepath.Clean(val))
				} else {
					o.unknown = true
				}
				continue
			}
			p, ok := g.resolve(c, val)
			if !ok {
				o.unknown = true
				continue
			}
			// A write goes through a link to a file (: > link writes the
			// target); a deletion or a move takes the link itself.
			p = g.viaLineLinks(p, strings.HasSuffix(val, "/") || kind == opWrite && !(c.Name == "ln" || c.Name == "link"))
			if (kind == opDelete || kind == opMoveFrom) && !w.Glob {
				// rm -rf t/ deletes what the link t leads to; mv t/ x
				// fails (Not a directory).
				p = g.escape(p, kind == opDelete && (strings.HasSuffix(val, "/") || strings.HasSuffix(val, "/.")))
			}
			if (kind == opWrite || kind == opModify) && !w.Glob {
				p = g.through(p)
			}
			if w.Glob {
				o.pattern = p
				matches, _ := filepath.Glob(p)
				sort.Strings(matches)
				o.paths = append(o.paths, matches...)
				if kind == opDelete || kind == opMoveFrom {
					o.find = globStar(o.find, p)
				}
				continue
			}
			o.paths = append(o.paths, p)
		}
	}
	return o
}

func (g *Guard) targets(c *shell.Cmd, kind opKind, ws []shell.Word, set func(*op)) []op {
	out := make([]op, 0, len(ws))
	for _, w := range ws {
		out = append(out, g.target(c, kind, w, set))
	}
	return out
}

// resolve makes a value absolute against the command's directory.
func (g *Guard) resolve(c *shell.Cmd, val string) (string, bool) {
	if val == "" {
		return "", false
	}
	if filepath.IsAbs(val) {
		return g.onDisk(g.procPath(filepath.Clean(val), c.Cwd)), true
	}
	if c.Cwd == "" {
		return "", false
	}
	return g.onDisk(g.procPath(filepath.Join(c.Cwd, val), c.Cwd)), true
}

// escape returns where deleting p in the project really acts when a link
// leads out of it: through a linked directory on the way (link/x), or, for
// a path written with a trailing slash (link/), through the link itself.
// Otherwise it returns p.
func (g *Guard) escape(p string, follow bool) string {
	if _, ok := g.inProject(p); !ok || p == g.Root {
		return p
	}
	dir, base := filepath.Split(p)
	q := p
	if d, err := filepath.EvalSymlinks(dir); err == nil {
		q = filepath.Join(d, base)
	}
	if follow {
		if r, err := filepath.EvalSymlinks(q); err == nil {
			q = r
		}
	}
	if q == p {
		return p
	}
	root := g.Root
	if r, err := filepath.EvalSymlinks(g.Root); err == nil {
		root = r
	}
	if within(q, root) {
		if follow {
			// rm -rf link/ deletes what the link leads to (t/ with t ->
			// tests empties tests): judge that, spelled from the root.
			if rel, err := filepath.Rel(root, q); err == nil {
				return filepath.Join(g.Root, rel)
			}
		}
		return p // still in the project
	}
	return q
}

// linkedDir returns the directory p leads to when p is a link in the
// project to a directory in it, spelled from the root; otherwise p.
func (g *Guard) linkedDir(p string) string {
	if fi, err := os.Lstat(p); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		return p
	}
	if _, ok := g.inProject(p); !ok {
		return p
	}
	q := g.real(p, true)
	if _, ok := g.inProject(q); ok {
		return q
	}
	return p
}

// through returns the file a write of p in the project changes: a link
// there (notes.txt -> tests/a_test.go), or on the way (t/x.py with t ->
// tests), is written through, by a redirection, cp, tee, truncate or dd,
// so the file it leads to is the one judged; so is the test file that p
// is a hard link to. Otherwise, and for a link that leads out of the project (judged
// by protectedAt where it matters), it returns p.
func (g *Guard) through(p string) string {
	if _, ok := g.inProject(p); !ok {
		// A hard link made outside (ln tests/a_test.go /tmp/h, on the
		// project's filesystem) is the test all the same.
		if fi, err := os.Lstat(p); err == nil && fi.Mode().IsRegular() {
			if q, ok := g.testTwin(p, fi); ok {
				return q
			}
		}
		return p
	}
	fi, err := os.Lstat(p)
	if err != nil {
		return p
	}
	if fi.Mode().IsRegular() {
		if q, ok := g.testTwin(p, fi); ok {
			return q
		}
	}
	if q := g.real(p, true); q != p {
		if _, ok := g.inProject(q); ok {
			return q
		}
	}
	return p
}

// maxTwinWalk bounds the files testTwin looks at.
const maxTwinWalk = 200_000

// testTwin returns the test file of the project that p, a file of several
// names (ln tests/a_test.go h.txt), is another name of: writing p writes
// it. Files of one name, the common case, cost nothing more.
func (g *Guard) testTwin(p string, fi fs.FileInfo) (string, bool) {
	id, nlink, ok := idOf(fi)
	if !ok || nlink < 2 {
		return "", false
	}
	twin, n := "", 0
	filepath.WalkDir(g.Root, func(q string, d fs.DirEntry, err error) error {
		if n >= maxTwinWalk || twin != "" {
			return filepath.SkipAll
		}
		if err != nil {
			return nil // unreadable: the walk goes on
		}
		n++
		if d.IsDir() {
			if d.Name() == ".git" {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || q == p {
			return nil
		}
		if rel, ok := g.inProject(q); ok && g.IsTestPath(rel) {
			if qi, err := d.Info(); err == nil {
				if qid, _, ok := idOf(qi); ok && qid == id {
					twin = q
				}
			}
		}
		return nil
	})
	return twin, twin != ""
}

// underDir returns the directory a dynamic word is known to be under, from
// its literal prefix ("/tmp/" + $x is under /tmp), or "".
func (g *Guard) underDir(c *shell.Cmd, prefix string) string {
	if !strings.Contains(prefix, "/") {
		return ""
	}
	dir := prefix
	if !strings.HasSuffix(dir, "/") {
		dir = filepath.Dir(dir)
	}
	p, ok := g.resolve(c, dir)
	if !ok {
		return ""
	}
	return p
}

// isDir reports whether w names an existing directory.
func (g *Guard) isDir(c *shell.Cmd, w shell.Word) bool {
	v, ok := w.Value()
	if !ok {
		return false
	}
	p, ok := g.resolve(c, v)
	if !ok {
		return false
	}
	fi, err := os.Lstat(p)
	return err == nil && fi.IsDir()
}

// into is the op of copying or moving src into directory dir.
func (g *Guard) into(c *shell.Cmd, dir, src shell.Word, kind opKind) op {
	d, dok := dir.Value()
	s, sok := src.Value()
	if !dok || !sok {
		o := g.target(c, kind, dir, nil)
		o.unknown = true
		o.under, _ = g.resolve(c, d)
		return o
	}
	w := shell.Word{Raw: dir.Raw + "/" + filepath.Base(s), Values: []string{filepath.Join(d, filepath.Base(s))}}
	o := g.target(c, kind, w, nil)
	o.src, _ = g.resolve(c, s)
	return o
}

// move returns the ops of mv (and git mv): each source moves away, the
// destination is written.
func (g *Guard) move(c *shell.Cmd, args []shell.Word, withArg string) []op {
	fl, paths := splitFlags(args, "t"+withArg)
	var dest shell.Word
	srcs := paths
	dirGiven := false
	if d := fl.value("t", "target-directory"); !empty(d) {
		dest, dirGiven = d, true
	} else if len(paths) >= 2 {
		dest, srcs = paths[len(paths)-1], paths[:len(paths)-1]
	} else {
		return nil
	}
	destIsDir := dirGiven || len(srcs) > 1 || g.isDir(c, dest)
	var out []op
	for _, s := range srcs {
		to := g.target(c, opMoveTo, dest, nil)
		if destIsDir {
			to = g.into(c, dest, s, opMoveTo)
		}
		from := g.target(c, opMoveFrom, s, func(o *op) { o.recursive = true })
		if len(to.paths) == 1 && !to.unknown {
			from.dest = to.paths[0]
		}
		if len(from.paths) == 1 && !from.unknown {
			to.src = from.paths[0]
		}
		out = append(out, from, to)
	}
	return out
}

// inPlace returns the files sed -i, perl -i and ruby -i edit in place.
func (g *Guard) inPlace(c *shell.Cmd) []op {
	args := c.Args
	inplace, script := false, false
	var files []shell.Word
	for i := 0; i < len(args); i++ {
		a := args[i]
		s := a.Lit()
		short := len(s) > 1 && s[0] == '-' && !strings.HasPrefix(s, "--") && !a.Dynamic
		switch {
		case s == "--":
			files = append(files, args[i+1:]...)
			i = len(args)
		case strings.HasPrefix(s, "--in-place") || c.Name == "sed" && sedInPlace(s):
			inplace = true
		case c.Name == "sed" && sedScript(s) != 0:
			script = true
			if sedScript(s) == 2 {
				i++
			}
		case s == "-e" || s == "-f" || s == "--expression" || s == "--file" || s == "-E" && c.Name != "sed":
			script = true
			i++
		case short && c.Name == "sed":
			if strings.HasPrefix(s, "-i") || strings.Contains(s[1:], "i") && !strings.Contains(s[1:], "e") {
				inplace = true
			}
			if strings.HasSuffix(s, "e") || strings.HasSuffix(s, "f") {
				script = true
				i++
			}
		case short: // perl -pi -e, -i.bak, -pie
			if strings.Contains(s[1:], "i") {
				inplace = true
			}
			if strings.HasSuffix(s, "e") || strings.HasSuffix(s, "E") {
				script = true
				i++
			}
		case strings.HasPrefix(s, "-") && !a.Dynamic:
		default:
			if !script {
				script = true // the first operand is the script
				continue
			}
			files = append(files, a)
		}
	}
	if !inplace {
		return nil
	}
	return g.targets(c, opModify, files, nil)
}

// permArgs returns whether chmod, chown, chgrp, chattr or setfacl recurse,
// and the files they change: the operands after the mode or owner. A mode
// may look like an option (chmod -x f).
func permArgs(c *shell.Cmd) (recursive bool, paths []shell.Word) {
	modeSeen := c.Name == "setfacl"
	for i, a := range c.Args {
		s := a.Lit()
		switch {
		case s == "--":
			if !modeSeen && i+1 < len(c.Args) {
				return recursive, c.Args[i+2:]
			}
			return recursive, append(paths, c.Args[i+1:]...)
		case s == "-R" || s == "--recursive" || len(s) > 2 && s[0] == '-' && s[1] != '-' && strings.Contains(s, "R") && strings.Trim(s[1:], "Rfvch") == "":
			recursive = true
		case strings.HasPrefix(s, "--reference"):
			modeSeen = true
		case !modeSeen && c.Name == "chmod" && isMode(s):
			modeSeen = true
		case strings.HasPrefix(s, "-") && !a.Dynamic && !a.Glob:
		case !modeSeen:
			modeSeen = true
		default:
			paths = append(paths, a)
		}
	}
	return recursive, paths
}

// isMode reports whether s is a symbolic or octal chmod mode.
func isMode(s string) bool {
	if s == "" {
		return false
	}
	if strings.Trim(s, "01234567") == "" {
		return true
	}
	return strings.ContainsAny(s, "+-=") && strings.Trim(s, "ugoa+-=rwxXst,01234567") == ""
}

// grows reports whether truncate -s size leaves every byte of file p in
// place: +N, >N and %N never shrink a file; an absolute N does not when
// the file holds at most N bytes.
func grows(size, p string) bool {
	if size == "" {
		return false
	}
	switch size[0] {
	case '+', '>', '%':
		_, ok := parseSize(size[1:])
		return ok
	case '-', '<', '/':
		return false
	}
	n, ok := parseSize(size)
	if !ok {
		return false
	}
	fi, err := os.Lstat(p)
	if err != nil {
		return true // a new file
	}
	return fi.Mode().IsRegular() && fi.Size() <= n
}

// parseSize reads a size as truncate does: a number with an optional
// unit (K, M, G, T, P, E: powers of 1024; KB, MB, …: of 1000; KiB, …).
func parseSize(s string) (int64, bool) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 {
		return 0, false
	}
	n, err := strconv.ParseInt(s[:i], 10, 64)
	if err != nil {
		return 0, false
	}
	unit := strings.ToUpper(s[i:])
	if unit == "" {
		return n, true
	}
	k := strings.Index("KMGTPE", unit[:1])
	if k < 0 {
		return 0, false
	}
	base := int64(1024)
	switch unit[1:] {
	case "", "IB":
	case "B":
		base = 1000
	default:
		return 0, false
	}
	for range k + 1 {
		if n > 1<<62/base {
			return 1 << 62, true
		}
		n *= base
	}
	return n, true
}

// globStar adds to spec (nil for none yet) the find that selects at least
// what the pattern p matches when it holds **/, which zsh (and bash with
// globstar) reads as any number of directories: rm -rf **/fixtures. It
// returns spec for any other pattern.
func globStar(spec *findSpec, p string) *findSpec {
	i := strings.Index(p, "/**/")
	if i < 0 {
		return spec
	}
	root := p[:i]
	if j := strings.IndexAny(root, "*?["); j >= 0 {
		root = filepath.Dir(root[:j])
	}
	if root == "" {
		root = "/"
	}
	if spec == nil {
		spec = &findSpec{maxDepth: -1, filtered: true}
	}
	spec.roots = append(spec.roots, root)
	// find's * matches / too: /r/*fixtures is /r/fixtures at any depth.
	spec.names = append(spec.names, namePat{pattern: strings.ReplaceAll(p, "**/", "*"), path: true})
	return spec
}
