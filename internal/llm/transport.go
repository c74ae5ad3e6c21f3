package llm

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// Network defaults for model requests.
const (
	// DefaultConnectTimeout bounds opening a connection (and its TLS
	// handshake) to the model server.
	DefaultConnectTimeout = 30 * time.Second
	// DefaultIdleTimeout is how long a request may go without receiving
	// anything: response headers, or the next piece of a streamed answer.
	DefaultIdleTimeout = 90 * time.Second
)

// NetOptions configure the HTTP client of a provider.
type NetOptions struct {
	// ConnectTimeout bounds dialling and the TLS handshake; 0 means
	// DefaultConnectTimeout.
	ConnectTimeout time.Duration
	// IdleTimeout bounds the silence between two pieces of data from
	// the server, counted from when the request is sent; 0 means
	// DefaultIdleTimeout. For a request whose context carries a Progress
	// (see WithProgress), only the headers and what the reader marks as
	// progress count, not every byte: keep-alive pings do not hold the
	// request open.
	IdleTimeout time.Duration
	// Base is the transport the requests go through; nil means a copy of
	// http.DefaultTransport with ConnectTimeout applied.
	Base http.RoundTripper
}

// NewHTTPClient returns a client for model requests. A request that
// receives no data for the idle timeout fails with an *IdleTimeoutError
// (which IsTransient accepts), whether the server never answers, stalls
// after its headers, or stalls in the middle of a stream. There is no
// bound on a request's total time: a long answer that keeps arriving is
// never cut.
func NewHTTPClient(o NetOptions) *http.Client {
	if o.ConnectTimeout <= 0 {
		o.ConnectTimeout = DefaultConnectTimeout
	}
	if o.IdleTimeout <= 0 {
		o.IdleTimeout = DefaultIdleTimeout
	}
	base := o.Base
	if base == nil {
		t := http.DefaultTransport.(*http.Transport).Clone()
		d := &net.Dialer{Timeout: o.ConnectTimeout, KeepAlive: 30 * time.Second}
		t.DialContext = d.DialContext
		t.TLSHandshakeTimeout = o.ConnectTimeout
		base = t
	}
	return &http.Client{Transport: &idleTransport{base: base, idle: o.IdleTimeout}}
}

// IdleTimeoutError says the model server sent nothing for After.
type IdleTimeoutError struct {
	After time.Duration
	// BaseURL is filled in by the provider that saw the error.
	BaseURL string
}

func (e *IdleTimeoutError) Error() string {
	msg := "no data from the model server for " + FormatSeconds(e.After) + " s"
	if e.BaseURL != "" {
		msg += " (" + e.BaseURL + ")"
	}
	return msg
}

// Timeout marks the error as a timeout for net.Error checks.
func (e *IdleTimeoutError) Timeout() bool { return true }

// FormatSeconds writes d in seconds without trailing zeros: "90", "0.3".
func FormatSeconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64)
}

// idleTransport fails a request whose server falls silent for idle.
type idleTransport struct {
	base http.RoundTripper
	idle time.Duration
}

func (t *idleTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx, cancel := context.WithCancelCause(req.Context())
	w := &watchdog{idle: t.idle, cancel: cancel}
	w.timer = time.AfterFunc(t.idle, w.fire)
	progress, _ := req.Context().Value(progressKey{}).(*Progress)
	out := req.WithContext(ctx)
	if req.Body != nil && req.Body != http.NoBody {
		// Sending a large request slowly is progress too.
		out.Body = &progressBody{ReadCloser: req.Body, w: w}
	}
	resp, err := t.base.RoundTrip(out)
	if err != nil {
		w.stop()
		fired := w.err(ctx)
		cancel(nil)
		if fired != nil {
			return nil, fired
		}
		return nil, err
	}
	w.touch() // the headers arrived
	if progress != nil {
		progress.attach(w)
	}
	resp.Body = &idleBody{rc: resp.Body, w: w, ctx: ctx, bytesCount: progress == nil}
	return resp, nil
}

// Progress is how the reader of a streamed answer tells the idle timeout
// that the answer moved on. A request sent with a context from
// WithProgress counts only its headers and the calls of Moved as
// activity: a server that sends keep-alive pings, empty events or
// comments, but nothing of the answer, is silent for the idle timeout.
type Progress struct {
	mu sync.Mutex
	w  *watchdog
}

type progressKey struct{}

// WithProgress returns a context whose requests count only progress the
// caller reports through the returned Progress.
func WithProgress(ctx context.Context) (context.Context, *Progress) {
	p := &Progress{}
	return context.WithValue(ctx, progressKey{}, p), p
}

// Moved restarts the idle countdown of the request in flight, if any.
func (p *Progress) Moved() {
	if p == nil {
		return
	}
	p.mu.Lock()
	w := p.w
	p.mu.Unlock()
	if w != nil {
		w.touch()
	}
}

// attach makes Moved restart w from now on.
func (p *Progress) attach(w *watchdog) {
	p.mu.Lock()
	p.w = w
	p.mu.Unlock()
}

// watchdog cancels a request's context when its timer runs out; each
// piece of data pushes the deadline back.
type watchdog struct {
	idle   time.Duration
	cancel context.CancelCauseFunc
	timer  *time.Timer

	mu    sync.Mutex
	fired bool
	done  bool
}

func (w *watchdog) fire() {
	w.mu.Lock()
	if w.done {
		w.mu.Unlock()
		return
	}
	w.fired = true
	w.mu.Unlock()
	w.cancel(&IdleTimeoutError{After: w.idle})
}

// touch restarts the countdown after data moved.
func (w *watchdog) touch() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.fired && !w.done {
		w.timer.Reset(w.idle)
	}
}

// stop ends the countdown for good and releases the context.
func (w *watchdog) stop() {
	w.mu.Lock()
	w.done = true
	w.mu.Unlock()
	w.timer.Stop()
}

// err returns the timeout error if the watchdog fired.
func (w *watchdog) err(ctx context.Context) error {
	w.mu.Lock()
	fired := w.fired
	w.mu.Unlock()
	if !fired {
		return nil
	}
	var idle *IdleTimeoutError
	if errors.As(context.Cause(ctx), &idle) {
		return idle
	}
	return &IdleTimeoutError{After: w.idle}
}

// progressBody counts the upload of a request body as activity.
type progressBody struct {
	io.ReadCloser
	w *watchdog
}

func (b *progressBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if n > 0 {
		b.w.touch()
	}
	return n, err
}

// idleBody is a response body whose reads keep the watchdog at bay (when
// bytesCount; otherwise the reader reports progress itself); once it
// fired, reads fail with the timeout error rather than a bare "context
// canceled".
type idleBody struct {
	rc         io.ReadCloser
	w          *watchdog
	ctx        context.Context
	bytesCount bool
}

func (b *idleBody) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	if n > 0 && b.bytesCount {
		b.w.touch()
	}
	if err != nil && err != io.EOF {
		if fired := b.w.err(b.ctx); fired != nil {
			return n, fired
		}
	}
	return n, err
}

func (b *idleBody) Close() error {
	b.w.stop()
	err := b.rc.Close()
	b.w.cancel(nil)
	return err
}
