package metrics

import "strings"

// mochaRunner reads mocha's "5 passing (12ms)", "2 failing" and "1
// pending" lines and the numbered failures after them.
type mochaRunner struct {
	t       tally
	failing bool     // after "N failing": numbered failures follow
	title   []string // the title being read, over several lines
}

func (m *mochaRunner) line(s, t string, n int) {
	if len(m.title) > 0 {
		m.title = append(m.title, t)
		if strings.HasSuffix(t, ":") || len(m.title) >= 8 || t == "" {
			m.endTitle()
		}
		return
	}
	k, word, ok := countWord(t)
	if w, _, timed := strings.Cut(word, " ("); timed && strings.HasSuffix(word, ")") {
		word = w // "5 passing (12ms)"
	}
	if ok {
		switch word {
		case "passing":
			m.t.hit("mocha", n)
			m.t.passed += k
			return
		case "failing":
			m.t.hit("mocha", n)
			m.t.failed += k
			m.failing = true
			return
		case "pending":
			if m.t.found {
				m.t.skipped += k
			}
			return
		}
	}
	if !m.failing {
		return
	}
	// "1) Array" then "#indexOf()" then "should return -1:" on the next lines.
	num, title, ok := strings.Cut(t, ") ")
	if !ok || !isDigits(num) {
		return
	}
	m.title = append(m.title, title)
	if strings.HasSuffix(title, ":") {
		m.endTitle()
	}
}

func (m *mochaRunner) endTitle() {
	name := strings.TrimSuffix(strings.Join(m.title, " "), ":")
	m.title = m.title[:0]
	m.t.fail(strings.TrimSpace(name))
}

func (m *mochaRunner) done() *tally { return &m.t }
