//go:build !unix

package bench

import "os"

// maxRSS is not measured on this platform.
func maxRSS(*os.ProcessState) int64 { return 0 }
