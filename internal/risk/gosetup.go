package risk

import "github.com/ralph-hooks/ralph-hooks/internal/shell"

// UseGoSetupMemo has the guard's reading of go test's TestMain and init
// functions keep what it found in each Go file in m, by the file's stamp
// (shell.GoSetupMemo): a repeated go test ./... reads only the files that
// changed.
func (g *Guard) UseGoSetupMemo(m *shell.GoSetupMemo) { g.analyzer.GoSetup = m }
