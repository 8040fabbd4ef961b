// Package cli is the ralph management command.
package cli

import "io"

// Main runs ralph.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int { return 0 }
