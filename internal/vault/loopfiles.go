package vault

import "slices"

// loopFiles are the files of a loop's directory the vault keeps: its
// state, and the baselines it is judged against, written at its start and
// at a gate's approval only (the test census, the completion command's
// start and the digests of what decides it, the code surface). Changed by
// the agent, they would change ralph's verdicts: a test taken out of the
// census is no longer missed, a digest rewritten hides a changed script.
// They are listed sorted.
var loopFiles = []string{"baseline.json", "completion.json", "state.json", "surface-baseline.json"}

// loopFile reports whether name is one of loopFiles.
func loopFile(name string) bool { return slices.Contains(loopFiles, name) }

func sortedLoopFiles() []string { return slices.Clone(loopFiles) }
