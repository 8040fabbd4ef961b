// Command agent is the scripted agent of ralph run's tests: a stand-in for
// a real agent, never a model. It reads the task from stdin and plays the
// script in the task's body, a fenced block:
//
//	```agent
//	1: err API Error: 429 rate limited; exit 1
//	2: write done.txt
//	*: echo nothing to do
//	```
//
// Line N is what the agent does on its N-th run on the task (counted in
// .agent/TASK.runs in the working directory); a line "*" is for every run
// without a line of its own; no line: the run does nothing and exits 0.
// Actions, separated by ";":
//
//	write FILE [TEXT]   write FILE (TEXT, default "ok")
//	append FILE TEXT    append a line to FILE
//	rm FILE             remove FILE
//	echo TEXT           print TEXT on stdout
//	err TEXT            print TEXT on stderr
//	stdin FILE          save what it read on stdin to FILE
//	env FILE            save its RALPH_* environment to FILE
//	copytask FILE       copy the task file (RALPH_TASK_FILE) to FILE
//	movetask DIR        move the task file (RALPH_TASK_FILE) into DIR
//	copyloop FILE       copy its loop's state.json (RALPH_LOOP_ID) to FILE
//	signal SIG NAME     send SIG (TERM, INT) to its nearest ancestor
//	                    process named NAME (Linux)
//	signals SIG NAME    the same every 50 ms until killed (signals sent
//	                    back to back may arrive as one)
//	spawn FILE          start a child that sleeps (in the agent's process
//	                    group) and write its pid to FILE
//	detach FILE         start a child that sleeps 30 s in a session of its
//	                    own (it outlives the agent) and write its pid to FILE
//	killpid FILE        kill the process whose pid FILE holds, and wait
//	                    until it is gone
//	hang                wait until killed
//	kill                kill itself with SIGKILL
//	exit N              exit with status N
//
// Unless the line says "noreflect", the run ends by printing a
// <reflection> block, as an agent asked for one would.
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func main() {
	in, err := io.ReadAll(os.Stdin)
	if err != nil {
		fail(err)
	}
	id := os.Getenv("RALPH_TASK_ID")
	if id == "" {
		fail(fmt.Errorf("RALPH_TASK_ID is not set"))
	}
	if err := os.MkdirAll(".agent", 0o755); err != nil {
		fail(err)
	}
	counter := filepath.Join(".agent", id+".runs")
	n := 1
	if data, err := os.ReadFile(counter); err == nil {
		n, _ = strconv.Atoi(strings.TrimSpace(string(data)))
		n++
	}
	if err := os.WriteFile(counter, []byte(strconv.Itoa(n)+"\n"), 0o644); err != nil {
		fail(err)
	}
	line := script(string(in), n)
	reflect := !strings.Contains(line, "noreflect")
	code := 0
	for _, act := range strings.Split(line, ";") {
		verb, arg, _ := strings.Cut(strings.TrimSpace(act), " ")
		arg = strings.TrimSpace(arg)
		switch verb {
		case "", "noreflect":
		case "write":
			file, text, ok := strings.Cut(arg, " ")
			if !ok {
				text = "ok"
			}
			check(os.WriteFile(file, []byte(text+"\n"), 0o644))
		case "append":
			file, text, _ := strings.Cut(arg, " ")
			f, err := os.OpenFile(file, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
			check(err)
			fmt.Fprintln(f, text)
			check(f.Close())
		case "rm":
			check(os.Remove(arg))
		case "echo":
			fmt.Println(arg)
		case "err":
			fmt.Fprintln(os.Stderr, arg)
		case "stdin":
			check(os.WriteFile(arg, in, 0o644))
		case "env":
			var vars []string
			for _, kv := range os.Environ() {
				if strings.HasPrefix(kv, "RALPH_") {
					vars = append(vars, kv)
				}
			}
			sort.Strings(vars)
			check(os.WriteFile(arg, []byte(strings.Join(vars, "\n")+"\n"), 0o644))
		case "copytask":
			data, err := os.ReadFile(os.Getenv("RALPH_TASK_FILE"))
			check(err)
			check(os.WriteFile(arg, data, 0o644))
		case "movetask":
			src := os.Getenv("RALPH_TASK_FILE")
			check(os.MkdirAll(arg, 0o755))
			check(os.Rename(src, filepath.Join(arg, filepath.Base(src))))
		case "copyloop":
			data, err := os.ReadFile(filepath.Join(".aiwg", "ralph", "loops", os.Getenv("RALPH_LOOP_ID"), "state.json"))
			check(err)
			check(os.WriteFile(arg, data, 0o644))
		case "signal":
			sig, name, _ := strings.Cut(arg, " ")
			check(signal(sig, name))
		case "signals":
			sig, name, _ := strings.Cut(arg, " ")
			for {
				check(signal(sig, name))
				time.Sleep(50 * time.Millisecond)
			}
		case "spawn":
			c := exec.Command("sleep", "1000")
			check(c.Start())
			check(os.WriteFile(arg, []byte(strconv.Itoa(c.Process.Pid)), 0o644))
		case "detach":
			// A child in a session of its own, which outlives the agent
			// and its process group; a bounded sleep, killed by "killpid".
			c := exec.Command("sleep", "30")
			c.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
			check(c.Start())
			check(os.WriteFile(arg, []byte(strconv.Itoa(c.Process.Pid)), 0o644))
			c.Process.Release()
		case "killpid":
			data, err := os.ReadFile(arg)
			check(err)
			pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
			check(err)
			syscall.Kill(pid, syscall.SIGKILL)
			for syscall.Kill(pid, 0) == nil { // gone, or a zombie of init's
				if b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat"); err != nil || strings.Contains(string(b), ") Z ") {
					break
				}
				time.Sleep(10 * time.Millisecond)
			}
		case "hang":
			for {
				time.Sleep(time.Hour)
			}
		case "kill":
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
			for {
				time.Sleep(time.Hour)
			}
		case "exit":
			code, err = strconv.Atoi(arg)
			check(err)
		default:
			fail(fmt.Errorf("unknown action %q", verb))
		}
	}
	if reflect {
		fmt.Printf("<reflection>\nAttempted: run %d of task %s\nResult: played line %q\nLearned: scripted\nNext: run %d\n</reflection>\n", n, id, line, n+1)
	}
	os.Exit(code)
}

// signal sends sig to the nearest ancestor process named name.
func signal(sig, name string) error {
	s := map[string]syscall.Signal{"TERM": syscall.SIGTERM, "INT": syscall.SIGINT, "KILL": syscall.SIGKILL}[sig]
	if s == 0 {
		return fmt.Errorf("unknown signal %q", sig)
	}
	pid := os.Getppid()
	for range 16 {
		data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			return err
		}
		st := string(data)
		open, close := strings.IndexByte(st, '('), strings.LastIndexByte(st, ')')
		if st[open+1:close] == name {
			return syscall.Kill(pid, s)
		}
		f := strings.Fields(st[close+1:])
		if pid, err = strconv.Atoi(f[1]); err != nil || pid <= 1 {
			break
		}
	}
	return fmt.Errorf("no ancestor named %s", name)
}

// script returns the line of the script for run n.
func script(in string, n int) string {
	var def string
	inBlock := false
	sc := bufio.NewScanner(strings.NewReader(in))
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		switch {
		case l == "```agent":
			inBlock = true
			continue
		case inBlock && l == "```":
			inBlock = false
		}
		if !inBlock {
			continue
		}
		key, rest, ok := strings.Cut(l, ":")
		if !ok {
			continue
		}
		if key == "*" {
			def = rest
		} else if k, err := strconv.Atoi(key); err == nil && k == n {
			return rest
		}
	}
	return def
}

func check(err error) {
	if err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "agent:", err)
	os.Exit(3)
}
