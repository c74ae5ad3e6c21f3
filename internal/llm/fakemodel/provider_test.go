package fakemodel

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/ponder-agent/ponder/internal/llm"
)

// collect runs one stream to its end.
func collect(ctx context.Context, p llm.Provider, req llm.Request) ([]llm.Event, error) {
	var events []llm.Event
	for ev, err := range p.Stream(ctx, req) {
		if err != nil {
			return events, err
		}
		events = append(events, ev)
	}
	return events, nil
}

func userRequest(text string) llm.Request {
	return llm.Request{Model: "fake", System: "You are ponder.", Messages: []llm.Message{llm.UserText(text)},
		Tools: []llm.ToolSpec{{Name: "read_file"}, {Name: "bash"}}}
}

func TestProviderStreamsEventsAndResponse(t *testing.T) {
	p := NewProvider(Script{Replies: []Reply{{
		Name: "look",
		When: Match{API: APIInProcess, HasTool: "read_file", System: "ponder"},
		Text: longText,
		ToolCalls: []ToolCall{
			{Name: "read_file", Input: map[string]any{"path": "go.mod"}},
			{ID: "call_2", Name: "bash", RawInput: `{"command": "ls`},
		},
		Usage: Usage{InputTokens: 11, OutputTokens: 22, CacheWriteTokens: 3},
	}}})
	events, err := collect(testCtx(t), p, userRequest("look around"))
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	var starts []llm.Event
	for _, ev := range events[:len(events)-1] {
		switch ev.Type {
		case llm.EventText:
			texts = append(texts, ev.Text)
		case llm.EventToolStart:
			starts = append(starts, ev)
		default:
			t.Errorf("unexpected event %+v", ev)
		}
	}
	if len(texts) < 3 || strings.Join(texts, "") != longText {
		t.Errorf("texts %q", texts)
	}
	if len(starts) != 2 || starts[0].ToolName != "read_file" || starts[0].ToolID == "" ||
		starts[1].ToolName != "bash" || starts[1].ToolID != "call_2" {
		t.Errorf("tool starts %+v", starts)
	}
	done := events[len(events)-1]
	if done.Type != llm.EventDone || done.Response == nil {
		t.Fatalf("last event %+v", done)
	}
	resp := done.Response
	if resp.StopReason != "tool_use" || resp.Usage != (llm.Usage{InputTokens: 11, OutputTokens: 22, CacheWriteTokens: 3}) {
		t.Errorf("stop %q usage %+v", resp.StopReason, resp.Usage)
	}
	m := resp.Message
	if m.Role != llm.RoleAssistant || m.Text() != longText {
		t.Errorf("message %+v", m)
	}
	uses := m.ToolUses()
	if len(uses) != 2 || uses[0].ID != starts[0].ToolID || string(uses[0].Input) != `{"path":"go.mod"}` ||
		string(uses[1].Input) != `{}` || uses[1].InvalidInput != `{"command": "ls` {
		t.Errorf("tool uses %+v", uses)
	}
	r := p.Requests()[0]
	if r.API != APIInProcess || r.Reply != "look" || r.Outcome != OutcomeServed || r.Model != "fake" ||
		r.LastUser().Text != "look around" {
		t.Errorf("log %+v", r)
	}
}

func TestProviderDefaultsAndLogOfToolTurns(t *testing.T) {
	p := NewProvider(Script{Replies: []Reply{{When: Match{ToolResult: "line 1"}, Text: "done"}}})
	req := userRequest("read it")
	req.Messages = append(req.Messages,
		llm.Message{Role: llm.RoleAssistant, Content: []llm.Block{{Type: llm.BlockToolUse, ID: "t1", Name: "read_file", Input: json.RawMessage(`{"path"`)}}},
		llm.Message{Role: llm.RoleUser, Content: []llm.Block{
			{Type: llm.BlockToolResult, ToolUseID: "t1", Content: "line 1", IsError: false},
			{Type: llm.BlockText, Text: "<system-reminder>plan</system-reminder>", Reminder: "plan_mode"},
		}})
	events, err := collect(testCtx(t), p, req)
	if err != nil {
		t.Fatal(err)
	}
	resp := events[len(events)-1].Response
	if resp.StopReason != "end_turn" || resp.Usage.InputTokens <= 0 || resp.Usage.OutputTokens <= 0 {
		t.Errorf("response %+v", resp)
	}
	last := p.Requests()[0].LastUser()
	if last.Text != "<system-reminder>plan</system-reminder>" || len(last.ToolResults) != 1 || last.ToolResults[0].ToolUseID != "t1" {
		t.Errorf("last user %+v", last)
	}
}

func TestProviderErrors(t *testing.T) {
	p := NewProvider(Script{Replies: []Reply{
		{Name: "limited", When: Match{LastUser: "limit"}, Status: 429, RetryAfter: "7"},
		{Name: "ms", When: Match{LastUser: "ms"}, Status: 503, RetryAfterMS: "250", ErrorMessage: "down"},
	}})
	ctx := testCtx(t)
	_, err := collect(ctx, p, userRequest("hit the limit"))
	var apiErr *llm.APIError
	if !errors.As(err, &apiErr) || apiErr.Status != 429 || apiErr.RetryAfter != 7*time.Second || !apiErr.Retryable() {
		t.Errorf("429: %v", err)
	}
	_, err = collect(ctx, p, userRequest("ms"))
	if !errors.As(err, &apiErr) || apiErr.Status != 503 || apiErr.RetryAfter != 250*time.Millisecond || apiErr.Message != "down" {
		t.Errorf("503: %v", err)
	}
	_, err = collect(ctx, p, userRequest("nothing left"))
	if !errors.As(err, &apiErr) || apiErr.Status != 400 || apiErr.Retryable() ||
		!strings.Contains(apiErr.Message, "fakemodel: no scripted reply matches this request") ||
		!strings.Contains(apiErr.Message, "nothing left") {
		t.Errorf("unmatched: %v", err)
	}
	outcomes := []string{}
	for _, r := range p.Requests() {
		outcomes = append(outcomes, r.Outcome)
	}
	if strings.Join(outcomes, ",") != "error,error,unmatched" {
		t.Errorf("outcomes %v", outcomes)
	}
}

func TestProviderCut(t *testing.T) {
	p := NewProvider(Script{Replies: []Reply{{Text: longText, CutAfter: 2}}})
	events, err := collect(testCtx(t), p, userRequest("hi"))
	if !errors.Is(err, llm.ErrStreamBroken) || !errors.Is(err, io.ErrUnexpectedEOF) || !llm.IsTransient(err) {
		t.Errorf("error %v", err)
	}
	if len(events) != 2 {
		t.Errorf("%d events before the cut", len(events))
	}
	if r := p.Requests()[0]; r.Outcome != OutcomeCut {
		t.Errorf("outcome %q", r.Outcome)
	}
}

func TestProviderDelayHonoursCancel(t *testing.T) {
	p := NewProvider(Script{Replies: []Reply{{Delay: Duration(1 << 62), Text: "late"}}})
	ctx, cancel := context.WithCancel(testCtx(t))
	done := make(chan error, 1)
	go func() {
		_, err := collect(ctx, p, userRequest("hi"))
		done <- err
	}()
	if err := p.WaitFor(testCtx(t), func(r []Request) bool { return len(r) == 1 }); err != nil {
		t.Fatal(err)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("error %v", err)
	}
	if r := p.Requests()[0]; r.Outcome != OutcomeCanceled {
		t.Errorf("outcome %q", r.Outcome)
	}
}

func TestProviderStopsWhenConsumerStops(t *testing.T) {
	p := NewProvider(Script{Replies: []Reply{{Text: longText}, {Text: "second"}}})
	for ev, err := range p.Stream(testCtx(t), userRequest("hi")) {
		if err != nil || ev.Type != llm.EventText {
			t.Fatalf("%+v %v", ev, err)
		}
		break
	}
	events, err := collect(testCtx(t), p, userRequest("again"))
	if err != nil || events[len(events)-1].Response.Message.Text() != "second" {
		t.Errorf("%v %+v", err, events)
	}
	if u := p.Unused(); len(u) != 0 {
		t.Errorf("unused %v", u)
	}
	if p.Name() != ProviderName || p.BaseURL() != ProviderBaseURL {
		t.Error("name or base URL")
	}
}
