package risk

import (
	"os"
	"regexp"
	"strings"
	"sync"

	"github.com/ralph-hooks/ralph-hooks/internal/clip"
	"github.com/ralph-hooks/ralph-hooks/internal/shell"
)

// sqlClient returns the options that carry SQL text of the database
// client name, and whether name is one.
func sqlClient(name string) ([]string, bool) {
	switch name {
	case "psql":
		return []string{"-c", "--command"}, true
	case "mysql", "mariadb", "cockroach":
		return []string{"-e", "--execute"}, true
	case "sqlite3", "sqlite":
		return []string{"-cmd"}, true
	case "duckdb":
		return []string{"-c", "-cmd"}, true
	case "clickhouse-client", "clickhouse":
		return []string{"-q", "--query"}, true
	case "mongosh", "mongo":
		return []string{"--eval"}, true
	case "redis-cli", "mysqladmin":
		return nil, true
	}
	return nil, false
}

// sqlDestroys returns why c destroys data through a database client, or "".
func (g *Guard) sqlDestroys(c *shell.Cmd) string {
	opts, ok := sqlClient(c.Name)
	if !ok {
		return ""
	}
	var texts, operands []string
	for i := 0; i < len(c.Args); i++ {
		s := c.Args[i].Lit()
		matched := false
		for _, o := range opts {
			switch {
			case s == o && i+1 < len(c.Args):
				texts = append(texts, c.Args[i+1].Lit())
				i++
				matched = true
			case strings.HasPrefix(o, "--") && strings.HasPrefix(s, o+"="):
				texts = append(texts, strings.TrimPrefix(s, o+"="))
				matched = true
			}
			if matched {
				break
			}
		}
		switch {
		case matched:
		case (s == "-f" || s == "--file") && c.Name == "psql" && i+1 < len(c.Args):
			if p, ok := g.resolve(c, c.Args[i+1].Lit()); ok {
				if data, err := os.ReadFile(p); err == nil && len(data) < 1<<20 {
					texts = append(texts, string(data))
				}
			}
			i++
		case !strings.HasPrefix(s, "-"):
			operands = append(operands, s)
		}
	}
	if t, ok := c.StdinText(); ok {
		texts = append(texts, t)
	}
	switch c.Name {
	case "sqlite3", "sqlite", "duckdb":
		if len(operands) > 1 {
			texts = append(texts, operands[1:]...) // sqlite3 DB "SQL"…
		}
	case "redis-cli":
		for _, o := range operands {
			if l := strings.ToLower(o); l == "flushall" || l == "flushdb" {
				return "deletes every key in the Redis database."
			}
		}
		return ""
	case "mysqladmin":
		for _, o := range operands {
			if strings.ToLower(o) == "drop" {
				return "drops a database."
			}
		}
		return ""
	case "mongosh", "mongo":
		for _, t := range texts {
			if strings.Contains(t, "dropDatabase(") || strings.Contains(t, ".drop(") || strings.Contains(t, ".deleteMany({})") {
				return "drops a MongoDB database or collection."
			}
		}
		return ""
	}
	for _, t := range texts {
		if stmt := destructiveSQL(t); stmt != "" {
			return "runs `" + stmt + "`, which destroys data with no way back. Write a migration the human can review instead."
		}
	}
	return ""
}

var sqlRes = sync.OnceValue(func() [3]*regexp.Regexp {
	return [3]*regexp.Regexp{
		regexp.MustCompile(`(?is)^\s*(?:drop\s+(?:table|database|schema|view|index|materialized\s+view|user|role|sequence|function|procedure|trigger|type|extension|owned|collection)\b|truncate\b|alter\s+table\b.*\bdrop\b)`),
		regexp.MustCompile(`(?is)^\s*(?:delete\s+from\b|update\s+\S+(?:\s+(?:as\s+)?\w+)?\s+set\b)`),
		regexp.MustCompile(`(?is)\bwhere\b`),
	}
})

// destructiveSQL returns the first statement of text that drops, truncates,
// or deletes or updates every row (no WHERE), or "". String literals and
// comments are data.
func destructiveSQL(text string) string {
	res := sqlRes()
	for _, stmt := range strings.Split(stripSQL(text), ";") {
		st := strings.TrimSpace(stmt)
		if st == "" {
			continue
		}
		if res[0].MatchString(st) || res[1].MatchString(st) && !res[2].MatchString(st) {
			return clip.Line(st, 80)
		}
	}
	return ""
}

// stripSQL removes comments and the contents of string literals.
func stripSQL(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\'':
			b.WriteString("''")
			for i++; i < len(s); i++ {
				if s[i] == '\'' {
					if i+1 < len(s) && s[i+1] == '\'' {
						i++
						continue
					}
					break
				}
			}
		case s[i] == '-' && i+1 < len(s) && s[i+1] == '-':
			for i < len(s) && s[i] != '\n' {
				i++
			}
			b.WriteByte('\n')
		case s[i] == '/' && i+1 < len(s) && s[i+1] == '*':
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				return b.String()
			}
			i += end + 3
			b.WriteByte(' ')
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}
