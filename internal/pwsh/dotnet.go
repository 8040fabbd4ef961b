package pwsh

import "strings"

// safeMethods are methods of values (strings, collections, paths) that
// change no file. Any other method of a value asks: $f.Delete(),
// (Get-Item x).MoveTo(…) and the like.
var safeMethods = map[string]bool{
	"tostring": true, "trim": true, "trimstart": true, "trimend": true, "split": true, "replace": true,
	"contains": true, "startswith": true, "endswith": true, "tolower": true, "toupper": true,
	"tolowerinvariant": true, "toupperinvariant": true, "substring": true, "indexof": true, "lastindexof": true,
	"join": true, "equals": true, "gettype": true, "padleft": true, "padright": true, "format": true,
	"getvalue": true, "where": true, "foreach": true, "add": true, "remove": true, "containskey": true,
	"containsvalue": true, "getenumerator": true, "tochararray": true, "normalize": true, "compareto": true,
	"insert": true, "clear": true, "readtoend": true, "readline": true, "matches": true, "match": true,
	"ismatch": true, "toarray": true, "getfiles": true, "getdirectories": true, "enumeratefiles": true,
	"enumeratedirectories": true, "getfilesysteminfos": true, "exists": true, "gethashcode": true,
	"addrange": true, "sort": true, "reverse": true, "first": true, "last": true, "count": true, "item": true,
	"getbytes": true, "getstring": true, "tobase64string": true, "frombase64string": true, "adddays": true,
	"addhours": true, "addminutes": true, "addseconds": true, "subtract": true, "totalseconds": true,
	"getfilename": true, "getextension": true, "getdirectoryname": true, "combine": true, "getfullpath": true,
	"haskey": true, "indexofany": true, "isnullorempty": true, "isnullorwhitespace": true, "concat": true,
	"waitforexit": true, "dispose": true, "close": true, "flush": true,
}

// readTypes are .NET types none of whose static methods change files.
var readTypes = map[string]bool{
	"math": true, "convert": true, "string": true, "text.encoding": true, "io.path": true, "datetime": true,
	"guid": true, "char": true, "int": true, "int32": true, "int64": true, "double": true, "regex": true,
	"text.regularexpressions.regex": true, "console": true, "timespan": true, "bitconverter": true,
	"linq.enumerable": true, "array": true, "uri": true, "version": true, "bool": true, "boolean": true,
	"net.dns": true, "web.httputility": true, "runtime.interopservices.runtimeinformation": true,
	"threading.thread": true, "collections.generic.list[string]": true, "string[]": true,
}

// readStatics are static methods of other types that change nothing.
var readStatics = map[string]bool{
	"io.file::exists": true, "io.file::readalltext": true, "io.file::readalllines": true, "io.file::readallbytes": true,
	"io.file::getattributes": true, "io.file::getlastwritetime": true, "io.file::readlines": true,
	"io.directory::exists": true, "io.directory::getfiles": true, "io.directory::getdirectories": true,
	"io.directory::enumeratefiles": true, "io.directory::enumeratedirectories": true,
	"io.directory::getcurrentdirectory": true, "io.directory::getfilesystementries": true,
	"environment::getenvironmentvariable": true, "environment::getfolderpath": true,
	"environment::getenvironmentvariables": true, "environment::getcommandlineargs": true,
}

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
