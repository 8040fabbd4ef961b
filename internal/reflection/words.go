package reflection

import (
	"strings"

	"github.com/ralph-hooks/ralph-hooks/internal/clip"
	"github.com/ralph-hooks/ralph-hooks/internal/signature"
)

// maxBlock bounds the reflection block read from a message, in bytes.
const maxBlock = 8 << 10

// Extract returns the text of the last <reflection>…</reflection> block of
// msg, trimmed. The tags are matched case-insensitively; an opening tag
// with no closing tag after it is no block. ok is false when msg has no
// block or only empty ones.
func Extract(msg string) (text string, ok bool) {
	const open, close = "<reflection>", "</reflection>"
	end := lastIndexFold(msg, close)
	if end < 0 {
		return "", false
	}
	start := lastIndexFold(msg[:end], open)
	if start < 0 {
		return "", false
	}
	text = strings.TrimSpace(msg[start+len(open) : end])
	text = clip.String(strings.ToValidUTF8(text, "\uFFFD"), maxBlock)
	return text, text != ""
}

// lastIndexFold is strings.LastIndex with ASCII case folding (the tags are
// ASCII, and folding only ASCII keeps byte offsets).
func lastIndexFold(s, sub string) int {
	for i := len(s) - len(sub); i >= 0; i-- {
		if asciiEqualFold(s[i:i+len(sub)], sub) {
			return i
		}
	}
	return -1
}

func asciiEqualFold(a, b string) bool {
	for i := 0; i < len(a); i++ {
		if lower(a[i]) != lower(b[i]) {
			return false
		}
	}
	return true
}

func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// labels maps the labels an agent writes in a reflection block to the
// field they fill.
var labels = map[string]string{
	"attempted": "attempted", "attempt": "attempted", "tried": "attempted", "what i tried": "attempted",
	"what i did": "attempted", "did": "attempted", "approach": "attempted", "actions": "attempted", "action": "attempted",
	"result": "result", "results": "result", "outcome": "result", "status": "result",
	"learned": "learned", "learnt": "learned", "lesson": "learned", "lessons": "learned", "lessons learned": "learned",
	"learning": "learned", "learnings": "learned", "insight": "learned", "insights": "learned", "what i learned": "learned",
	"next": "change", "next time": "change", "next step": "change", "next steps": "change", "change": "change",
	"changes": "change", "what to change": "change", "strategy": "change", "strategy change": "change",
	"new strategy": "change", "plan": "change", "do differently": "change", "what to do differently": "change",
}

// parseWords reads a reflection block loosely: lines labelled "Attempted:",
// "Result:", "Learned:", "Next:" (or "Change:", "Strategy:", …; any case,
// markdown bullets and bold tolerated) fill those fields, and unlabelled
// lines continue the field above them. Text before any label, or the whole
// block when it has no label, is what was learned.
func parseWords(text string) Words {
	fields := map[string]*strings.Builder{}
	var pre strings.Builder
	cur := ""
	add := func(b *strings.Builder, s string) {
		if s == "" {
			return
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(s)
	}
	for _, line := range strings.Split(text, "\n") {
		label, rest := labelled(line)
		if label != "" {
			cur = label
			if fields[cur] == nil {
				fields[cur] = &strings.Builder{}
			}
			add(fields[cur], rest)
			continue
		}
		line = strings.TrimSpace(unbullet(line))
		if cur == "" {
			add(&pre, line)
		} else {
			add(fields[cur], line)
		}
	}
	get := func(k string) string {
		if b := fields[k]; b != nil {
			return clip.String(b.String(), maxText)
		}
		return ""
	}
	w := Words{Attempted: get("attempted"), Result: get("result"), Learned: get("learned"), Change: get("change")}
	if p := pre.String(); p != "" {
		if w.Learned != "" {
			p += " " + w.Learned
		}
		w.Learned = clip.String(p, maxText)
	}
	return w
}

// labelled returns the field a line's label names and the text after it,
// or "" when the line has no known label.
func labelled(line string) (field, rest string) {
	s := strings.TrimSpace(unbullet(line))
	s = strings.TrimLeft(s, "*_")
	i := strings.IndexByte(s, ':')
	if i <= 0 || i > 30 {
		return "", ""
	}
	label := strings.ToLower(strings.TrimSpace(strings.Trim(s[:i], "*_ ")))
	field = labels[label]
	if field == "" {
		return "", ""
	}
	rest = strings.TrimSpace(strings.TrimLeft(s[i+1:], "*_"))
	return field, rest
}

// unbullet removes a markdown bullet, number or heading mark from the
// start of a line.
func unbullet(line string) string {
	s := strings.TrimSpace(line)
	s = strings.TrimLeft(s, "#")
	s = strings.TrimSpace(s)
	switch {
	case strings.HasPrefix(s, "- "), strings.HasPrefix(s, "* "), strings.HasPrefix(s, "+ "):
		return s[2:]
	case strings.HasPrefix(s, "• "):
		return s[len("• "):]
	}
	n := 0
	for n < len(s) && n < 3 && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	if n > 0 && n+1 < len(s) && (s[n] == '.' || s[n] == ')') && s[n+1] == ' ' {
		return s[n+2:]
	}
	return s
}

// normalize reduces a reflection to what makes two of them the same:
// failures' numbers, absolute paths and hexadecimal ids normalised as in
// their signatures (package signature), then lower case, every path as
// <path>, punctuation at the ends of words dropped, runs of spaces as one.
// normalize(normalize(s)) == normalize(s).
func normalize(s string) string {
	s = strings.ToLower(signature.Normalize(s))
	var b strings.Builder
	b.Grow(len(s))
	for _, w := range strings.Fields(s) {
		w = strings.Trim(w, ".,;:!?()[]{}\"'`*_")
		switch {
		case w == "":
			continue
		case w == "<path>" || w == "<hex>":
		case strings.ContainsAny(w, `/\`):
			w = "<path>"
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(w)
	}
	return b.String()
}

// errorSignature derives a signature from an error message when the caller
// has none: the first non-empty line, normalised.
//
// It is coarser than package posttool's ParseError, which reads exception
// kinds and FAIL lines; reflection cannot import posttool (posttool imports
// loop, which calls Record), so callers that have posttool's signature
// pass it in Input.ErrorSig.
func errorSignature(errs []string) string {
	for _, e := range errs {
		for _, l := range strings.Split(e, "\n") {
			if l = normalize(l); l != "" {
				return clip.String(l, 200)
			}
		}
	}
	return ""
}
