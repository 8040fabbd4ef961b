package risk

import "testing"

// BenchmarkCommand judges a mix of commands in the sample project: the
// in-process cost of the Bash path of pre-tool-call.
func BenchmarkCommand(b *testing.B) {
	root := sample(b)
	g := newGuard(b, root, nil)
	cmds := []string{
		"go test ./... && go vet ./...",
		`sudo bash -c "cd / && rm -rf --no-preserve-root *"`,
		"find . -name '*_test.go' | xargs rm -f",
		`python3 -c "import shutil; shutil.rmtree('tests')"`,
		`git commit -m "$(cat <<'EOF'` + "\nfix: stop rm -rf\nEOF\n" + `)"`,
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		g.Command(cmds[i%len(cmds)], root)
	}
}

// BenchmarkNew is the cost of building a guard from the default config on
// every call.
func BenchmarkNew(b *testing.B) {
	root := sample(b)
	for i := 0; i < b.N; i++ {
		newGuard(b, root, nil)
	}
}

// BenchmarkPeerCases judges the peer guards' 2,390 test commands in turn
// (testdata/peers): the cost of the analysis over a wide mix of commands,
// evasions and interpreter code.
func BenchmarkPeerCases(b *testing.B) {
	root := sample(b)
	g := newGuard(b, root, nil)
	cases := readPeerCases(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		g.Command(cases[i%len(cases)].command, root)
	}
}
