package shell

import (
	"sync"
)

// tables builds the package's tables on first use, so that a hook call
// that reads no shell (a Read, an Edit) does not pay at start-up for maps
// it never consults. Every exported function and method that may reach
// one calls it first.
var tables = sync.OnceFunc(func() {
	codeevalTables()
	wrapperTables()
	lookupTables()
	nixTables()
	builtinOnly = map[string]bool{
		"echo": true, "printf": true, "true": true, "false": true, ":": true, "test": true, "[": true,
		"export": true, "unset": true, "local": true, "declare": true, "typeset": true, "readonly": true,
		"set": true, "shift": true, "cd": true, "pushd": true, "popd": true, "dirs": true, "pwd": true,
		"alias": true, "unalias": true, "type": true, "hash": true, "let": true, "read": true, "return": true,
		"exit": true, "shopt": true, "umask": true, "wait": true, "jobs": true,
	}
	codeFlag = map[string]string{"python": "c", "node": "e", "perl": "e", "ruby": "e", "php": "r", "lua": "e", "awk": "e"}
	tablesAfterOps()
})

// opsTable is the interpreters' operations by language (op), built on its
// first use apart from the other tables: only interpreter code a command
// runs reads it, and its hundred entries and their argument lists were
// most of what tables built for every Bash call.
var opsTable = func() map[string][]op { return opsLazy.get() }

var opsLazy = lazy[map[string][]op]{f: func() map[string][]op {
	return map[string][]op{
		"python": {
			// The module may be named (shutil.rmtree), imported from
			// (from shutil import rmtree) or fetched (__import__('shutil').rmtree).
			{re: `(?:(?:\bshutil|__import__\(\s*['"]shutil['"]\s*\))\.|(?:^|[^.\w]))rmtree\s*\(`, argv: []string{"rm", "-r", "-f"}, paths: 1},
			{re: `(?:\bos|__import__\(\s*['"]os['"]\s*\))\.(?:remove|unlink)\s*\(`, argv: []string{"rm", "-f"}, paths: 1},
			{re: `(?:\bos|__import__\(\s*['"]os['"]\s*\))\.(?:rmdir|removedirs)\s*\(`, argv: []string{"rmdir"}, paths: 1},
			{re: `\b(?:shutil\.move|os\.rename|os\.replace|os\.renames)\s*\(`, argv: []string{"mv"}, paths: 2},
			{re: `\b(?:shutil\.copy2?|shutil\.copyfile)\s*\(`, argv: []string{"cp"}, paths: 2},
			{re: `(?:\bos|__import__\(\s*['"]os['"]\s*\))\.(?:symlink|link)\s*\(`, argv: []string{"ln", "-s"}, paths: 2},
			{re: `\bopen\s*\(`, argv: []string{"tee"}, paths: pathOpen},
			{re: `\bfileinput\.(?:input|FileInput)\s*\(`, argv: []string{"tee"}, paths: pathInplace},
			{re: `(?:(?:\bos|__import__\(\s*['"]os['"]\s*\))\.|(?:^|[^.\w]))(?:system|popen)\s*\(|\b(?:subprocess\.)?(?:run|call|check_call|check_output|Popen|getoutput|getstatusoutput)\s*\(\s*[\[\'"]`, shell: true},
			{re: `\b(?:Path|PurePath|PosixPath|pathlib\.Path)\s*\(`, argv: []string{"rm", "-f"}, paths: pathObject},
			{re: `(?:\bos|__import__\(\s*['"]os['"]\s*\))\.truncate\s*\(`, argv: []string{"tee"}, paths: 1},
			{re: `(?:\bos|__import__\(\s*['"]os['"]\s*\))\.open\s*\(`, argv: []string{"tee"}, paths: pathOsOpen},
			{re: `\bos\.(?:exec[lv]p?e?|posix_spawnp?)\s*\(|\bpty\.spawn\s*\(`, shell: true},
			{re: `\bos\.spawn[lv]p?e?\s*\(\s*[\w.]+\s*,`, shell: true},
			{re: `\b(?:shutil\.copytree|(?:dir_util\.)?copy_tree)\s*\(`, argv: []string{"cp", "-r"}, paths: pathTreeCopy},
			{re: `\bshutil\.unpack_archive\s*\(`, paths: pathUnpack},
		},
		"node": {
			{re: `\b(?:rmSync|rmdirSync|removeSync|emptyDirSync|rimrafSync)\s*\(`, argv: []string{"rm", "-r", "-f"}, paths: 1},
			{re: `(?:\b(?:fs|fsp|fse|fsExtra|promises)|require\(\s*['"](?:node:)?fs(?:/promises|-extra)?['"]\s*\))\.(?:rm|rmdir|remove|emptyDir)\s*\(`, argv: []string{"rm", "-r", "-f"}, paths: 1},
			{re: `\brimraf(?:\.sync)?\s*\(`, argv: []string{"rm", "-r", "-f"}, paths: 1},
			{re: `\b(?:deleteSync|deleteAsync|rimrafSync|del\.sync)\s*\(|\brequire\(\s*['"](?:del|rimraf)['"]\s*\)(?:\.(?:sync|deleteSync|deleteAsync|rimraf|rimrafSync))?\s*\(`, argv: []string{"rm", "-r", "-f"}, paths: 1},
			{re: `\b(?:shell|shelljs)\.rm\s*\(|\brequire\(\s*['"]shelljs['"]\s*\)\.rm\s*\(`, argv: []string{"rm"}, paths: 4},
			{re: `\bunlinkSync\s*\(|(?:\b(?:fs|fsp|fse|fsExtra|promises)|require\(\s*['"](?:node:)?fs(?:/promises|-extra)?['"]\s*\))\.unlink\s*\(`, argv: []string{"rm", "-f"}, paths: 1},
			{re: `\b(?:writeFileSync|truncateSync)\s*\(|(?:\b(?:fs|fsp|fse|fsExtra|promises)|require\(\s*['"](?:node:)?fs(?:/promises|-extra)?['"]\s*\))\.(?:writeFile|truncate)\s*\(`, argv: []string{"tee"}, paths: 1},
			{re: `\b(?:renameSync|moveSync)\s*\(|(?:\b(?:fs|fsp|fse|fsExtra|promises)|require\(\s*['"](?:node:)?fs(?:/promises|-extra)?['"]\s*\))\.(?:rename|move)\s*\(`, argv: []string{"mv"}, paths: 2},
			{re: `\bcopyFileSync\s*\(|(?:\b(?:fs|fsp|fse|fsExtra|promises)|require\(\s*['"](?:node:)?fs(?:/promises|-extra)?['"]\s*\))\.copyFile\s*\(`, argv: []string{"cp"}, paths: 2},
			{re: `\b(?:cpSync|copySync)\s*\(|(?:\b(?:fs|fsp|fse|fsExtra|promises)|require\(\s*['"](?:node:)?fs(?:/promises|-extra)?['"]\s*\))\.(?:cp|copy)\s*\(`, argv: []string{"cp", "-r"}, paths: pathTreeCopy},
			{re: `\bBun\.write\s*\(|\bDeno\.(?:writeTextFile|writeFile|truncate)(?:Sync)?\s*\(`, argv: []string{"tee"}, paths: 1},
			{re: `\bDeno\.rename(?:Sync)?\s*\(`, argv: []string{"mv"}, paths: 2},
			{re: `\bDeno\.copyFile(?:Sync)?\s*\(`, argv: []string{"cp"}, paths: 2},
			{re: `\b(?:execSync|exec|execFileSync|execFile|spawnSync|spawn)\s*\(`, shell: true},
			{re: `\bDeno\.remove\s*\(`, argv: []string{"rm", "-r", "-f"}, paths: 1},
			{re: `\b(?:symlinkSync|linkSync|ensureSymlinkSync|ensureLinkSync)\s*\(|\b(?:fs|fsp|fse|promises)\.(?:symlink|link)\s*\(|\bDeno\.(?:symlink|link)(?:Sync)?\s*\(`, argv: []string{"ln", "-s"}, paths: 2},
			{re: `\bBun\.\$\s*` + "`", quoted: true},
		},
		"perl": {
			{re: `\b(?:File::Path::)?(?:rmtree|remove_tree)\b\s*\(?`, argv: []string{"rm", "-r", "-f"}, paths: 1},
			{re: `\bunlink\b\s*\(?`, argv: []string{"rm", "-f"}, paths: 1},
			{re: `\brmdir\b\s*\(?`, argv: []string{"rmdir"}, paths: 1},
			{re: `(?:^|[^\w:>$])(?:symlink|link)\b\s*\(?`, argv: []string{"ln", "-s"}, paths: 2},
			{re: `(?:^|[^\w:>$])rename\b\s*\(?`, argv: []string{"mv"}, paths: 2},
			{re: `\b(?:File::Copy::)?(?:move|mv)\s*\(`, argv: []string{"mv"}, paths: 2},
			{re: `\b(?:File::Copy::)?(?:copy|cp)\s*\(`, argv: []string{"cp"}, paths: 2},
			{re: `(?:^|[^\w:>$])open\b\s*\(?`, argv: []string{"tee"}, paths: pathPerlOpen},
			{re: `\b(?:system|exec)\b\s*\(?`, shell: true},
			{re: `(?:\bqx\s*[{(/]|` + "`" + `)`, quoted: true},
		},
		"ruby": {
			{re: `\bFileUtils\.(?:rm_rf|rm_r|remove_dir|remove_entry|remove_entry_secure|rmtree)\b\s*\(?`, argv: []string{"rm", "-r", "-f"}, paths: 1},
			{re: `\bFileUtils\.(?:rm|rm_f|remove|safe_unlink)\b\s*\(?`, argv: []string{"rm", "-f"}, paths: 1},
			{re: `\b(?:File|Pathname)\.(?:delete|unlink)\s*\(`, argv: []string{"rm", "-f"}, paths: 1},
			{re: `\bDir\.(?:rmdir|delete|unlink)\s*\(`, argv: []string{"rmdir"}, paths: 1},
			{re: `\bFileUtils\.(?:mv|move)\b\s*\(?`, argv: []string{"mv"}, paths: 2},
			{re: `\bFile\.write\s*\(`, argv: []string{"tee"}, paths: 1},
			{re: `\b(?:IO\.write|File\.truncate)\s*\(`, argv: []string{"tee"}, paths: 1},
			{re: `\b(?:File|IO)\.open\s*\(`, argv: []string{"tee"}, paths: pathOpen},
			{re: `\bFile\.rename\s*\(`, argv: []string{"mv"}, paths: 2},
			{re: `\b(?:Open3\.(?:capture[23]e?|popen[23]e?|pipeline\w*)|IO\.popen)\s*\(`, shell: true},
			{re: `\bFileUtils\.(?:cp|copy|copy_file|install)\b\s*\(?`, argv: []string{"cp"}, paths: 2},
			{re: `\bFileUtils\.(?:cp_r|copy_entry)\b\s*\(?`, argv: []string{"cp", "-r"}, paths: 2},
			{re: `\b(?:File\.(?:symlink|link)|FileUtils\.(?:ln_sf|ln_s|ln))\b\s*\(?`, argv: []string{"ln", "-s"}, paths: 2},
			{re: `\b(?:system|exec|spawn)\b\s*\(?`, shell: true},
			{re: `(?:%x\s*[{(]|` + "`" + `)`, quoted: true},
		},
		"awk": {
			{re: `\bsystem\s*\(`, shell: true},
			{re: `"[^"\n]*"\s*\|\s*getline\b`, getline: true},
			{re: `\bprintf?\b[^;}\n>|]*>>?\s*`, argv: []string{"tee"}, paths: pathLiteral},
		},
		"lua": {
			{re: `\b(?:os\.execute|io\.popen)\s*\(`, shell: true},
			{re: `\bos\.remove\s*\(`, argv: []string{"rm", "-f"}, paths: 1},
			{re: `\bos\.rename\s*\(`, argv: []string{"mv"}, paths: 2},
			{re: `\bio\.open\s*\(`, argv: []string{"tee"}, paths: pathOpen},
		},
		"go": {
			{re: `\bos\.RemoveAll\s*\(`, argv: []string{"rm", "-r", "-f"}, paths: 1},
			{re: `\b(?:os\.Remove|(?:syscall|unix)\.Unlink)\s*\(`, argv: []string{"rm", "-f"}, paths: 1},
			{re: `\b(?:syscall|unix)\.Rmdir\s*\(`, argv: []string{"rmdir"}, paths: 1},
			{re: `\bos\.(?:WriteFile|Truncate|Create)\s*\(`, argv: []string{"tee"}, paths: 1},
			{re: `\bos\.Rename\s*\(`, argv: []string{"mv"}, paths: 2},
			{re: `\bos\.(?:Symlink|Link)\s*\(`, argv: []string{"ln", "-s"}, paths: 2},
			{re: `\bexec\.Command\s*\(|\bexec\.CommandContext\s*\(\s*[\w.]+(?:\(\))?\s*,|\b(?:syscall|unix)\.Exec\s*\(`, shell: true},
		},
		"php": {
			{re: `\bunlink\s*\(`, argv: []string{"rm", "-f"}, paths: 1},
			{re: `\brmdir\s*\(`, argv: []string{"rmdir"}, paths: 1},
			{re: `\b(?:system|exec|shell_exec|passthru|popen|proc_open)\s*\(`, shell: true},
			{re: `\brename\s*\(`, argv: []string{"mv"}, paths: 2},
			{re: `\bcopy\s*\(`, argv: []string{"cp"}, paths: 2},
			{re: `\bfile_put_contents\s*\(`, argv: []string{"tee"}, paths: 1},
			{re: `\bfopen\s*\(`, argv: []string{"tee"}, paths: pathOpen},
		},
	}
}}

// tablesAfterOps builds the tables that follow ops (see tables).
func tablesAfterOps() {
	quick = []string{"rm", "unlink", "remove", "move", "rename", "replace", "open", "system", "popen",
		"subprocess", "exec", "spawn", "Path", "write", "truncate", "delete", "rmdir", "rimraf", "emptyDir",
		"copy", "link", "`", "qx", "%x", "$", "getline", "cp", "put_contents", "print", "unpack",
		"Remove", "Unlink", "Rmdir", "Write", "Truncate", "Create", "Rename", "Link", "Command", "Exec", "fileinput"}
	shells = map[string]bool{"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "mksh": true, "ash": true, "fish": true}
	pathCalls = []string{"Path", "pathlib.Path", "PosixPath", "PurePath", "pathlib.PurePath", "os.path.abspath",
		"os.path.realpath", "os.path.normpath", "os.path.expanduser", "os.fspath", "str", "path.resolve",
		"path.normalize", "File.expand_path", "Pathname.new", "Pathname", "File.absolute_path", "realpath"}
	joinCalls = []string{"os.path.join", "path.join", "File.join", "path.resolve", "filepath.Join"}
	homeExprs = []string{"Path.home()", "pathlib.Path.home()", "os.homedir()", "require('os').homedir()",
		"Dir.home", "os.environ['HOME']", `os.environ["HOME"]`, "os.getenv('HOME')", `os.getenv("HOME")`,
		"ENV['HOME']", `ENV["HOME"]`, "process.env.HOME", "$ENV{HOME}", "$ENV{'HOME'}", "os.path.expanduser('~')"}
	foreignCode = map[string][]string{
		"rscript": {"-e", "--expr"}, "r": {"-e", ""}, "julia": {"-e", "-E", "--eval", "--print"}, "osascript": {"-e"},
		"emacs": {"--eval", "-eval"}, "emacsclient": {"--eval", "-e"}, "guile": {"-c"}, "racket": {"-e", "--eval"},
		"sbcl": {"--eval"}, "clisp": {"-x"}, "elixir": {"-e", "--eval"}, "erl": {"-eval"}, "scala": {"-e"},
		"groovy": {"-e"}, "clojure": {"-e"}, "clj": {"-e"}, "bb": {"-e"}, "pwsh": {"-c", "-Command", "-command"},
		"powershell": {"-c", "-Command", "-command"}, "nu": {"-c"}, "elvish": {"-c"}, "xonsh": {"-c"},
		"csh": {"-c"}, "tcsh": {"-c"}, "tclsh": {""}, "wish": {""}, "jshell": {""}, "ghci": {"-e"}, "ocaml": {"-e"},
		"swift": {"-e"}, "crystal": {"eval"}, "nim": {"--eval"}, "dart": {""}, "kotlin": {"-e"},
		// Compilers whose program runs now or later, and runners of
		// their own (foreignfile.go's foreignArgs picks what they run).
		"zig": {}, "runghc": {}, "runhaskell": {}, "ghc": {"-e"}, "kotlinc": {"-e", "-expression"},
		"swiftc": {}, "mix": {"-e", "--eval"},
	}
	prefixOpts = map[string][2]string{
		"stdbuf": {"ioe", "input output error"},
		"ionice": {"cnp", "class classdata pid"},
		"time":   {"fo", "format output"},
		"exec":   {"a", ""},
		"strace": {"oeEpsuPSIb", "output"},
		"ltrace": {"oeEpsuSnA", "output"},
	}
	setupTools = map[string]bool{
		"ssh-agent": true, "gpg-agent": true, "keychain": true, "pyenv": true, "rbenv": true, "nodenv": true,
		"goenv": true, "jenv": true, "plenv": true, "direnv": true, "conda": true, "micromamba": true,
		"brew": true, "minikube": true, "docker-machine": true, "opam": true, "zoxide": true, "starship": true,
		"fnm": true, "mise": true, "rtx": true, "asdf": true, "dircolors": true, "luarocks": true,
		"thefuck": true, "atuin": true, "uv": true, "poetry": true, "pipenv": true, "kubectl": true,
		"helm": true, "gh": true, "rustup": true, "cargo": true, "npm": true, "pnpm": true, "deno": true,
	}
	gitCommandVars = []string{"GIT_SSH_COMMAND", "GIT_PROXY_COMMAND", "GIT_EXTERNAL_DIFF", "GIT_PAGER", "GIT_EDITOR", "GIT_SEQUENCE_EDITOR", "GIT_ASKPASS"}
	gitCommandKeys = []string{"core.sshcommand", "core.pager", "core.editor", "core.fsmonitor", "core.askpass", "diff.external",
		"sequence.editor", "gpg.program", "credential.helper", "core.gitproxy", "uploadpack.packobjectshook", "merge.tool",
		"gpg.openpgp.program", "gpg.x509.program", "gpg.ssh.program", "gpg.ssh.defaultkeycommand",
		"core.alternaterefscommand", "sendemail.tocmd", "sendemail.cccmd", "sendemail.headercmd"}
	containerArgOpts = map[string]bool{
		"-v": true, "--volume": true, "-e": true, "--env": true, "-p": true, "--publish": true, "-w": true,
		"--workdir": true, "--name": true, "--network": true, "--net": true, "-u": true, "--user": true,
		"--entrypoint": true, "--mount": true, "--env-file": true, "-l": true, "--label": true,
		"--platform": true, "-m": true, "--memory": true, "--cpus": true, "-h": true, "--hostname": true,
		"--add-host": true, "--device": true, "--cap-add": true, "--cap-drop": true, "--pull": true,
		"--restart": true, "--shm-size": true, "--ulimit": true, "--volumes-from": true, "--tmpfs": true,
		"--security-opt": true, "--dns": true, "--gpus": true, "--ipc": true, "--pid": true, "--log-driver": true,
		"--index": true, // docker compose exec --index N
	}
	kubeValueOpts = map[string]bool{"-n": true, "--namespace": true, "-c": true, "--container": true, "--context": true,
		"--kubeconfig": true, "-f": true, "--filename": true, "--pod-running-timeout": true, "--cluster": true, "--user": true,
		"-s": true, "--server": true, "--token": true, "--as": true}
	goValueFlags = map[string]bool{
		"C": true, "p": true, "asmflags": true, "buildmode": true, "buildvcs": true, "compiler": true, "gccgoflags": true,
		"gcflags": true, "installsuffix": true, "ldflags": true, "mod": true, "modfile": true, "overlay": true, "pgo": true,
		"pkgdir": true, "tags": true, "toolexec": true, "exec": true, "coverpkg": true, "covermode": true, "vettool": true,
		"o": true, "run": true, "skip": true, "bench": true, "count": true, "cpu": true, "timeout": true, "parallel": true,
		"benchtime": true, "coverprofile": true, "cpuprofile": true, "memprofile": true, "blockprofile": true,
		"mutexprofile": true, "trace": true, "outputdir": true, "fuzz": true, "fuzztime": true, "fuzzminimizetime": true,
		"shuffle": true, "list": true, "json": false, "failfast": false,
	}
	npmBuiltins = map[string]bool{"access": true, "add": true, "audit": true, "bin": true, "bugs": true, "cache": true,
		"config": true, "dedupe": true, "deprecate": true, "diff": true, "dist-tag": true, "docs": true, "doctor": true,
		"edit": true, "exec": true, "explain": true, "explore": true, "fund": true, "help": true, "info": true, "init": true,
		"link": true, "login": true, "logout": true, "ls": true, "list": true, "outdated": true, "owner": true, "pack": true,
		"ping": true, "prefix": true, "profile": true, "prune": true, "publish": true, "rebuild": true, "remove": true,
		"rm": true, "uninstall": true, "search": true, "set": true, "shrinkwrap": true, "star": true, "team": true,
		"token": true, "unpublish": true, "update": true, "upgrade": true, "up": true, "version": true, "view": true,
		"whoami": true, "why": true, "dlx": true, "x": true, "create": true, "global": true, "workspace": true,
		"workspaces": true, "plugin": true, "node": true, "import": true, "store": true, "patch": true, "fetch": true,
		"setup": true, "env": true, "licenses": true, "root": true, "query": true, "pm": true}
	composeValueOpts = map[string]bool{"-f": true, "--file": true, "-p": true, "--project-name": true,
		"--project-directory": true, "--profile": true, "--env-file": true, "--ansi": true, "--parallel": true, "--progress": true}
	shellVars = map[string]bool{
		"PROMPT_COMMAND": true, "PS0": true, "PS1": true, "PS2": true, "PS4": true, "BASH_ENV": true,
		"ENV": true, "PATH": true, "IFS": true, "CDPATH": true, "GLOBIGNORE": true, "BASH_ALIASES": true,
		"BASH_CMDS": true, "SHELLOPTS": true, "BASHOPTS": true, "LD_PRELOAD": true, "LD_LIBRARY_PATH": true,
		"BASH_LOADABLES_PATH": true, "EXECIGNORE": true, "HOME": true, "TMOUT": true,
		// zsh's (zsh.go)
		"PROMPT": true, "PROMPT2": true, "PROMPT3": true, "PROMPT4": true, "RPROMPT": true, "RPS1": true,
		"RPS2": true, "path": true, "fpath": true, "FPATH": true, "module_path": true, "MODULE_PATH": true,
		"NULLCMD": true, "READNULLCMD": true, "ZDOTDIR": true, "PERIOD": true, "cdpath": true,
		"functions": true, "aliases": true, "galiases": true, "saliases": true, "commands": true,
		"options": true, "nameddirs": true, "chpwd_functions": true, "precmd_functions": true,
		"preexec_functions": true, "periodic_functions": true, "zshexit_functions": true,
	}
	harmlessSet = map[string]bool{
		"e": true, "u": true, "x": true, "v": true, "a": true, "C": true, "b": true, "h": true, "m": true,
		"E": true, "T": true, "pipefail": true, "errexit": true, "nounset": true, "xtrace": true,
		"verbose": true, "noclobber": true, "allexport": true, "notify": true, "errtrace": true,
		"functrace": true, "monitor": true, "hashall": true,
	}
	interpreters = map[string]bool{"node": true, "ruby": true, "irb": true, "perl": true, "php": true,
		"lua": true, "R": true, "julia": true, "deno": true, "bun": true, "ghci": true, "tclsh": true,
		"psql": true, "mysql": true, "mariadb": true, "sqlite3": true, "mongosh": true, "mongo": true,
		"redis-cli": true, "sqlcmd": true, "clickhouse-client": true, "bc": true, "gdb": true, "lldb": true,
		"ftp": true, "sftp": true, "telnet": true, "expect": true, "csh": true, "tcsh": true}
	editors = map[string]bool{"ed": true, "ex": true, "vi": true, "vim": true, "nvim": true, "nano": true,
		"emacs": true, "pico": true, "joe": true, "mg": true}
	codeFlags = map[string]bool{"-c": true, "-e": true, "-E": true, "-m": true, "-f": true, "-r": true,
		"--eval": true, "--command": true, "--execute": true, "--file": true, "-p": true, "--print": true,
		"-x": true, "--batch": true, "--version": true, "-V": true, "--help": true, "-h": true, "-v": true}
	knownVars = []string{"HOME", "TMPDIR", "TMP", "TEMP", "CLAUDE_PROJECT_DIR", "USER", "LOGNAME", "GIT_SSH_COMMAND", "GIT_SSH"}
	composerEvents = map[string][]string{
		"install":        {"pre-install-cmd", "post-install-cmd", "post-autoload-dump", "pre-autoload-dump"},
		"i":              {"pre-install-cmd", "post-install-cmd", "post-autoload-dump", "pre-autoload-dump"},
		"update":         {"pre-update-cmd", "post-update-cmd", "post-autoload-dump", "pre-autoload-dump"},
		"u":              {"pre-update-cmd", "post-update-cmd", "post-autoload-dump", "pre-autoload-dump"},
		"upgrade":        {"pre-update-cmd", "post-update-cmd", "post-autoload-dump", "pre-autoload-dump"},
		"require":        {"pre-update-cmd", "post-update-cmd", "post-autoload-dump", "pre-autoload-dump"},
		"remove":         {"pre-update-cmd", "post-update-cmd", "post-autoload-dump", "pre-autoload-dump"},
		"dump-autoload":  {"pre-autoload-dump", "post-autoload-dump"},
		"dumpautoload":   {"pre-autoload-dump", "post-autoload-dump"},
		"create-project": {"post-root-package-install", "post-create-project-cmd"},
	}
	composerBuiltins = map[string]bool{
		"about": true, "archive": true, "audit": true, "browse": true, "home": true, "bump": true,
		"check-platform-reqs": true, "clear-cache": true, "clearcache": true, "config": true, "depends": true,
		"why": true, "diagnose": true, "exec": true, "fund": true, "global": true, "help": true, "init": true,
		"licenses": true, "list": true, "outdated": true, "prohibits": true, "why-not": true, "reinstall": true,
		"search": true, "self-update": true, "selfupdate": true, "show": true, "info": true, "status": true,
		"suggests": true, "validate": true,
	}
	tmuxShell = map[string]string{
		"new-session": "cefFnstxy", "new": "cefFnstxy",
		"new-window": "cefFnt", "neww": "cefFnt",
		"split-window": "celtFp", "splitw": "celtFp",
		"respawn-pane": "cet", "respawnp": "cet",
		"respawn-window": "cet", "respawnw": "cet",
		"display-popup": "bcdehsStTwxy", "popup": "bcdehsStTwxy",
		"run-shell": "cdt", "run": "cdt",
		"pipe-pane": "t", "pipep": "t",
	}
	tmuxOpaque = map[string]bool{
		"source-file": true, "source": true, "if-shell": true, "if": true, "set-hook": true,
		"bind-key": true, "bind": true, "command-prompt": true, "confirm-before": true, "confirm": true,
	}
	pathPrinters = map[string][]string{"which": nil, "pwd": nil, "dirname": nil, "basename": nil, "realpath": nil,
		"readlink": nil, "mktemp": nil, "uname": nil, "nproc": nil, "getconf": nil,
		"command": {"-v", "-V"}, "type": {"-p", "-P"}, "go": {"env"}, "npm": {"bin", "prefix", "root"},
		"yarn": {"bin"}, "pnpm": {"bin", "root"}, "git": {"rev-parse", "--exec-path"}, "brew": {"--prefix"},
		"xcrun": {"--find", "-f", "--show-sdk-path"}, "rustc": {"--print"}, "rustup": {"which"},
		"pyenv": {"which", "prefix", "root"}, "rbenv": {"which", "prefix", "root"}, "nodenv": {"which", "prefix", "root"},
		"asdf": {"which", "where"}, "mise": {"which", "where"}}
	zshFiles = map[string]string{"zf_rm": "rm", "zf_rmdir": "rmdir", "zf_mv": "mv", "zf_ln": "ln", "zf_chmod": "chmod",
		"zf_chown": "chown", "zf_chgrp": "chgrp", "zf_mkdir": "mkdir"}
	historyFile = map[string]bool{"-p": true, "-P": true, "-R": true, "-W": true, "-A": true, "-I": true}
	zshRiskyOptions = map[string]string{
		"extendedglob":  "^, ~ and # in later words are patterns (rm -rf ^src deletes everything but src)",
		"braceccl":      "{abc} in later words expands to each letter",
		"globstarshort": "**.go in later words matches through every directory",
		"promptsubst":   "prompts and print -P run the $(…) in their text",
		"globsubst":     "the value of a later $var is a pattern, whose glob qualifiers may run code",
	}
	zshSpecialNames = map[string]string{
		"functions": "defines a function", "dis_functions": "defines a function",
		"aliases": "defines an alias", "dis_aliases": "defines an alias", "galiases": "defines a global alias",
		"dis_galiases": "defines a global alias", "saliases": "defines a suffix alias", "dis_saliases": "defines a suffix alias",
		"commands": "sets the program a command name runs", "options": "sets an option", "nameddirs": "names a directory",
		"mapfile": "writes a file", "NULLCMD": "sets the command a redirection alone runs",
		"READNULLCMD": "sets the command a redirection alone runs", "fpath": "sets where functions are read from", "FPATH": "sets where functions are read from",
		"module_path": "sets where modules are loaded from", "MODULE_PATH": "sets where modules are loaded from",
		"chpwd_functions": "sets functions zsh calls by itself", "precmd_functions": "sets functions zsh calls by itself",
		"preexec_functions": "sets functions zsh calls by itself", "periodic_functions": "sets functions zsh calls by itself",
		"zshexit_functions": "sets functions zsh calls by itself", "zshaddhistory_functions": "sets functions zsh calls by itself",
		"zsh_directory_name_functions": "sets functions zsh calls by itself",
	}
}
