package fakemodel

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/ponder-agent/ponder/internal/llm"
)

// Script is an ordered list of replies. Requests are answered by the first
// reply, in this order, that still has uses left and matches.
type Script struct {
	Replies []Reply `json:"replies"`
}

// Reply is one scripted answer of the model.
type Reply struct {
	// Name labels the reply in the request log and in Unused. Without a
	// name the reply is called by its position, "#0" for the first.
	Name string `json:"name,omitempty"`
	// When must accept the request; the zero Match accepts anything.
	When Match `json:"when,omitempty"`
	// Times is how many requests the reply may answer: 0 means once, -1
	// means without limit.
	Times int `json:"times,omitempty"`

	// Text is the assistant text, streamed in several chunks.
	Text string `json:"text,omitempty"`
	// ToolCalls are made in the same message, after the text.
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`

	// Delay is waited before the response starts. If the client goes away
	// meanwhile, the reply is not served (the request is still logged).
	Delay Duration `json:"delay,omitempty"`
	// ChunkDelay is waited before each streamed event after the first.
	ChunkDelay Duration `json:"chunk_delay,omitempty"`

	// Status, when not zero, makes the reply an HTTP error with this status
	// (400–599), its body in the error shape of the API asked.
	Status int `json:"status,omitempty"`
	// ErrorMessage is the message of the injected error; the status text
	// when empty.
	ErrorMessage string `json:"error_message,omitempty"`
	// RetryAfter is sent as the retry-after header of an injected error.
	RetryAfter string `json:"retry_after,omitempty"`
	// RetryAfterMS is sent as the retry-after-ms header of an injected
	// error.
	RetryAfterMS string `json:"retry_after_ms,omitempty"`

	// CutAfter, when positive, cuts the connection abruptly after this many
	// stream events: no terminating chunk is sent, so the client reads an
	// unexpected EOF. If the reply has fewer events, all are sent and the
	// connection is cut where the terminating chunk would be. For a
	// non-streaming request the body is cut in the middle.
	CutAfter int `json:"cut_after,omitempty"`

	// NoAnswer takes the request and never answers it: no status line, no
	// headers, nothing, until the client goes away or the server closes
	// (the outcome is then OutcomeStalled).
	NoAnswer bool `json:"no_answer,omitempty"`
	// StallAfterHeaders sends the headers of a 200 response and then
	// nothing more, until the client goes away or the server closes.
	StallAfterHeaders bool `json:"stall_after_headers,omitempty"`
	// StallAfter, when positive, falls silent after this many stream
	// events, keeping the connection open. If the reply has fewer events,
	// all are sent and the silence takes the place of the terminating
	// chunk.
	StallAfter int `json:"stall_after,omitempty"`

	// StreamError, when set, ends a 200 stream with an error of this type
	// sent inside it, as servers report a failure once the answer has
	// begun: Anthropic's "event: error" with {"type":"error","error":
	// {"type":StreamError,"message":ErrorMessage}}, or for OpenAI a chunk
	// {"error":{"type":StreamError,"message":ErrorMessage,"code":…}}
	// (the code is ErrorCode). The error comes after ErrorAfter events;
	// if the reply has fewer, it takes the place of the terminating
	// chunk.
	StreamError string `json:"stream_error,omitempty"`
	// ErrorAfter is how many stream events precede a StreamError.
	ErrorAfter int `json:"error_after,omitempty"`
	// ErrorCode is the code of an OpenAI in-stream error: a string, or a
	// number such as 503 (some servers send the HTTP status there);
	// null when empty.
	ErrorCode string `json:"error_code,omitempty"`

	// KeepAlive, when positive, makes the stream send its first event
	// (message_start, or the assistant's role chunk) and then only
	// keep-alive pings, one every KeepAlive, until the client goes away
	// or the server closes: Anthropic's "event: ping", or for OpenAI a
	// ": keep-alive" comment and an empty content chunk in turn. The
	// outcome is OutcomeStalled. This and the three fields below apply
	// to the HTTP server; the in-process provider ignores them.
	KeepAlive Duration `json:"keep_alive,omitempty"`
	// Endless streams the reply's text over and over without end, until
	// the client goes away or the server closes (OutcomeCanceled).
	Endless bool `json:"endless,omitempty"`
	// ChunkBytes, when positive, streams the text in deltas of this many
	// bytes (whole runes) instead of a few word-aligned pieces.
	ChunkBytes int `json:"chunk_bytes,omitempty"`
	// BadDelta sends, after the text, one text delta whose text is a JSON
	// array instead of a string ("text":["…"], or "content":["…"] for
	// OpenAI), then ends the stream normally.
	BadDelta bool `json:"bad_delta,omitempty"`

	// StopReason overrides the stop reason. Names of either API are
	// accepted and translated for the other: end_turn/stop,
	// tool_use/tool_calls, max_tokens/length. The default is end_turn
	// (stop), or tool_use (tool_calls) when the reply calls tools.
	StopReason string `json:"stop_reason,omitempty"`
	// Usage overrides the reported token counts; zero input or output
	// counts are replaced by estimates from the request and reply sizes.
	Usage Usage `json:"usage,omitempty"`
}

// ToolCall is one tool call in a reply.
type ToolCall struct {
	// ID is the call's id; a unique one is made up when empty.
	ID string `json:"id,omitempty"`
	// Name is the name of the tool called.
	Name string `json:"name"`
	// Input is marshalled to JSON as the call's input; {} when nil.
	Input any `json:"input,omitempty"`
	// RawInput, when not empty, is sent verbatim instead of Input. It may
	// be malformed JSON, to test how errors are handled.
	RawInput string `json:"raw_input,omitempty"`
	// InputFunc, when set, computes Input from the request being answered
	// (for input only known at run time, such as a path the request
	// mentions).
	InputFunc func(*Request) any `json:"-"`
}

// Usage is the token count a reply reports.
type Usage = llm.Usage

// Duration is a time.Duration that reads from JSON either as a string such
// as "150ms" or "2s", or as a number of milliseconds.
type Duration time.Duration

// D returns d as a time.Duration.
func (d Duration) D() time.Duration { return time.Duration(d) }

// MarshalJSON writes the duration as a string such as "1.5s".
func (d Duration) MarshalJSON() ([]byte, error) {
	return json.Marshal(time.Duration(d).String())
}

// UnmarshalJSON reads "150ms"-style strings and numbers of milliseconds.
func (d *Duration) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if bytes.Equal(b, []byte("null")) {
		return nil
	}
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		v, err := time.ParseDuration(strings.TrimSpace(s))
		if err != nil {
			return fmt.Errorf("fakemodel: bad duration %q: %w", s, err)
		}
		*d = Duration(v)
		return nil
	}
	ms, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return fmt.Errorf("fakemodel: bad duration %s: want a string like \"2s\" or milliseconds", b)
	}
	*d = Duration(ms * float64(time.Millisecond))
	return nil
}

// LoadScript reads a script from a JSON file. Unknown fields are errors, so
// that a misspelt field does not silently match everything.
func LoadScript(path string) (Script, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Script{}, err
	}
	s, err := ParseScript(data)
	if err != nil {
		return Script{}, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// ParseScript reads a script from JSON, as LoadScript does.
func ParseScript(data []byte) (Script, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var s Script
	if err := dec.Decode(&s); err != nil {
		return Script{}, fmt.Errorf("fakemodel: reading script: %w", err)
	}
	if err := s.Validate(); err != nil {
		return Script{}, err
	}
	return s, nil
}

// Validate reports the first reply that cannot be served as written.
func (s Script) Validate() error {
	for i, r := range s.Replies {
		if err := r.validate(); err != nil {
			return fmt.Errorf("fakemodel: reply %s: %w", label(r, i), err)
		}
	}
	return nil
}

func (r Reply) validate() error {
	switch {
	case r.Times < -1:
		return fmt.Errorf("times %d: want -1 (unlimited), 0 (once) or a positive count", r.Times)
	case r.Status != 0 && (r.Status < 400 || r.Status > 599):
		return fmt.Errorf("status %d: want 400–599", r.Status)
	case r.CutAfter < 0:
		return fmt.Errorf("cut_after %d is negative", r.CutAfter)
	case r.Delay < 0 || r.ChunkDelay < 0:
		return fmt.Errorf("negative delay")
	case r.StallAfter < 0 || r.ErrorAfter < 0:
		return fmt.Errorf("stall_after and error_after must not be negative")
	case r.Status != 0 && (r.NoAnswer || r.StallAfterHeaders || r.StallAfter > 0 || r.StreamError != ""):
		return fmt.Errorf("status %d is an error response; it cannot also stall or send a stream error", r.Status)
	case r.ErrorAfter > 0 && r.StreamError == "":
		return fmt.Errorf("error_after needs stream_error")
	case r.KeepAlive < 0 || r.ChunkBytes < 0:
		return fmt.Errorf("keep_alive and chunk_bytes must not be negative")
	case (r.Endless || r.BadDelta) && r.Text == "":
		return fmt.Errorf("endless and bad_delta need text")
	case r.When.API != "" && r.When.API != APIAnthropic && r.When.API != APIOpenAI && r.When.API != APIInProcess:
		return fmt.Errorf("when.api %q: want %q, %q or %q", r.When.API, APIAnthropic, APIOpenAI, APIInProcess)
	}
	for j, tc := range r.ToolCalls {
		if tc.Name == "" {
			return fmt.Errorf("tool call %d has no name", j)
		}
		if tc.RawInput == "" && tc.Input != nil {
			if _, err := json.Marshal(tc.Input); err != nil {
				return fmt.Errorf("tool call %d (%s): input: %w", j, tc.Name, err)
			}
		}
	}
	return nil
}

// label names reply r at position i for logs and reports.
func label(r Reply, i int) string {
	if r.Name != "" {
		return r.Name
	}
	return "#" + strconv.Itoa(i)
}

// limit is how many requests r may answer, or -1 for no limit.
func (r Reply) limit() int {
	if r.Times == 0 {
		return 1
	}
	return r.Times
}

// resolve returns r with every InputFunc applied to req.
func (r Reply) resolve(req *Request) Reply {
	calls := make([]ToolCall, len(r.ToolCalls))
	for i, tc := range r.ToolCalls {
		if tc.InputFunc != nil {
			tc.Input = tc.InputFunc(req)
			tc.InputFunc = nil
		}
		calls[i] = tc
	}
	r.ToolCalls = calls
	return r
}
