package task

import (
	"fmt"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"
)

// unmarshalRe matches yaml.v3's type error, "cannot unmarshal !!str `many`
// into int" (the value is left out for collections).
var unmarshalRe = regexp.MustCompile("^cannot unmarshal !!(\\w+)(?: `(.*?)`)? into (\\S+)")

// typeError says yaml.v3's type error msg in words: "want a whole number,
// got "many"". Any other message is returned as it is.
func typeError(msg string) string {
	m := unmarshalRe.FindStringSubmatch(msg)
	if m == nil {
		return msg
	}
	var got string
	switch m[1] {
	case "seq":
		got = "a list"
	case "map":
		got = "a mapping"
	case "str":
		got = fmt.Sprintf("%q", m[2])
	default:
		got = m[2]
	}
	return fmt.Sprintf("want %s, got %s", goType(m[3]), got)
}

// goType names a Go type of the front matter's structs by what it holds.
func goType(t string) string {
	switch {
	case strings.HasPrefix(t, "[]"):
		return "a list"
	case strings.HasPrefix(t, "map["), strings.HasPrefix(t, "task."):
		return "a mapping"
	case t == "time.Time":
		return "a time like 2026-01-27T10:05:00Z"
	case strings.HasPrefix(t, "int"):
		return "a whole number"
	case strings.HasPrefix(t, "float"):
		return "a number"
	case t == "string":
		return "a string"
	case t == "bool":
		return "true or false"
	}
	return t
}

// keyAt is the path below path of the deepest node of v of kind on line n
// (line 0: any line) whose value is value ("": any), "" when none is: a
// block mapping starts on the line of its first key, a value there too.
func keyAt(v *yaml.Node, kind yaml.Kind, n int, value, path string) string {
	if k := keyBelow(v, kind, n, value, path); k != "" {
		return k
	}
	if v.Kind == kind && (n == 0 || v.Line == n) && (value == "" || v.Value == value) {
		return path
	}
	return ""
}

// keyBelow is keyAt among the children of v.
func keyBelow(v *yaml.Node, kind yaml.Kind, n int, value, path string) string {
	switch v.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(v.Content); i += 2 {
			if k := keyAt(v.Content[i+1], kind, n, value, path+"."+v.Content[i].Value); k != "" {
				return k
			}
		}
	case yaml.SequenceNode:
		for i, e := range v.Content {
			if k := keyAt(e, kind, n, value, fmt.Sprintf("%s[%d]", path, i)); k != "" {
				return k
			}
		}
	}
	return ""
}

// timeRe matches the error of a time yaml.v3 cannot read.
var timeRe = regexp.MustCompile(`^parsing time "(.*?)"`)

// decodeError is where in v (persistence_loop, at path) the error of its
// Decode is, and what it says: the line (of the front matter; 0 when it
// names none), the key, the message.
func decodeError(v *yaml.Node, path string, err error) (int, string, string) {
	n, msg := yamlError(err)
	if m := timeRe.FindStringSubmatch(msg); m != nil {
		if k := keyAt(v, yaml.ScalarNode, 0, m[1], path); k != "" {
			return line(v, k, path), k, fmt.Sprintf("want %s, got %q", goType("time.Time"), m[1])
		}
		return n, path, msg
	}
	m := unmarshalRe.FindStringSubmatch(msg)
	if m == nil || n == 0 {
		return n, path, msg
	}
	kind := yaml.ScalarNode
	switch m[1] {
	case "seq":
		kind = yaml.SequenceNode
	case "map":
		kind = yaml.MappingNode
	}
	if k := keyAt(v, kind, n, "", path); k != "" {
		path = k
	}
	return n, path, typeError(msg)
}

// line is the line of the node at key (a path keyAt returned) below v.
func line(v *yaml.Node, key, path string) int {
	found := 0
	var walk func(v *yaml.Node, p string)
	walk = func(v *yaml.Node, p string) {
		if p == key {
			found = v.Line
			return
		}
		switch v.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(v.Content) && found == 0; i += 2 {
				walk(v.Content[i+1], p+"."+v.Content[i].Value)
			}
		case yaml.SequenceNode:
			for i, e := range v.Content {
				if found == 0 {
					walk(e, fmt.Sprintf("%s[%d]", p, i))
				}
			}
		}
	}
	walk(v, path)
	return found
}
