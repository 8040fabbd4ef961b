// Package ui is `ralph ui`: a local web dashboard of the project's loops,
// served by the ralph binary itself on 127.0.0.1, with no asset from
// anywhere else. It shows every loop, its quality trajectory as a chart,
// its iterations with their reflections, regressions, recovery attempts,
// checkpoints and audit log, the task folders of `ralph run` as a board,
// and for a loop waiting at its human gate the evidence (the files the
// iteration changed, the tests it deleted, the diff of the test files) with
// approve, reject and abort buttons that take the decision through the very
// function `ralph gate` calls (loop.DecideGate). The page refreshes itself.
//
// # Who may use it
//
// The buttons decide for the loop that supervises the agent, so only the
// human may press them. Every request must carry the run's token: 32
// random bytes made at start, printed once in the URL on the human's
// terminal and kept nowhere else (no file, no environment, no process
// argument: the agent can read none of those). It is compared in constant
// time. A request must also name this server in its Host header (a DNS
// rebinding page names its own) and, when it has an Origin, come from this
// server's origin; a POST must have one. The server listens on 127.0.0.1
// only.
package ui

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/subtle"
	"embed"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/ralph-hooks/ralph-hooks/internal/loop"
)

//go:embed static
var static embed.FS

// Server is one run of the dashboard.
type Server struct {
	Root  string // the project
	Tasks string // the task folders of ralph run (Approved, Done, Rejected)
	Now   func() time.Time

	token string
	port  string // the port it listens on, for the Host and Origin checks
}

// New returns a dashboard of the project at root, with a new token.
func New(root, tasks string) (*Server, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return nil, fmt.Errorf("ui: making the token: %w", err)
	}
	return &Server{Root: root, Tasks: tasks, Now: time.Now, token: base64.RawURLEncoding.EncodeToString(b)}, nil
}

// Listen opens the server's socket on 127.0.0.1 (port 0: any free port).
func (s *Server) Listen(port int) (net.Listener, error) {
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		return nil, fmt.Errorf("ui: %w", err)
	}
	s.port = strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	return ln, nil
}

// URL is the address to open, the token in it.
func (s *Server) URL() string {
	return "http://127.0.0.1:" + s.port + "/?t=" + s.token
}

// Serve serves the dashboard on ln until ctx is done.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second}
	done := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			srv.Shutdown(shut)
		case <-done:
		}
	}()
	err := srv.Serve(ln)
	close(done)
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// Handler is the dashboard's handler, every route behind the checks.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.index)
	mux.HandleFunc("GET /app.js", s.asset("static/app.js", "text/javascript; charset=utf-8"))
	mux.HandleFunc("GET /app.css", s.asset("static/app.css", "text/css; charset=utf-8"))
	mux.HandleFunc("GET /api/loops", s.apiLoops)
	mux.HandleFunc("GET /api/loop", s.apiLoop)
	mux.HandleFunc("GET /api/log", s.apiLog)
	mux.HandleFunc("GET /api/tasks", s.apiTasks)
	mux.HandleFunc("POST /api/gate", s.apiGate)
	return s.guard(mux)
}

// guard refuses a request from anyone but the human's browser: one with
// another Host (DNS rebinding), another Origin, a POST without an Origin,
// or without the token.
func (s *Server) guard(next http.Handler) http.Handler {
	hosts := map[string]bool{"127.0.0.1:" + s.port: true, "localhost:" + s.port: true}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Cache-Control", "no-store")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
		if !hosts[r.Host] {
			http.Error(w, "ralph ui: wrong Host", http.StatusMisdirectedRequest)
			return
		}
		origin := r.Header.Get("Origin")
		if origin != "" && !hosts[strings.TrimPrefix(origin, "http://")] || r.Method != http.MethodGet && origin == "" {
			http.Error(w, "ralph ui: wrong or missing Origin", http.StatusForbidden)
			return
		}
		if site := r.Header.Get("Sec-Fetch-Site"); site != "" && site != "same-origin" && site != "none" {
			http.Error(w, "ralph ui: cross-site request", http.StatusForbidden)
			return
		}
		if !s.authorized(r) {
			http.Error(w, "ralph ui: no valid token (open the URL ralph ui printed)", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// authorized reports whether r carries the token: in an Authorization
// header (the page's own requests) or as ?t= (the URL, and its assets).
func (s *Server) authorized(r *http.Request) bool {
	got := r.URL.Query().Get("t")
	if auth := r.Header.Get("Authorization"); auth != "" {
		got = strings.TrimPrefix(auth, "Bearer ")
	}
	return subtle.ConstantTimeCompare([]byte(got), []byte(s.token)) == 1
}

func (s *Server) index(w http.ResponseWriter, r *http.Request) {
	page, err := static.ReadFile("static/index.html")
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	page = bytes.ReplaceAll(page, []byte("{{token}}"), []byte(html.EscapeString(s.token)))
	page = bytes.ReplaceAll(page, []byte("{{root}}"), []byte(html.EscapeString(s.Root)))
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write(page)
}

func (s *Server) asset(name, typ string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		data, err := static.ReadFile(name)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", typ)
		w.Write(data)
	}
}

// reply writes v as JSON with status code.
func reply(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(true)
	enc.Encode(v)
}

// fail replies an error as {"error": …}.
func fail(w http.ResponseWriter, code int, err error) {
	reply(w, code, map[string]string{"error": err.Error()})
}

// gateRequest is the body of POST /api/gate.
type gateRequest struct {
	Loop     string `json:"loop"`
	Decision string `json:"decision"`
}

// apiGate takes the human's decision at a loop's gate, exactly as ralph
// gate does.
func (s *Server) apiGate(w http.ResponseWriter, r *http.Request) {
	if ct, _, _ := strings.Cut(r.Header.Get("Content-Type"), ";"); strings.TrimSpace(ct) != "application/json" {
		fail(w, http.StatusUnsupportedMediaType, errors.New("want Content-Type application/json"))
		return
	}
	var req gateRequest
	dec := json.NewDecoder(io.LimitReader(r.Body, 4<<10))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		fail(w, http.StatusBadRequest, fmt.Errorf("the request: %v", err))
		return
	}
	// Not the request's context: a reject that restores files must not
	// stop half-way because the browser went away.
	d, err := loop.DecideGate(context.Background(), s.Root, req.Loop, req.Decision, s.Now())
	if d == nil {
		code := http.StatusConflict
		if strings.Contains(err.Error(), "invalid loop id") || strings.Contains(err.Error(), "unknown gate decision") {
			code = http.StatusBadRequest
		}
		fail(w, code, err)
		return
	}
	out := map[string]any{"lines": d.Lines(req.Loop, req.Decision), "status": d.State.Status}
	if err != nil {
		out["error"] = err.Error() // decided, but something after it failed
	}
	reply(w, http.StatusOK, out)
}
