package pwsh

import "strings"

// safeMethods are methods of values (strings, collections, paths) that
// change no file. Any other method of a value asks: $f.Delete(),
// (Get-Item x).MoveTo(…) and the like.
var safeMethods map[string]bool

// readTypes are .NET types none of whose static methods change files.
var readTypes map[string]bool

// readStatics are static methods of other types that change nothing.
var readStatics map[string]bool

// call judges a method call: static calls of System.IO that delete, move,
// copy or write files are mapped onto the shell commands that do the
// same; methods that change nothing pass; any other asks.
func (t *translator) call(c Call, later *strings.Builder) {
	arg := func(i int, wild bool) string {
		if i >= len(c.Args) {
			return `"$RALPH_PS_ARG"`
		}
		return t.pathWord(c.Args[i], wild)
	}
	if c.Type == "" {
		if !safeMethods[c.Method] || c.Method == "replace" && c.OnExpr {
			t.problem("opaque", "it calls the method "+c.Method+"() of a value, which ralph cannot check (it may delete, move or write files). Use a cmdlet ralph reads instead.")
		}
		return
	}
	key := c.Type + "::" + c.Method
	switch key {
	case "io.directory::delete":
		later.WriteString("rm -r -f -- " + arg(0, false) + "\n")
	case "io.file::delete":
		later.WriteString("rm -f -- " + arg(0, false) + "\n")
	case "io.file::move", "io.directory::move":
		later.WriteString("mv -f -- " + arg(0, false) + " " + arg(1, false) + "\n")
	case "io.file::copy":
		later.WriteString("cp -f -- " + arg(0, false) + " " + arg(1, false) + "\n")
	case "io.file::writealltext", "io.file::writealllines", "io.file::writeallbytes", "io.file::create",
		"io.file::createtext", "io.file::openwrite":
		text := `printf %s "$RALPH_PS_VALUE"`
		if c.Method == "writealltext" && len(c.Args) > 1 {
			text = t.text(c.Args[1:2], false)
		}
		later.WriteString(text + " > " + arg(0, false) + "\n")
	case "io.file::appendalltext", "io.file::appendalllines", "io.file::appendtext":
		later.WriteString(`printf %s "$RALPH_PS_VALUE" >> ` + arg(0, false) + "\n")
	case "io.directory::createdirectory":
		later.WriteString("mkdir -p -- " + arg(0, false) + "\n")
	case "io.directory::setcurrentdirectory":
		later.WriteString("cd -- " + arg(0, false) + "\n")
	default:
		if readTypes[c.Type] || readStatics[key] {
			return
		}
		t.problem("opaque", "it calls the .NET method ["+c.Type+"]::"+c.Method+"(), which ralph does not read (it may delete, move or write files, or run code). Use a cmdlet ralph reads instead.")
	}
}
