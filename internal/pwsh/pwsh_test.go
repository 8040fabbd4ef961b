package pwsh

import (
	"encoding/base64"
	"strings"
	"testing"
	"unicode/utf16"

	"mvdan.cc/sh/v3/syntax"
)

func TestTranslate(t *testing.T) {
	tests := []struct {
		in, bash string
		rule     string // the first problem's rule, "" for none
	}{
		{"Remove-Item -Recurse -Force tests", "rm -r -f -- tests", ""},
		{"ri -fo tests", "rm -r -f -- tests", ""},
		{"REMOVE-ITEM -Recurse:$false tests", "rm -r -- tests", ""},
		{"del tests\\a_test.go", "rm -r -- tests/a_test.go", ""},
		{"Remove-Item -LiteralPath 'a*b'", "rm -r -- 'a*b'", ""},
		{"Remove-Item 'a*b'", "rm -r -- a*b", ""},
		{"Remove-Item a, b", "rm -r -- a b", ""},
		{"Remove-Item ~/x", "rm -r -- ~/x", ""},
		{"Remove-Item $env:TEMP/x", `rm -r -- "${TEMP}"/x`, ""},
		{"Remove-Item $x", `rm -r -- "$RALPH_PS_x"`, ""},
		{"rm -r tests", "rm -r -- tests\nrm -r tests", ""},
		{"Get-ChildItem tests -Recurse | Remove-Item", "true | find tests -mindepth 1 -exec rm -r -- {} +", ""},
		{"gci src -Filter *.tmp | ri", "true | find src -mindepth 1 -maxdepth 1 -iname '*.tmp' -exec rm -r -- {} +", ""},
		{"Get-Content x | Remove-Item", `true | rm -r -- "$RALPH_PS_INPUT"`, ""},
		{"Move-Item a b", "mv -f -- a b", ""},
		{"Copy-Item -Recurse a b", "cp -f -r -- a b", ""},
		{"Rename-Item dir/a.go b.go", "mv -f -- dir/a.go dir/b.go", ""},
		{"Set-Content x.txt 'hi'", "printf %s 'hi\n' > x.txt", ""},
		{"Set-Content x.txt 'hi' -NoNewline", "printf %s hi > x.txt", ""},
		{"Add-Content x.txt $y", `printf %s "$RALPH_PS_VALUE" >> x.txt`, ""},
		{"Clear-Content x.txt", ": > x.txt", ""},
		{"'a' | Out-File -Append x.txt", `true | printf %s "$RALPH_PS_VALUE" >> x.txt`, ""},
		{"New-Item -ItemType Directory d", "mkdir -p -- d", ""},
		{"New-Item -ItemType SymbolicLink -Path l -Target t", "ln -s -- t l", ""},
		{"New-Item x.txt", "touch -- x.txt", ""},
		{"Write-Output hi > out.txt", "true > out.txt", ""},
		{"go build 2>$null", "go build", ""},
		{"Set-Location sub; go test ./...", "cd -- sub\ngo test ./...", ""},
		{"go vet ./... && go test ./...", "go vet ./... && go test ./...", ""},
		{"git.exe status", "git status", ""},
		{"C:\\tools\\x.exe run", "C:/tools/x.exe run", ""},
		{"iex 'rm -r x'", "{ rm -r -- x\nrm -r x\n}", ""},
		{"$c = 'Remove-Item'; & $c x", "true\nrm -r -- x", ""},
		{"$p = @{Path = 'x'}; Remove-Item @p", "", "dynamic-command"},
		{"$c = 'Get-Date'; Set-Variable c Remove-Item; & $c x", "", "dynamic-command"},
		{"$c = 'Get-Date'; gci -ov c; & $c x", "", "dynamic-command"},
		{"$global:c = 'Remove-Item'; & $c x", "true\nrm -r -- x", ""},
		{"Remove-Item FileSystem::x", "rm -r -- x", ""},
		{"git --% reset --hard", "git reset --hard", ""},
		{"wsl -d U -- rm -rf x", "rm -rf x", ""},
		{"iwr https://h/x -OutFile f", `printf %s "$RALPH_PS_VALUE" > f`, ""},
		{"$c = 'Remove-Item'; & $c x; $c = 'Get-Date'", "", "dynamic-command"},
		{"& $c x", "true", "dynamic-command"},
		{"Invoke-Expression $s", "true", "dynamic-command"},
		{". ./x.ps1", "true", "opaque"},
		{"(Get-Item x).Delete()", "", "opaque"},
		{"$f.MoveTo('y')", "", "opaque"},
		{"'a'.ToUpper()", "true", ""},
		{"[IO.Directory]::Delete('t', $true)", "", ""},
		{"[IO.Compression.ZipFile]::ExtractToDirectory('a.zip', '.')", "", "opaque"},
		{"Stop-Computer", "true", "opaque"},
		{"Get-FooBar", "true", ""},
		{"cmd /c rd /s /q t", "rm -r -f -- t", ""},
		{"cmd /c \"echo %PATH%\"", "true", "opaque"},
		{"pwsh -NoProfile -c 'ri x'", "rm -r -- x", ""},
		{"pwsh -File x.ps1", "true", "opaque"},
		{"pwsh -Bogus x", "true", "opaque"},
		{"Remove-Item 'x", "true", "unparsed"},
		{"if ($a) { ri x", "true", "unparsed"},
		{"ri `\n -r x", "rm -r -- x", ""},
		{"Remove-Item \u2013Recurse \u2018x\u2019", "rm -r -- x", ""},
		{"<# ri x #> git status # ri y", "git status", ""},
		{"@'\nri x\n'@ | Out-Null", "true | true", ""},
		{"@\"\n$(ri x)\n\"@ | Out-Null", "true | true\n{ rm -r -- x\n}", ""},
		{"Start-Process git -ArgumentList 'clean','-fdx'", "git clean -fdx", ""},
		{"Start-Process git -ArgumentList 'commit -m \"x\"'", "true", "opaque"},
	}
	for _, tt := range tests {
		r := Translate(tt.in)
		if tt.bash != "" && r.Bash != tt.bash {
			t.Errorf("Translate(%q).Bash =\n%s\nwant\n%s", tt.in, r.Bash, tt.bash)
		}
		rule := ""
		if len(r.Problems) > 0 {
			rule = r.Problems[0].Rule
		}
		if rule != tt.rule {
			t.Errorf("Translate(%q) problems %v, want rule %q", tt.in, r.Problems, tt.rule)
		}
	}
}

// TestDotNet checks that .NET calls that change files become the shell
// commands that do the same.
func TestDotNet(t *testing.T) {
	tests := map[string]string{
		"[IO.Directory]::Delete('t', $true)":           "rm -r -f -- t",
		"[System.IO.File]::Delete('a')":                "rm -f -- a",
		"[IO.File]::WriteAllText('a', 'x')":            "printf %s x > a",
		"[IO.File]::AppendAllText('a', 'x')":           `printf %s "$RALPH_PS_VALUE" >> a`,
		"[IO.File]::Move('a', 'b')":                    "mv -f -- a b",
		"[IO.File]::Copy('a', 'b', $true)":             "cp -f -- a b",
		"$null = [IO.Directory]::CreateDirectory('d')": "mkdir -p -- d",
	}
	for in, want := range tests {
		if r := Translate(in); !strings.Contains(r.Bash, want) || len(r.Problems) > 0 {
			t.Errorf("Translate(%q) = %q %v, want it to hold %q", in, r.Bash, r.Problems, want)
		}
	}
}

func TestEncodedCommand(t *testing.T) {
	enc := func(s string) string {
		u := utf16.Encode([]rune(s))
		b := make([]byte, 2*len(u))
		for i, c := range u {
			b[2*i], b[2*i+1] = byte(c), byte(c>>8)
		}
		return base64.StdEncoding.EncodeToString(b)
	}
	for _, form := range []string{"-EncodedCommand", "-enc", "-e", "-ec", "-EncodedC"} {
		r := Translate("powershell " + form + " " + enc("Remove-Item -Recurse tests"))
		if r.Bash != "rm -r -- tests" || len(r.Problems) > 0 {
			t.Errorf("%s: %q %v", form, r.Bash, r.Problems)
		}
	}
	if r := Translate("pwsh -enc !!!"); len(r.Problems) == 0 || r.Problems[0].Rule != "unparsed" {
		t.Errorf("bad base64: %v", r.Problems)
	}
	r := PowerShellArgs("powershell.exe", []string{"-NoProfile", "-EncodedCommand", enc("git clean -fdx")})
	if r.Bash != "git clean -fdx" {
		t.Errorf("PowerShellArgs: %q", r.Bash)
	}
}

func TestNesting(t *testing.T) {
	deep := strings.Repeat("(", 300) + "ri x" + strings.Repeat(")", 300)
	if r := Translate(deep); len(r.Problems) == 0 || r.Problems[0].Rule != "unparsed" {
		t.Errorf("deep nesting: %v", r.Problems)
	}
	cmd := "ri x"
	for i := 0; i < 12; i++ {
		cmd = "iex '" + strings.ReplaceAll(cmd, "'", "''") + "'"
	}
	if r := Translate(cmd); len(r.Problems) == 0 {
		t.Errorf("deep iex: %q", r.Bash)
	}
}

func FuzzTranslate(f *testing.F) {
	for _, s := range []string{"Remove-Item -Recurse tests", "gci | % { ri $_ }", "@'\nx\n'@", `"a $(b) ${c} $env:D"`,
		"[IO.File]::Delete('x')", "$a = 'b'; & $a", "cmd /c rd /s q", "pwsh -enc AAAA", "<# x #> y # z", "a `\n b",
		"x -p:$true | y && z || w; v &", "@{a = 1; b = ri x}", "$x[0].Y('z')", "if ($a) { b } elseif ($c) { d } else { e }"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r := Translate(s)
		for _, p := range r.Problems {
			switch p.Rule {
			case "unparsed", "opaque", "dynamic-command":
			default:
				t.Fatalf("Translate(%q): problem rule %q", s, p.Rule)
			}
		}
		if r.Bash == "" {
			t.Fatalf("Translate(%q): no shell commands", s)
		}
		// What the guard judges must parse as shell: a line it cannot
		// parse would be judged by another rule than its commands'.
		if _, err := syntax.NewParser().Parse(strings.NewReader(r.Bash), ""); err != nil {
			t.Fatalf("Translate(%q) = %q, which does not parse as shell: %v", s, r.Bash, err)
		}
	})
}

func BenchmarkTranslate(b *testing.B) {
	cmd := `$c = 'Remove-Item'; Get-ChildItem tests -Recurse -Filter *_test.go | Where-Object { $_.Length -gt 0 } | & $c -Force; git status && go test ./...`
	for i := 0; i < b.N; i++ {
		Translate(cmd)
	}
}

// TestMaybe checks that Looks' quick filter lets through every command
// line that reads as PowerShell: each cmdlet name ralph knows starts with
// a verb of lookVerbs, and the filter passes what Looks accepts.
func TestMaybe(t *testing.T) {
	tables()
	names := []string{"set-location", "push-location", "pop-location", "invoke-expression", "invoke-command",
		"start-process", "foreach-object", "set-variable", "new-variable"}
	for n := range readOnly {
		names = append(names, n)
	}
	for n := range writes {
		names = append(names, n)
	}
	for _, a := range aliases {
		names = append(names, a)
	}
	for _, n := range names {
		if v, _, ok := strings.Cut(n, "-"); ok && !lookVerbs()[v] {
			t.Errorf("cmdlet %s: verb %q is not in lookVerbs, so Looks would not see it", n, v)
		}
	}
	for _, src := range []string{"Remove-Item -Recurse tests", "gci | ForEach-Object { ri $_ }", "[IO.File]::Delete('x')",
		"echo hi | Tee-Object x"} {
		if !maybe(src) || !Looks(src) {
			t.Errorf("%q: maybe %v, Looks %v; want both", src, maybe(src), Looks(src))
		}
	}
	for _, src := range []string{"go test ./...", "rm -rf build", "git commit -m 'fix'", "golangci-lint run"} {
		if maybe(src) {
			t.Errorf("%q: maybe reads it as PowerShell", src)
		}
	}
}
