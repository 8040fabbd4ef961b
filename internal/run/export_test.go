package run_test

import "fmt"

// fmtSscan reads "exit status N".
func fmtSscan(s string, n *int) (int, error) { return fmt.Sscanf(s, "exit status %d", n) }
