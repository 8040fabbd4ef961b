// Package gomod reads what ralph needs of a go.mod file: the module path
// it declares, as the go command reads it.
package gomod

import (
	"bufio"
	"os"
	"strconv"
	"strings"
)

// ModulePath returns the module path the go.mod file at p declares, or ""
// when it cannot be read or declares none.
func ModulePath(p string) string {
	f, err := os.Open(p)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		if rest, ok := strings.CutPrefix(l, "module"); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t' || rest[0] == '"') {
			rest = strings.TrimSpace(rest)
			if i := strings.Index(rest, "//"); i >= 0 {
				rest = strings.TrimSpace(rest[:i])
			}
			if u, err := strconv.Unquote(rest); err == nil {
				rest = u
			}
			return rest
		}
	}
	return ""
}
