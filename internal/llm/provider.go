package llm

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Provider sends requests to one model API.
type Provider interface {
	// Name is the provider's short name ("anthropic", "openai").
	Name() string
	// BaseURL is the address requests go to, for error messages.
	BaseURL() string
	// Stream sends req and yields the answer as it arrives. The last
	// event of a successful stream has Type EventDone and carries the
	// whole Response. On failure the iterator yields one non-nil error
	// and stops. Stopping the iteration early, or cancelling ctx, aborts
	// the request and releases its connection.
	Stream(ctx context.Context, req Request) iter.Seq2[Event, error]
}

// EventType names what a stream Event carries.
type EventType int

// Stream event kinds.
const (
	// EventText carries a piece of assistant text in Text.
	EventText EventType = iota + 1
	// EventToolStart announces a tool call in ToolID and ToolName; its
	// input arrives whole in the final Response.
	EventToolStart
	// EventRetry says the attempt failed with Err and another follows
	// after Wait: output streamed so far is void.
	EventRetry
	// EventDone carries the complete Response.
	EventDone
)

// Event is one step of a streamed answer.
type Event struct {
	Type     EventType
	Text     string
	ToolID   string
	ToolName string
	Attempt  int
	Wait     time.Duration
	Err      error
	Response *Response
}

// APIError is a failure reported by a model API, with what a user needs to
// tell where it came from.
type APIError struct {
	Provider   string
	BaseURL    string
	Model      string
	Status     int
	Message    string
	RetryAfter time.Duration
	// Type is the API's name for the error ("overloaded_error"), when it
	// gave one.
	Type string
	// InStream marks an error the server sent inside a response that had
	// already begun with 200 OK. Status is then the HTTP status that
	// Type stands for (529 for overloaded_error), or 0 if none does.
	InStream bool
}

func (e *APIError) Error() string {
	msg := strings.TrimSpace(e.Message)
	if msg == "" {
		msg = "no details"
	}
	if e.InStream {
		typ := e.Type
		if typ == "" {
			typ = "error"
		}
		return fmt.Sprintf("%s API error in the middle of the response: %s: %s (model %q, base URL %s)",
			e.Provider, typ, msg, e.Model, e.BaseURL)
	}
	status := fmt.Sprintf("%d %s", e.Status, http.StatusText(e.Status))
	return fmt.Sprintf("%s API error %s: %s (model %q, base URL %s)",
		e.Provider, strings.TrimSpace(status), msg, e.Model, e.BaseURL)
}

// StreamErrorStatus is the HTTP status an error sent inside a stream
// stands for, judged by its type or code (Anthropic's overloaded_error,
// OpenAI's server_error, a numeric code some servers send), or 0 when it
// names none.
func StreamErrorStatus(typ, code string) int {
	if n, err := strconv.Atoi(strings.TrimSpace(code)); err == nil && n >= 400 && n <= 599 {
		return n
	}
	for _, word := range []string{typ, code} {
		w := strings.ToLower(word)
		switch {
		case w == "":
		case strings.Contains(w, "overload"):
			return 529
		case strings.Contains(w, "rate_limit"), strings.Contains(w, "ratelimit"), strings.Contains(w, "too_many_requests"):
			return 429
		case strings.Contains(w, "timeout"):
			return 504
		case strings.Contains(w, "unavailable"):
			return 503
		case w == "api_error", w == "server_error", strings.Contains(w, "internal"):
			return 500
		}
	}
	return 0
}

// Retryable reports whether the status is one a later attempt may cure.
func (e *APIError) Retryable() bool {
	switch e.Status {
	case 408, 409, 429, 500, 502, 503, 504, 529:
		return true
	}
	return false
}

// ErrStreamBroken marks a response stream that ended before the model
// finished, such as a connection cut in the middle of an answer.
var ErrStreamBroken = errors.New("response stream ended early")

// StreamBrokenError wraps the cause of a broken stream so that it matches
// ErrStreamBroken with errors.Is.
func StreamBrokenError(provider string, cause error) error {
	if cause == nil {
		return fmt.Errorf("%s: %w", provider, ErrStreamBroken)
	}
	return fmt.Errorf("%s: %w: %w", provider, ErrStreamBroken, cause)
}

// ParseRetryAfter reads a Retry-After (seconds or HTTP date) or
// retry-after-ms header value; it returns 0 when there is none.
func ParseRetryAfter(h http.Header, now time.Time) time.Duration {
	if h == nil {
		return 0
	}
	if ms := h.Get("retry-after-ms"); ms != "" {
		var v float64
		if _, err := fmt.Sscanf(ms, "%g", &v); err == nil && v >= 0 {
			return time.Duration(v * float64(time.Millisecond))
		}
	}
	ra := strings.TrimSpace(h.Get("retry-after"))
	if ra == "" {
		return 0
	}
	var secs float64
	if _, err := fmt.Sscanf(ra, "%g", &secs); err == nil && secs >= 0 {
		return time.Duration(secs * float64(time.Second))
	}
	if t, err := http.ParseTime(ra); err == nil {
		if d := t.Sub(now); d > 0 {
			return d
		}
	}
	return 0
}
