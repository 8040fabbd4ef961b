package risk

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/ralph-hooks/ralph-hooks/internal/shell"
)

// An archive extracted over the project (tar -xf tests.tar, unzip -o
// x.zip) rewrites the test files it holds an entry for, as a directory
// copied over it does (treecopy.go). archivedTests reads a local tar
// (plain or gzip) or zip archive's entries and gives each existing
// test file one lands on to the test-tamper check with the entry's text;
// a link landing on a test is a write ralph cannot see; past what is read
// (64 MiB, 5,000 entries), post-tool-call judges. An archive of another format (bzip2, xz, zstd) or
// read from a pipe is left to post-tool-call.

// maxArchived bounds the bytes read through an archive (decompressed).
const maxArchived = 64 << 20

// archivedTests returns the test files under dest that extracting the
// archive at file there rewrites, with their new text (known), and those
// it rewrites with text ralph cannot read (unseen).
func (g *Guard) archivedTests(file, dest string) (known map[string]string, unseen []string) {
	walkArchive(file, func(name string, link bool, size int64, read func() ([]byte, error)) {
		q := filepath.Join(dest, filepath.FromSlash(name))
		rel, ok := g.inProject(q)
		if !ok || !g.readableTest(rel) || !exists(q) {
			return
		}
		if link || size > maxCopiedFile {
			unseen = append(unseen, q)
			return
		}
		data, err := read()
		if err != nil {
			unseen = append(unseen, q)
			return
		}
		if known == nil {
			known = map[string]string{}
		}
		known[q] = string(data)
	})
	return known, unseen
}

// archivedNames returns the names (cleaned, slash-separated, relative)
// of the entries of the local archive at file, and of the directories
// that hold them: what extracting it writes.
func archivedNames(file string) map[string]bool {
	names := map[string]bool{}
	walkArchive(file, func(name string, _ bool, _ int64, _ func() ([]byte, error)) {
		for n := name; n != "." && n != "" && !names[n]; n = path.Dir(n) {
			names[n] = true
		}
	})
	return names
}

// gitArchived returns the names git archive, the command piped into a tar
// -x, writes: the files of its tree (git ls-tree), under its --prefix. Nil
// when in is no git archive of this machine ralph can read.
func (g *Guard) gitArchived(in *shell.Cmd) map[string]bool {
	gc := parseGit(in)
	if gc == nil || gc.sub != "archive" || in.Remote != "" || in.Cwd == "" {
		return nil
	}
	for _, a := range gc.args {
		s := a.Lit()
		if a.Dynamic || s == "--prefix" || strings.HasPrefix(s, "--remote") || strings.HasPrefix(s, "--output") || strings.HasPrefix(s, "-o") || strings.HasPrefix(s, "--exec") || strings.HasPrefix(s, "--add-") {
			return nil
		}
	}
	fl, operands := splitFlags(gc.args, "")
	if len(operands) == 0 {
		return nil
	}
	ref, ok := revision(operands[0])
	if !ok {
		return nil
	}
	prefix := ""
	if p := fl.value("prefix"); !empty(p) {
		prefix = p.Lit()
	}
	args := []string{"ls-tree", "-r", "-z", "--name-only", ref, "--"}
	for _, w := range operands[1:] {
		v, ok := w.Value()
		if !ok {
			return nil
		}
		args = append(args, v)
	}
	out, ok := g.git(in.Cwd, args...)
	if !ok {
		return nil
	}
	names := map[string]bool{}
	for _, n := range bytes.Split(out, []byte{0}) {
		if len(n) == 0 {
			continue
		}
		name := strings.TrimLeft(path.Clean("/"+prefix+string(n)), "/")
		for ; name != "." && name != "" && !names[name]; name = path.Dir(name) {
			names[name] = true
		}
	}
	return names
}

// walkArchive calls land for each file or link entry of the tar (plain
// or gzip) or zip archive at file, with its name cleaned of leading
// slashes and dot-dots.
func walkArchive(file string, land func(name string, link bool, size int64, read func() ([]byte, error))) {
	f, err := os.Open(file)
	if err != nil {
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return
	}
	clean := func(name string) string {
		return strings.TrimLeft(path.Clean("/"+filepath.ToSlash(name)), "/")
	}
	// An archive cut short (more than maxArchived bytes or maxCopied
	// entries) is judged by what was read: an SDK's tarball extracted in
	// the project must not be refused for its size, and what the rest
	// rewrites post-tool-call sees.
	br := bufio.NewReader(f)
	magic, _ := br.Peek(4)
	switch {
	case bytes.HasPrefix(magic, []byte("PK\x03\x04")):
		zr, err := zip.NewReader(f, fi.Size())
		if err != nil {
			return
		}
		for i, e := range zr.File {
			if i >= maxCopied {
				break
			}
			land(clean(e.Name), e.Mode()&os.ModeSymlink != 0, int64(e.UncompressedSize64), func() ([]byte, error) {
				rc, err := e.Open()
				if err != nil {
					return nil, err
				}
				defer rc.Close()
				return io.ReadAll(io.LimitReader(rc, maxCopiedFile))
			})
		}
	default:
		var r io.Reader = br
		switch {
		case bytes.HasPrefix(magic, []byte{0x1f, 0x8b}):
			zr, err := gzip.NewReader(br)
			if err != nil {
				return
			}
			r = zr
		case bytes.HasPrefix(magic, []byte("BZh")):
			return // bzip2: not read (its package's tables cost every call)
		}
		lr := &io.LimitedReader{R: r, N: maxArchived}
		tr := tar.NewReader(lr)
		for n := 0; ; n++ {
			h, err := tr.Next()
			if err == io.EOF {
				break
			}
			if err != nil || n >= maxCopied {
				break // not a tar (nothing to read), or cut short
			}
			switch h.Typeflag {
			case tar.TypeReg, tar.TypeSymlink, tar.TypeLink:
				land(clean(h.Name), h.Typeflag != tar.TypeReg, h.Size, func() ([]byte, error) {
					return io.ReadAll(io.LimitReader(tr, maxCopiedFile))
				})
			}
		}
	}
}

// tarFile returns the archive file tar reads (-f FILE, --file=FILE, the
// old form's f), if it names one that is not standard input.
func tarFile(args []shell.Word) (shell.Word, bool) {
	for i := 0; i < len(args); i++ {
		s := args[i].Lit()
		switch {
		case s == "--file" || s == "-f":
			if i+1 < len(args) {
				return fileWord(args[i+1])
			}
		case strings.HasPrefix(s, "--file="):
			v := strings.TrimPrefix(s, "--file=")
			return fileWord(shell.Word{Raw: v, Values: []string{v}})
		case strings.HasPrefix(s, "--"):
		case strings.HasPrefix(s, "-") || i == 0 && !args[i].Dynamic:
			letters := strings.TrimPrefix(s, "-")
			k := strings.IndexByte(letters, 'f')
			switch {
			case k < 0:
			case k < len(letters)-1 && strings.HasPrefix(s, "-"):
				v := letters[k+1:]
				return fileWord(shell.Word{Raw: v, Values: []string{v}})
			case i+1 < len(args):
				return fileWord(args[i+1])
			}
		}
	}
	return shell.Word{}, false
}

func fileWord(w shell.Word) (shell.Word, bool) {
	v, ok := w.Value()
	return w, ok && v != "-"
}
