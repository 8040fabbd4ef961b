package shell

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// childEnv makes the test binary analyse the command line it holds and
// exit (see TestMain), so a runaway analysis can be killed.
const childEnv = "RALPH_SHELL_TEST_ANALYZE"

func TestMain(m *testing.M) {
	tables() // the unit tests call what the exported functions reach after it
	if src, ok := os.LookupEnv(childEnv); ok {
		if name, ok := strings.CutPrefix(src, "@"); ok { // too long for the environment
			data, err := os.ReadFile(name)
			if err != nil {
				panic(err)
			}
			src = string(data)
		}
		a := testAnalyzer().Analyze(src, "/proj")
		fmt.Println(len(a.Cmds))
		if os.Getenv(childOpsEnv) != "" {
			fmt.Println("ops built:", opsLazy.valid)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// testEnv is the environment the hook knows: HOME and TMPDIR.
func testEnv(name string) string {
	switch name {
	case "HOME":
		return "/home/u"
	case "TMPDIR":
		return "/tmp"
	}
	return ""
}

func testAnalyzer() *Analyzer { return &Analyzer{Env: testEnv} }

// render shows a command as "name arg arg [via a, b]": an argument's values
// joined by "|", "?raw" for a dynamic word and "<input>" for the argument
// filled from Cmd.Input.
func render(c *Cmd) string {
	var b strings.Builder
	b.WriteString(c.Name)
	for _, a := range c.Args {
		b.WriteByte(' ')
		b.WriteString(renderWord(a))
	}
	if len(c.Via) > 0 {
		b.WriteString(" [via " + strings.Join(c.Via, ", ") + "]")
	}
	return b.String()
}

func renderWord(w Word) string {
	switch {
	case w.FromInput:
		return "<input>"
	case w.Dynamic:
		return "?" + w.Raw
	}
	return strings.Join(w.Values, "|")
}

func renderAll(a *Analysis) []string {
	out := []string{}
	for _, c := range a.Cmds {
		out = append(out, render(c))
	}
	return out
}

// TestAnalyze lists, for each command line, every program it runs, with
// its arguments and what it was found inside.
func TestAnalyze(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{"plain", "rm -rf build", []string{"rm -rf build"}},
		{"empty", "", []string{}},
		{"comment", "# rm -rf /", []string{}},

		// Wrappers.
		{"sudo -u", "sudo -u x rm -rf build", []string{"rm -rf build [via sudo]"}},
		{"sudo glued options", "sudo -iu root rm -rf build", []string{"rm -rf build [via sudo]"}},
		{"sudo --", "sudo -- rm -rf build", []string{"rm -rf build [via sudo]"}},
		{"env -i A=1", "env -i A=1 rm -rf build", []string{"rm -rf build [via env]"}},
		{"env --", "env -- rm -rf build", []string{"rm -rf build [via env]"}},
		{"env -S", "env -S 'rm -rf build'", []string{"rm -rf build [via env -S]"}},
		{"env -S glued", "env -S'rm -rf build'", []string{"rm -rf build [via env -S]"}},
		{"env -iS glued", "env -iS'rm -rf build'", []string{"rm -rf build [via env -S]"}},
		{"env -iu NAME", "env -iu X rm -rf build", []string{"rm -rf build [via env]"}},
		{"env -iC DIR", "env -iC /tmp rm -rf build", []string{"rm -rf build [via env]"}},
		{"setpriv", "setpriv --reuid 0 rm -rf build", []string{"setpriv --reuid 0 rm -rf build", "rm -rf build [via setpriv]"}},
		{"ssh-agent", "ssh-agent -t 60 rm -rf build", []string{"ssh-agent -t 60 rm -rf build", "rm -rf build [via ssh-agent]"}},
		{"linux64", "linux64 -R rm -rf build", []string{"linux64 -R rm -rf build", "rm -rf build [via linux64]"}},
		{"nsenter -m", "nsenter -t 1 -m rm -rf build", []string{"nsenter -t 1 -m rm -rf build", "rm -rf build [via nsenter]"}},
		{"runcon context", "runcon ctx rm -rf build", []string{"runcon ctx rm -rf build", "rm -rf build [via runcon]"}},
		{"runcon -t", "runcon -t x rm -rf build", []string{"runcon -t x rm -rf build", "rm -rf build [via runcon]"}},
		{"perf stat", "perf stat -o /dev/null rm -rf build", []string{"perf stat -o /dev/null rm -rf build", "rm -rf build [via perf stat]"}},
		{"gdb --args", "gdb -batch -ex run --args rm -rf build", []string{"gdb -batch -ex run --args rm -rf build", "rm -rf build [via gdb --args]"}},
		{"command", "command rm -rf build", []string{"rm -rf build [via command]"}},
		{"command -p", "command -p rm -rf build", []string{"rm -rf build [via command]"}},
		{"command -v is a lookup", "command -v rm", []string{"command -v rm"}},
		{"builtin", "builtin cd /tmp", []string{"cd /tmp [via builtin]"}},
		{"nice -n", "nice -n 10 rm -rf build", []string{"rm -rf build [via nice]"}},
		{"nice -N", "nice -10 rm -rf build", []string{"rm -rf build [via nice]"}},
		{"nohup", "nohup rm -rf build", []string{"rm -rf build [via nohup]"}},
		{"timeout -s KILL", "timeout -s KILL 5 rm -rf build", []string{"rm -rf build [via timeout]"}},
		{"timeout --signal=", "timeout --signal=KILL 5 rm -rf build", []string{"rm -rf build [via timeout]"}},
		{"timeout -k", "timeout -k 5 10 rm -rf build", []string{"rm -rf build [via timeout]"}},
		// time is a Bash keyword, not a program: nothing wraps the command.
		{"time", "time rm -rf build", []string{"rm -rf build"}},
		{"time -p", "time -p rm -rf build", []string{"rm -rf build"}},
		{"command time", "command time rm -rf build", []string{"rm -rf build [via command, time]"}},
		{"exec", "exec rm -rf build", []string{"rm -rf build [via exec]"}},
		{"exec -a", "exec -a name rm -rf build", []string{"rm -rf build [via exec]"}},
		{"stdbuf -oL", "stdbuf -oL rm -rf build", []string{"rm -rf build [via stdbuf]"}},
		{"stdbuf -o L", "stdbuf -o L rm -rf build", []string{"rm -rf build [via stdbuf]"}},
		{"stacked wrappers", "sudo timeout 10 nice -n 5 nohup rm -rf build", []string{"rm -rf build [via sudo, timeout, nice, nohup]"}},
		{"flock", "flock /tmp/l rm -rf build", []string{"rm -rf build [via flock]"}},
		{"flock -c", "flock /tmp/l -c 'rm -rf build'", []string{"rm -rf build [via flock -c]"}},
		{"watch", "watch -n 1 rm -rf build", []string{"rm -rf build [via watch]"}},
		{"npx", "npx rimraf build", []string{"rimraf build [via npx]"}},
		{"uv run", "uv run rm -rf build", []string{"rm -rf build [via uv run]"}},
		{"su -c", "su -c 'rm -rf build' root", []string{"su -c rm -rf build root", "rm -rf build [via su -c]"}},

		// Names.
		{"VAR=x prefix", "FOO=x rm -rf build", []string{"rm -rf build"}},
		{"backslash", `\rm -rf build`, []string{"rm -rf build"}},
		{"absolute path", "/bin/rm -rf build", []string{"rm -rf build"}},
		{"quoted part", "'r'm -rf build", []string{"rm -rf build"}},
		{"double-quoted", `"rm" -rf build`, []string{"rm -rf build"}},
		{"empty quotes inside", "r''m -rf build", []string{"rm -rf build"}},
		{"ANSI-C quoting", `$'\x72m' -rf build`, []string{"rm -rf build"}},
		{"echoed name", "$(echo rm) -rf build", []string{"echo rm", "rm -rf build"}},
		{"computed name keeps its tail", `"$VENV/bin/python" -V`, []string{"python -V"}},
		{"unknown name", "$CMD -rf build", []string{" -rf build"}},

		// Nested shells.
		{"bash -c", "bash -c 'rm -rf build'", []string{"bash -c rm -rf build", "rm -rf build [via bash -c]"}},
		{"sh -lc", "sh -lc 'rm -rf build'", []string{"sh -lc rm -rf build", "rm -rf build [via sh -c]"}},
		{"bash -xec", "bash -xec 'rm -rf build'", []string{"bash -xec rm -rf build", "rm -rf build [via bash -c]"}},
		{"bash -o opt -c", "bash -o pipefail -c 'rm -rf build'", []string{"bash -o pipefail -c rm -rf build", "rm -rf build [via bash -c]"}},
		{"sudo bash -c", "sudo bash -c 'rm -rf ~/'", []string{"bash -c rm -rf ~/ [via sudo]", "rm -rf /home/u/ [via sudo, bash -c]"}},
		{"eval literal", "eval 'rm -rf build'", []string{"rm -rf build [via eval]"}},
		{"eval words", "eval rm -rf build", []string{"rm -rf build [via eval]"}},
		{"heredoc to bash", "bash <<'EOF'\nrm -rf build\nEOF", []string{"bash", "rm -rf build [via bash -s]"}},
		{"here-string to bash", "bash <<< 'rm -rf build'", []string{"bash", "rm -rf build [via bash -s]"}},
		{"bash -s here-string", "bash -s <<< 'rm -rf build'", []string{"bash -s", "rm -rf build [via bash -s]"}},
		{"echo | sh", "echo 'rm -rf build' | sh", []string{"echo rm -rf build", "sh", "rm -rf build [via sh -s]"}},
		{"printf | sh", `printf 'rm -rf build\n' | sh`, []string{`printf rm -rf build\n`, "sh", "rm -rf build [via sh -s]"}},
		{"cat heredoc | bash", "cat <<EOF | bash\nrm -rf build\nEOF", []string{"cat", "bash", "rm -rf build [via bash -s]"}},
		{"nested bash -c", `bash -c 'bash -c "rm -rf build"'`, []string{
			`bash -c bash -c "rm -rf build"`,
			"bash -c rm -rf build [via bash -c]",
			"rm -rf build [via bash -c, bash -c]"}},
		{"bash -c with a known variable", `X='a; rm -rf /'; bash -c "echo $X"`, []string{
			"bash -c echo a; rm -rf /", "echo a [via bash -c]", "rm -rf / [via bash -c]"}},
		{"git rebase --exec", "git rebase -i --exec 'rm -rf build' HEAD~3", []string{"git rebase -i --exec rm -rf build HEAD~3", "rm -rf build [via git rebase --exec]"}},
		{"git bisect run", "git bisect run rm -rf build", []string{"git bisect run rm -rf build", "rm -rf build [via git bisect run]"}},
		{"scripts are not read without ReadFile", "bash script.sh", []string{"bash script.sh"}},

		// Compound commands.
		{"list", "echo a; rm b\nrm c", []string{"echo a", "rm b", "rm c"}},
		{"and or", "make && rm -rf build || true", []string{"make", "rm -rf build", "true"}},
		{"subshell", "(rm -rf build)", []string{"rm -rf build"}},
		{"block", "{ rm -rf build; }", []string{"rm -rf build"}},
		{"if", "if test -d build; then rm -rf build; else echo no; fi", []string{"test -d build", "rm -rf build", "echo no"}},
		{"elif", "if a; then b; elif c; then d; fi", []string{"a", "b", "c", "d"}},
		{"for", "for x in a b; do rm -rf $x; done", []string{"rm -rf a|b"}},
		{"while", "while false; do rm -rf build; done", []string{"false", "rm -rf build"}},
		{"until", "until true; do rm -rf build; done", []string{"true", "rm -rf build"}},
		{"case", "case $x in a) rm -rf build;; *) echo;; esac", []string{"rm -rf build", "echo"}},
		// A function's body runs where it is called, and only there.
		{"function never called", "f() { rm -rf build; }", []string{}},
		{"function called", "f() { rm -rf build; }; f", []string{"rm -rf build [via f()]"}},
		{"function keyword", "function f { rm -rf build; }; f", []string{"rm -rf build [via f()]"}},
		{"function arguments", "f() { rm -rf \"$1\"; }; f build", []string{"rm -rf build [via f()]"}},
		{"function redefined", "f() { rm -rf /; }; f() { rm -rf build; }; f", []string{"rm -rf build [via f()]"}},
		{"function defined in a subshell", "(f() { rm -rf /; }); f", []string{"f"}},
		{"function calling itself", "f() { rm x; f; }; f", []string{"rm x [via f()]"}},
		{"function not seen by a child shell", "f() { rm -rf /; }; sh -c f", []string{"sh -c f", "f [via sh -c]"}},
		{"exported function seen by a child shell", "f() { rm -rf /; }; export -f f; sh -c f", []string{"sh -c f", "rm -rf / [via sh -c, f()]"}},
		{"function under the time binary", "f() { rm -rf /; }; X=1 time f", []string{"f [via time]"}},
		{"function under time", "f() { rm -rf /; }; time f", []string{"rm -rf / [via f()]"}},
		{"function in a pipeline", "f() { rm -rf /; }; f | cat", []string{"rm -rf / [via f()]", "cat"}},
		{"function through a variable", "W='rm -rf ~'; f() { $W; }; f", []string{"rm -rf /home/u [via f()]"}},

		// Unquoted expansions split into words.
		{"command in a variable", `CMD="rm -rf"; $CMD build`, []string{"rm -rf build"}},
		{"IFS as a separator", "rm$IFS-rf$IFS~", []string{"rm -rf /home/u"}},
		{"quoted is one word", `CMD="rm -rf"; "$CMD" build`, []string{"rm -rf build"}},
		{"empty expansion vanishes", `E=; rm $E build`, []string{"rm build"}},
		{"coproc", "coproc rm -rf build", []string{"rm -rf build"}},
		{"negation", "! rm -rf build", []string{"rm -rf build"}},
		{"background", "rm -rf build &", []string{"rm -rf build"}},
		{"pipeline", "ls | grep x | wc -l", []string{"ls", "grep x", "wc -l"}},

		// Substitutions run their commands.
		{"command substitution", "echo $(rm -rf build)", []string{"rm -rf build", "echo ?$(rm -rf build)"}},
		{"backquotes", "echo `rm -rf build`", []string{"rm -rf build", "echo ?`rm -rf build`"}},
		{"process substitution", "diff <(rm -rf build) x", []string{"rm -rf build", "diff ?<(rm -rf build) x"}},
		{"in an assignment", "a=$(rm -rf build)", []string{"rm -rf build"}},
		{"in declare", "declare x=$(rm -rf build)", []string{"rm -rf build"}},
		{"in a test", "[[ -n $(rm -rf build) ]]", []string{"rm -rf build"}},
		{"in arithmetic", "(( $(rm -rf build) ))", []string{"rm -rf build"}},
		{"in a redirection", "ls > $(rm -rf build)", []string{"rm -rf build", "ls"}},
		{"echoed in quotes", `rm "$(echo build)"`, []string{"echo build", "rm build"}},

		// find -exec, xargs.
		{"find -exec", `find . -name '*.o' -exec rm -f {} \;`, []string{`find . -name *.o -exec rm -f {} ;`, "rm -f <input> [via find -exec]"}},
		{"find -execdir +", "find . -name '*.o' -execdir rm -f {} +", []string{"find . -name *.o -execdir rm -f {} +", "rm -f <input> [via find -execdir]"}},
		{"find two -exec", `find . -exec chmod +x {} \; -exec rm {} \;`, []string{`find . -exec chmod +x {} ; -exec rm {} ;`, "chmod +x <input> [via find -exec]", "rm <input> [via find -exec]"}},
		{"find -exec sh -c", `find . -exec sh -c 'rm "$1"' _ {} \;`, []string{`find . -exec sh -c rm "$1" _ {} ;`, `sh -c rm "$1" _ <input> [via find -exec]`, `rm ?"$1" [via find -exec, sh -c]`}},
		{"xargs", "find . -type d | xargs rm -rf", []string{"find . -type d", "xargs rm -rf", "rm -rf <input> [via xargs]"}},
		{"xargs -I{}", "echo build | xargs -I{} rm -rf {}", []string{"echo build", "xargs -I{} rm -rf {}", "rm -rf build [via xargs]"}},
		{"xargs -n 1", "ls | xargs -n 1 rm", []string{"ls", "xargs -n 1 rm", "rm <input> [via xargs]"}},
		{"xargs without a command echoes", "ls | xargs", []string{"ls", "xargs", "echo <input> [via xargs]"}},
		{"parallel", "parallel rm ::: a b", []string{"parallel rm ::: a b", "rm a [via parallel]", "rm b [via parallel]"}},
		{"xargs of unknown input", "cat list | xargs rm -f", []string{"cat list", "xargs rm -f", "rm -f <input> [via xargs]"}},
		{"xargs of known items appended", "echo a b | xargs rm -f", []string{"echo a b", "xargs rm -f", "rm -f a b [via xargs]"}},
		{"xargs --replace without a value", "echo / | xargs --replace bash -c 'rm -rf {}'", []string{"echo /", "xargs --replace bash -c rm -rf {}", "bash -c rm -rf / [via xargs]", "rm -rf / [via xargs, bash -c]"}},
		{"xargs -J", "echo / | xargs -J {} rm -rf {}", []string{"echo /", "xargs -J {} rm -rf {}", "rm -rf / [via xargs]"}},
		{"xargs options with values", "echo ok | xargs -R 2 -S 4096 --process-slot-var SLOT rm -f", []string{"echo ok", "xargs -R 2 -S 4096 --process-slot-var SLOT rm -f", "rm -f ok [via xargs]"}},
		{"parallel without a command", "parallel ::: 'rm -rf /' 'ls'", []string{"parallel ::: rm -rf / ls", "rm -rf / [via parallel]", "ls [via parallel]"}},
		{"parallel of piped command lines", "printf 'rm -rf /\\n' | parallel", []string{"printf rm -rf /\\n", "parallel", "rm -rf / [via parallel]"}},
		{"parallel options with values", "parallel --results out -j 4 rm -rf {} ::: build", []string{"parallel --results out -j 4 rm -rf {} ::: build", "rm -rf build [via parallel]"}},
		{"parallel --dry-run", "parallel --dry-run rm -rf {} ::: /", []string{"parallel --dry-run rm -rf {} ::: /"}},

		// ssh.
		{"ssh", "ssh host rm -rf /", []string{"ssh host rm -rf /", "rm -rf / [via ssh host]"}},
		{"ssh -p", "ssh -p 22 host 'rm -rf /tmp/x'", []string{"ssh -p 22 host rm -rf /tmp/x", "rm -rf /tmp/x [via ssh host]"}},
		{"ssh --", "ssh -- host rm -rf /", []string{"ssh -- host rm -rf /", "rm -rf / [via ssh host]"}},
		{"ssh without a command", "ssh host", []string{"ssh host"}},
		{"ssh bash -c", `ssh host bash -c "'rm -rf /'"`, []string{"ssh host bash -c 'rm -rf /'", "bash -c rm -rf / [via ssh host]", "rm -rf / [via ssh host, bash -c]"}},

		// Variables, loops, braces.
		{"assigned variable", "X=/tmp; rm -rf $X", []string{"rm -rf /tmp"}},
		{"variable from a variable", "a=x; b=$a/y; rm $b", []string{"rm x/y"}},
		{"VAR=x applies to the command", "X=/tmp rm -rf $X", []string{"rm -rf /tmp"}},
		{"export", "export D=/var; rm -rf $D", []string{"rm -rf /var"}},
		{"HOME", `rm -rf "$HOME/x"`, []string{"rm -rf /home/u/x"}},
		{"tilde", "rm -rf ~/x", []string{"rm -rf /home/u/x"}},
		{"for with several values", "for d in a b c; do rm -rf $d/out; done", []string{"rm -rf a/out|b/out|c/out"}},
		{"nested for", "for x in a b; do for y in c d; do rm $x/$y; done; done", []string{"rm a/c|a/d|b/c|b/d"}},
		{"for over a brace list", "for x in {a,b}; do rm $x; done", []string{"rm a|b"}},
		{"mktemp", "tmp=$(mktemp -d) && rm -rf $tmp", []string{"mktemp -d", "rm -rf /tmp/mktemp-result"}},
		{"mktemp quoted", `tmp="$(mktemp)"; rm -f "$tmp"`, []string{"mktemp", "rm -f /tmp/mktemp-result"}},
		// Brace expansion makes separate words, not values of one
		// (atk13: {r,}m -rf tests runs rm m -rf tests; mv tests{,.bak}).
		{"brace expansion", "rm -rf {a,b}/c", []string{"rm -rf a/c b/c"}},
		{"nested braces", "rm a{b,c{d,e}}", []string{"rm ab acd ace"}},
		{"brace sequence", "rm f{1..3}", []string{"rm f1 f2 f3"}},
		{"braces make the program", "{r,}m -rf tests", []string{"rm m -rf tests"}},
		{"braces make the line", "{rm,-rf,tests}", []string{"rm -rf tests"}},
		{"empty brace word dropped", "{rm,} -rf tests", []string{"rm -rf tests"}},
		{"braces make two operands", "mv tests{,.bak}", []string{"mv tests tests.bak"}},
		// A nameref's value is its variable's (atk13).
		{"nameref write", "declare -n r=c; r='rm -rf tests'; $c", []string{"rm -rf tests"}},
		{"nameref write, path", "local -n r=D; r=/tmp; rm -rf $D", []string{"rm -rf /tmp"}},
		{"substitution in an array subscript assigned", "x[$(rm -rf tests)]=1", []string{"rm -rf tests"}},
		{"nameref in a function", "f(){ local -n r=$1; r=/var; }; f D; rm -rf $D", []string{"rm -rf /var"}},
		{"quoted braces", `rm "{a,b}" '{c,d}'`, []string{"rm {a,b} {c,d}"}},
		{"single brace", "rm {a}", []string{"rm {a}"}},
		{"escaped space", `rm a\ b`, []string{"rm a b"}},

		// Interpreters.
		{"python -c rmtree", `python -c 'import shutil; shutil.rmtree("build")'`, []string{`python -c import shutil; shutil.rmtree("build")`, "rm -r -f build [via python -c]"}},
		{"python3 -c os.remove", `python3 -c "import os; os.remove('x.txt')"`, []string{`python3 -c import os; os.remove('x.txt')`, "rm -f x.txt [via python3 -c]"}},
		{"python Path.unlink", `python -c 'from pathlib import Path; Path("x").unlink()'`, []string{`python -c from pathlib import Path; Path("x").unlink()`, "rm -f x [via python -c]"}},
		{"python open for write", `python -c 'open("x.txt", "w").write("")'`, []string{`python -c open("x.txt", "w").write("")`, "tee x.txt [via python -c]"}},
		{"python open for read", `python -c 'print(open("x.txt").read())'`, []string{`python -c print(open("x.txt").read())`}},
		{"node -e rmSync", `node -e 'require("fs").rmSync("build", {recursive: true})'`, []string{`node -e require("fs").rmSync("build", {recursive: true})`, "rm -r -f build [via node -e]"}},
		{"perl -e unlink", `perl -e 'unlink "x.txt"'`, []string{`perl -e unlink "x.txt"`, "rm -f x.txt [via perl -e]"}},
		{"ruby -e rm_rf", `ruby -e 'FileUtils.rm_rf("build")'`, []string{`ruby -e FileUtils.rm_rf("build")`, "rm -r -f build [via ruby -e]"}},
		{"python3 heredoc", "python3 <<EOF\nimport shutil\nshutil.rmtree('build')\nEOF", []string{"python3", "rm -r -f build [via python3 -c]"}},
		{"python3 - heredoc", "python3 - <<'EOF'\nimport os\nos.remove(\"a\")\nEOF", []string{"python3 -", "rm -f a [via python3 -c]"}},
		{"echo | python3", `echo 'import os; os.remove("a")' | python3`, []string{`echo import os; os.remove("a")`, "python3", "rm -f a [via python3 -c]"}},
		{"os.system", `python -c 'import os; os.system("rm -rf build")'`, []string{`python -c import os; os.system("rm -rf build")`, "rm -rf build [via python -c]"}},
		{"subprocess list", `python -c 'import subprocess; subprocess.run(["rm", "-rf", "build"])'`, []string{`python -c import subprocess; subprocess.run(["rm", "-rf", "build"])`, "rm -rf build [via python -c]"}},
		{"execSync", `node -e 'require("child_process").execSync("rm -rf build")'`, []string{`node -e require("child_process").execSync("rm -rf build")`, "rm -rf build [via node -e]"}},
		{"spawn with a list", `node -e 'const {spawn}=require("child_process"); spawn("rm", ["-rf", "x"])'`, []string{`node -e const {spawn}=require("child_process"); spawn("rm", ["-rf", "x"])`, "rm -rf x [via node -e]"}},
		{"perl system", `perl -e 'system("rm -rf x")'`, []string{`perl -e system("rm -rf x")`, "rm -rf x [via perl -e]"}},
		{"ruby system argv", `ruby -e 'system("rm", "-rf", "x")'`, []string{`ruby -e system("rm", "-rf", "x")`, "rm -rf x [via ruby -e]"}},
		{"python script file is not read", "python manage.py flush", []string{"python manage.py flush"}},
		{"python -m", "python -m pytest -x", []string{"python -m pytest -x"}},

		// Aliases defined on the command line.
		{"alias", "alias x=rm; x -rf build", []string{"alias x=rm", "rm -rf build [via alias x]"}},
		{"alias with options", "alias ll='ls -l'; ll /", []string{"alias ll=ls -l", "ls -l / [via alias ll]"}},
		{"alias does not recurse", "alias ls='ls -F'; ls", []string{"alias ls=ls -F", "ls -F [via alias ls]"}},
		{"alias loop ends", "alias a=b; alias b=a; a", []string{"alias a=b", "alias b=a", "a [via alias a, alias b]"}},

		// Containers are judged like another machine.
		{"docker run", "docker run --rm -it -v /:/host ubuntu rm -rf /host", []string{"docker run --rm -it -v /:/host ubuntu rm -rf /host", "rm -rf /host [via docker run]"}},
		{"docker exec sh -c", `docker exec -u root web sh -c "rm -rf /data"`, []string{"docker exec -u root web sh -c rm -rf /data", "sh -c rm -rf /data [via docker exec]", "rm -rf /data [via docker exec, sh -c]"}},
		{"docker run without a command", "podman run -e A=1 img", []string{"podman run -e A=1 img"}},
		{"docker ps", "docker ps -a", []string{"docker ps -a"}},

		// Shell set-up code from known tools is not opaque.
		{"eval ssh-agent", `eval "$(ssh-agent -s)"`, []string{"ssh-agent -s"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := testAnalyzer().Analyze(tt.src, "/proj")
			if a.ParseErr != nil {
				t.Fatalf("Analyze(%q): ParseErr %v", tt.src, a.ParseErr)
			}
			if got := renderAll(a); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Analyze(%q) =\n\t%q\nwant\n\t%q", tt.src, got, tt.want)
			}
			if a.Source != tt.src {
				t.Errorf("Analyze(%q).Source = %q", tt.src, a.Source)
			}
		})
	}
}

// TestAnalyzeBugs holds command lines the package reads differently from
// Bash (or the program run). Each case names what Bash would do.
func TestAnalyzeBugs(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string
	}{
		// sudo takes VAR=value before the command (sudo(8)): rm runs.
		{"sudo VAR=value", "sudo FOO=bar rm -rf /", []string{"rm -rf / [via sudo]"}},
		{"sudo -u VAR=value", "sudo -u x A=b B=c rm -rf /", []string{"rm -rf / [via sudo]"}},
		// env's NAME=VALUE is an assignment whatever the value: rm runs.
		{"env VAR=$dynamic", "env A=$X rm -rf /", []string{"rm -rf / [via env]"}},
		{"env \"VAR=$dynamic\"", `env "A=$X" rm -rf /`, []string{"rm -rf / [via env]"}},
		// OpenSSH parses options after the destination too.
		{"ssh host -t cmd", "ssh prod -t 'rm -rf /'", []string{"ssh prod -t rm -rf /", "rm -rf / [via ssh prod]"}},
		{"ssh host -p N cmd", "ssh prod -p 22 rm -rf /", []string{"ssh prod -p 22 rm -rf /", "rm -rf / [via ssh prod]"}},
		// Escaped braces are literal: rm gets one argument, {a,b}.
		{"escaped braces", `rm \{a,b\}`, []string{"rm {a,b}"}},
		// A heredoc's body ends before its delimiter line.
		{"unquoted heredoc delimiter", "bash <<EOF\nrm -rf $HOME\nEOF", []string{"bash", "rm -rf /home/u [via bash -s]"}},
		{"unquoted heredoc delimiter, cat", "cat <<EOF | bash\nrm -rf $Y\nEOF\necho done", []string{"cat", "bash", "rm -rf ?$Y [via bash -s]", "echo done"}},
		// The outer shell expands an unquoted heredoc before bash reads
		// it, as it expands "…" for bash -c.
		{"heredoc expansion", "X='a; rm -rf /'; bash <<EOF\necho $X\nEOF", []string{"bash", "echo a [via bash -s]", "rm -rf / [via bash -s]"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := testAnalyzer().Analyze(tt.src, "/proj")
			if got := renderAll(a); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Analyze(%q) =\n\t%q\nwant\n\t%q", tt.src, got, tt.want)
			}
		})
	}
}

// TestAnalyzeData checks that text that is only data never becomes a
// command.
func TestAnalyzeData(t *testing.T) {
	tests := []struct {
		src   string
		names []string // the programs that run, in order
	}{
		{`echo "rm -rf /"`, []string{"echo"}},
		{`echo rm -rf /`, []string{"echo"}},
		{`printf '%s\n' "rm -rf /"`, []string{"printf"}},
		{`grep "git reset --hard" docs`, []string{"grep"}},
		{`grep -r 'rm -rf' . | wc -l`, []string{"grep", "wc"}},
		{"git commit -m \"$(cat <<'EOF'\nStop running rm -rf / and git push --force\nEOF\n)\"", []string{"cat", "git"}},
		{`git commit -m 'bash -c "rm -rf /"'`, []string{"git"}},
		{`python -c "print('rm -rf /')"`, []string{"python"}},
		{`python3 -c "print('DROP TABLE users; rm -rf ~')"`, []string{"python3"}},
		{`node -e 'console.log("rm -rf /")'`, []string{"node"}},
		{`echo rm -rf / | cat`, []string{"echo", "cat"}},
		{`echo 'rm -rf /' > notes.txt`, []string{"echo"}},
		{"cat <<'EOF' > script.sh\nrm -rf /\nEOF", []string{"cat"}},
		{`jq '.rm = "rm -rf /"' x.json`, []string{"jq"}},
		{`sed -i 's/rm -rf/echo/' run.sh`, []string{"sed"}},
		{`curl -d 'cmd=rm -rf /' https://example.com`, []string{"curl"}},
		{`sh -c 'echo "rm -rf /"'`, []string{"sh", "echo"}},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			a := testAnalyzer().Analyze(tt.src, "/proj")
			var names []string
			for _, c := range a.Cmds {
				names = append(names, c.Name)
			}
			if !reflect.DeepEqual(names, tt.names) {
				t.Errorf("Analyze(%q) runs %q, want %q", tt.src, names, tt.names)
			}
			if a.ParseErr != nil || len(a.Opaque) > 0 || len(a.OpaqueCode) > 0 {
				t.Errorf("Analyze(%q): ParseErr %v, Opaque %q, OpaqueCode %q; want none", tt.src, a.ParseErr, a.Opaque, a.OpaqueCode)
			}
		})
	}
}

// TestAnalyzeCwd follows the directory each command runs in.
func TestAnalyzeCwd(t *testing.T) {
	tests := []struct {
		src  string
		cwd  string
		want []string // "name@cwd" per command
	}{
		{"rm x", "/proj", []string{"rm@/proj"}},
		{"rm x", "", []string{"rm@"}},
		{"cd /tmp && rm -rf x", "/proj", []string{"cd@/tmp", "rm@/tmp"}},
		{"cd sub; rm x", "/proj", []string{"cd@/proj/sub", "rm@/proj/sub"}},
		{"cd .. && rm x", "/proj", []string{"cd@/", "rm@/"}},
		{"cd ../other/./x && rm y", "/proj", []string{"cd@/other/x", "rm@/other/x"}},
		{"cd sub; rm x", "", []string{"cd@", "rm@"}},
		{"(cd /tmp && x) && y", "/proj", []string{"cd@/tmp", "x@/tmp", "y@/proj"}},
		{"cd /a; (cd /b; rm x); rm y", "/proj", []string{"cd@/a", "cd@/b", "rm@/b", "rm@/a"}},
		{"cd /a; { cd /b; rm x; }; rm y", "/proj", []string{"cd@/a", "cd@/b", "rm@/b", "rm@/b"}},
		{"cd /a && bash -c 'cd /b' && rm y", "/proj", []string{"cd@/a", "bash@/a", "cd@/b", "rm@/a"}},
		{"cd /a | cat; rm y", "/proj", []string{"cd@/a", "cat@/proj", "rm@/proj"}},
		{"echo $(cd /a) && rm y", "/proj", []string{"cd@/a", "echo@/proj", "rm@/proj"}},
		{"cd $UNKNOWN && rm -rf x", "/proj", []string{"cd@", "rm@"}},
		{`cd "$HOME" && rm x`, "/proj", []string{"cd@/home/u", "rm@/home/u"}},
		{"cd && rm x", "/proj", []string{"cd@/home/u", "rm@/home/u"}},
		{"cd ~ && rm x", "/proj", []string{"cd@/home/u", "rm@/home/u"}},
		{"cd - && rm x", "/proj", []string{"cd@", "rm@"}},
		{"cd -P /tmp && rm x", "/proj", []string{"cd@/tmp", "rm@/tmp"}},
		{"pushd /tmp && rm x && popd && rm y", "/proj", []string{"pushd@/tmp", "rm@/tmp", "popd@/proj", "rm@/proj"}},
		{"cd /a; cd /b; cd -; rm x", "/proj", []string{"cd@/a", "cd@/b", "cd@/a", "rm@/a"}},
		{"(cd sub && rm -rf .); rm y", "/proj", []string{"cd@/proj/sub", "rm@/proj/sub", "rm@/proj"}},
		{"cd .. && rm -rf proj", "/proj", []string{"cd@/", "rm@/"}},
		{"for d in x y; do cd $d; done; rm z", "/proj", []string{"cd@", "rm@"}},
		{"D=/srv; cd $D && rm x", "/proj", []string{"cd@/srv", "rm@/srv"}},
		{"env -C /tmp rm x", "/proj", []string{"rm@/tmp"}},
		{"builtin cd /tmp; rm x", "/proj", []string{"cd@/tmp", "rm@/tmp"}},
		{"f() { cd /b; }; rm y", "/proj", []string{"rm@/proj"}},
		{"f() { cd /b; }; f; rm y", "/proj", []string{"cd@/b", "rm@/b"}},
		{"(f() { cd /b; }); f; rm y", "/proj", []string{"f@/proj", "rm@/proj"}},
		{"ssh host 'cd /x && rm y'", "/proj", []string{"ssh@/proj", "cd@/x", "rm@/x"}},
		{"ssh host rm y", "/proj", []string{"ssh@/proj", "rm@"}},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			a := testAnalyzer().Analyze(tt.src, tt.cwd)
			var got []string
			for _, c := range a.Cmds {
				got = append(got, c.Name+"@"+c.Cwd)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Analyze(%q, %q) cwds = %q, want %q", tt.src, tt.cwd, got, tt.want)
			}
		})
	}
}

// TestAnalyzeLinks checks Input (what feeds a command) and Remote.
func TestAnalyzeLinks(t *testing.T) {
	tests := []struct {
		src  string
		want []string // "name<input@remote" per command
	}{
		{"ls | xargs rm", []string{"ls<@", "xargs<ls@", "rm<ls@"}},
		{"find . -name x | xargs -0 rm -f", []string{"find<@", "xargs<find@", "rm<find@"}},
		{"find . -exec rm {} +", []string{"find<@", "rm<find@"}},
		{"echo a | tee x", []string{"echo<@", "tee<echo@"}},
		{"a | b | c", []string{"a<@", "b<a@", "c<b@"}},
		{"a | b; c", []string{"a<@", "b<a@", "c<@"}},
		{"xargs rm < list.txt", []string{"xargs<@", "rm<@"}},
		{"ssh host rm -rf /", []string{"ssh<@", "rm<@host"}},
		{"ssh user@host 'ls | xargs rm'", []string{"ssh<@", "ls<@user@host", "xargs<ls@user@host", "rm<ls@user@host"}},
		{"ssh -i key.pem host true", []string{"ssh<@", "true<@host"}},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			a := testAnalyzer().Analyze(tt.src, "/proj")
			var got []string
			for _, c := range a.Cmds {
				in := ""
				if c.Input != nil {
					in = c.Input.Name
				}
				got = append(got, c.Name+"<"+in+"@"+c.Remote)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Analyze(%q) = %q, want %q", tt.src, got, tt.want)
			}
		})
	}
}

// TestAnalyzeWords checks how arguments resolve: values, dynamic words and
// their literal prefix, globs.
func TestAnalyzeWords(t *testing.T) {
	tests := []struct {
		src  string
		want Word // the last argument of the first command; Raw is not compared
	}{
		{"rm x", Word{Values: []string{"x"}}},
		{"rm ''", Word{Values: []string{""}}},
		{"rm $X", Word{Dynamic: true}},
		{"rm -rf /tmp/$X", Word{Dynamic: true, Prefix: "/tmp/"}},
		{`rm -rf "/tmp/$X"`, Word{Dynamic: true, Prefix: "/tmp/"}},
		{`rm -rf /tmp/"$X"`, Word{Dynamic: true, Prefix: "/tmp/"}},
		{"rm -rf /tmp/x$X/y", Word{Dynamic: true, Prefix: "/tmp/x"}},
		{`rm -rf 'a b'/$X`, Word{Dynamic: true, Prefix: "a b/"}},
		{`rm -rf a\ b/$X`, Word{Dynamic: true, Prefix: "a b/"}},
		{`rm "$X"/x`, Word{Dynamic: true}},
		{"rm ${X}y", Word{Dynamic: true}},
		{`rm "${X:-/}"`, Word{Dynamic: true}},
		{"rm ${#X}", Word{Dynamic: true}},
		{"rm $RANDOM", Word{Dynamic: true}},
		{"rm $1", Word{Dynamic: true}},
		{"rm $((1+2))", Word{Dynamic: true}},
		{`rm "$(pwd)"/x`, Word{Values: []string{"/proj/x"}}},
		{`cd $X; rm "$(pwd)"/x`, Word{Dynamic: true}},
		{"rm $PWD/x", Word{Values: []string{"/proj/x"}}},
		{"cd /a; rm \"$PWD\"/x", Word{Values: []string{"/a/x"}}},
		{"rm $(ls)", Word{Dynamic: true, Many: true, Line: true}},
		{`rm "$(ls)"`, Word{Dynamic: true}},
		{"rm `ls`", Word{Dynamic: true, Many: true, Line: true}},
		{`for f in $(ls); do rm "$f"; done`, Word{Dynamic: true, Many: true}},
		{"rm $TMPDIR/x", Word{Values: []string{"/tmp/x"}}},
		{"rm *.o", Word{Values: []string{"*.o"}, Glob: true}},
		{"rm build/*", Word{Values: []string{"build/*"}, Glob: true}},
		{"rm file?.txt", Word{Values: []string{"file?.txt"}, Glob: true}},
		{"rm [ab].txt", Word{Values: []string{"[ab].txt"}, Glob: true}},
		{"rm '*.o'", Word{Values: []string{"*.o"}}},
		{`rm \*.o`, Word{Values: []string{"*.o"}}},
		{"rm /tmp/$X/*", Word{Dynamic: true, Prefix: "/tmp/", Glob: true}},
		{"for f in tests/*; do rm $f; done", Word{Values: []string{"tests/*"}, Glob: true}},
		{"X=/tmp; rm $X", Word{Values: []string{"/tmp"}}},
		{"X=$(date); rm $X", Word{Dynamic: true, Line: true}},
		{"X=*.o; rm $X", Word{Dynamic: true}},
		{"arr=(a b); rm $arr", Word{Dynamic: true, Line: true}},
		{"X+=y; rm $X", Word{Dynamic: true}},
		{"for x in $(ls); do rm $x; done", Word{Dynamic: true, Many: true, Line: true}},
		{`a=(x y); rm "${a[@]}"`, Word{Dynamic: true, Line: true}},
		// Unquoted, a nameref splits as what it names may (atk13:
		// declare -n r=c; c='rm -rf tests'; $r was allowed).
		{`declare -n r=x; rm $r`, Word{Dynamic: true, Line: true}},
		{`x='rm -rf testsX'; rm ${x/X/}`, Word{Dynamic: true, Line: true}},
		{`x='rm -rf tests'; y=x; rm ${!y}`, Word{Dynamic: true, Line: true}},
		{`x='rm -rf tests'; rm ${x:0:6}`, Word{Dynamic: true, Line: true}},
		{`x='rm -rf tests'; rm "${x:0:6}"`, Word{Dynamic: true}},
		{`x='rm -rf tests'; rm ${#x}`, Word{Dynamic: true}},
		{`rm $(which go)`, Word{Dynamic: true, Many: true}},
		{`rm $(go env GOPATH)`, Word{Dynamic: true, Many: true}},
		{`rm $(go run .)`, Word{Dynamic: true, Many: true, Line: true}},
		{`X="$(cat f)"; rm $X`, Word{Dynamic: true, Line: true}},
		{`X="$(cat f)"; rm "$X"`, Word{Dynamic: true}},
		{"rm {1..200}", Word{Dynamic: true, Prefix: "{1..200}"}},
		{"rm ~", Word{Values: []string{"/home/u"}}},
		{"rm ~/", Word{Values: []string{"/home/u/"}}},
		{`rm "~"`, Word{Values: []string{"~"}}},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			a := testAnalyzer().Analyze(tt.src, "/proj")
			var last *Cmd
			for _, c := range a.Cmds {
				if c.Name == "rm" {
					last = c
					break
				}
			}
			if last == nil || len(last.Args) == 0 {
				t.Fatalf("Analyze(%q) = %q: no rm with arguments", tt.src, renderAll(a))
			}
			got := last.Args[len(last.Args)-1]
			got.Raw = ""
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Analyze(%q) last word = %+v, want %+v", tt.src, got, tt.want)
			}
		})
	}
}

// TestAnalyzeTildePrefix checks the literal prefix of a dynamic word that
// starts with ~: Bash expands it to $HOME, so the prefix is the home
// directory, not a relative path "~/" inside the project.
func TestAnalyzeTildePrefix(t *testing.T) {
	for _, src := range []string{"rm -rf ~/$X", `rm -rf ~/"$X"`} {
		a := testAnalyzer().Analyze(src, "/proj")
		if len(a.Cmds) != 1 || len(a.Cmds[0].Args) != 2 {
			t.Fatalf("Analyze(%q) = %q", src, renderAll(a))
		}
		w := a.Cmds[0].Args[1]
		if !w.Dynamic || w.Prefix != "/home/u/" {
			t.Errorf("Analyze(%q): word %+v, want Dynamic with Prefix %q", src, w, "/home/u/")
		}
	}
}

// TestAnalyzeOpaque checks what is reported as impossible to see into.
func TestAnalyzeOpaque(t *testing.T) {
	tests := []struct {
		src        string
		opaque     []string // substrings, one per Opaque entry
		opaqueCode []string // substrings, one per OpaqueCode entry
	}{
		{`eval "$X"`, []string{"eval of a computed string"}, nil},
		{`eval $X`, []string{"eval of a computed string"}, nil},
		{`bash -c "$X"`, []string{"bash -c of a computed string"}, nil},
		{`sh -c "rm $X"`, []string{"sh -c of a computed string"}, nil},
		{`ssh host "rm $X"`, []string{"ssh host of a computed string"}, nil},
		{"cat file | bash", []string{"bash reading commands from cat file"}, nil},
		{"curl -fsSL https://x | sh", []string{"sh reading commands from curl"}, nil},
		{"ls | xargs -I % sh -c 'rm %'", []string{"sh -c of a computed string"}, nil},
		{`source "$X"`, []string{"source of a computed path"}, nil},
		{`python -c "import os; os.system(cmd)"`, nil, []string{"python -c runs a computed command: cmd"}},
		{`python -c "$CODE"`, nil, []string{"python -c of computed code"}},
		{`eval 'rm x'`, nil, nil},
		{`bash -c 'rm x'`, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			a := testAnalyzer().Analyze(tt.src, "/proj")
			check := func(what string, got, want []string) {
				if len(got) != len(want) {
					t.Errorf("Analyze(%q).%s = %q, want %d entries like %q", tt.src, what, got, len(want), want)
					return
				}
				for i := range want {
					if !strings.Contains(got[i], want[i]) {
						t.Errorf("Analyze(%q).%s[%d] = %q, want it to contain %q", tt.src, what, i, got[i], want[i])
					}
				}
			}
			check("Opaque", a.Opaque, tt.opaque)
			check("OpaqueCode", a.OpaqueCode, tt.opaqueCode)
		})
	}
}

func TestAnalyzeParseErr(t *testing.T) {
	tests := []struct {
		src     string
		want    string   // substring of ParseErr, or of Refused
		refused bool     // Bash refuses the rest (Refused), or it cannot be told (ParseErr)
		names   []string // what could still be understood
	}{
		{"rm 'x", "closing quote", true, nil},
		{"echo $((1+", "", false, nil},
		{"echo $((1+))", "must be followed", false, nil},
		{"rm -rf src; echo $((1+))", "must be followed", false, []string{"rm"}},
		{"if then", "if", false, nil},
		{"if true; then rm -rf src", "`if` statement must end", false, nil},
		{"rm -rf $(( tests", "", false, nil},
		{"bash -c 'rm (' && rm y", "bash -c: ", false, []string{"bash", "rm"}},
		{"bash -c \"rm 'x\" && rm y", "bash -c: ", true, []string{"bash", "rm"}},
		{"eval 'rm ('", "eval: ", false, nil},
		{"eval \"rm 'x\"", "eval: ", true, nil},
		{"eval 'alias x=y'\nx 'oops", "closing quote", false, []string{"alias"}}, // an alias may close the quote
		{"echo 'x' | sh -c 'if'", "sh -c: ", false, []string{"echo", "sh"}},
		{"echo 'x' | sh -c \"echo 'x\"", "sh -c: ", true, []string{"echo", "sh"}},
		{"rm -rf src\necho 'oops", "closing quote", true, []string{"rm"}},
		{"echo ok\nrm -rf src 'x", "closing quote", true, []string{"echo"}},
		// Statements on the broken line are read with it, and do not run.
		{"rm -rf src; echo 'oops", "closing quote", true, nil},
		{"echo a\nrm -rf src & echo b; echo 'oops", "closing quote", true, []string{"echo"}},
		{"rm -rf src; \\\necho 'oops", "closing quote", true, nil},
		{"rm -rf src &\necho 'oops", "closing quote", true, []string{"rm"}},
		{"rm -rf src # it's\necho 'oops", "closing quote", true, []string{"rm"}},
		// Not Refused: bash may read these otherwise than the parser (a
		// here-document, a backquote, an alias).
		{"rm -rf src <<EOF\n'oops", "here-document", false, nil},
		{"cat <<EOF\n$(\nEOF\nrm -rf src\necho 'oops", "closing quote", false, nil},
		{"echo `echo '`; rm -rf src", "closing quote", false, nil},
		{"alias x='echo'\nx 'oops", "closing quote", false, []string{"alias"}},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			src := strings.ReplaceAll(tt.src, `\n`, "\n")
			a := testAnalyzer().Analyze(src, "/proj")
			err, other := a.ParseErr, a.Refused
			if tt.refused {
				err, other = a.Refused, a.ParseErr
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) || other != nil {
				t.Fatalf("Analyze(%q): ParseErr = %v, Refused = %v; want refused %v, with %q", src, a.ParseErr, a.Refused, tt.refused, tt.want)
			}
			var names []string
			for _, c := range a.Cmds {
				names = append(names, c.Name)
			}
			if !reflect.DeepEqual(names, tt.names) {
				t.Errorf("Analyze(%q) runs %q, want %q", src, names, tt.names)
			}
		})
	}
}

// TestRefusedAgreesWithBash runs command lines that do not parse through
// the real bash (and dash and zsh, where installed), in a directory holding
// src/, and checks the analysis against what the shell did: where it says
// the shell refuses the rest (Refused), the shell must have failed, and if
// the shell deleted src, the analysis must have seen rm -rf src run (or
// report ParseErr, which risk asks about).
func TestRefusedAgreesWithBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatalf("bash is needed to check the analysis against it: %v", err)
	}
	shells := []string{bash}
	for _, name := range []string{"dash", "zsh"} {
		if p, err := exec.LookPath(name); err == nil {
			shells = append(shells, p)
		}
	}
	tests := []struct {
		src     string
		refused bool
	}{
		{"rm -rf src 'oops", true},
		{"rm -rf src\necho 'oops", true},
		{"rm -rf src; echo 'oops", true},
		{"rm -rf src & echo 'oops", true},
		{"rm -rf src; \\\necho 'oops", true},
		{"rm -rf src;  # c\necho 'oops", true},
		{"rm -rf src && echo 'oops", true},
		{"echo \"oops\nrm -rf src", true},
		{"echo ${x\nrm -rf src", false}, // the parser stops at the newline, not at the end
		{"echo $'oops\nrm -rf src", true},
		{"rm -rf src \\\n'oops", true},
		{"rm -rf src # it's\necho 'oops", true},
		{"echo 'a\nb'; rm -rf src\necho 'oops", true},
		{"case x in\n*) rm -rf src ;;\nesac\necho 'oops", true},
		{"f() {\n rm -rf src\n}\nf\necho 'oops", true},
		{"f() {\n rm -rf src\n}; f; echo 'oops", true},
		{"rm -rf src &\necho 'oops", true},
		{"bash -c \"echo ok\nrm -rf src 'x\"", true},
		{"bash -c \"rm -rf src\necho 'x\"", true},
		// Bash refuses these too, but only an open quote is Refused:
		// the rest is left to the caller (risk asks).
		{"echo $(rm -rf src", false},
		{"(rm -rf src", false},
		{"{ rm -rf src", false},
		{"if true; then rm -rf src", false},
		{"for x in a; do rm -rf src", false},
		{"rm -rf src &&", false},
		{"rm -rf src |", false},
		{"x=$(rm -rf src)\necho $(", false},
		{"rm -rf src\n(", false},
		// Bash reads these otherwise than the parser, or runs part of
		// them: not Refused.
		{"rm -rf src <<EOF\n'oops", false},
		{"cat <<EOF\n$(\nEOF\nrm -rf src\necho 'oops", false},
		{"cat <<EOF\n$(\nEOF\nrm -rf src\n)\necho 'oops", false},
		{"echo `echo '`; rm -rf src\necho 'oops", false},
		{"rm -rf src; echo $((1+))", false},
		{"case x in *) rm -rf src ;;\necho 'oops", false},
		// A quote inside ${…}, [[ ]], $((…)) or a case pattern: bash
		// refuses these, but other shells read some otherwise (in dash
		// and bash --posix, "${x:-'}" holds a literal quote, and rm runs).
		{"echo \"${x:-'}\"; rm -rf src", false},
		{"sh -c \"echo \\\"\\${x:-'}\\\"; rm -rf src\"", false},
		{"echo ${x/'/}; rm -rf src", false},
		{"[[ $x == ' ]]; rm -rf src", false},
		{"echo $(( x['a] )); rm -rf src", false},
		{"case a in ') ;; esac; rm -rf src", false},
		{"a[x']=1; rm -rf src", false},
		// A quote that begins or ends a word, in any command, assignment
		// or redirection.
		{"x='a; rm -rf src", true},
		{"echo a'b; rm -rf src", true},
		{"echo ok > 'out; rm -rf src", true},
		{"echo ok\nrm -rf src && echo \"x", true},
	}
	for _, tt := range tests {
		src := strings.ReplaceAll(tt.src, `\n`, "\n")
		t.Run(src, func(t *testing.T) {
			a := testAnalyzer().Analyze(src, "/proj")
			if got := a.Refused != nil && a.ParseErr == nil; got != tt.refused {
				t.Errorf("Analyze(%q): Refused = %v, ParseErr = %v; want refused %v", src, a.Refused, a.ParseErr, tt.refused)
			}
			runsRm := slices.ContainsFunc(a.Cmds, func(c *Cmd) bool {
				return c.Name == "rm" && len(c.Args) == 2 && c.Args[1].Lit() == "src"
			})
			for _, sh := range shells {
				dir := t.TempDir()
				if err := os.Mkdir(filepath.Join(dir, "src"), 0o755); err != nil {
					t.Fatal(err)
				}
				run := exec.Command(sh, "-c", src)
				run.Dir = dir
				err := run.Run()
				if tt.refused && err == nil {
					t.Errorf("%s -c %q ran, but the analysis says the shell refuses it", sh, src)
				}
				if _, err := os.Stat(filepath.Join(dir, "src")); err != nil && a.ParseErr == nil && !runsRm {
					t.Errorf("%s -c %q deleted src, but the analysis does not run rm -rf src: %q", sh, src, renderAll(a))
				}
			}
		})
	}
}

// nest wraps cmd in n levels of bash -c, quoting each level. The quoting
// triples at each level: keep n small (MaxDepth+1 is about 60 KB).
func nest(cmd string, n int) string {
	for i := 0; i < n; i++ {
		cmd = "bash -c '" + strings.ReplaceAll(cmd, "'", `'\''`) + "'"
	}
	return cmd
}

// heredocs nests cmd in n levels of bash reading a quoted heredoc: as deep
// as nest, but only linear in size.
func heredocs(cmd string, n int) string {
	for i := n; i >= 1; i-- {
		cmd = fmt.Sprintf("bash <<'E%d'\n%s\nE%d", i, cmd, i)
	}
	return cmd
}

func TestAnalyzeDepth(t *testing.T) {
	for _, n := range []int{1, MaxDepth} {
		a := testAnalyzer().Analyze(nest("rm -rf build", n), "/proj")
		last := a.Cmds[len(a.Cmds)-1]
		if render(last) != "rm -rf build [via "+strings.TrimSuffix(strings.Repeat("bash -c, ", n), ", ")+"]" || len(a.Opaque) != 0 || a.ParseErr != nil {
			t.Errorf("Analyze(%d levels of bash -c): last %q, Opaque %q, ParseErr %v", n, render(last), a.Opaque, a.ParseErr)
		}
		a = testAnalyzer().Analyze(heredocs("rm -rf build", n), "/proj")
		last = a.Cmds[len(a.Cmds)-1]
		if render(last) != "rm -rf build [via "+strings.TrimSuffix(strings.Repeat("bash -s, ", n), ", ")+"]" || len(a.Opaque) != 0 || a.ParseErr != nil {
			t.Errorf("Analyze(%d levels of bash <<EOF): last %q, Opaque %q, ParseErr %v", n, render(last), a.Opaque, a.ParseErr)
		}
	}
	for _, src := range []string{
		nest("rm -rf build", MaxDepth+1),
		heredocs("rm -rf build", MaxDepth+1),
		heredocs("rm -rf build", 100),
		strings.Repeat("eval ", MaxDepth+2) + "rm x",
		strings.Repeat("eval ", 1000) + "rm x",
	} {
		a := testAnalyzer().Analyze(src, "/proj")
		for _, c := range a.Cmds {
			if c.Name == "rm" {
				t.Errorf("Analyze(%.60q…) reached rm beyond MaxDepth: %q", src, render(c))
			}
		}
		if len(a.Opaque) != 1 || !strings.Contains(a.Opaque[0], "nesting deeper than") {
			t.Errorf("Analyze(%.60q…).Opaque = %q, want nesting deeper than %d levels", src, a.Opaque, MaxDepth)
		}
	}
}

// TestAnalyzeScripts checks bash FILE and source FILE when ReadFile is set.
func TestAnalyzeScripts(t *testing.T) {
	files := map[string]string{
		"/proj/clean.sh":        "rm -rf build\n",
		"/proj/sub/nested.sh":   "source ../clean.sh\n",
		"/proj/big.sh":          strings.Repeat("#", 300<<10),
		"/proj/self.sh":         "bash /proj/self.sh\n",
		"/proj/unreadable.sh":   "",
		"/proj/dir/relative.sh": "rm x\n",
		"/proj/run.sh":          "#!/usr/bin/env -S LC_ALL=C bash -e\nrm -rf build\n",
		"/proj/tool":            "#!/usr/bin/env node\nrequire('fs').rmSync('dist', {recursive: true})\n",
		"/proj/noshell":         "#!\nrm -rf build\n",
	}
	read := func(p string) ([]byte, error) {
		if p == "/proj/unreadable.sh" {
			return nil, fs.ErrPermission
		}
		s, ok := files[p]
		if !ok {
			return nil, fs.ErrNotExist
		}
		return []byte(s), nil
	}
	tests := []struct {
		src        string
		cwd        string
		want       []string
		opaque     int
		opaqueCode int
	}{
		{"bash clean.sh", "/proj", []string{"bash clean.sh", "rm -rf build [via bash]"}, 0, 0},
		{"sh /proj/clean.sh", "/", []string{"sh /proj/clean.sh", "rm -rf build [via sh]"}, 0, 0},
		{"source clean.sh", "/proj", []string{"rm -rf build [via source]", "source clean.sh"}, 0, 0},
		{". ./clean.sh", "/proj", []string{"rm -rf build [via .]", ". ./clean.sh"}, 0, 0},
		{"cd dir && bash relative.sh", "/proj", []string{"cd dir", "bash relative.sh", "rm x [via bash]"}, 0, 0},
		{"bash missing.sh", "/proj", []string{"bash missing.sh"}, 0, 0},
		{"bash unreadable.sh", "/proj", []string{"bash unreadable.sh"}, 1, 0},
		{"bash big.sh", "/proj", []string{"bash big.sh"}, 1, 0},
		{"bash clean.sh", "", []string{"bash clean.sh"}, 1, 0},
		{"bash self.sh", "/proj", nil, 0, 1}, // recursion ends at MaxDepth, inside a file: a warning
		{"./run.sh", "/proj", []string{"run.sh", "rm -rf build"}, 0, 0},
		{"./tool", "/proj", []string{"tool", "rm -r -f dist"}, 0, 0}, // another language's program, read as that language (issue 13)
		{"./noshell", "/proj", []string{"noshell"}, 0, 0},            // #! names no interpreter
	}
	for _, tt := range tests {
		t.Run(tt.src+"@"+tt.cwd, func(t *testing.T) {
			a := (&Analyzer{Env: testEnv, ReadFile: read}).Analyze(tt.src, tt.cwd)
			got := renderAll(a)
			if tt.want != nil && !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Analyze(%q) = %q, want %q", tt.src, got, tt.want)
			}
			if len(a.Opaque) != tt.opaque || len(a.OpaqueCode) != tt.opaqueCode {
				t.Errorf("Analyze(%q): Opaque %q, OpaqueCode %q; want %d and %d entries", tt.src, a.Opaque, a.OpaqueCode, tt.opaque, tt.opaqueCode)
			}
			for _, c := range a.Cmds {
				if c.Name == "rm" && c.File == "" {
					t.Errorf("Analyze(%q): %q read from a script has no File", tt.src, render(c))
				}
			}
		})
	}
}

func TestRedirs(t *testing.T) {
	a := testAnalyzer().Analyze("cmd > out 2>> err.log < in &> all 2>&1 >| force; { echo; } > block.txt; > bare", "/proj")
	var got []string
	for _, c := range a.Cmds {
		for _, r := range c.Redirs {
			got = append(got, fmt.Sprintf("%s:%s%s%s w=%v c=%v", c.Name, r.Fd, r.Op, renderWord(r.Target), r.Writes(), r.Clobbers()))
		}
	}
	want := []string{
		"cmd:>out w=true c=true",
		"cmd:2>>err.log w=true c=false",
		"cmd:<in w=false c=false",
		"cmd:&>all w=true c=true",
		"cmd:2>&1 w=false c=false",
		"cmd:>|force w=true c=true",
		":>block.txt w=true c=true",
		":>bare w=true c=true",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("redirections =\n\t%q\nwant\n\t%q", got, want)
	}
}

func TestCmdText(t *testing.T) {
	tests := []struct {
		src  string
		want []string
	}{
		{`rm -rf "$HOME/x"  build`, []string{`rm -rf "$HOME/x" build`}},
		{"ls | xargs rm", []string{"ls", "xargs rm", "rm {}"}},
		{"cat <<EOF > out\nhi\nEOF", []string{"cat <<… > out"}},
		{"> f", []string{"> f"}},
		{"sudo /bin/rm x 2>/dev/null", []string{"/bin/rm x 2> /dev/null"}},
	}
	for _, tt := range tests {
		a := testAnalyzer().Analyze(tt.src, "/proj")
		var got []string
		for _, c := range a.Cmds {
			got = append(got, c.Text())
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Text() of Analyze(%q) = %q, want %q", tt.src, got, tt.want)
		}
	}
}

func TestStdinText(t *testing.T) {
	tests := []struct {
		src    string
		want   string
		wantOK bool
	}{
		{"cat <<'EOF'\nhello $X\nEOF", "hello $X\n", true},
		{"cat <<< 'one line'", "one line", true},
		{"echo hi | cat", "hi", true},
		{"echo -n hi | cat", "hi", true},
		{"echo -e 'a\\nb' | cat", "a\nb", true},
		{"printf 'a\\tb' | cat", "a\tb", true},
		{"ls | cat", "", false},
		{"cat file", "", false},
		{"cat 0<<< x", "x", true},
		{"cat 3<<< x", "", false},
	}
	for _, tt := range tests {
		a := testAnalyzer().Analyze(tt.src, "/proj")
		c := a.Cmds[len(a.Cmds)-1]
		got, ok := c.StdinText()
		if got != tt.want || ok != tt.wantOK {
			t.Errorf("StdinText() of the last command of %q = %q, %v; want %q, %v", tt.src, got, ok, tt.want, tt.wantOK)
		}
	}
}

func TestWordValueLit(t *testing.T) {
	tests := []struct {
		w      Word
		want   string
		wantOK bool
		lit    string
	}{
		{Word{Raw: "x", Values: []string{"x"}}, "x", true, "x"},
		{Word{Raw: "''", Values: []string{""}}, "", true, ""},
		{Word{Raw: "{a,b}", Values: []string{"a", "b"}}, "", false, "{a,b}"},
		{Word{Raw: "$X", Dynamic: true}, "", false, "$X"},
		{Word{Raw: "*.o", Values: []string{"*.o"}, Glob: true}, "", false, "*.o"},
		{Word{Raw: "{}", Values: []string{"{}"}, FromInput: true}, "", false, "{}"},
		{Word{Raw: "x"}, "", false, "x"},
	}
	for _, tt := range tests {
		got, ok := tt.w.Value()
		if got != tt.want || ok != tt.wantOK {
			t.Errorf("%+v.Value() = %q, %v; want %q, %v", tt.w, got, ok, tt.want, tt.wantOK)
		}
		if got := tt.w.Lit(); got != tt.lit {
			t.Errorf("%+v.Lit() = %q, want %q", tt.w, got, tt.lit)
		}
	}
}

// TestAnalyzeNoEnv checks an Analyzer that knows no variables: $HOME is as
// unknown as any other.
// TMPDIR, unset, is empty as in Bash: $TMPDIR/y is /y, ${TMPDIR:-/tmp}/z
// is /tmp/z.
func TestAnalyzeNoEnv(t *testing.T) {
	a := (&Analyzer{}).Analyze(`rm -rf "$HOME/x" $USER $TMPDIR/y ${TMPDIR:-/tmp}/z`, "/proj")
	if got, want := renderAll(a), []string{`rm -rf ?"$HOME/x" ?$USER /y /tmp/z`}; !reflect.DeepEqual(got, want) {
		t.Errorf("Analyze without Env = %q, want %q", got, want)
	}
	a = (&Analyzer{Env: func(k string) string {
		if k == "TMPDIR" {
			return "/var/tmp"
		}
		return ""
	}}).Analyze(`rm $TMPDIR/y; t=$(mktemp -d); rm -r $t`, "/proj")
	if got, want := renderAll(a), []string{"rm /var/tmp/y", "mktemp -d", "rm -r /var/tmp/mktemp-result"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Analyze with TMPDIR=/var/tmp = %q, want %q", got, want)
	}
}

func TestForkBomb(t *testing.T) {
	tests := []struct {
		src  string
		want bool
	}{
		{":(){ :|:& };:", true},
		{"bomb() { bomb | bomb & }; bomb", true},
		{"f() { f; }; f", false},
		{"f() { ls | grep x; }; f", false},
		{"ls | ls", false},
	}
	for _, tt := range tests {
		if got := testAnalyzer().Analyze(tt.src, "/proj").ForkBomb; got != tt.want {
			t.Errorf("Analyze(%q).ForkBomb = %v, want %v", tt.src, got, tt.want)
		}
	}
}

// TestAnalyzeBounded checks that command lines whose expansions explode
// (brace products, huge sequences) are analysed in bounded time: they are
// marked dynamic instead of expanded. Each runs in a child process that is
// killed when it takes too long, so a failure does not eat the machine.
func TestAnalyzeBounded(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, src string }{
		{"brace product", "echo " + strings.Repeat("{a,b}", 24)},
		{"wide brace product", "rm " + strings.Repeat("{a,b,c,d}", 12)},
		{"huge sequence", "rm {1..100000000}"},
		{"letter sequences", "rm {a..z}{a..z}{a..z}{a..z}{a..z}"},
		{"for over a brace product", "for x in " + strings.Repeat("{a,b}", 24) + "; do rm $x; done"},
		{"deep bash -c", nest("rm -rf /", MaxDepth+1)},
		{"deep heredocs", heredocs("rm -rf /", 500)},
		{"long eval chain", strings.Repeat("eval ", 5000) + "rm x"},
		{"many wrappers", strings.Repeat("sudo nice nohup ", 1000) + "rm x"},
		{"deep subshells", strings.Repeat("(", 2000) + "rm x" + strings.Repeat(")", 2000)},
		{"deep substitutions", strings.Repeat("$(", 1000) + "rm x" + strings.Repeat(")", 1000)},
		{"unbalanced interpreter code", `python3 -c "` + strings.Repeat("open(", 60000) + `"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command(exe, "-test.run=^$")
			src := filepath.Join(t.TempDir(), "src")
			if err := os.WriteFile(src, []byte(tt.src), 0o644); err != nil {
				t.Fatal(err)
			}
			cmd.Env = append(os.Environ(), "GORACE="+strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"), childEnv+"=@"+src)
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			// A bounded analysis takes milliseconds; one that is not never
			// ends, and fails by the test binary's own timeout: no clock is
			// read here, so a busy machine fails nothing.
			if err := cmd.Run(); err != nil {
				t.Errorf("Analyze(%.60q…) in a child: %v\n%s", tt.src, err, out.String())
			}
		})
	}
}

// corpus returns the commands of ../risk/testdata/commands.txt (its third
// " | " field; "⏎" stands for a newline).
func corpus(t testing.TB) []string {
	t.Helper()
	f, err := os.Open("../risk/testdata/commands.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		parts := strings.SplitN(line, " | ", 3)
		if len(parts) != 3 {
			t.Fatalf("commands.txt: malformed line %q", line)
		}
		out = append(out, strings.ReplaceAll(parts[2], "⏎", "\n"))
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatal("no commands in ../risk/testdata/commands.txt")
	}
	return out
}

// peerCommands returns the commands of the peer guards' test cases
// (../risk/testdata/peers), as more seeds.
func peerCommands(t testing.TB) []string {
	t.Helper()
	files, _ := filepath.Glob("../risk/testdata/peers/*.txt")
	var out []string
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(data), "\n") {
			if p := strings.SplitN(line, " | ", 5); len(p) == 5 && !strings.HasPrefix(line, "#") && filepath.Base(file) != "disagreements.txt" {
				out = append(out, strings.ReplaceAll(p[4], "⏎", "\n"))
			}
		}
	}
	return out
}

// checkAnalysis checks the invariants every analysis keeps.
func checkAnalysis(t *testing.T, src string, a *Analysis) {
	t.Helper()
	if a.Source != src {
		t.Fatalf("Source = %q, want the input", a.Source)
	}
	lines := strings.Count(src, "\n") + 1
	cmds := map[*Cmd]bool{}
	for _, c := range a.Cmds {
		if c == nil {
			t.Fatalf("nil Cmd in %q", src)
		}
		cmds[c] = true
	}
	for i, c := range a.Cmds {
		redirOnly := c.Name == "" && c.NameWord.Raw == "" && len(c.Args) == 0
		if c.Args == nil && !redirOnly {
			t.Fatalf("Cmd %d (%q) has nil Args", i, render(c))
		}
		if redirOnly && len(c.Redirs) == 0 {
			t.Fatalf("Cmd %d is empty: no name, arguments or redirections", i)
		}
		if c.Name != "" && c.Name != "/" && c.Name != path.Base(c.Name) {
			t.Fatalf("Cmd %d Name %q holds a directory", i, c.Name)
		}
		if c.Line < 1 || c.Line > lines {
			t.Fatalf("Cmd %d (%q) Line = %d, want 1..%d", i, render(c), c.Line, lines)
		}
		for _, v := range c.Via {
			if v == "" {
				t.Fatalf("Cmd %d (%q) has an empty Via entry", i, render(c))
			}
		}
		words := append([]Word{c.NameWord}, c.Args...)
		for _, r := range c.Redirs {
			words = append(words, r.Target)
		}
		for _, w := range words {
			if w.Dynamic && w.Values != nil {
				t.Fatalf("Cmd %d (%q): dynamic word %q has values %q", i, render(c), w.Raw, w.Values)
			}
			if len(w.Values) >= maxValues {
				t.Fatalf("Cmd %d (%q): word %q has %d values", i, render(c), w.Raw, len(w.Values))
			}
			if w.FromInput && !w.Dynamic {
				t.Fatalf("Cmd %d (%q): input word %q not dynamic", i, render(c), w.Raw)
			}
		}
		// Input chains end, at commands of this analysis.
		n := 0
		for in := c.Input; in != nil; in = in.Input {
			if in.Compound && in.Name == "" && len(in.Args) == 0 && in.Input == nil {
				break // a compound command's output: no command of its own
			}
			if !cmds[in] {
				t.Fatalf("Cmd %d (%q): Input %q is not among the commands", i, render(c), render(in))
			}
			if n++; n > len(a.Cmds) {
				t.Fatalf("Cmd %d (%q): Input chain loops", i, render(c))
			}
		}
		_ = c.Text()
		_, _ = c.StdinText()
	}
	for _, o := range append(append([]string{}, a.Opaque...), a.OpaqueCode...) {
		if o == "" {
			t.Fatal("empty Opaque entry")
		}
	}
}

// TestAnalyzeCorpus runs the guard's corpus through the invariants, and
// checks that analysis is deterministic.
func TestAnalyzeCorpus(t *testing.T) {
	for _, src := range corpus(t) {
		a := testAnalyzer().Analyze(src, "/proj")
		checkAnalysis(t, src, a)
		b := testAnalyzer().Analyze(src, "/proj")
		if x, y := renderAll(a), renderAll(b); !reflect.DeepEqual(x, y) {
			t.Errorf("Analyze(%q) is not deterministic: %q then %q", src, x, y)
		}
	}
}

// FuzzAnalyze checks that no command line makes Analyze panic, and that
// every analysis keeps the invariants. Inputs are bounded in size so each
// runs in well under a second.
func FuzzAnalyze(f *testing.F) {
	for _, src := range corpus(f) {
		f.Add(src)
	}
	for _, src := range peerCommands(f) {
		f.Add(src)
	}
	for _, s := range []string{nest("rm -rf /", 4), heredocs("rm x", MaxDepth+1), "echo {a,b}{c,d}", "cat <<EOF | bash\nrm $X\nEOF",
		`python -c 'import os; os.system("rm -rf /")'`, "ssh h 'ssh h2 rm x'", "ls | xargs -I% sh -c 'rm %'"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 2048 {
			return
		}
		var a *Analysis
		done := make(chan struct{})
		go func() {
			defer close(done)
			a = testAnalyzer().Analyze(src, "/proj")
		}()
		if f := flag.Lookup("test.fuzz"); f != nil && f.Value.String() != "" {
			// Only while fuzzing, which gives no input a deadline of its
			// own; the seeds (go test) read no clock.
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				t.Fatalf("Analyze(%q) did not return in 5s", src)
			}
		}
		<-done
		checkAnalysis(t, src, a)
		b := testAnalyzer().Analyze(src, "/proj")
		if x, y := renderAll(a), renderAll(b); !reflect.DeepEqual(x, y) {
			t.Fatalf("Analyze(%q) is not deterministic: %q then %q", src, x, y)
		}
		if (a.ParseErr == nil) != (b.ParseErr == nil) {
			t.Fatalf("Analyze(%q) ParseErr not deterministic", src)
		}
		if a.ParseErr != nil && errors.Unwrap(a.ParseErr) == nil && a.ParseErr.Error() == "" {
			t.Fatalf("Analyze(%q): empty ParseErr", src)
		}
	})
}

func TestUnescape(t *testing.T) {
	for in, want := range map[string]string{
		`plain`:           "plain",
		`a\ b`:            "a b",
		`\\`:              `\`,
		"--no-\\\nverify": "--no-verify", // a line continuation is nothing
		`end\`:            `end\`,
	} {
		if got := Unescape(in); got != want {
			t.Errorf("Unescape(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestRefusedReadsAs checks that a line Bash refuses, which runs nothing,
// is read with its quote closed as inert commands (package risk asks when
// it would refuse them), and that what ran before it is not.
func TestRefusedReadsAs(t *testing.T) {
	tests := []struct {
		src   string
		runs  []string
		inert []string
	}{
		{"git reset --hard 'oops", nil, []string{"git"}},
		{"echo ok\nrm -rf src \"x", []string{"echo"}, []string{"rm"}},
		{"rm -rf src; git clean -f 'x", nil, []string{"rm", "git"}},
		{"bash -c \"git clean -fdx; echo 'x\"", []string{"bash"}, []string{"git", "echo"}},
		// Not refused (an alias may close the quote): asked about whole.
		{"alias x=y\nx 'oops", []string{"alias"}, nil},
	}
	for _, tt := range tests {
		a := testAnalyzer().Analyze(tt.src, "/proj")
		var runs, inert []string
		for _, c := range a.Cmds {
			runs = append(runs, c.Name)
		}
		for _, c := range a.Inert {
			if !strings.Contains(c.Inert, "quote left open") {
				t.Errorf("Analyze(%q): inert %s says %q, want the open quote", tt.src, c.Name, c.Inert)
			}
			inert = append(inert, c.Name)
		}
		if !reflect.DeepEqual(runs, tt.runs) || !reflect.DeepEqual(inert, tt.inert) {
			t.Errorf("Analyze(%q) runs %q and reads as %q, want %q and %q", tt.src, runs, inert, tt.runs, tt.inert)
		}
	}
}

// TestSQLScript checks that a script a database shell reads on stdin is
// opaque when it names a shell escape or an output file, and only then.
func TestSQLScript(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{"bad.sql": "select 1;\n.shell rm -rf tests\n", "out.sql": ".output x.txt\nselect 1;\n", "ok.sql": "select 1;\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tt := range []struct {
		cmd    string
		opaque bool
	}{
		{"sqlite3 x.db < bad.sql", true},
		{"sqlite3 x.db < out.sql", true},
		{"sqlite3 x.db < ok.sql", false},
		{"psql < bad.sql", false}, // .shell is sqlite3's
	} {
		a := testAnalyzer().Analyze(tt.cmd, dir)
		if got := len(a.Opaque) > 0; got != tt.opaque {
			t.Errorf("Analyze(%q): opaque %q, want opaque %v", tt.cmd, a.Opaque, tt.opaque)
		}
	}
}
