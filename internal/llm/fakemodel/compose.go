package fakemodel

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// errClosed stops a wait when the server shuts down.
var errClosed = errors.New("fakemodel: server closed")

// pause waits d, returning early with an error when ctx is done or stop
// is closed. A nil stop never closes.
func pause(ctx context.Context, stop <-chan struct{}, d time.Duration) error {
	if d <= 0 {
		if ctx.Err() != nil {
			return context.Cause(ctx)
		}
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	case <-stop:
		return errClosed
	}
}

// splitText cuts s into pieces for streaming, at word boundaries: between
// three and eight pieces when s has enough words. Short texts are cut
// between runes instead so that even they arrive in more than one delta.
// The pieces always join back to s.
func splitText(s string) []string {
	if s == "" {
		return nil
	}
	var words []string
	start := 0
	inSpace := false
	for i, r := range s {
		space := unicode.IsSpace(r)
		if inSpace && !space {
			words = append(words, s[start:i])
			start = i
		}
		inSpace = space
	}
	words = append(words, s[start:])
	if len(words) < 3 {
		return splitRunes(s, 3)
	}
	n := min(8, max(3, (len(words)+3)/4))
	return group(words, n)
}

// textPieces are the deltas r's text is streamed in.
func textPieces(r Reply) []string {
	if r.ChunkBytes <= 0 {
		return splitText(r.Text)
	}
	var out []string
	s := r.Text
	for len(s) > 0 {
		n := min(r.ChunkBytes, len(s))
		for n < len(s) && !utf8.RuneStart(s[n]) {
			n++
		}
		out = append(out, s[:n])
		s = s[n:]
	}
	return out
}

// group joins items into n runs of nearly equal length.
func group(items []string, n int) []string {
	n = min(n, len(items))
	out := make([]string, 0, n)
	for k := range n {
		lo, hi := k*len(items)/n, (k+1)*len(items)/n
		out = append(out, strings.Join(items[lo:hi], ""))
	}
	return out
}

// splitRunes cuts s into at most n pieces of about equal rune counts.
func splitRunes(s string, n int) []string {
	var runes []string
	for _, r := range s {
		runes = append(runes, string(r))
	}
	return group(runes, n)
}

// splitJSON cuts a tool input into pieces for streaming: more pieces for
// longer inputs, between one and six.
func splitJSON(s string) []string {
	if s == "" {
		return nil
	}
	n := min(6, max(2, len(s)/12))
	return splitRunes(s, n)
}

// inputJSON returns the input of a tool call as sent on the wire: RawInput
// verbatim, else Input marshalled, else {}.
func inputJSON(tc ToolCall) string {
	if tc.RawInput != "" {
		return tc.RawInput
	}
	if tc.Input == nil {
		return "{}"
	}
	data, err := marshal(tc.Input)
	if err != nil {
		return "{}" // cannot happen: checked when the reply was added
	}
	return string(data)
}

// anthropicStop returns the Anthropic stop reason of r.
func anthropicStop(r Reply) string {
	if r.StopReason == "" {
		if len(r.ToolCalls) > 0 {
			return "tool_use"
		}
		return "end_turn"
	}
	switch r.StopReason {
	case "stop":
		return "end_turn"
	case "tool_calls":
		return "tool_use"
	case "length":
		return "max_tokens"
	case "content_filter":
		return "refusal"
	}
	return r.StopReason
}

// openAIStop returns the OpenAI finish reason of r.
func openAIStop(r Reply) string {
	if r.StopReason == "" {
		if len(r.ToolCalls) > 0 {
			return "tool_calls"
		}
		return "stop"
	}
	switch r.StopReason {
	case "end_turn", "stop_sequence":
		return "stop"
	case "tool_use":
		return "tool_calls"
	case "max_tokens":
		return "length"
	case "refusal":
		return "content_filter"
	}
	return r.StopReason
}

// usageFor returns the usage r reports: its own counts, with missing input
// and output counts estimated at four bytes a token (output no more than
// the request's maxTokens, as a real server keeps to it).
func usageFor(r Reply, requestBytes, maxTokens int) Usage {
	u := r.Usage
	if u.InputTokens == 0 {
		u.InputTokens = max(1, requestBytes/4)
	}
	if u.OutputTokens == 0 {
		n := len(r.Text)
		for _, tc := range r.ToolCalls {
			n += len(tc.Name) + len(inputJSON(tc))
		}
		u.OutputTokens = max(1, n/4)
		if maxTokens > 0 {
			u.OutputTokens = min(u.OutputTokens, maxTokens)
		}
	}
	return u
}

// errorMessage is the message of r's injected error.
func errorMessage(r Reply) string {
	if r.ErrorMessage != "" {
		return r.ErrorMessage
	}
	if r.Status == 529 {
		return "Overloaded"
	}
	if t := http.StatusText(r.Status); t != "" {
		return t
	}
	return "injected error"
}

// streamErrorMessage is the message of r's in-stream error.
func streamErrorMessage(r Reply) string {
	if r.ErrorMessage != "" {
		return r.ErrorMessage
	}
	if strings.Contains(r.StreamError, "overloaded") {
		return "Overloaded"
	}
	return "injected " + r.StreamError
}

// marshal encodes v as compact JSON without escaping <, > and &.
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// mustMarshal encodes values that cannot fail to encode, such as strings.
func mustMarshal(v any) []byte {
	data, err := marshal(v)
	if err != nil {
		panic(err)
	}
	return data
}

// writeJSON sends v as a JSON response with the given status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	data, err := marshal(v)
	if err != nil {
		status, data = http.StatusInternalServerError, []byte(`{"error":{"message":"fakemodel: encoding failed"}}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(data)
}
