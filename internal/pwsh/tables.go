package pwsh

import (
	"regexp"
	"strings"
	"sync"
)

// tables builds the package's tables on first use, so that a hook call
// that reads no PowerShell (a Read, an Edit) does not pay at start-up for
// maps and regular expressions it never consults. Every exported function
// calls it first.
var tables = sync.OnceFunc(func() {
	aliases = map[string]string{
		"ri": "remove-item", "rm": "remove-item", "rmdir": "remove-item", "del": "remove-item", "erase": "remove-item", "rd": "remove-item",
		"mi": "move-item", "move": "move-item", "mv": "move-item",
		"cpi": "copy-item", "copy": "copy-item", "cp": "copy-item",
		"rni": "rename-item", "ren": "rename-item",
		"sc": "set-content", "ac": "add-content", "clc": "clear-content", "ni": "new-item", "tee": "tee-object",
		"cd": "set-location", "chdir": "set-location", "sl": "set-location", "pushd": "push-location", "popd": "pop-location",
		"iex": "invoke-expression", "icm": "invoke-command", "saps": "start-process", "start": "start-process",
		"%": "foreach-object", "foreach": "foreach-object", "?": "where-object", "where": "where-object",
		"gci": "get-childitem", "ls": "get-childitem", "dir": "get-childitem", "gi": "get-item",
		"gc": "get-content", "cat": "get-content", "type": "get-content", "echo": "write-output", "write": "write-output",
		"sls": "select-string", "select": "select-object", "sort": "sort-object", "gl": "get-location", "pwd": "get-location",
		"sv": "set-variable", "set": "set-variable", "nv": "new-variable", "ii": "invoke-item", "ipmo": "import-module",
		"sp": "set-itemproperty", "rp": "remove-itemproperty", "cli": "clear-item", "clp": "clear-itemproperty",
		"epcsv": "export-csv", "sajb": "start-job", "ps": "get-process", "kill": "stop-process", "spps": "stop-process",
		"sleep": "start-sleep", "diff": "compare-object", "measure": "measure-object", "fl": "format-list", "ft": "format-table",
		"h": "get-history", "history": "get-history", "r": "invoke-history", "ihy": "invoke-history", "gcm": "get-command",
		"man": "get-help", "help": "get-help", "ogv": "out-gridview", "oh": "out-host", "gm": "get-member", "group": "group-object",
		"gal": "get-alias", "gv": "get-variable", "gps": "get-process", "cls": "clear-host", "clear": "clear-host",
	}
	unixNative = map[string]bool{
		"rm": true, "rmdir": true, "mv": true, "cp": true, "ls": true, "cat": true, "sort": true, "tee": true,
		"ps": true, "kill": true, "sleep": true, "diff": true, "man": true, "clear": true,
	}
	readOnly = map[string]bool{
		"get-childitem": true, "get-item": true, "get-content": true, "select-string": true, "write-output": true,
		"write-host": true, "write-error": true, "write-warning": true, "write-verbose": true, "write-debug": true,
		"write-information": true, "write-progress": true, "test-path": true, "get-location": true, "resolve-path": true,
		"measure-object": true, "select-object": true, "sort-object": true, "where-object": true, "format-list": true,
		"format-table": true, "format-wide": true, "format-custom": true, "out-string": true, "out-null": true,
		"out-host": true, "out-default": true, "get-date": true, "get-command": true, "get-help": true, "join-path": true,
		"split-path": true, "get-process": true, "convertto-json": true, "convertfrom-json": true, "get-filehash": true,
		"compare-object": true, "group-object": true, "get-member": true, "get-variable": true, "start-sleep": true,
		"get-unique": true, "get-alias": true, "get-history": true, "get-itemproperty": true, "get-acl": true,
		"clear-host": true, "get-host": true, "get-random": true, "new-guid": true, "get-culture": true,
		"get-psdrive": true, "get-module": true, "get-job": true, "receive-job": true, "wait-job": true,
		"get-service": true, "get-computerinfo": true, "get-error": true, "get-uptime": true, "out-gridview": true,
		"set-strictmode": true, "convertto-csv": true, "convertfrom-csv": true, "convertto-xml": true,
		"convertfrom-stringdata": true, "convertto-html": true, "get-psreadlineoption": true, "test-json": true,
		"select-xml": true, "get-itempropertyvalue": true, "import-csv": true, "new-object": true,
	}
	common = spec{
		values: []string{"erroraction", "warningaction", "informationaction", "progressaction", "errorvariable",
			"warningvariable", "informationvariable", "outvariable", "outbuffer", "pipelinevariable"},
		switches: []string{"verbose", "debug", "whatif", "confirm"},
		alias: map[string]string{"ea": "erroraction", "wa": "warningaction", "infa": "informationaction", "ev": "errorvariable",
			"wv": "warningvariable", "iv": "informationvariable", "ov": "outvariable", "ob": "outbuffer", "pv": "pipelinevariable",
			"vb": "verbose", "db": "debug", "wi": "whatif", "cf": "confirm", "proga": "progressaction"},
	}
	itemAlias = map[string]string{"lp": "literalpath", "pspath": "literalpath", "fullname": "path"}
	specs = map[string]spec{
		"remove-item": {values: []string{"path", "literalpath", "filter", "include", "exclude", "credential", "stream"},
			switches: []string{"recurse", "force"}, pos: []string{"path"}, alias: itemAlias},
		"move-item": {values: []string{"path", "literalpath", "destination", "filter", "include", "exclude", "credential"},
			switches: []string{"force", "passthru"}, pos: []string{"path", "destination"}, alias: itemAlias},
		"copy-item": {values: []string{"path", "literalpath", "destination", "filter", "include", "exclude", "credential", "tosession", "fromsession"},
			switches: []string{"recurse", "force", "container", "passthru"}, pos: []string{"path", "destination"}, alias: itemAlias},
		"rename-item": {values: []string{"path", "literalpath", "newname", "credential"},
			switches: []string{"force", "passthru"}, pos: []string{"path", "newname"}, alias: itemAlias},
		"set-content": {values: []string{"path", "literalpath", "value", "encoding", "filter", "include", "exclude", "credential", "stream"},
			switches: []string{"nonewline", "force", "passthru", "asbytestream"}, pos: []string{"path", "value"}, alias: itemAlias},
		"add-content": {values: []string{"path", "literalpath", "value", "encoding", "filter", "include", "exclude", "credential", "stream"},
			switches: []string{"nonewline", "force", "passthru", "asbytestream"}, pos: []string{"path", "value"}, alias: itemAlias},
		"clear-content": {values: []string{"path", "literalpath", "filter", "include", "exclude", "credential", "stream"},
			switches: []string{"force"}, pos: []string{"path"}, alias: itemAlias},
		"out-file": {values: []string{"filepath", "literalpath", "encoding", "width", "inputobject"},
			switches: []string{"append", "force", "noclobber", "nonewline"}, pos: []string{"filepath", "encoding"},
			alias: map[string]string{"path": "filepath", "lp": "literalpath", "pspath": "literalpath"}},
		"tee-object": {values: []string{"filepath", "literalpath", "variable", "inputobject", "encoding"},
			switches: []string{"append"}, pos: []string{"filepath"}, alias: map[string]string{"path": "filepath", "lp": "literalpath", "pspath": "literalpath"}},
		"new-item": {values: []string{"path", "name", "itemtype", "value", "credential"},
			switches: []string{"force"}, pos: []string{"path"}, alias: map[string]string{"type": "itemtype", "target": "value"}},
		"set-location":      {values: []string{"path", "literalpath", "stackname"}, switches: []string{"passthru"}, pos: []string{"path"}, alias: itemAlias},
		"push-location":     {values: []string{"path", "literalpath", "stackname"}, switches: []string{"passthru"}, pos: []string{"path"}, alias: itemAlias},
		"pop-location":      {values: []string{"stackname"}, switches: []string{"passthru"}},
		"invoke-expression": {values: []string{"command"}, pos: []string{"command"}},
		"invoke-command": {values: []string{"scriptblock", "filepath", "computername", "session", "argumentlist", "inputobject", "credential", "jobname", "vmname", "hostname", "containerid"},
			switches: []string{"asjob", "nonewscope", "hidecomputername"}, pos: []string{"scriptblock"},
			alias: map[string]string{"command": "scriptblock", "args": "argumentlist", "cn": "computername"}},
		"start-process": {values: []string{"filepath", "argumentlist", "workingdirectory", "verb", "windowstyle", "credential",
			"redirectstandardoutput", "redirectstandarderror", "redirectstandardinput", "environment"},
			switches: []string{"wait", "nonewwindow", "passthru", "loaduserprofile", "usenewenvironment"}, pos: []string{"filepath", "argumentlist"},
			alias: map[string]string{"args": "argumentlist", "lup": "loaduserprofile", "nnw": "nonewwindow", "rso": "redirectstandardoutput", "rse": "redirectstandarderror", "rsi": "redirectstandardinput", "path": "filepath"}},
		"foreach-object": {values: []string{"process", "begin", "end", "membername", "argumentlist", "inputobject", "remainingscripts", "throttlelimit", "timeoutseconds"},
			switches: []string{"parallel", "asjob"}, pos: []string{"process"}},
		"get-childitem": {values: []string{"path", "literalpath", "filter", "include", "exclude", "depth", "attributes"},
			switches: []string{"recurse", "force", "name", "file", "directory", "hidden", "readonly", "system", "followsymlink"},
			pos:      []string{"path", "filter"}, alias: map[string]string{"lp": "literalpath", "pspath": "literalpath", "s": "recurse", "ad": "directory", "af": "file", "ah": "hidden"}},
		"get-item": {values: []string{"path", "literalpath", "filter", "include", "exclude", "stream"}, switches: []string{"force"}, pos: []string{"path"}, alias: itemAlias},
	}
	writes = map[string]bool{"remove-item": true, "move-item": true, "copy-item": true, "rename-item": true,
		"set-content": true, "add-content": true, "clear-content": true, "out-file": true, "tee-object": true, "new-item": true}
	writers = map[string]func(t *translator, b *bound, c *Cmd, prev []*Cmd) string{
		"remove-item":   (*translator).removeItem,
		"move-item":     (*translator).moveItem,
		"copy-item":     (*translator).copyItem,
		"rename-item":   (*translator).renameItem,
		"set-content":   func(t *translator, b *bound, c *Cmd, prev []*Cmd) string { return t.setContent(b, ">") },
		"add-content":   func(t *translator, b *bound, c *Cmd, prev []*Cmd) string { return t.setContent(b, ">>") },
		"clear-content": func(t *translator, b *bound, c *Cmd, prev []*Cmd) string { return t.clearContent(b) },
		"out-file":      (*translator).outFile,
		"tee-object":    (*translator).outFile,
		"new-item":      (*translator).newItem,
	}
	safeMethods = map[string]bool{
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
	readTypes = map[string]bool{
		"math": true, "convert": true, "string": true, "text.encoding": true, "io.path": true, "datetime": true,
		"guid": true, "char": true, "int": true, "int32": true, "int64": true, "double": true, "regex": true,
		"text.regularexpressions.regex": true, "console": true, "timespan": true, "bitconverter": true,
		"linq.enumerable": true, "array": true, "uri": true, "version": true, "bool": true, "boolean": true,
		"net.dns": true, "web.httputility": true, "runtime.interopservices.runtimeinformation": true,
		"threading.thread": true, "collections.generic.list[string]": true, "string[]": true,
	}
	readStatics = map[string]bool{
		"io.file::exists": true, "io.file::readalltext": true, "io.file::readalllines": true, "io.file::readallbytes": true,
		"io.file::getattributes": true, "io.file::getlastwritetime": true, "io.file::readlines": true,
		"io.directory::exists": true, "io.directory::getfiles": true, "io.directory::getdirectories": true,
		"io.directory::enumeratefiles": true, "io.directory::enumeratedirectories": true,
		"io.directory::getcurrentdirectory": true, "io.directory::getfilesystementries": true,
		"environment::getenvironmentvariable": true, "environment::getfolderpath": true,
		"environment::getenvironmentvariables": true, "environment::getcommandlineargs": true,
	}
	keywords = map[string]bool{
		"if": true, "elseif": true, "else": true, "foreach": true, "for": true, "while": true, "do": true,
		"until": true, "switch": true, "try": true, "catch": true, "finally": true, "trap": true,
		"function": true, "filter": true, "workflow": true, "param": true, "begin": true, "process": true,
		"end": true, "return": true, "break": true, "continue": true, "throw": true, "exit": true,
		"class": true, "enum": true, "using": true, "data": true, "dynamicparam": true, "clean": true,
	}
	escapes = map[rune]string{'0': "\x00", 'a': "\a", 'b': "\b", 'e': "\x1b", 'f': "\f", 'n': "\n", 'r': "\r", 't': "\t", 'v': "\v"}
	pwshValueOpts = []string{"executionpolicy", "windowstyle", "inputformat", "outputformat", "configurationname",
		"workingdirectory", "version", "psconsolefile", "settingsfile", "custompipename", "encodedarguments"}
	pwshSwitches = []string{"noprofile", "noninteractive", "nologo", "noexit", "sta", "mta", "login", "interactive",
		"noprofileloadtime", "help"}
	cmdReads = map[string]bool{"echo": true, "dir": true, "type": true, "ver": true, "where": true, "cls": true,
		"vol": true, "rem": true, "title": true, "findstr": true, "find": true, "more": true, "tree": true,
		"whoami": true, "hostname": true, "tasklist": true, "timeout": true, "pause": true, "exit": true}
	moduleName = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_.]*$`)
	verbNoun = regexp.MustCompile(`^[a-z]+-[a-z][a-z0-9]*$`)
	readVerbs = map[string]bool{
		"get": true, "test": true, "find": true, "select": true, "measure": true, "format": true, "show": true,
		"resolve": true, "search": true, "compare": true, "trace": true, "wait": true, "watch": true, "read": true,
		"convertto": true, "convertfrom": true, "join": true, "split": true, "sort": true, "group": true,
		"write": true, "out": true, "confirm": true, "debug": true, "ping": true, "receive": true,
	}
	ident = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	setsVariables = map[string]bool{"set-variable": true, "sv": true, "set": true, "new-variable": true, "nv": true,
		"clear-variable": true, "clv": true, "remove-variable": true, "rv": true}
	web = map[string]bool{"invoke-webrequest": true, "iwr": true, "invoke-restmethod": true, "irm": true, "curl": true, "wget": true}
	approvedVerbs = map[string]bool{}
	for _, v := range strings.Fields(verbList) {
		approvedVerbs[v] = true
	}
})

// verbList is PowerShell's approved verbs (Get-Verb).
const verbList = `add clear close copy enter exit find format get hide join lock move new open
	optimize pop push redo remove rename reset resize search select set show skip split step switch undo
	unlock watch connect disconnect read receive send write backup checkpoint compare compress convert
	convertfrom convertto dismount edit expand export group import initialize limit merge mount out publish
	restore save sync unpublish update approve assert build complete confirm deny deploy disable enable
	install invoke register request restart resume start stop submit suspend uninstall unregister wait
	debug measure ping repair resolve test trace block grant protect revoke unblock unprotect use`

// lookVerbs are the verbs a cmdlet ralph knows may start with: the
// approved ones and those of ForEach-Object, Where-Object, Tee-Object and
// Sort-Object.
var lookVerbs = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{"foreach": true, "where": true, "tee": true, "sort": true}
	for _, v := range strings.Fields(verbList) {
		m[v] = true
	}
	return m
})

// maybe reports whether src may read as PowerShell at all: it holds a
// .NET call (::) or a word VERB-Noun with a verb of lookVerbs. Looks
// parses src only then, so a Bash call pays nothing more.
func maybe(src string) bool {
	if strings.Contains(src, "::") {
		return true
	}
	letter := func(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }
	for i := 1; i+1 < len(src); i++ {
		if src[i] != '-' || !letter(src[i-1]) || !letter(src[i+1]) {
			continue
		}
		j := i
		for j > 0 && letter(src[j-1]) {
			j--
		}
		if lookVerbs()[strings.ToLower(src[j:i])] {
			return true
		}
	}
	return false
}
