package completion

import (
	"go/scanner"
	"go/token"
	"path"
	"path/filepath"
	"strings"
)

// codeText is the text of a source file (rel its path, for its language)
// as the code it is, not as it is written: comments left out, blank runs
// made one space. A comment or a blank line added to the code under test
// is no change of it: with one, a bent expectation would pass as a fix
// (attack_stop_bent_comment.txtar).
func codeText(rel string, src []byte) []byte {
	switch ext := path.Ext(rel); ext {
	case ".go":
		return goTokens(src)
	case ".py", ".rb", ".sh", ".pl":
		return squeeze(stripComments(string(src), "#", "", "", ext == ".py"))
	case ".js", ".cjs", ".mjs", ".jsx", ".ts", ".cts", ".mts", ".tsx", ".java", ".kt", ".scala", ".groovy", ".rs", ".c", ".h", ".cc", ".cpp", ".cs", ".swift":
		return squeeze(stripComments(string(src), "//", "/*", "*/", false))
	}
	return src
}

// goTokens is Go source as its tokens, one space apart, comments and the
// semicolons the scanner inserts at line ends left out; the source itself
// when it does not scan.
func goTokens(src []byte) []byte {
	var s scanner.Scanner
	fs := token.NewFileSet()
	bad := false
	s.Init(fs.AddFile("", -1, len(src)), src, func(token.Position, string) { bad = true }, 0)
	var b strings.Builder
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		if tok == token.SEMICOLON && lit == "\n" {
			continue // inserted at a line's end: how the code is laid out
		}
		if lit == "" {
			lit = tok.String()
		}
		b.WriteString(lit)
		b.WriteByte(' ')
	}
	if bad {
		return src
	}
	return []byte(b.String())
}

// stripComments removes line comments (from line to the end of the line)
// and block comments (open … close) outside string literals ('…', "…",
// `…`, and Python's triple quotes when triple).
func stripComments(src, line, open, close string, triple bool) string {
	var b strings.Builder
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case triple && (strings.HasPrefix(src[i:], `"""`) || strings.HasPrefix(src[i:], `'''`)):
			q := src[i : i+3]
			j := strings.Index(src[i+3:], q)
			end := len(src)
			if j >= 0 {
				end = i + 3 + j + 3
			}
			b.WriteString(src[i:end])
			i = end
		case c == '"' || c == '\'' || c == '`':
			j := i + 1
			for j < len(src) && src[j] != c && (src[j] != '\n' || c == '`') {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j+1, len(src))
			b.WriteString(src[i:j])
			i = j
		case strings.HasPrefix(src[i:], line):
			j := strings.IndexByte(src[i:], '\n')
			if j < 0 {
				return b.String()
			}
			i += j
		case open != "" && strings.HasPrefix(src[i:], open):
			j := strings.Index(src[i+len(open):], close)
			if j < 0 {
				return b.String()
			}
			b.WriteByte(' ')
			i += len(open) + j + len(close)
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String()
}

// squeeze makes each run of blanks and newlines one space.
func squeeze(s string) []byte {
	return []byte(strings.Join(strings.Fields(s), " "))
}

// codeDigestFile digests the file rel of root as code ([codeText]); one
// too large to read by its size and modification time ([digestFile]).
func codeDigestFile(root, rel string) string {
	p := filepath.Join(root, filepath.FromSlash(rel))
	src, err := readSmall(p)
	if err != nil || src == nil {
		return digestFile(p)
	}
	return digest(codeText(rel, src))
}
