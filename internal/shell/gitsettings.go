package shell

import (
	"bufio"
	"bytes"
	"strings"
)

// GitSettings returns the settings of git configuration text b whose key
// keep accepts, keyed section.subsection.name as git config --list prints
// them (section and name lower-cased). It reads git's syntax as far as
// the keys of commands and files need: [section], [section "sub"],
// [section.sub], name = value, a bare name (true), quotes and backslash
// escapes, and comments after ; or #. A key set twice keeps its last
// value, as git does for a single-valued key.
func GitSettings(b []byte, keep func(key string) bool) map[string]string {
	out := map[string]string{}
	sect := ""
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") {
			end := strings.IndexByte(line, ']')
			if end < 0 {
				continue
			}
			h := line[1:end]
			name, sub, quoted := strings.Cut(h, " ")
			name = strings.ToLower(strings.TrimSpace(name))
			if quoted {
				sub = strings.Trim(strings.TrimSpace(sub), `"`)
				sect = name + "." + sub
			} else {
				sect = name
			}
			line = strings.TrimSpace(line[end+1:])
			if line == "" {
				continue
			}
		}
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		name, val, ok := strings.Cut(line, "=")
		if !ok {
			val = "true"
		}
		key := sect + "." + strings.ToLower(strings.TrimSpace(name))
		if !keep(key) {
			continue
		}
		out[key] = gitConfigValue(val)
	}
	return out
}

// gitConfigValue unquotes a value of git's configuration: quotes removed,
// \" \\ \n \t understood, a comment after an unquoted ; or # dropped.
func gitConfigValue(v string) string {
	var b strings.Builder
	q := false
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == '"':
			q = !q
		case c == '\\' && i+1 < len(v):
			i++
			switch v[i] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			default:
				b.WriteByte(v[i])
			}
		case (c == ';' || c == '#') && !q:
			return strings.TrimSpace(b.String())
		default:
			b.WriteByte(c)
		}
	}
	return strings.TrimSpace(b.String())
}
