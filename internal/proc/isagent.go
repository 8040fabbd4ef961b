package proc

// IsAgent reports whether a process of this name and arguments is a coding
// agent (or an interpreter running one).
func IsAgent(name string, argv []string) bool { return agentOf(name, argv) != "" }

// IsShell reports whether name is a shell's.
func IsShell(name string) bool { return shells[name] }
