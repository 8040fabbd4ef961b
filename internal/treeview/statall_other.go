//go:build !linux

package treeview

// StatAll stats the files rels ahead of their Stat calls: on Linux, a
// directory at a time through its descriptor and across the CPUs; here,
// Stat does it.
func (v *View) StatAll(rels []string) {}

// statTree stats every file of the view ahead: here, Stat does it.
func (v *View) statTree() {}
