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

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/shared"
)

func TestOpenAIStreamsTextInSeveralDeltas(t *testing.T) {
	srv := newServer(t, Reply{Name: "hello", Text: longText, Usage: Usage{InputTokens: 40, OutputTokens: 9, CacheReadTokens: 2}})
	res := streamOpenAI(t, srv, openAIParams("hi"))
	if res.err != nil || res.addFail {
		t.Fatalf("stream error %v, accumulator failed %v", res.err, res.addFail)
	}
	if len(res.texts) < 3 || strings.Join(res.texts, "") != longText {
		t.Errorf("deltas %q", res.texts)
	}
	if res.finish != "stop" {
		t.Errorf("finish %q", res.finish)
	}
	if res.usage.PromptTokens != 42 || res.usage.CompletionTokens != 9 || res.usage.TotalTokens != 51 ||
		res.usage.PromptTokensDetails.CachedTokens != 2 {
		t.Errorf("usage %+v", res.usage)
	}
	acc := res.acc.ChatCompletion
	if len(acc.Choices) != 1 || acc.Choices[0].Message.Content != longText || acc.Model != "gpt-test" || acc.ID == "" {
		t.Errorf("accumulated %+v", acc)
	}
	r := settled(t, srv)[0]
	if r.API != APIOpenAI || r.Path != "/v1/chat/completions" || r.Reply != "hello" || r.Outcome != OutcomeServed || !r.Stream {
		t.Errorf("log %+v", r)
	}
}

func TestOpenAIWithoutUsageChunk(t *testing.T) {
	srv := newServer(t, Reply{Text: "fine"})
	p := openAIParams("hi")
	p.StreamOptions = openai.ChatCompletionStreamOptionsParam{}
	res := streamOpenAI(t, srv, p)
	if res.err != nil || strings.Join(res.texts, "") != "fine" || res.usage.TotalTokens != 0 {
		t.Errorf("err %v texts %q usage %+v", res.err, res.texts, res.usage)
	}
}

func TestOpenAITwoToolCalls(t *testing.T) {
	srv := newServer(t, Reply{
		Text: "Checking.",
		ToolCalls: []ToolCall{
			{Name: "read_file", Input: map[string]any{"path": "main.go"}},
			{ID: "call_mine", Name: "bash", Input: map[string]any{"command": "ls -la"}},
		},
	})
	p := openAIParams("look")
	p.Tools = []openai.ChatCompletionToolUnionParam{
		openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{Name: "read_file"}),
		openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{Name: "bash"}),
	}
	res := streamOpenAI(t, srv, p)
	if res.err != nil || res.addFail {
		t.Fatalf("stream error %v, accumulator failed %v", res.err, res.addFail)
	}
	if res.finish != "tool_calls" {
		t.Errorf("finish %q", res.finish)
	}
	msg := res.acc.Choices[0].Message
	if msg.Content != "Checking." || len(msg.ToolCalls) != 2 {
		t.Fatalf("message %+v", msg)
	}
	c1, c2 := msg.ToolCalls[0], msg.ToolCalls[1]
	if c1.Function.Name != "read_file" || !strings.HasPrefix(c1.ID, "call_") || c1.Type != "function" {
		t.Errorf("first call %+v", c1)
	}
	if c2.Function.Name != "bash" || c2.ID != "call_mine" {
		t.Errorf("second call %+v", c2)
	}
	var in1, in2 map[string]string
	if err := json.Unmarshal([]byte(c1.Function.Arguments), &in1); err != nil || in1["path"] != "main.go" {
		t.Errorf("first arguments %q (%v)", c1.Function.Arguments, err)
	}
	if err := json.Unmarshal([]byte(c2.Function.Arguments), &in2); err != nil || in2["command"] != "ls -la" {
		t.Errorf("second arguments %q (%v)", c2.Function.Arguments, err)
	}
	if r := srv.Requests()[0]; !slices.Equal(r.Tools, []string{"read_file", "bash"}) {
		t.Errorf("tools %v", r.Tools)
	}
}

func TestOpenAIMalformedRawInputArrivesVerbatim(t *testing.T) {
	raw := `{"path": "a.go", "content": "unterminated`
	srv := newServer(t, Reply{ToolCalls: []ToolCall{{Name: "write_file", RawInput: raw}}})
	res := streamOpenAI(t, srv, openAIParams("write"))
	if res.err != nil {
		t.Fatal(res.err)
	}
	if res.args[0] != raw {
		t.Errorf("argument pieces join to %q", res.args[0])
	}
	if got := res.acc.Choices[0].Message.ToolCalls[0].Function.Arguments; got != raw {
		t.Errorf("accumulated arguments %q", got)
	}
}

func TestOpenAINonStreaming(t *testing.T) {
	srv := newServer(t, Reply{Text: "whole", ToolCalls: []ToolCall{{ID: "call_1", Name: "bad", RawInput: "{nope"}}})
	c := openAIClient(srv)
	cc, err := c.Chat.Completions.New(testCtx(t), openAIParams("hi"))
	if err != nil {
		t.Fatal(err)
	}
	m := cc.Choices[0].Message
	if m.Content != "whole" || len(m.ToolCalls) != 1 || m.ToolCalls[0].Function.Arguments != "{nope" ||
		cc.Choices[0].FinishReason != "tool_calls" || cc.Usage.TotalTokens == 0 {
		t.Errorf("completion %+v", cc)
	}
}

func TestOpenAIInjectedErrors(t *testing.T) {
	srv := newServer(t,
		Reply{Status: 500, ErrorMessage: "kaput", RetryAfter: "3"},
		Reply{Status: 429, ErrorMessage: "slow down", RetryAfterMS: "250"},
	)
	c := openAIClient(srv)
	check := func(status int, msg, typ, header, value string) {
		t.Helper()
		stream := c.Chat.Completions.NewStreaming(testCtx(t), openAIParams("hi"))
		for stream.Next() {
			t.Error("chunk from an error response")
		}
		var apiErr *openai.Error
		if !errors.As(stream.Err(), &apiErr) {
			t.Fatalf("error %T %v", stream.Err(), stream.Err())
		}
		if apiErr.StatusCode != status || apiErr.Message != msg || apiErr.Type != typ {
			t.Errorf("status %d message %q type %q", apiErr.StatusCode, apiErr.Message, apiErr.Type)
		}
		if got := apiErr.Response.Header.Get(header); got != value {
			t.Errorf("%s header %q, want %q", header, got, value)
		}
	}
	check(500, "kaput", "server_error", "retry-after", "3")
	check(429, "slow down", "requests", "retry-after-ms", "250")
}

// TestOpenAICutStream pins down how the SDK reports a connection cut in
// the middle of a stream: Next returns false and Err returns
// io.ErrUnexpectedEOF itself, without a finish_reason or [DONE].
func TestOpenAICutStream(t *testing.T) {
	srv := newServer(t, Reply{Text: longText, CutAfter: 2})
	res := streamOpenAI(t, srv, openAIParams("hi"))
	if res.err != io.ErrUnexpectedEOF {
		t.Errorf("stream error %T %v, want io.ErrUnexpectedEOF", res.err, res.err)
	}
	if res.chunks != 2 || res.finish != "" {
		t.Errorf("%d chunks, finish %q", res.chunks, res.finish)
	}
	if r := settled(t, srv)[0]; r.Outcome != OutcomeCut {
		t.Errorf("outcome %q", r.Outcome)
	}
}

// After [DONE] the SDK stops reading, so a cut in place of the terminating
// chunk goes unnoticed.
func TestOpenAICutAfterDone(t *testing.T) {
	srv := newServer(t, Reply{Text: "all of it", CutAfter: 1000})
	res := streamOpenAI(t, srv, openAIParams("hi"))
	if res.err != nil || res.finish != "stop" {
		t.Errorf("err %v finish %q", res.err, res.finish)
	}
}

func TestOpenAIRequestLog(t *testing.T) {
	srv := newServer(t, Reply{Text: "done"})
	assistant := openai.ChatCompletionAssistantMessageParam{
		Content: openai.ChatCompletionAssistantMessageParamContentUnion{OfString: openai.String("Reading.")},
		ToolCalls: []openai.ChatCompletionMessageToolCallUnionParam{
			{OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{ID: "call_a",
				Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: "read_file", Arguments: `{"path":"main.go"}`}}},
			{OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{ID: "call_b",
				Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: "bash", Arguments: `{"command":`}}},
		},
	}
	p := openAIParams("")
	p.Model = "gpt-log"
	p.Messages = []openai.ChatCompletionMessageParamUnion{
		openai.SystemMessage("You are ponder."),
		openai.DeveloperMessage("Be brief."),
		openai.UserMessage("read main.go"),
		{OfAssistant: &assistant},
		openai.ToolMessage("package main", "call_a"),
		openai.ToolMessage("bad input", "call_b"),
		openai.UserMessage("<system-reminder>plan mode is on</system-reminder>"),
	}
	if res := streamOpenAI(t, srv, p); res.err != nil {
		t.Fatal(res.err)
	}
	r := srv.Requests()[0]
	if r.Model != "gpt-log" || r.System != "You are ponder.\nBe brief." || r.Header.Get("Authorization") != "Bearer x" {
		t.Errorf("model %q system %q", r.Model, r.System)
	}
	want := []Message{
		{Role: "user", Text: "read main.go"},
		{Role: "assistant", Text: "Reading.", ToolUses: []ToolUse{
			{ID: "call_a", Name: "read_file", Input: json.RawMessage(`{"path":"main.go"}`)},
			{ID: "call_b", Name: "bash", Input: json.RawMessage(`{"command":`)},
		}},
		{Role: "user", Text: "<system-reminder>plan mode is on</system-reminder>", ToolResults: []ToolResult{
			{ToolUseID: "call_a", Content: "package main"},
			{ToolUseID: "call_b", Content: "bad input"},
		}},
	}
	if !reflect.DeepEqual(r.Messages, want) {
		t.Errorf("messages\n got %+v\nwant %+v", r.Messages, want)
	}
	if r.CacheControlCount() != 0 {
		t.Error("cache_control in an OpenAI body")
	}
}

func TestOpenAIAcceptsPathWithoutV1(t *testing.T) {
	srv := newServer(t, Reply{Text: "ok"})
	body := `{"model":"m","messages":[{"role":"user","content":[{"type":"text","text":"part one"},{"type":"text","text":"part two"}]}]}`
	resp, err := http.Post(srv.URL()+"/chat/completions", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(data), `"content":"ok"`) {
		t.Fatalf("status %d body %s", resp.StatusCode, data)
	}
	if r := srv.Requests()[0]; r.API != APIOpenAI || r.Messages[0].Text != "part one\npart two" {
		t.Errorf("logged %+v", r)
	}
}
