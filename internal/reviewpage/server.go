// Package reviewpage is a front end that shows a pending plan on a local
// web page: the plan rendered and with its line numbers, the permissions
// it asks for and the files it names; the reader comments on lines and
// approves (with any option and model), sends the plan back with the
// comments, or rejects it. Every answer goes to the session through app,
// like the terminal's; whichever front end answers first wins.
//
// The page is served on 127.0.0.1 only, on a port the kernel picks, and
// every request must carry the random token of its address; a request
// naming another host (a DNS rebinding) or coming from another origin is
// refused. The page loads nothing from elsewhere, so it works offline.
package reviewpage

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/ponder-agent/ponder/event"
)

// Answerer takes the page's answers: Check says why an answer would be
// refused, Answer gives it and reports whether the question was still
// open (app.App implements both).
type Answerer interface {
	CheckPlanAnswer(q event.Question, ans event.Answer) error
	Answer(id string, ans event.Answer) bool
}

// Server serves the review page of one session's plan questions.
type Server struct {
	answerer Answerer
	token    string
	ln       net.Listener
	srv      *http.Server

	mu       sync.Mutex
	q        *event.Question // the open plan question, nil when none
	answered map[string]bool // questions this page or another answered
	version  int             // bumped on every change, for the live view
	changed  chan struct{}   // closed and replaced on every change
	done     chan struct{}   // closed by Close: live views end
	once     sync.Once
}

// New listens on a random port of 127.0.0.1 with a fresh token.
func New(a Answerer) (*Server, error) {
	var b [24]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("review page: %v", err)
	}
	s := &Server{answerer: a, token: hex.EncodeToString(b[:]), ln: ln, answered: map[string]bool{}, changed: make(chan struct{}),
		done: make(chan struct{})}
	s.srv = &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second}
	return s, nil
}

// URL is the page's address, token included.
func (s *Server) URL() string { return "http://" + s.ln.Addr().String() + "/?token=" + s.token }

// Serve serves until Close.
func (s *Server) Serve() error {
	err := s.srv.Serve(s.ln)
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// Close stops the page: open live views end, and the port is released.
func (s *Server) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	s.mu.Lock()
	s.q = nil
	s.bumpLocked()
	s.mu.Unlock()
	s.once.Do(func() { close(s.done) })
	err := s.srv.Shutdown(ctx)
	if err != nil {
		err = s.srv.Close()
	}
	return err
}

// Observe follows the session's events: a plan question opens on the page,
// and closes there when any front end answered it.
func (s *Server) Observe(e event.Event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch e := e.(type) {
	case event.QuestionAsked:
		if e.Question.Kind != event.AskPlanExit {
			return
		}
		q := e.Question
		s.q = &q
	case event.QuestionClosed:
		s.answered[e.ID] = true
		if s.q == nil || s.q.ID != e.ID {
			return
		}
		s.q = nil
	default:
		return
	}
	s.bumpLocked()
}

func (s *Server) bumpLocked() {
	s.version++
	close(s.changed)
	s.changed = make(chan struct{})
}

// current is the open question, the view's version and a channel closed
// at the next change.
func (s *Server) current() (*event.Question, int, <-chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.q, s.version, s.changed
}

// Handler is the page's HTTP handler, every route behind the guard.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.page)
	mux.HandleFunc("GET /events", s.events)
	mux.HandleFunc("POST /answer", s.answer)
	return s.guard(mux)
}

// guard refuses requests that name another host, come from another
// origin or lack the token.
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := s.admit(r); err != nil {
			http.Error(w, err.Error(), http.StatusForbidden)
			return
		}
		h := w.Header()
		h.Set("Cache-Control", "no-store")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		next.ServeHTTP(w, r)
	})
}

// admit says why r is refused, or nil.
func (s *Server) admit(r *http.Request) error {
	port := s.port()
	if !loopbackHost(r.Host, port) {
		return errors.New("this page answers only at 127.0.0.1 or localhost")
	}
	if o := r.Header.Get("Origin"); o != "" && o != "http://127.0.0.1:"+port && o != "http://localhost:"+port {
		return errors.New("requests from another origin are refused")
	}
	if site := r.Header.Get("Sec-Fetch-Site"); site != "" && site != "same-origin" && site != "none" {
		return errors.New("requests from another site are refused")
	}
	tok := r.URL.Query().Get("token")
	if t := r.Header.Get("X-Review-Token"); t != "" {
		tok = t
	}
	if subtle.ConstantTimeCompare([]byte(tok), []byte(s.token)) != 1 {
		return errors.New("a valid token is needed: open the address ponder printed")
	}
	return nil
}

func (s *Server) port() string {
	_, port, _ := net.SplitHostPort(s.ln.Addr().String())
	return port
}

// loopbackHost reports whether a Host header names this server on the
// loopback address.
func loopbackHost(host, port string) bool {
	h, p, err := net.SplitHostPort(host)
	if err != nil || p != port {
		return false
	}
	return h == "127.0.0.1" || strings.EqualFold(h, "localhost")
}

// page renders the open question, or says there is none.
func (s *Server) page(w http.ResponseWriter, _ *http.Request) {
	q, version, _ := s.current()
	nonce, err := newNonce()
	if err != nil {
		http.Error(w, "no randomness", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Security-Policy", "default-src 'none'; script-src 'nonce-"+nonce+"'; style-src 'nonce-"+nonce+"'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if err := render(w, view(q, version, nonce)); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
	}
}

// events streams the open question's id whenever the view changes
// (Server-Sent Events): the page reloads for a new question, and says so
// when its own was answered elsewhere.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	for {
		q, version, changed := s.current()
		id := ""
		if q != nil {
			id = q.ID
		}
		msg, _ := json.Marshal(map[string]any{"version": version, "id": id})
		if _, err := fmt.Fprintf(w, "data: %s\n\n", msg); err != nil {
			return
		}
		fl.Flush()
		select {
		case <-r.Context().Done():
			return
		case <-s.done:
			return
		case <-changed:
		}
	}
}

// answerRequest is what the page posts.
type answerRequest struct {
	// ID is the question the page showed.
	ID string `json:"id"`
	// Action is approve, revise (send back with the comments) or reject.
	Action      string             `json:"action"`
	Option      string             `json:"option"`
	Model       string             `json:"model"`
	Feedback    string             `json:"feedback"`
	Annotations []event.Annotation `json:"annotations"`
}

// answer gives the page's answer to the open question. An answer to a
// question that is closed (answered here or elsewhere) is refused.
func (s *Server) answer(w http.ResponseWriter, r *http.Request) {
	var req answerRequest
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<20)).Decode(&req); err != nil {
		http.Error(w, "bad answer: "+err.Error(), http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	q := s.q
	if q == nil || q.ID != req.ID || s.answered[req.ID] {
		s.mu.Unlock()
		http.Error(w, "this plan is no longer waiting for an answer", http.StatusConflict)
		return
	}
	ans, err := req.toAnswer()
	if err == nil {
		err = s.answerer.CheckPlanAnswer(*q, ans)
	}
	if err != nil {
		s.mu.Unlock()
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	// Marked before it is given, under the lock, so that two answers
	// racing each other cannot both pass.
	s.answered[req.ID] = true
	s.mu.Unlock()
	if !s.answerer.Answer(req.ID, ans) {
		http.Error(w, "this plan is no longer waiting for an answer", http.StatusConflict)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write([]byte(`{"ok":true}`))
}

// toAnswer turns the request into the session's answer.
func (r answerRequest) toAnswer() (event.Answer, error) {
	var notes []event.Annotation
	for _, a := range r.Annotations {
		if c := strings.TrimSpace(a.Comment); c != "" {
			notes = append(notes, event.Annotation{Line: a.Line, Comment: c})
		}
	}
	switch r.Action {
	case "approve":
		if r.Option == "" || r.Option == event.OptionReject {
			return event.Answer{}, errors.New("choose how to approve")
		}
		return event.Answer{Option: r.Option, Model: strings.TrimSpace(r.Model)}, nil
	case "revise":
		if len(notes) == 0 && strings.TrimSpace(r.Feedback) == "" {
			return event.Answer{}, errors.New("write a comment or some feedback to send the plan back")
		}
		return event.Answer{Option: event.OptionReject, Feedback: strings.TrimSpace(r.Feedback), Annotations: notes}, nil
	case "reject":
		fb := strings.TrimSpace(r.Feedback)
		if fb == "" {
			fb = "The user rejected the plan."
		}
		return event.Answer{Option: event.OptionReject, Feedback: fb, Annotations: notes}, nil
	}
	return event.Answer{}, fmt.Errorf("unknown action %q (want approve, revise or reject)", r.Action)
}

func newNonce() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return hex.EncodeToString(b[:]), nil
}
