package completion

import (
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
)

// rbExample matches the start of an rspec or minitest-spec example and its
// title: it "…", specify('…'), example "…", scenario "…", it { (no title).
var rbExample = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(\s*)(?:it|specify|example|scenario|xit|fit)\b\s*\(?\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')?`)
})

// rbBlocks returns the examples of the Ruby spec src as line ranges
// [from, to) with their titles: from the example's line to the end at its
// own indentation (do … end), or the line itself when the block closes on
// it ({ … }). A best effort: heredocs and strings are not lexed.
func rbBlocks(src string) (lines []string, blocks [][2]int, titles []string) {
	lines = strings.Split(src, "\n")
	for i := 0; i < len(lines); i++ {
		m := rbExample().FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		end := i + 1
		l := strings.TrimSpace(lines[i])
		if strings.HasSuffix(l, " do") || strings.Contains(l, " do |") || strings.HasSuffix(l, "{") {
			for end < len(lines) {
				t := strings.TrimSpace(lines[end])
				ind := len(lines[end]) - len(strings.TrimLeft(lines[end], " \t"))
				end++
				if t != "" && ind <= len(m[1]) && (strings.HasPrefix(t, "end") || strings.HasPrefix(t, "}")) {
					break
				}
			}
		}
		blocks = append(blocks, [2]int{i, end})
		titles = append(titles, m[2]+m[3])
		i = end - 1
	}
	return lines, blocks, titles
}

// rbSource returns the example titled title of the Ruby spec src and,
// after it, the file's code outside its examples (a class reopened to
// patch the code under test, a before hook, a let): "" when there is no
// such example.
func rbSource(src, title string) string {
	lines, blocks, titles := rbBlocks(src)
	body := ""
	for i, t := range titles {
		if t == title {
			body = strings.Join(lines[blocks[i][0]:blocks[i][1]], "\n")
			break
		}
	}
	if body == "" {
		return ""
	}
	var out strings.Builder
	last := 0
	for _, b := range blocks {
		out.WriteString(strings.Join(lines[last:b[0]], "\n") + "\n")
		last = b[1]
	}
	out.WriteString(strings.Join(lines[last:], "\n"))
	return body + "\n" + out.String()
}

// rbRequire matches require_relative "…" and require "…".
var rbRequire = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^\s*(require_relative|require)\s*\(?\s*["']([^"']+)["']`)
})

// rbRequires resolves the files the Ruby file p requires to files of the
// project: require_relative beside it, require under lib/ (rspec puts lib
// on the load path); spec_helper and the like are test support, left out.
func rbRequires(root, p string) []string { return notSupport(rbRequiresAll(root, p)) }

// rbRequiresAll resolves the files the Ruby file p requires to files of
// the project, test support included.
func rbRequiresAll(root, p string) []string {
	src, _ := readSmall(filepath.Join(root, filepath.FromSlash(p)))
	var out []string
	for _, m := range rbRequire().FindAllStringSubmatch(string(src), -1) {
		name := m[2]
		if !strings.HasSuffix(name, ".rb") {
			name += ".rb"
		}
		rel := path.Join("lib", name)
		if m[1] == "require_relative" {
			rel = path.Join(path.Dir(p), name)
		}
		if info, err := os.Stat(filepath.Join(root, filepath.FromSlash(rel))); err == nil && info.Mode().IsRegular() {
			out = append(out, rel)
		}
	}
	return out
}

// javaMethod returns the source of the test method name in the Java or
// Kotlin file src.
func javaMethod(src []byte, name string) string {
	for _, head := range []string{"void " + name, "fun " + name, "fun `" + name + "`"} {
		if b := braceFunc(src, head); b != "" {
			return b
		}
	}
	return ""
}
