package llm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"
)

// scripted fails with the given errors in turn, then succeeds.
type scripted struct {
	errs  []error
	calls int
}

func (s *scripted) Name() string    { return "test" }
func (s *scripted) BaseURL() string { return "http://x" }
func (s *scripted) Stream(ctx context.Context, req Request) iter.Seq2[Event, error] {
	return func(yield func(Event, error) bool) {
		i := s.calls
		s.calls++
		if !yield(Event{Type: EventText, Text: fmt.Sprint("attempt ", i)}, nil) {
			return
		}
		if i < len(s.errs) {
			yield(Event{}, s.errs[i])
			return
		}
		yield(Event{Type: EventDone, Response: &Response{StopReason: "end_turn"}}, nil)
	}
}

var fast = RetryPolicy{MaxAttempts: 4, BaseDelay: time.Millisecond, MaxDelay: 5 * time.Millisecond}

func collect(p Provider) (texts []string, retries int, err error) {
	for ev, e := range p.Stream(context.Background(), Request{}) {
		if e != nil {
			return texts, retries, e
		}
		switch ev.Type {
		case EventText:
			texts = append(texts, ev.Text)
		case EventRetry:
			retries++
		}
	}
	return texts, retries, nil
}

func TestRetryTransientThenSucceed(t *testing.T) {
	s := &scripted{errs: []error{
		&APIError{Status: 500},
		StreamBrokenError("test", io.ErrUnexpectedEOF),
		&APIError{Status: 529},
	}}
	texts, retries, err := collect(WithRetry(s, fast))
	if err != nil || s.calls != 4 || retries != 3 || len(texts) != 4 {
		t.Fatalf("calls %d retries %d texts %v err %v", s.calls, retries, texts, err)
	}
}

func TestRetryGivesUpAfterMaxAttempts(t *testing.T) {
	s := &scripted{errs: []error{&APIError{Status: 503}, &APIError{Status: 503}, &APIError{Status: 503}, &APIError{Status: 503}, &APIError{Status: 503}}}
	_, retries, err := collect(WithRetry(s, fast))
	var api *APIError
	if !errors.As(err, &api) || api.Status != 503 || s.calls != 4 || retries != 3 {
		t.Fatalf("calls %d retries %d err %v", s.calls, retries, err)
	}
}

func TestNoRetryForClientErrors(t *testing.T) {
	for _, status := range []int{400, 401, 403, 404} {
		s := &scripted{errs: []error{&APIError{Status: status}}}
		if _, _, err := collect(WithRetry(s, fast)); err == nil || s.calls != 1 {
			t.Errorf("%d: calls %d err %v", status, s.calls, err)
		}
	}
}

func TestRetryAfterIsHonouredAndCapped(t *testing.T) {
	p := RetryPolicy{BaseDelay: time.Second, MaxDelay: time.Minute}
	if d := p.delay(1, &APIError{Status: 429, RetryAfter: 3 * time.Second}); d != 3*time.Second {
		t.Errorf("delay %v, want the server's 3s", d)
	}
	if d := p.delay(1, &APIError{Status: 429, RetryAfter: time.Hour}); d != maxRetryAfter {
		t.Errorf("delay %v, want the cap", d)
	}
	for attempt := 1; attempt <= 3; attempt++ {
		base := time.Second << (attempt - 1)
		d := p.delay(attempt, &APIError{Status: 500})
		if d < base/2 || d > base {
			t.Errorf("attempt %d: %v outside [%v, %v]", attempt, d, base/2, base)
		}
	}
}

func TestCancelDuringBackoff(t *testing.T) {
	s := &scripted{errs: []error{&APIError{Status: 500}}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p := WithRetry(s, RetryPolicy{MaxAttempts: 4, BaseDelay: time.Hour, MaxDelay: time.Hour})
	var err error
	for ev, e := range p.Stream(ctx, Request{}) {
		if ev.Type == EventRetry {
			cancel()
		}
		if e != nil {
			err = e
		}
	}
	if !errors.Is(err, context.Canceled) || s.calls != 1 {
		t.Fatalf("err %v calls %d", err, s.calls)
	}
}

func TestIsTransient(t *testing.T) {
	cases := map[error]bool{
		&APIError{Status: 429}:                    true,
		&APIError{Status: 502}:                    true,
		&APIError{Status: 401}:                    false,
		syscall.ECONNRESET:                        true,
		fmt.Errorf("x: %w", syscall.ECONNREFUSED): true,
		io.ErrUnexpectedEOF:                       true,
		context.Canceled:                          false,
		errors.New("bad request body"):            false,
	}
	for err, want := range cases {
		if got := IsTransient(err); got != want {
			t.Errorf("IsTransient(%v) = %v", err, got)
		}
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	h := func(k, v string) http.Header { return http.Header{http.CanonicalHeaderKey(k): {v}} }
	cases := []struct {
		h    http.Header
		want time.Duration
	}{
		{h("retry-after", "2"), 2 * time.Second},
		{h("retry-after", "0.5"), 500 * time.Millisecond},
		{h("retry-after-ms", "150"), 150 * time.Millisecond},
		{h("retry-after", now.Add(10*time.Second).Format(http.TimeFormat)), 10 * time.Second},
		{h("retry-after", "soon"), 0},
		{nil, 0},
	}
	for _, c := range cases {
		if got := ParseRetryAfter(c.h, now); got != c.want {
			t.Errorf("%v: %v, want %v", c.h, got, c.want)
		}
	}
}

func TestAPIErrorMessageNamesWhereItCameFrom(t *testing.T) {
	e := &APIError{Provider: "anthropic", BaseURL: "http://127.0.0.1:9", Model: "m1", Status: 401, Message: "invalid key"}
	for _, want := range []string{"anthropic", "401", "Unauthorized", "invalid key", `"m1"`, "http://127.0.0.1:9"} {
		if !strings.Contains(e.Error(), want) {
			t.Errorf("%q lacks %q", e.Error(), want)
		}
	}
}

func TestToolUseBlockKeepsMalformedInputAside(t *testing.T) {
	b := ToolUseBlock("t1", "Read", `{"file_path": "x"`)
	if string(b.Input) != "{}" || b.InvalidInput != `{"file_path": "x"` {
		t.Fatalf("%+v", b)
	}
	b = ToolUseBlock("t2", "Read", "")
	if string(b.Input) != "{}" || b.InvalidInput != "" {
		t.Fatalf("%+v", b)
	}
}
