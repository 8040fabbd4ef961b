package risk

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestInPlaceWrites checks the text sed -i and perl -pi give a test file,
// which pre-tool-call's test-tamper check then judges like an Edit, and
// that the forms ralph does not read give none (the test-files warning
// and the Stop judge them, as before).
func TestInPlaceWrites(t *testing.T) {
	root := t.TempDir()
	const src = "package calc\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Errorf(\"Add = %d\", Add(1, 2))\n\t}\n}\n"
	test := filepath.Join(root, "calc_test.go")
	if err := os.WriteFile(test, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module calc\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	g := newGuard(t, root, nil)
	for _, tt := range []struct {
		cmd  string
		want string // the file's new text; "" for none worked out
	}{
		{`sed -i 's/t.Errorf/t.Logf/' calc_test.go`, "package calc\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Logf(\"Add = %d\", Add(1, 2))\n\t}\n}\n"},
		{`sed -i.bak -e 's/!= 3/!= 4/' calc_test.go`, "package calc\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 4 {\n\t\tt.Errorf(\"Add = %d\", Add(1, 2))\n\t}\n}\n"},
		{`sed -i '/Errorf/d' calc_test.go`, "package calc\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t}\n}\n"},
		{`sed -i 's/Add(\(1\), 2) != 3/Add(\1, 2) == 3/' calc_test.go`, "package calc\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) == 3 {\n\t\tt.Errorf(\"Add = %d\", Add(1, 2))\n\t}\n}\n"},
		{`sed -E -i 's/(Add)\(1, 2\)/\1(2, 1)/g' calc_test.go`, "package calc\n\nfunc TestAdd(t *testing.T) {\n\tif Add(2, 1) != 3 {\n\t\tt.Errorf(\"Add = %d\", Add(2, 1))\n\t}\n}\n"},
		{`perl -pi -e 's/t\.Errorf/t.Logf/g' calc_test.go`, "package calc\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Logf(\"Add = %d\", Add(1, 2))\n\t}\n}\n"},
		{`perl -ni -e 'print unless /Errorf/' calc_test.go`, "package calc\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t}\n}\n"},
		{`sed -i 's|t.Errorf|_ = |;s/!= 3/!= 0/' calc_test.go`, "package calc\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 0 {\n\t\t_ = (\"Add = %d\", Add(1, 2))\n\t}\n}\n"},
		{`perl -ni -e 'print if /package|^$/' calc_test.go`, "package calc\n\n"},
		{`perl -ni -e 'next unless /Add/; print' calc_test.go`, "func TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Errorf(\"Add = %d\", Add(1, 2))\n"},
		{`sed -i '/Test\|package\|^}$/!d' calc_test.go`, "package calc\nfunc TestAdd(t *testing.T) {\n}\n"},
		{`vim -es +'g/Errorf/d' +wq calc_test.go`, "package calc\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t}\n}\n"},
		{`ex -sc 'g!/package\|^$/d|x' calc_test.go`, "package calc\n\n"},
		{`nvim --headless -c '%s/!= 3/!= 4/' -c 'wq' calc_test.go`, "package calc\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 4 {\n\t\tt.Errorf(\"Add = %d\", Add(1, 2))\n\t}\n}\n"},
		{`vim -es +'v/Add/d' +x calc_test.go`, "func TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Errorf(\"Add = %d\", Add(1, 2))\n"},
		{`vim -es +'g/Errorf/d' +q! calc_test.go`, ""},          // quits without writing
		{`vim -es +'g/Errorf/normal dd' +wq calc_test.go`, ""},  // a command not read
		{`vim -es +'s/3/4/' +wq calc_test.go`, ""},              // the first line only: not read
		{`vim -es +'g/Errorf/d' +wq calc_test.go other.go`, ""}, // two files
		{`gawk -i inplace '!/Errorf/' calc_test.go`, "package calc\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t}\n}\n"},
		{`awk -i inplace '/package|^$/ {print}' calc_test.go`, "package calc\n\n"},
		{`ruby -i -ne 'print unless /Errorf/' calc_test.go`, "package calc\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t}\n}\n"},
		{`sd 't\.Errorf' 't.Logf' calc_test.go`, "package calc\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Logf(\"Add = %d\", Add(1, 2))\n\t}\n}\n"},
		{`sd -F '!= 3' '!= 4' calc_test.go`, "package calc\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 4 {\n\t\tt.Errorf(\"Add = %d\", Add(1, 2))\n\t}\n}\n"},
		{`rpl -- t.Errorf t.Logf calc_test.go`, "package calc\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Logf(\"Add = %d\", Add(1, 2))\n\t}\n}\n"},
		{`replace '!= 3' '!= 3 && false' -- calc_test.go`, "package calc\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 && false {\n\t\tt.Errorf(\"Add = %d\", Add(1, 2))\n\t}\n}\n"},
		{`gawk -i inplace '{print}' calc_test.go`, ""},        // a program not read
		{`sd -p Errorf Logf calc_test.go`, ""},                // a preview: nothing written
		{`rpl -i errorf Logf calc_test.go`, ""},               // an option not read
		{`sed -n -i '/Errorf/p' calc_test.go`, ""},            // -n: only what p prints
		{`sed -i 's/Errorf/Logf/w out.txt' calc_test.go`, ""}, // a flag not read
		{`sed -i '3,5d' calc_test.go`, ""},                    // a line range
		{`sed -i -f edits.sed calc_test.go`, ""},              // a script file
		{`perl -pi -e 's{Errorf}{Logf}' calc_test.go`, ""},    // brackets as delimiters
		{`sed 's/Errorf/Logf/' calc_test.go`, ""},             // not in place: prints
	} {
		v := g.Command(tt.cmd, root)
		got, ok := v.Writes[test]
		if ok != (tt.want != "") || got != tt.want {
			t.Errorf("%s: writes %q (%v), want %q", tt.cmd, got, ok, tt.want)
		}
	}
}

// FuzzSedScript checks that the reader of sed scripts never panics and
// that what it reads runs on any text.
func FuzzSedScript(f *testing.F) {
	for _, s := range []string{`s/a/b/g`, `/x/d`, `s|a\|b|&&|I;s/\(x\)/\1/`, `s/a/b`, `/a/s/b/c/`, `s/(/)/`, `s/a/\n/;d`} {
		f.Add(s, "a b\nx (y)\n")
	}
	f.Fuzz(func(t *testing.T, script, text string) {
		if len(script) > 1024 || len(text) > 4096 {
			return
		}
		for _, ere := range []bool{false, true} {
			if cmds, ok := parseSed(script, ere); ok {
				applySed(text, cmds)
			}
		}
	})
}

// FuzzExScript checks that the reader of vim's and ex's batch commands
// never panics, whatever the commands.
func FuzzExScript(f *testing.F) {
	root := f.TempDir()
	if err := os.WriteFile(filepath.Join(root, "calc_test.go"), []byte("package calc\n\nfunc TestAdd(t *testing.T) {\n\tt.Fatal(1)\n}\n"), 0o644); err != nil {
		f.Fatal(err)
	}
	g := newGuard(f, root, nil)
	for _, s := range []string{`g/Fatal/d`, `g!/a\|b/d|x`, `%s/(/)/g`, `v//d`, `%d|wq`, `g`, `s/a`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, script string) {
		if len(script) > 512 || strings.ContainsAny(script, "'\x00") {
			return
		}
		g.Command("vim -es +'"+script+"' +wq calc_test.go", root)
		g.Command("ex -sc '"+script+"|x' calc_test.go", root)
	})
}
