package fakemodel

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"time"
)

// Server serves a Script over HTTP on 127.0.0.1, speaking both the
// Anthropic Messages API and OpenAI Chat Completions. It is safe for
// concurrent use.
type Server struct {
	book *book
	url  string
	http *http.Server
	stop chan struct{} // closed by Close; ends every wait

	mu       sync.Mutex
	closed   bool
	inflight sync.WaitGroup
}

// NewServer starts serving s on a free port of 127.0.0.1. Like
// httptest.NewServer it panics when it cannot listen, and it panics on a
// reply that cannot be served (see Script.Validate).
func NewServer(s Script) *Server {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(fmt.Sprintf("fakemodel: listening: %v", err))
	}
	srv := &Server{
		book: newBook(s),
		url:  "http://" + ln.Addr().String(),
		stop: make(chan struct{}),
	}
	srv.http = &http.Server{Handler: http.HandlerFunc(srv.serveHTTP), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.http.Serve(ln) }()
	return srv
}

// URL returns the server's address, such as http://127.0.0.1:41234.
func (s *Server) URL() string { return s.url }

// Env returns environment variables that point ponder at the server for
// api: ANTHROPIC_BASE_URL and ANTHROPIC_API_KEY for "anthropic",
// OPENAI_BASE_URL (ending in /v1) and OPENAI_API_KEY for "openai", and all
// four for any other value.
func (s *Server) Env(api string) []string {
	anth := []string{"ANTHROPIC_BASE_URL=" + s.url, "ANTHROPIC_API_KEY=fake-key"}
	oai := []string{"OPENAI_BASE_URL=" + s.url + "/v1", "OPENAI_API_KEY=fake-key"}
	switch api {
	case APIAnthropic:
		return anth
	case APIOpenAI:
		return oai
	}
	return append(anth, oai...)
}

// Add appends replies to the script while the server runs. It panics on a
// reply that cannot be served.
func (s *Server) Add(replies ...Reply) { s.book.add(replies...) }

// Requests returns a copy of the request log in arrival order. The
// messages and bodies in it are shared with the log: treat them as
// read-only.
func (s *Server) Requests() []Request { return s.book.requests() }

// Unused names the replies that still have uses left (an unlimited reply
// counts as used once it answered one request), in script order.
func (s *Server) Unused() []string { return s.book.unused() }

// WaitFor blocks until cond holds for the request log, or ctx is done. It
// lets a test wait for a request to arrive, or to finish, without polling.
// cond gets a copy of the log and is called again after every change.
func (s *Server) WaitFor(ctx context.Context, cond func([]Request) bool) error {
	return s.book.waitFor(ctx, cond)
}

// Close stops the server, cuts open connections, ends pending delays, and
// waits until every handler has returned.
func (s *Server) Close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	s.mu.Unlock()
	close(s.stop)
	_ = s.http.Close()
	s.inflight.Wait()
}

// enter registers a handler run; it fails once Close has begun.
func (s *Server) enter() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	s.inflight.Add(1)
	return true
}

func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	if !s.enter() {
		http.Error(w, "fakemodel: server closed", http.StatusServiceUnavailable)
		return
	}
	defer s.inflight.Done()

	body, readErr := io.ReadAll(r.Body)
	req := Request{
		Path:   r.URL.Path,
		Header: r.Header.Clone(),
		Body:   body,
		Time:   time.Now(),
	}
	var api wire
	switch r.URL.Path {
	case "/v1/messages":
		api, req.API = anthropicWire{}, APIAnthropic
	case "/v1/chat/completions", "/chat/completions":
		api, req.API = openAIWire{}, APIOpenAI
	default:
		req.Outcome = OutcomeBadRequest
		s.book.logOnly(req)
		writeJSON(w, http.StatusNotFound, map[string]any{
			"error": map[string]any{"type": "not_found_error", "message": "fakemodel: no API at " + r.URL.Path},
		})
		return
	}

	x := &exchange{w: w, rc: http.NewResponseController(w), ctx: r.Context(), stop: s.stop, req: &req, book: s.book, api: api}
	if readErr == nil && r.Method != http.MethodPost {
		readErr = fmt.Errorf("method %s not allowed, use POST", r.Method)
	}
	if readErr == nil {
		readErr = api.decode(x)
	}
	if readErr != nil {
		req.Outcome = OutcomeBadRequest
		s.book.logOnly(req)
		api.writeError(x, http.StatusBadRequest, "fakemodel: bad request: "+readErr.Error(), nil)
		return
	}

	reply, found, at := s.book.take(req)
	if !found {
		api.writeError(x, http.StatusBadRequest,
			"fakemodel: no scripted reply matches this request ("+req.describe()+")", nil)
		s.book.settle(at, OutcomeUnmatched)
		return
	}
	x.reply = reply
	s.book.settle(at, x.serve(api))
}

// wire is one of the two HTTP APIs.
type wire interface {
	// decode fills x.req (and x's options) from x.req.Body.
	decode(x *exchange) error
	// writeError sends an error response in the API's shape.
	writeError(x *exchange, status int, message string, header http.Header)
	// respond sends x.reply, streamed or whole as the request asked.
	respond(x *exchange) error
	// streamError is the event (name and payload) that reports an error
	// inside a stream in the API's shape.
	streamError(x *exchange) (event string, payload any)
}

// exchange is one request being answered.
type exchange struct {
	w    http.ResponseWriter
	rc   *http.ResponseController
	ctx  context.Context
	stop <-chan struct{}
	book *book
	api  wire

	req          *Request
	reply        Reply
	includeUsage bool // OpenAI stream_options.include_usage
	sent         int  // stream events written
	errorSent    bool // the scripted stream error went out
}

// Errors that end a reply early as the script asked.
var (
	errCut       = errors.New("fakemodel: connection cut as scripted")
	errStalled   = errors.New("fakemodel: stalled as scripted")
	errStreamErr = errors.New("fakemodel: stream error sent as scripted")
)

// serve waits the reply's delay and sends it, returning the outcome.
func (x *exchange) serve(api wire) string {
	if err := pause(x.ctx, x.stop, x.reply.Delay.D()); err != nil {
		return OutcomeCanceled
	}
	if x.reply.NoAnswer {
		_ = x.stall()
		return OutcomeStalled
	}
	if x.reply.Status != 0 {
		h := http.Header{}
		if x.reply.RetryAfter != "" {
			h.Set("retry-after", x.reply.RetryAfter)
		}
		if x.reply.RetryAfterMS != "" {
			h.Set("retry-after-ms", x.reply.RetryAfterMS)
		}
		api.writeError(x, x.reply.Status, errorMessage(x.reply), h)
		return OutcomeError
	}
	switch err := api.respond(x); {
	case err == nil:
		return OutcomeServed
	case errors.Is(err, errCut):
		return OutcomeCut
	case errors.Is(err, errStalled):
		return OutcomeStalled
	case errors.Is(err, errStreamErr):
		return OutcomeStreamErr
	default:
		return OutcomeCanceled
	}
}

// model is the model name to answer with.
func (x *exchange) model() string {
	if x.req.Model != "" {
		return x.req.Model
	}
	return "fake-model"
}

// startStream sends the headers of an event stream, and stalls after
// them when the reply says so.
func (x *exchange) startStream() error {
	h := x.w.Header()
	h.Set("Content-Type", "text/event-stream; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	x.w.WriteHeader(http.StatusOK)
	if x.reply.StallAfterHeaders {
		if err := x.rc.Flush(); err != nil {
			return err
		}
		return x.stall()
	}
	return nil
}

// stall keeps the connection open and silent until the client goes away
// or the server closes.
func (x *exchange) stall() error {
	select {
	case <-x.ctx.Done():
	case <-x.stop:
	}
	return errStalled
}

// send writes one server-sent event (without an event line when event is
// empty) whose data is payload marshalled, or payload itself when it is a
// string. It paces events by ChunkDelay, sends the scripted stream error
// in place of event number ErrorAfter+1, falls silent after StallAfter
// events and cuts the connection after CutAfter events.
func (x *exchange) send(event string, payload any) error {
	if x.reply.StreamError != "" && !x.errorSent && x.sent == x.reply.ErrorAfter {
		return x.sendStreamError()
	}
	if err := x.write(event, payload); err != nil {
		return err
	}
	if x.reply.StallAfter > 0 && x.sent >= x.reply.StallAfter {
		return x.stall()
	}
	if x.reply.CutAfter > 0 && x.sent >= x.reply.CutAfter {
		return x.cut()
	}
	return nil
}

// sendStreamError writes the scripted in-stream error and ends the reply.
func (x *exchange) sendStreamError() error {
	x.errorSent = true
	event, payload := x.api.streamError(x)
	if err := x.write(event, payload); err != nil {
		return err
	}
	return errStreamErr
}

// streamText sends the deltas of the reply's text through send, over and
// over when the reply is endless, then the scripted bad delta if any.
func (x *exchange) streamText(send func(piece any) error) error {
	pieces := textPieces(x.reply)
	for {
		for _, piece := range pieces {
			if err := send(piece); err != nil {
				return err
			}
		}
		if !x.reply.Endless {
			break
		}
	}
	if x.reply.BadDelta {
		return send([]string{"an array", "where text belongs"})
	}
	return nil
}

// keepAlive sends ping frames every KeepAlive until the client goes away
// or the server closes.
func (x *exchange) keepAlive(pings ...string) error {
	for i := 0; ; i++ {
		if err := pause(x.ctx, x.stop, x.reply.KeepAlive.D()); err != nil {
			return errStalled
		}
		if _, err := io.WriteString(x.w, pings[i%len(pings)]); err != nil {
			return errStalled
		}
		if err := x.rc.Flush(); err != nil {
			return errStalled
		}
	}
}

// ending is called where the terminating chunks of a stream begin: a
// stream error or a stall scripted for later than the reply's last event
// happens here instead.
func (x *exchange) ending() error {
	switch {
	case x.reply.StreamError != "" && !x.errorSent:
		return x.sendStreamError()
	case x.reply.StallAfter > 0:
		return x.stall()
	}
	return nil
}

// write sends one event frame after the chunk delay.
func (x *exchange) write(event string, payload any) error {
	if x.sent > 0 {
		if err := pause(x.ctx, x.stop, x.reply.ChunkDelay.D()); err != nil {
			return err
		}
	}
	var data []byte
	if s, ok := payload.(string); ok {
		data = []byte(s)
	} else {
		var err error
		if data, err = marshal(payload); err != nil {
			return err
		}
	}
	var frame []byte
	if event != "" {
		frame = append(frame, "event: "+event+"\n"...)
	}
	frame = append(frame, "data: "...)
	frame = append(frame, data...)
	frame = append(frame, "\n\n"...)
	if _, err := x.w.Write(frame); err != nil {
		return err
	}
	if err := x.rc.Flush(); err != nil {
		return err
	}
	x.sent++
	return nil
}

// endStream finishes a stream whose events were all sent: when the reply
// asked for a cut later than its last event, the cut happens now, in place
// of the terminating chunk.
func (x *exchange) endStream() error {
	if x.reply.CutAfter > 0 {
		return x.cut()
	}
	return nil
}

// sendWhole writes a non-streamed JSON response, or only its first half
// before cutting the connection when the reply has CutAfter set, or only
// its headers when the reply stalls. (A StreamError applies to streams
// only.)
func (x *exchange) sendWhole(v any) error {
	data, err := marshal(v)
	if err != nil {
		return err
	}
	x.w.Header().Set("Content-Type", "application/json")
	if x.reply.StallAfterHeaders || x.reply.StallAfter > 0 {
		x.w.WriteHeader(http.StatusOK)
		if err := x.rc.Flush(); err != nil {
			return err
		}
		return x.stall()
	}
	if x.reply.CutAfter <= 0 {
		x.w.WriteHeader(http.StatusOK)
		_, err = x.w.Write(data)
		return err
	}
	x.w.WriteHeader(http.StatusOK)
	if _, err := x.w.Write(data[:len(data)/2]); err != nil {
		return err
	}
	if err := x.rc.Flush(); err != nil {
		return err
	}
	return x.cut()
}

// cut closes the connection at once, leaving the response unterminated.
func (x *exchange) cut() error {
	conn, _, err := x.rc.Hijack()
	if err != nil {
		return fmt.Errorf("fakemodel: cutting the connection: %w", err)
	}
	_ = conn.Close()
	return errCut
}
