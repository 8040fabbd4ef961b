// Package opencode holds the OpenCode plugin of ralph-hooks
// (ralph-hooks.ts), embedded, for ralph install --agent opencode to write.
package opencode

import _ "embed" // for Plugin

// Plugin is the plugin's source as shipped: it runs the hooks from
// ~/.local/lib/ralph-hooks/bin; ralph install sets its BIN and TIMEOUT
// lines.
//
//go:embed ralph-hooks.ts
var Plugin []byte
