package risk

import (
	"strings"

	"github.com/ralph-hooks/ralph-hooks/internal/shell"
)

// Compressors replace the files they are given by compressed copies
// (gzip x_test.go leaves x_test.go.gz, and no test), and some archivers
// delete what they stored (zip -m, 7z a -sdel, tar --remove-files, rar
// m): for the guard each deletes its operands, as mv to a name no runner
// collects does.

// compressOps returns the files such a command removes.
func (g *Guard) compressOps(c *shell.Cmd) []op {
	del := func(words []shell.Word, rec bool) []op {
		return g.targets(c, opDelete, words, func(o *op) { o.recursive, o.force = rec, true })
	}
	args := c.Args
	switch c.Name {
	case "gzip", "bzip2", "xz", "lzma", "lzip", "pigz", "pbzip2", "pixz", "compress", "lzop", "zstd", "lz4", "brotli", "zstdmt":
		fl, files := splitFlags(args, "bSFLMOpT")
		keeps := c.Name == "zstd" || c.Name == "zstdmt" || c.Name == "lz4" || c.Name == "brotli" || c.Name == "lzop"
		if keeps && !fl.has("rm") && !(c.Name == "brotli" && fl.has("j")) && !(c.Name == "lzop" && fl.has("U", "unlink", "delete")) {
			return nil // they keep their input unless told
		}
		if fl.has("k", "keep", "c", "stdout", "to-stdout", "t", "test", "l", "list", "h", "help", "V", "version") {
			return nil
		}
		if len(files) == 0 {
			return nil // a filter: standard input to standard output
		}
		return del(files, fl.has("r", "recursive"))
	case "zip":
		fl, rest := splitFlags(args, "bnstxiPZO")
		if !fl.has("m", "move") || len(rest) < 2 {
			return nil
		}
		return del(rest[1:], fl.has("r", "R", "recurse-paths"))
	case "7z", "7za", "7zz", "7zr":
		_, rest := splitFlags(args, "")
		sdel := false
		for _, a := range args {
			sdel = sdel || a.Lit() == "-sdel" // 7-Zip's switches are words, not letters
		}
		if len(rest) < 3 || rest[0].Lit() != "a" || !sdel {
			return nil
		}
		return del(rest[2:], true)
	case "rar":
		_, rest := splitFlags(args, "")
		if len(rest) < 3 || rest[0].Lit() != "m" && rest[0].Lit() != "mf" {
			return nil
		}
		return del(rest[2:], rest[0].Lit() == "m")
	case "tar", "gtar", "bsdtar":
		fl, rest := splitFlags(args, "fCTXbHKNgLV")
		if !fl.has("remove-files") {
			return nil
		}
		// tar cf ARCHIVE FILE…: a first operand of bundled letters holds f.
		if len(rest) > 0 && !strings.HasPrefix(rest[0].Lit(), "-") && strings.ContainsAny(rest[0].Lit(), "cr") && fl.values["f"] == "" {
			if strings.Contains(rest[0].Lit(), "f") && len(rest) > 1 {
				rest = rest[2:]
			} else {
				rest = rest[1:]
			}
		}
		return del(rest, true)
	}
	return nil
}
