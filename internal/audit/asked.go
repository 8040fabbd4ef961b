package audit

import (
	"bytes"
	"os"
	"strings"

	"github.com/ralph-hooks/ralph-hooks/internal/state"
)

// The audit log is in the project, and anything the agent runs can append
// to it: a program that appends a pre-tool-call line asking for its own
// call (the id is in the line the guard wrote before it) would have
// post-tool-call take a change the guard never put to the human for one
// the human let through. So the guard also records each call it put to
// the human in a file of its own outside the project (AskedFile, in the
// loop's cache directory), which post-tool-call reads instead.

// AskedFile is the name of the guard's record of its asks.
const AskedFile = "asked"

// maxAsked is how many asks the record keeps (the newest).
const maxAsked = 64

// RecordAsk adds to the record at path that the call id was put to the
// human by rule.
func RecordAsk(path, id, rule string) error {
	if strings.ContainsAny(id+rule, "\t\n") {
		return nil // no id or rule holds one; a field could not be told apart
	}
	return state.Update(path, func(old []byte) ([]byte, error) {
		lines := bytes.SplitAfter(old, []byte("\n"))
		if n := len(lines); n > 0 && len(lines[n-1]) == 0 {
			lines = lines[:n-1]
		}
		if len(lines) >= maxAsked {
			lines = lines[len(lines)-maxAsked+1:]
		}
		return append(bytes.Join(lines, nil), id+"\t"+rule+"\n"...), nil
	})
}

// Asked returns the rule by which the record at path says the call id was
// put to the human, the newest; ok is false when it says none was.
func Asked(path, id string) (rule string, ok bool) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", false
	}
	for line := range strings.SplitSeq(string(data), "\n") {
		if got, r, found := strings.Cut(line, "\t"); found && got == id {
			rule, ok = r, true
		}
	}
	return rule, ok
}
