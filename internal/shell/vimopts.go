package shell

import "strings"

// vimArgLetters are vim's short options that take a value (the next word,
// or the rest of their word): a letter after one of them is part of that
// value, not an option.
const vimArgLetters = "cSTuUiwWtsq"

// vimCluster returns the Ex command a cluster of vim's short options gives
// with -c, and how many words it took: -sc CMD, -esc CMD, -Nc CMD, and
// -cCMD with the command glued on (vim, ex and view run all of them).
func vimCluster(args []Word, i int) (Word, int, bool) {
	s := args[i].Lit()
	if len(s) < 2 || s[0] != '-' || s[1] == '-' || s == "-c" {
		return Word{}, 0, false
	}
	for j := 1; j < len(s); j++ {
		if s[j] == 'c' {
			if rest := s[j+1:]; rest != "" {
				return Word{Raw: rest, Values: []string{rest}}, 1, true
			}
			if i+1 < len(args) {
				return args[i+1], 2, true
			}
			return Word{}, 0, false
		}
		if s[j] != 's' && strings.IndexByte(vimArgLetters, s[j]) >= 0 {
			return Word{}, 0, false // the rest is that option's value
		}
	}
	return Word{}, 0, false
}
