package llm

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// silentServer serves handler and ends every stalled handler when the
// test ends.
func silentServer(t *testing.T, handler func(w http.ResponseWriter, r *http.Request, done <-chan struct{})) string {
	t.Helper()
	done := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		handler(w, r, done)
	}))
	t.Cleanup(func() { close(done); srv.Close() })
	return srv.URL
}

func wait(r *http.Request, done <-chan struct{}) {
	select {
	case <-r.Context().Done():
	case <-done:
	}
}

func TestIdleTimeoutEndsSilentRequests(t *testing.T) {
	const idle = 150 * time.Millisecond
	cases := []struct {
		name    string
		handler func(w http.ResponseWriter, r *http.Request, done <-chan struct{})
	}{
		{"no answer", func(w http.ResponseWriter, r *http.Request, done <-chan struct{}) { wait(r, done) }},
		{"stall after headers", func(w http.ResponseWriter, r *http.Request, done <-chan struct{}) {
			w.WriteHeader(200)
			w.(http.Flusher).Flush()
			wait(r, done)
		}},
		{"stall mid-body", func(w http.ResponseWriter, r *http.Request, done <-chan struct{}) {
			w.WriteHeader(200)
			for range 3 {
				io.WriteString(w, "data: x\n\n")
				w.(http.Flusher).Flush()
				time.Sleep(idle / 3)
			}
			wait(r, done)
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			url := silentServer(t, tc.handler)
			client := NewHTTPClient(NetOptions{IdleTimeout: idle})
			start := time.Now()
			var err error
			resp, err := client.Post(url, "text/plain", strings.NewReader("hello"))
			if err == nil {
				_, err = io.ReadAll(resp.Body)
				resp.Body.Close()
			}
			var ite *IdleTimeoutError
			if !errors.As(err, &ite) || ite.After != idle {
				t.Fatalf("error %v (%T), want an IdleTimeoutError after %v", err, err, idle)
			}
			if !IsTransient(err) {
				t.Errorf("an idle timeout must be retried: %v", err)
			}
			if el := time.Since(start); el > 20*idle {
				t.Errorf("took %v for an idle timeout of %v", el, idle)
			}
		})
	}
}

// A slow answer that keeps coming is never cut, however long it takes.
func TestIdleTimeoutLetsSteadyStreamsFinish(t *testing.T) {
	const idle = 200 * time.Millisecond
	url := silentServer(t, func(w http.ResponseWriter, r *http.Request, done <-chan struct{}) {
		w.WriteHeader(200)
		for range 12 {
			io.WriteString(w, "data: x\n\n")
			w.(http.Flusher).Flush()
			time.Sleep(idle / 4)
		}
	})
	resp, err := NewHTTPClient(NetOptions{IdleTimeout: idle}).Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil || strings.Count(string(data), "data: x") != 12 {
		t.Fatalf("read %q, %v", data, err)
	}
}

// Cancelling the caller's context is a cancellation, not a timeout.
func TestIdleTimeoutKeepsCancellation(t *testing.T) {
	reached := make(chan struct{})
	url := silentServer(t, func(w http.ResponseWriter, r *http.Request, done <-chan struct{}) {
		close(reached)
		wait(r, done)
	})
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
	go func() { <-reached; cancel() }()
	_, err := NewHTTPClient(NetOptions{IdleTimeout: time.Hour}).Do(req)
	var ite *IdleTimeoutError
	if !errors.Is(err, context.Canceled) || errors.As(err, &ite) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
}

func TestTransportErrorNamesARefusedConnection(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := "http://" + ln.Addr().String()
	ln.Close() // nothing listens there any more
	_, err = NewHTTPClient(NetOptions{}).Get(addr)
	got := TransportError("test", addr, err)
	var ce *ConnectError
	if !errors.As(got, &ce) || got.Error() != "cannot connect to the model server at "+addr+": connection refused" {
		t.Fatalf("got %q (%T)", got, got)
	}
	if !IsTransient(got) {
		t.Error("a refused connection is worth another attempt")
	}
	if errors.Is(got, ErrStreamBroken) {
		t.Error("a refused connection is not a broken stream")
	}
}

func TestStreamErrorStatus(t *testing.T) {
	cases := []struct {
		typ, code string
		want      int
	}{
		{"overloaded_error", "", 529},
		{"api_error", "", 500},
		{"rate_limit_error", "", 429},
		{"timeout_error", "", 504},
		{"server_error", "", 500},
		{"", "503", 503},
		{"InternalServerError", "", 500},
		{"invalid_request_error", "", 0},
		{"", "context_length_exceeded", 0},
		{"", "", 0},
	}
	for _, c := range cases {
		if got := StreamErrorStatus(c.typ, c.code); got != c.want {
			t.Errorf("StreamErrorStatus(%q, %q) = %d, want %d", c.typ, c.code, got, c.want)
		}
	}
	e := &APIError{Provider: "anthropic", Type: "overloaded_error", Message: "Overloaded", InStream: true, Status: 529}
	if !IsTransient(e) || strings.Contains(e.Error(), "200") || !strings.Contains(e.Error(), "overloaded_error: Overloaded") {
		t.Errorf("in-stream overload: transient %v, message %q", IsTransient(e), e.Error())
	}
}

// With a Progress in the request's context, bytes alone do not hold the
// request open: a server that only pings is silent, and the reader's
// reports of progress are what push the deadline back.
func TestProgressCountsOnlyWhatTheReaderReports(t *testing.T) {
	const idle = 200 * time.Millisecond
	url := silentServer(t, func(w http.ResponseWriter, r *http.Request, done <-chan struct{}) {
		w.WriteHeader(200)
		tick := time.NewTicker(idle / 10)
		defer tick.Stop()
		for {
			io.WriteString(w, "event: ping\ndata: {}\n\n")
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-done:
				return
			case <-tick.C:
			}
		}
	})
	client := NewHTTPClient(NetOptions{IdleTimeout: idle})
	read := func(report bool) error {
		ctx, progress := WithProgress(context.Background())
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader("hello"))
		resp, err := client.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		buf := make([]byte, 64)
		deadline := time.Now().Add(5 * idle)
		for time.Now().Before(deadline) {
			if _, err := resp.Body.Read(buf); err != nil {
				return err
			}
			if report {
				progress.Moved()
			}
		}
		return nil
	}
	var ite *IdleTimeoutError
	if err := read(false); !errors.As(err, &ite) {
		t.Fatalf("pings only: %v, want an idle timeout", err)
	}
	if err := read(true); err != nil {
		t.Fatalf("with progress reported: %v", err)
	}
}
