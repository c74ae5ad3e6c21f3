package fakemodel

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/ponder-agent/ponder/internal/llm"
	anthadapter "github.com/ponder-agent/ponder/internal/llm/anthropic"
	oaadapter "github.com/ponder-agent/ponder/internal/llm/openai"
)

// adapter returns ponder's provider for api, pointed at srv, with a short
// idle timeout and no retries.
func adapter(srv *Server, api string, idle time.Duration) llm.Provider {
	client := llm.NewHTTPClient(llm.NetOptions{IdleTimeout: idle})
	if api == APIOpenAI {
		return oaadapter.New(oaadapter.Options{BaseURL: srv.URL() + "/v1", APIKey: "x", HTTPClient: client})
	}
	return anthadapter.New(anthadapter.Options{BaseURL: srv.URL(), APIKey: "x", HTTPClient: client})
}

// drain streams one request and returns the texts and the error.
func drain(ctx context.Context, p llm.Provider) (string, error) {
	var text strings.Builder
	for ev, err := range p.Stream(ctx, llm.Request{Model: "m", Messages: []llm.Message{llm.UserText("hi")}}) {
		if err != nil {
			return text.String(), err
		}
		if ev.Type == llm.EventText {
			text.WriteString(ev.Text)
		}
	}
	return text.String(), nil
}

// Each way a server can fall silent ends in an idle timeout on both APIs,
// and the fake records that the client gave up on the stall.
func TestStallsEndInIdleTimeouts(t *testing.T) {
	stalls := map[string]Reply{
		"no answer":           {NoAnswer: true},
		"stall after headers": {StallAfterHeaders: true},
		"stall mid-stream":    {StallAfter: 3},
		"stall at the end":    {StallAfter: 1000},
	}
	for _, api := range []string{APIAnthropic, APIOpenAI} {
		for name, r := range stalls {
			t.Run(api+"/"+name, func(t *testing.T) {
				t.Parallel()
				r.Text = longText
				srv := newServer(t, r)
				_, err := drain(testCtx(t), adapter(srv, api, 200*time.Millisecond))
				var idle *llm.IdleTimeoutError
				if !errors.As(err, &idle) || !strings.Contains(err.Error(), "no data from the model server for 0.2 s") {
					t.Fatalf("error %v (%T)", err, err)
				}
				if !llm.IsTransient(err) {
					t.Error("not retried")
				}
				reqs := settled(t, srv)
				if len(reqs) != 1 || reqs[0].Outcome != OutcomeStalled {
					t.Fatalf("log %+v", reqs)
				}
			})
		}
	}
}

// Errors sent inside a 200 stream keep their type and message; an
// overload is retried like a 529, an invalid request is not.
func TestStreamErrorsAreClassified(t *testing.T) {
	cases := []struct {
		name      string
		reply     Reply
		transient bool
		want      string
	}{
		{"overloaded", Reply{StreamError: "overloaded_error", ErrorAfter: 3}, true, "overloaded_error: Overloaded"},
		{"invalid", Reply{StreamError: "invalid_request_error", ErrorMessage: "prompt is too long", ErrorAfter: 2}, false, "invalid_request_error: prompt is too long"},
		{"at once", Reply{StreamError: "api_error", ErrorMessage: "internal"}, true, "api_error: internal"},
		{"after everything", Reply{StreamError: "overloaded_error", ErrorAfter: 500}, true, "overloaded_error"},
	}
	for _, api := range []string{APIAnthropic, APIOpenAI} {
		for _, c := range cases {
			t.Run(api+"/"+c.name, func(t *testing.T) {
				t.Parallel()
				r := c.reply
				r.Text = longText
				srv := newServer(t, r)
				_, err := drain(testCtx(t), adapter(srv, api, time.Minute))
				var apiErr *llm.APIError
				if !errors.As(err, &apiErr) || !apiErr.InStream {
					t.Fatalf("error %v (%T), want an in-stream API error", err, err)
				}
				if msg := err.Error(); !strings.Contains(msg, c.want) || strings.Contains(msg, "200 OK") {
					t.Errorf("message %q, want it to name %q", msg, c.want)
				}
				if llm.IsTransient(err) != c.transient {
					t.Errorf("transient = %v, want %v", !c.transient, c.transient)
				}
				if reqs := settled(t, srv); reqs[0].Outcome != OutcomeStreamErr {
					t.Errorf("outcome %q", reqs[0].Outcome)
				}
			})
		}
	}
}

// An OpenAI-compatible server that puts the HTTP status in the code of an
// in-stream error is understood.
func TestOpenAIStreamErrorNumericCode(t *testing.T) {
	srv := newServer(t, Reply{Text: longText, StreamError: "upstream", ErrorCode: "502", ErrorMessage: "bad gateway", ErrorAfter: 2})
	_, err := drain(testCtx(t), adapter(srv, APIOpenAI, time.Minute))
	var apiErr *llm.APIError
	if !errors.As(err, &apiErr) || apiErr.Status != 502 || !llm.IsTransient(err) || !strings.Contains(err.Error(), "upstream: bad gateway") {
		t.Fatalf("error %v", err)
	}
}

// The in-process provider injects the same faults.
func TestProviderFaults(t *testing.T) {
	p := NewProvider(Script{Replies: []Reply{
		{Name: "err", Text: longText, StreamError: "overloaded_error", ErrorAfter: 1},
		{Name: "stall", Text: longText, StallAfter: 2},
	}})
	_, err := drain(testCtx(t), p)
	var apiErr *llm.APIError
	if !errors.As(err, &apiErr) || !apiErr.InStream || apiErr.Status != 529 {
		t.Fatalf("stream error: %v", err)
	}
	ctx, cancel := context.WithTimeout(testCtx(t), 100*time.Millisecond)
	defer cancel()
	if _, err := drain(ctx, p); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("stall: %v", err)
	}
	reqs := p.Requests()
	if reqs[0].Outcome != OutcomeStreamErr || reqs[1].Outcome != OutcomeStalled {
		t.Fatalf("outcomes %q %q", reqs[0].Outcome, reqs[1].Outcome)
	}
}

func TestFaultFieldsParseFromJSON(t *testing.T) {
	s, err := ParseScript([]byte(`{"replies":[
		{"no_answer":true},
		{"stall_after_headers":true},
		{"text":"x","stall_after":2},
		{"text":"x","stream_error":"overloaded_error","error_after":1,"error_code":"503"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	r := s.Replies
	if !r[0].NoAnswer || !r[1].StallAfterHeaders || r[2].StallAfter != 2 || r[3].StreamError != "overloaded_error" || r[3].ErrorAfter != 1 || r[3].ErrorCode != "503" {
		t.Fatalf("parsed %+v", r)
	}
	for _, bad := range []string{
		`{"replies":[{"status":500,"no_answer":true}]}`,
		`{"replies":[{"stall_after":-1}]}`,
		`{"replies":[{"error_after":2}]}`,
	} {
		if _, err := ParseScript([]byte(bad)); err == nil {
			t.Errorf("accepted %s", bad)
		}
	}
}
