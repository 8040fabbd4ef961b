package cli

import (
	"bufio"
	"io"
	"net/http"
	"os"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// ralph ui, as its own process: it prints the URL with the token, which
// is in none of its arguments or environment; it answers only with the
// token; an interrupt stops it cleanly.
func TestUIProcess(t *testing.T) {
	dir := project1(t)
	cmd := ralphCmd(t, dir, "ui")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	// Wait for the URL: the server listens before it prints it.
	r := bufio.NewReader(out)
	var u string
	re := regexp.MustCompile(`^  (http://127\.0\.0\.1:[0-9]+/\?t=([A-Za-z0-9_-]{43}))$`)
	var token string
	for u == "" {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("ralph ui printed no URL: %v", err)
		}
		if m := re.FindStringSubmatch(strings.TrimRight(line, "\n")); m != nil {
			u, token = m[1], m[2]
		}
	}
	go io.Copy(io.Discard, r)
	if runtime.GOOS == "linux" {
		for _, f := range []string{"cmdline", "environ"} {
			data, err := os.ReadFile("/proc/" + strconv.Itoa(cmd.Process.Pid) + "/" + f)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(data), token) {
				t.Errorf("the token is in ralph ui's %s", f)
			}
		}
	}
	res, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Errorf("GET with the token: %d", res.StatusCode)
	}
	res, err = http.Get(strings.Split(u, "?")[0])
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 401 {
		t.Errorf("GET without the token: %d", res.StatusCode)
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Errorf("ralph ui after an interrupt: %v", err)
	}
}
