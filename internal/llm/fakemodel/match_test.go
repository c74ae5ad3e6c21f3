package fakemodel

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/openai/openai-go/v3"
)

func anthropicText(t *testing.T, srv *Server, params anthropic.MessageNewParams) (string, error) {
	t.Helper()
	res := streamAnthropic(t, srv, params)
	return strings.Join(res.texts, ""), res.err
}

func TestFirstUserSeparatesParallelCallers(t *testing.T) {
	const n = 6
	var replies []Reply
	for i := range n {
		replies = append(replies, Reply{
			Name: fmt.Sprintf("agent %d", i),
			When: Match{FirstUser: fmt.Sprintf("task %d:", i)},
			Text: fmt.Sprintf("result of task %d", i),
		})
	}
	srv := newServer(t, replies...)
	var wg sync.WaitGroup
	got := make([]string, n)
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() {
			p := anthropicParams(fmt.Sprintf("task %d: explore", i))
			// A later turn: the first user message still tells the agents apart.
			p.Messages = append(p.Messages,
				anthropic.NewAssistantMessage(anthropic.NewTextBlock("working")),
				anthropic.NewUserMessage(anthropic.NewTextBlock("continue")))
			got[i], errs[i] = anthropicText(t, srv, p)
		})
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil || got[i] != fmt.Sprintf("result of task %d", i) {
			t.Errorf("caller %d got %q, %v", i, got[i], errs[i])
		}
	}
	if u := srv.Unused(); len(u) != 0 {
		t.Errorf("unused %v", u)
	}
}

func TestSelectionOrderTimesAndUnlimited(t *testing.T) {
	srv := newServer(t,
		Reply{Name: "twice", When: Match{LastUser: "ping"}, Times: 2, Text: "pong"},
		Reply{Name: "tool reply", When: Match{ToolResult: "exit 0"}, Text: "tests pass"},
		Reply{Name: "fallback", Times: -1, Text: "whatever"},
		Reply{Name: "never", When: Match{LastUser: "nobody says this"}, Text: "x"},
	)
	ask := func(user string) string {
		t.Helper()
		text, err := anthropicText(t, srv, anthropicParams(user))
		if err != nil {
			t.Fatal(err)
		}
		return text
	}
	for i, want := range []string{"pong", "pong", "whatever", "whatever"} {
		if got := ask("ping please"); got != want {
			t.Errorf("ping %d: got %q, want %q", i, got, want)
		}
	}
	p := anthropicParams("run the tests")
	p.Messages = append(p.Messages,
		anthropic.NewAssistantMessage(anthropic.NewToolUseBlock("toolu_1", map[string]any{}, "bash")),
		anthropic.NewUserMessage(anthropic.NewToolResultBlock("toolu_1", "ok\nexit 0", false)))
	if got, _ := anthropicText(t, srv, p); got != "tests pass" {
		t.Errorf("tool result reply %q", got)
	}
	var labels []string
	for _, r := range srv.Requests() {
		labels = append(labels, r.Reply)
	}
	if want := []string{"twice", "twice", "fallback", "fallback", "tool reply"}; !slices.Equal(labels, want) {
		t.Errorf("replies served %v, want %v", labels, want)
	}
	if u := srv.Unused(); !slices.Equal(u, []string{"never"}) {
		t.Errorf("unused %v", u)
	}
}

func TestMatchFields(t *testing.T) {
	req := &Request{
		API:    APIOpenAI,
		Model:  "gpt-x",
		System: "You are ponder. Plan mode.",
		Tools:  []string{"read_file", "bash"},
		Messages: []Message{
			{Role: "user", Text: "first question"},
			{Role: "assistant", Text: "calling", ToolUses: []ToolUse{{ID: "1", Name: "bash", Input: []byte(`{"command":"make"}`)}}},
			{Role: "user", Text: "<system-reminder>x</system-reminder>", ToolResults: []ToolResult{{ToolUseID: "1", Content: "built ok"}}},
		},
	}
	cases := []struct {
		m    Match
		want bool
	}{
		{Match{}, true},
		{Match{API: APIOpenAI, Model: "gpt-x"}, true},
		{Match{API: APIAnthropic}, false},
		{Match{Model: "gpt"}, false},
		{Match{System: "Plan mode"}, true},
		{Match{System: "plan mode"}, false},
		{Match{HasTool: "bash"}, true},
		{Match{HasTool: "write_file"}, false},
		{Match{NoTool: "write_file"}, true},
		{Match{NoTool: "bash"}, false},
		{Match{LastUser: "system-reminder"}, true},
		{Match{LastUser: "built ok"}, true},
		{Match{LastUser: "first question"}, false},
		{Match{FirstUser: "first question"}, true},
		{Match{FirstUser: "built"}, false},
		{Match{ToolResult: "built"}, true},
		{Match{ToolResult: "system-reminder"}, false},
		{Match{AnyMessage: `"command":"make"`}, true},
		{Match{AnyMessage: "calling"}, true},
		{Match{AnyMessage: "You are ponder"}, false},
		{Match{Func: func(r *Request) bool { return len(r.Messages) == 3 }}, true},
		{Match{HasTool: "bash", Func: func(*Request) bool { return false }}, false},
	}
	for i, c := range cases {
		if got := c.m.Matches(req); got != c.want {
			t.Errorf("case %d %+v: got %v", i, c.m, got)
		}
	}
	if !(Match{}).IsZero() || (Match{NoTool: "x"}).IsZero() {
		t.Error("IsZero")
	}
}

func TestUnmatchedIsA400InBothAPIs(t *testing.T) {
	srv := newServer(t, Reply{When: Match{LastUser: "expected"}, Text: "x"})
	ac := anthropicClient(srv)
	_, err := ac.Messages.New(testCtx(t), anthropicParams("something else entirely"))
	var aerr *anthropic.Error
	if !errors.As(err, &aerr) || aerr.StatusCode != 400 || string(aerr.Type()) != "invalid_request_error" ||
		!strings.Contains(aerr.Message, "fakemodel: no scripted reply matches this request") ||
		!strings.Contains(aerr.Message, "something else entirely") {
		t.Errorf("anthropic error %v", err)
	}
	oc := openAIClient(srv)
	stream := oc.Chat.Completions.NewStreaming(testCtx(t), openAIParams("other words"))
	for stream.Next() {
	}
	var oerr *openai.Error
	if !errors.As(stream.Err(), &oerr) || oerr.StatusCode != 400 ||
		!strings.Contains(oerr.Message, "fakemodel: no scripted reply matches this request") ||
		!strings.Contains(oerr.Message, "other words") {
		t.Errorf("openai error %v", stream.Err())
	}
	reqs := settled(t, srv)
	if len(reqs) != 2 || reqs[0].Reply != "" || reqs[0].Outcome != OutcomeUnmatched || reqs[1].Outcome != OutcomeUnmatched {
		t.Errorf("log %+v", reqs)
	}
}

func TestDelayStopsWhenClientCancels(t *testing.T) {
	srv := newServer(t, Reply{Name: "slow", Delay: Duration(1 << 62), Text: "too late"})
	ctx, cancel := context.WithCancel(testCtx(t))
	done := make(chan error, 1)
	go func() {
		c := anthropicClient(srv)
		_, err := c.Messages.New(ctx, anthropicParams("hi"))
		done <- err
	}()
	wait := testCtx(t)
	if err := srv.WaitFor(wait, func(r []Request) bool { return len(r) == 1 }); err != nil {
		t.Fatal(err)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("client error %v", err)
	}
	// The handler notices the client leaving and gives up the reply.
	if err := srv.WaitFor(wait, func(r []Request) bool { return r[0].Outcome != OutcomePending }); err != nil {
		t.Fatal(err)
	}
	if r := srv.Requests()[0]; r.Outcome != OutcomeCanceled || r.Reply != "slow" {
		t.Errorf("logged %+v", r)
	}
}

func TestChunkDelayStopsWhenClientCancels(t *testing.T) {
	srv := newServer(t, Reply{Text: longText, ChunkDelay: Duration(1 << 62)})
	ctx, cancel := context.WithCancel(testCtx(t))
	c := openAIClient(srv)
	stream := c.Chat.Completions.NewStreaming(ctx, openAIParams("hi"))
	if !stream.Next() {
		t.Fatalf("no first chunk: %v", stream.Err())
	}
	cancel()
	for stream.Next() {
	}
	if err := srv.WaitFor(testCtx(t), func(r []Request) bool { return r[0].Outcome == OutcomeCanceled }); err != nil {
		t.Fatal(err)
	}
}

func TestCloseEndsPendingDelays(t *testing.T) {
	srv := NewServer(Script{Replies: []Reply{{Delay: Duration(1 << 62)}}})
	done := make(chan error, 1)
	go func() {
		c := anthropicClient(srv)
		_, err := c.Messages.New(testCtx(t), anthropicParams("hi"))
		done <- err
	}()
	if err := srv.WaitFor(testCtx(t), func(r []Request) bool { return len(r) == 1 }); err != nil {
		t.Fatal(err)
	}
	srv.Close() // returns only once the handler is gone
	if err := <-done; err == nil {
		t.Error("request succeeded on a closed server")
	}
	if r := srv.Requests()[0]; r.Outcome != OutcomeCanceled {
		t.Errorf("outcome %q", r.Outcome)
	}
	srv.Close()
}

func TestAddWhileRunning(t *testing.T) {
	srv := newServer(t)
	if _, err := anthropicText(t, srv, anthropicParams("hi")); err == nil {
		t.Fatal("empty script answered")
	}
	srv.Add(Reply{Text: "added later"})
	if got, err := anthropicText(t, srv, anthropicParams("hi")); err != nil || got != "added later" {
		t.Errorf("got %q, %v", got, err)
	}
	if reqs := srv.Requests(); reqs[1].Reply != "#0" {
		t.Errorf("label %q", reqs[1].Reply)
	}
}
