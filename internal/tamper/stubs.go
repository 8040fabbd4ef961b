package tamper

import (
	"regexp"
	"strings"
)

// stubRes find a stub of a method that returns what the test says, per
// language; the first group is the method's name.
var stubRes = &lazy[map[string][]*regexp.Regexp]{f: func() map[string][]*regexp.Regexp {
	re := regexp.MustCompile
	return map[string][]*regexp.Regexp{
		"js": {
			re(`spyOn\(\s*[\w.]+\s*,\s*['"](\w+)['"]\s*\)\s*\.mock(?:Return|Resolved|Implementation)`),
			re(`^[\w.]+\.(\w+)\s*=\s*(?:vi|jest|sinon)\.(?:fn|stub)\(`),
			re(`^[\w.]+\.(\w+)\s*=\s*(?:async\s*)?\(\)\s*=>`),
			re(`stub\(\s*[\w.]+\s*,\s*['"](\w+)['"]\s*\)\.(?:returns|resolves)`),
		},
		"python": {
			re(`patch\.object\(\s*[\w.]+\s*,\s*['"](\w+)['"]`),
			re(`patch\(\s*['"][\w.]*\.(\w+)['"]`),
			re(`setattr\([^,]+,\s*['"](\w+)['"]`),
			re(`^[\w.]+\.(\w+)\s*=\s*(?:lambda\b|(?:mock\.|unittest\.mock\.)?(?:Magic|Async)?Mock\()`),
		},
		"ruby": {
			re(`receive\(:(\w+[?!]?)\)\s*(?:\.and_return|\{)`),
			re(`receive_messages\((\w+[?!]?):`),
			re(`\.stub\(:(\w+[?!]?)\)`),
			re(`define_method\(:(\w+[?!]?)\)`),
		},
		"java": {
			re(`doReturn\(.*\)\.when\(\w+\)\.(\w+)\(`),
			re(`when\(\w+\.(\w+)\(.*\)\)\.then(?:Return|Answer)`),
			re(`given\(\w+\.(\w+)\(.*\)\)\.will(?:Return|Answer)`),
		},
	}
}}

// interaction matches an assertion about a mock's calls: a stubbed
// method named there is the collaborator the test checks, not the code
// under test.
var interaction = &lazy[*regexp.Regexp]{f: func() *regexp.Regexp {
	return regexp.MustCompile(`have_received|receive\(|toHaveBeenCalled|toBeCalled|verify\(|assert_called|assert_any_call|\.called\b|\.call_count|spyOn|when\(|calledWith`)
}}

// stubbed says how a change made a test check a stub of its own: a stub
// it added returns a value from the very method its assertions call, so
// they check the stub and no longer the code. "" when it did not.
func stubbed(lang string, ls []line, before string) string {
	for _, l := range ls {
		if !l.added {
			continue
		}
		for _, re := range stubRes.get()[lang] {
			m := re.FindStringSubmatch(l.text)
			if m == nil || named(before, m[1]) {
				continue // stubbed before too (in another syntax: should → expect)
			}
			call := regexp.MustCompile(`\.` + regexp.QuoteMeta(m[1]) + `(?:[(),.\s]|$)`)
			for _, a := range ls {
				if a.text == l.text || !holdsAssert(a.text) || interaction.get().MatchString(a.text) {
					continue
				}
				if call.MatchString(a.text) {
					return "stubs " + m[1] + ", the method its assertion checks, to return what it expects (`" + clip(l.text, 60) + "`)"
				}
			}
		}
	}
	return ""
}

// named reports whether text names method m as a stub does: :m, 'm',
// "m", .m =.
func named(text, m string) bool {
	for _, f := range []string{":" + m, "'" + m + "'", `"` + m + `"`, "." + m + " ="} {
		if i := strings.Index(text, f); i >= 0 {
			end := i + len(f)
			if end >= len(text) || !isWord(rune(text[end])) || strings.HasSuffix(f, "=") || strings.HasSuffix(f, "'") || strings.HasSuffix(f, `"`) {
				return true
			}
		}
	}
	return false
}
