package ui

import (
	"bytes"
	"errors"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// Columns of the task board: the folders of ralph run, Approved split in
// the tasks waiting and those running (a persistence_loop has started).
var columns = []string{"Approved", "running", "Done", "Rejected"}

// Task is one task file of the board.
type Task struct {
	File     string         `json:"file"` // relative to the tasks folder
	ID       string         `json:"id"`
	Title    string         `json:"title"`
	State    string         `json:"state"`
	Column   string         `json:"column"`
	Front    map[string]any `json:"front_matter"` // all of it: its persistence_loop, retries, reason…
	Modified time.Time      `json:"modified"`
	Error    string         `json:"error,omitempty"` // the file could not be read
}

// maxTasks bounds the task files read per folder.
const maxTasks = 500

func (s *Server) apiTasks(w http.ResponseWriter, r *http.Request) {
	board := map[string][]Task{}
	for _, c := range columns {
		board[c] = []Task{}
	}
	found := false
	for _, dir := range []string{"Approved", "Done", "Rejected"} {
		ents, err := os.ReadDir(filepath.Join(s.Tasks, dir))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		found = true
		if err != nil {
			fail(w, http.StatusInternalServerError, err)
			return
		}
		n := 0
		for _, e := range ents {
			if e.IsDir() || !strings.HasSuffix(e.Name(), ".md") || n == maxTasks {
				continue
			}
			n++
			t := readTask(filepath.Join(s.Tasks, dir, e.Name()))
			t.File = dir + "/" + e.Name()
			t.Column = dir
			if dir == "Approved" && running(t) {
				t.Column = "running"
			}
			board[t.Column] = append(board[t.Column], t)
		}
	}
	for _, ts := range board {
		sort.SliceStable(ts, func(i, j int) bool { return ts[i].Modified.After(ts[j].Modified) })
	}
	reply(w, http.StatusOK, map[string]any{"dir": s.Tasks, "found": found, "columns": columns, "board": board})
}

// running reports whether an approved task's persistence loop has started.
func running(t Task) bool {
	if strings.EqualFold(t.State, "running") || strings.EqualFold(t.State, "in_progress") {
		return true
	}
	pl, ok := t.Front["persistence_loop"].(map[string]any)
	return ok && pl["started"] != nil
}

// maxTaskFile bounds what is read of a task file.
const maxTaskFile = 256 << 10

// readTask reads a task file's front matter and first heading.
func readTask(path string) Task {
	t := Task{Front: map[string]any{}}
	if fi, err := os.Stat(path); err == nil {
		t.Modified = fi.ModTime()
	}
	f, err := os.Open(path)
	if err != nil {
		t.Error = err.Error()
		return t
	}
	defer f.Close()
	data := make([]byte, maxTaskFile)
	n, _ := f.Read(data)
	data = bytes.ReplaceAll(data[:n], []byte("\r\n"), []byte("\n"))
	body := data
	if rest, ok := bytes.CutPrefix(data, []byte("---\n")); ok {
		front, after, ok := bytes.Cut(rest, []byte("\n---"))
		if !ok {
			t.Error = "front matter does not end with ---"
		} else if err := yaml.Unmarshal(front, &t.Front); err != nil {
			t.Error = "front matter: " + err.Error()
		}
		body = after
	}
	if t.Front == nil {
		t.Front = map[string]any{}
	}
	t.ID, _ = t.Front["id"].(string)
	t.State, _ = t.Front["state"].(string)
	for _, line := range strings.Split(string(body), "\n") {
		if h, ok := strings.CutPrefix(line, "# "); ok {
			t.Title = strings.TrimSpace(h)
			break
		}
	}
	if t.Title == "" {
		t.Title = strings.TrimSuffix(filepath.Base(path), ".md")
	}
	return t
}
