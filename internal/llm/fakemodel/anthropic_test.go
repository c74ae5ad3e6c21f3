package fakemodel

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
)

const longText = "Ponder reads the code, thinks about it for a while, and then writes a careful answer for you."

func TestAnthropicStreamsTextInSeveralDeltas(t *testing.T) {
	srv := newServer(t, Reply{Name: "hello", Text: longText, Usage: Usage{InputTokens: 42, OutputTokens: 7, CacheReadTokens: 5}})
	res := streamAnthropic(t, srv, anthropicParams("hi"))
	if res.err != nil || res.accErr != nil {
		t.Fatalf("stream error %v, accumulate error %v", res.err, res.accErr)
	}
	if len(res.texts) < 3 {
		t.Errorf("got %d text deltas, want at least 3: %q", len(res.texts), res.texts)
	}
	if got := strings.Join(res.texts, ""); got != longText {
		t.Errorf("deltas join to %q", got)
	}
	want := []string{"message_start", "content_block_start"}
	for range res.texts {
		want = append(want, "content_block_delta")
	}
	want = append(want, "content_block_stop", "message_delta", "message_stop")
	if !slices.Equal(res.events, want) {
		t.Errorf("events %v, want %v", res.events, want)
	}
	m := res.msg
	if len(m.Content) != 1 || m.Content[0].Type != "text" || m.Content[0].Text != longText {
		t.Errorf("accumulated content %+v", m.Content)
	}
	if m.StopReason != anthropic.StopReasonEndTurn || m.Model != "claude-test" || m.Role != "assistant" || m.ID == "" {
		t.Errorf("message stop %q model %q role %q id %q", m.StopReason, m.Model, m.Role, m.ID)
	}
	if m.Usage.InputTokens != 42 || m.Usage.OutputTokens != 7 || m.Usage.CacheReadInputTokens != 5 {
		t.Errorf("usage %+v", m.Usage)
	}
	reqs := settled(t, srv)
	if len(reqs) != 1 || reqs[0].Reply != "hello" || reqs[0].Outcome != OutcomeServed || !reqs[0].Stream {
		t.Errorf("log %+v", reqs)
	}
	if u := srv.Unused(); len(u) != 0 {
		t.Errorf("unused %v", u)
	}
}

func TestAnthropicDefaultUsageIsNonzero(t *testing.T) {
	srv := newServer(t, Reply{Text: "ok"})
	res := streamAnthropic(t, srv, anthropicParams("hi"))
	if res.err != nil {
		t.Fatal(res.err)
	}
	if res.msg.Usage.InputTokens <= 0 || res.msg.Usage.OutputTokens <= 0 {
		t.Errorf("usage %+v", res.msg.Usage)
	}
	if len(res.texts) < 2 || strings.Join(res.texts, "") != "ok" {
		t.Errorf("short text deltas %q", res.texts)
	}
}

func TestAnthropicTwoToolCalls(t *testing.T) {
	srv := newServer(t, Reply{
		Text: "Let me look.",
		ToolCalls: []ToolCall{
			{Name: "read_file", Input: map[string]any{"path": "main.go", "limit": 20}},
			{ID: "toolu_mine", Name: "bash", Input: map[string]any{"command": "go test ./... && echo <ok>"}},
		},
	})
	res := streamAnthropic(t, srv, anthropicParams("look around"))
	if res.err != nil || res.accErr != nil {
		t.Fatalf("stream error %v, accumulate error %v", res.err, res.accErr)
	}
	m := res.msg
	if m.StopReason != anthropic.StopReasonToolUse {
		t.Errorf("stop reason %q", m.StopReason)
	}
	if len(m.Content) != 3 || m.Content[0].Text != "Let me look." {
		t.Fatalf("content %+v", m.Content)
	}
	first, second := m.Content[1], m.Content[2]
	if first.Type != "tool_use" || first.Name != "read_file" || !strings.HasPrefix(first.ID, "toolu_") {
		t.Errorf("first call %+v", first)
	}
	if second.Type != "tool_use" || second.Name != "bash" || second.ID != "toolu_mine" {
		t.Errorf("second call %+v", second)
	}
	var in1 struct {
		Path  string `json:"path"`
		Limit int    `json:"limit"`
	}
	if err := json.Unmarshal(first.Input, &in1); err != nil || in1.Path != "main.go" || in1.Limit != 20 {
		t.Errorf("first input %s (%v)", first.Input, err)
	}
	var in2 map[string]string
	if err := json.Unmarshal(second.Input, &in2); err != nil || in2["command"] != "go test ./... && echo <ok>" {
		t.Errorf("second input %s (%v)", second.Input, err)
	}
	// The input of each call arrives in more than one input_json_delta.
	deltas := 0
	for _, e := range res.events {
		if e == "content_block_delta" {
			deltas++
		}
	}
	if deltas < 3+2*2 {
		t.Errorf("only %d deltas", deltas)
	}
}

func TestAnthropicMalformedRawInputArrivesVerbatim(t *testing.T) {
	raw := `{"path": "a.go", "content": "unterminated`
	srv := newServer(t, Reply{ToolCalls: []ToolCall{{ID: "toolu_bad", Name: "write_file", RawInput: raw}}})
	res := streamAnthropic(t, srv, anthropicParams("write it"))
	if res.err != nil {
		t.Fatal(res.err)
	}
	if got := res.partial[0]; got != raw {
		t.Errorf("partial_json joined to %q, want %q", got, raw)
	}
	// Worth knowing for ponder's adapter: the SDK's Accumulate replaces
	// input that is not valid JSON with {} at content_block_stop, so the
	// verbatim input is only available from the deltas.
	if got := string(res.msg.Content[0].Input); got != "{}" {
		t.Logf("Accumulate now keeps malformed input: %s", got)
	}
}

func TestAnthropicNonStreaming(t *testing.T) {
	srv := newServer(t, Reply{Text: "whole answer", ToolCalls: []ToolCall{
		{ID: "toolu_1", Name: "grep", Input: map[string]any{"pattern": "x"}},
		{ID: "toolu_2", Name: "bad", RawInput: "{nope"},
	}})
	c := anthropicClient(srv)
	msg, err := c.Messages.New(testCtx(t), anthropicParams("hi"))
	if err != nil {
		t.Fatal(err)
	}
	if len(msg.Content) != 3 || msg.Content[0].Text != "whole answer" || msg.Content[1].Name != "grep" ||
		string(msg.Content[1].Input) != `{"pattern":"x"}` || msg.StopReason != anthropic.StopReasonToolUse {
		t.Errorf("message %+v", msg)
	}
	// Broken input cannot travel verbatim inside a JSON message; it comes
	// as a JSON string.
	if got := string(msg.Content[2].Input); got != `"{nope"` {
		t.Errorf("malformed input sent as %s", got)
	}
	if srv.Requests()[0].Stream {
		t.Error("logged as streaming")
	}
}

func TestAnthropicInjectedErrors(t *testing.T) {
	srv := newServer(t,
		Reply{Name: "boom", Status: 500, ErrorMessage: "kaput", RetryAfter: "3"},
		Reply{Name: "slow down", Status: 429, RetryAfterMS: "1500"},
		Reply{Name: "busy", Status: 529},
	)
	c := anthropicClient(srv)
	check := func(status int, typ, msg, header, value string) {
		t.Helper()
		stream := c.Messages.NewStreaming(testCtx(t), anthropicParams("hi"))
		for stream.Next() {
			t.Errorf("event %q from an error response", stream.Current().Type)
		}
		var apiErr *anthropic.Error
		if !errors.As(stream.Err(), &apiErr) {
			t.Fatalf("error %T %v", stream.Err(), stream.Err())
		}
		if apiErr.StatusCode != status || string(apiErr.Type()) != typ || apiErr.Message != msg {
			t.Errorf("got status %d type %q message %q", apiErr.StatusCode, apiErr.Type(), apiErr.Message)
		}
		if got := apiErr.Response.Header.Get(header); got != value {
			t.Errorf("%s header %q, want %q", header, got, value)
		}
	}
	check(500, "api_error", "kaput", "retry-after", "3")
	check(429, "rate_limit_error", "Too Many Requests", "retry-after-ms", "1500")
	check(529, "overloaded_error", "Overloaded", "retry-after", "")
	for _, r := range settled(t, srv) {
		if r.Outcome != OutcomeError {
			t.Errorf("%s: outcome %q", r.Reply, r.Outcome)
		}
	}
}

// TestAnthropicCutStream pins down how the SDK reports a connection cut in
// the middle of a stream: Next returns false and Err returns
// io.ErrUnexpectedEOF itself (from the chunked body reader), with no
// message_stop seen.
func TestAnthropicCutStream(t *testing.T) {
	srv := newServer(t, Reply{Name: "cut", Text: longText, CutAfter: 3})
	res := streamAnthropic(t, srv, anthropicParams("hi"))
	if !errors.Is(res.err, io.ErrUnexpectedEOF) || res.err != io.ErrUnexpectedEOF {
		t.Errorf("stream error %T %v, want io.ErrUnexpectedEOF", res.err, res.err)
	}
	if want := []string{"message_start", "content_block_start", "content_block_delta"}; !slices.Equal(res.events, want) {
		t.Errorf("events before the cut %v, want %v", res.events, want)
	}
	if r := settled(t, srv)[0]; r.Outcome != OutcomeCut {
		t.Errorf("outcome %q", r.Outcome)
	}
}

// A cut later than the last event drops only the terminating chunk: the
// whole message arrives, and then the read of the end fails.
func TestAnthropicCutAfterLastEvent(t *testing.T) {
	srv := newServer(t, Reply{Text: "all of it", CutAfter: 1000})
	res := streamAnthropic(t, srv, anthropicParams("hi"))
	if res.err != io.ErrUnexpectedEOF {
		t.Errorf("stream error %v, want io.ErrUnexpectedEOF", res.err)
	}
	if n := len(res.events); n == 0 || res.events[n-1] != "message_stop" {
		t.Errorf("events %v", res.events)
	}
}

func TestAnthropicNonStreamingCut(t *testing.T) {
	srv := newServer(t, Reply{Text: longText, CutAfter: 1})
	c := anthropicClient(srv)
	_, err := c.Messages.New(testCtx(t), anthropicParams("hi"))
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("error %v", err)
	}
}

func TestAnthropicRequestLog(t *testing.T) {
	srv := newServer(t, Reply{Text: "done"})
	params := anthropic.MessageNewParams{
		Model:     "claude-log",
		MaxTokens: 100,
		System: []anthropic.TextBlockParam{
			{Text: "You are ponder."},
			{Text: "Be brief.", CacheControl: anthropic.NewCacheControlEphemeralParam()},
		},
		Tools: []anthropic.ToolUnionParam{
			{OfTool: &anthropic.ToolParam{Name: "read_file", InputSchema: anthropic.ToolInputSchemaParam{Properties: map[string]any{}}}},
			{OfTool: &anthropic.ToolParam{Name: "bash", InputSchema: anthropic.ToolInputSchemaParam{Properties: map[string]any{}}}},
		},
		Messages: []anthropic.MessageParam{
			anthropic.NewUserMessage(anthropic.NewTextBlock("read main.go")),
			anthropic.NewAssistantMessage(
				anthropic.NewTextBlock("Reading."),
				anthropic.NewToolUseBlock("toolu_a", map[string]any{"path": "main.go"}, "read_file"),
				anthropic.NewToolUseBlock("toolu_b", map[string]any{"command": "ls"}, "bash"),
			),
			anthropic.NewUserMessage(
				anthropic.NewToolResultBlock("toolu_a", "package main", false),
				anthropic.NewToolResultBlock("toolu_b", "permission denied", true),
				anthropic.NewTextBlock("<system-reminder>plan mode is on</system-reminder>"),
			),
		},
	}
	params.Messages[2].OfUser.Content[2].OfText.CacheControl = anthropic.NewCacheControlEphemeralParam()
	if res := streamAnthropic(t, srv, params); res.err != nil {
		t.Fatal(res.err)
	}
	r := srv.Requests()[0]
	if r.API != APIAnthropic || r.Path != "/v1/messages" || r.Model != "claude-log" ||
		(r.Header.Get("X-Api-Key") != "x" && r.Header.Get("Authorization") != "Bearer x") {
		t.Errorf("request %s %s %s headers %v", r.API, r.Path, r.Model, r.Header)
	}
	if r.System != "You are ponder.\nBe brief." {
		t.Errorf("system %q", r.System)
	}
	if !slices.Equal(r.Tools, []string{"read_file", "bash"}) {
		t.Errorf("tools %v", r.Tools)
	}
	want := []Message{
		{Role: "user", Text: "read main.go"},
		{Role: "assistant", Text: "Reading.", ToolUses: []ToolUse{
			{ID: "toolu_a", Name: "read_file", Input: json.RawMessage(`{"path":"main.go"}`)},
			{ID: "toolu_b", Name: "bash", Input: json.RawMessage(`{"command":"ls"}`)},
		}},
		{Role: "user", Text: "<system-reminder>plan mode is on</system-reminder>", ToolResults: []ToolResult{
			{ToolUseID: "toolu_a", Content: "package main"},
			{ToolUseID: "toolu_b", Content: "permission denied", IsError: true},
		}},
	}
	if !reflect.DeepEqual(r.Messages, want) {
		t.Errorf("messages\n got %+v\nwant %+v", r.Messages, want)
	}
	if n := r.CacheControlCount(); n != 2 {
		t.Errorf("cache_control markers %d, want 2", n)
	}
	if !r.ContainsText("permission denied") || !r.ContainsText("Be brief") || r.ContainsText("absent") {
		t.Error("ContainsText")
	}
	if lu := r.LastUser(); len(lu.ToolResults) != 2 {
		t.Errorf("last user %+v", lu)
	}
}

// Raw bodies cover the shapes the SDK does not produce by itself: a string
// system prompt, string content, and tool results made of blocks.
func TestAnthropicDecodesStringAndBlockForms(t *testing.T) {
	srv := newServer(t, Reply{Text: "ok"})
	body := `{"model":"m","max_tokens":5,"system":"plain system","messages":[
		{"role":"user","content":"plain user"},
		{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"ls","input":{}}]},
		{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":[{"type":"text","text":"a.go"},{"type":"text","text":"b.go"}]}]}]}`
	resp, err := http.Post(srv.URL()+"/v1/messages", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(data), `"text":"ok"`) {
		t.Fatalf("status %d body %s", resp.StatusCode, data)
	}
	r := srv.Requests()[0]
	if r.System != "plain system" || r.Messages[0].Text != "plain user" || r.Stream {
		t.Errorf("decoded %+v", r)
	}
	if got := r.LastUser().ToolResults; len(got) != 1 || got[0].Content != "a.go\nb.go" || got[0].ToolUseID != "t1" {
		t.Errorf("tool results %+v", got)
	}
}
