package proc

import (
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"testing"
)

func TestAlive(t *testing.T) {
	if !Alive(os.Getpid()) {
		t.Error("Alive(self) = false")
	}
	for _, pid := range []int{0, -1} {
		if Alive(pid) {
			t.Errorf("Alive(%d) = true", pid)
		}
	}
	cmd := exec.Command("sh", "-c", "exit 0")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	if Alive(cmd.Process.Pid) {
		t.Errorf("Alive(%d) = true after it exited and was reaped", cmd.Process.Pid)
	}
}

func TestOwnerSkipsShells(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the process table is read from /proc")
	}
	if os.Getenv("PROC_TEST_OWNER") == "1" {
		os.Stdout.WriteString(strconv.Itoa(Owner()))
		os.Exit(0)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// test binary → sh → sh → test binary (child): the child's owner is us.
	cmd := exec.Command("sh", "-c", `sh -c '"$0" -test.run=TestOwnerSkipsShells; true' "$0"`, exe)
	cmd.Env = append(os.Environ(), "PROC_TEST_OWNER=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(out), strconv.Itoa(os.Getpid()); got != want {
		t.Errorf("Owner() through two shells = %s, want %s (the test process)", got, want)
	}
}

func TestStat(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the process table is read from /proc")
	}
	name, ppid, ok := stat(os.Getpid())
	if !ok || ppid != os.Getppid() || name == "" {
		t.Errorf("stat(self) = %q, %d, %v; want ppid %d", name, ppid, ok, os.Getppid())
	}
	if _, _, ok := stat(-5); ok {
		t.Error("stat(-5) ok")
	}
}
