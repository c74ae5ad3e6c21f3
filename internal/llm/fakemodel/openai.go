package fakemodel

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// openAIWire speaks OpenAI Chat Completions.
type openAIWire struct{}

// Request shapes of Chat Completions, as far as the fake reads them.
type (
	oaRequest struct {
		Model               string      `json:"model"`
		MaxTokens           int         `json:"max_tokens"`
		MaxCompletionTokens int         `json:"max_completion_tokens"`
		ReasoningEffort     string      `json:"reasoning_effort"`
		Messages            []oaMessage `json:"messages"`
		Tools               []struct {
			Type     string `json:"type"`
			Name     string `json:"name"`
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
			Custom struct {
				Name string `json:"name"`
			} `json:"custom"`
		} `json:"tools"`
		Stream        bool `json:"stream"`
		StreamOptions struct {
			IncludeUsage bool `json:"include_usage"`
		} `json:"stream_options"`
	}
	oaMessage struct {
		Role       string          `json:"role"`
		Content    json.RawMessage `json:"content"`
		ToolCalls  []oaToolCall    `json:"tool_calls"`
		ToolCallID string          `json:"tool_call_id"`
	}
	oaToolCall struct {
		ID       string     `json:"id"`
		Type     string     `json:"type"`
		Function oaFunction `json:"function"`
	}
	oaFunction struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	}
)

// oaText reads content that is a string, null, or an array of parts, and
// joins the text of its text parts.
func oaText(raw json.RawMessage) (string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return "", nil
	}
	if raw[0] == '"' {
		var s string
		err := json.Unmarshal(raw, &s)
		return s, err
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(raw, &parts); err != nil {
		return "", err
	}
	var texts []string
	for _, p := range parts {
		if p.Type == "text" {
			texts = append(texts, p.Text)
		}
	}
	return strings.Join(texts, "\n"), nil
}

// oaImages reads the image_url parts of content given as data URLs.
func oaImages(raw json.RawMessage) ([]Image, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '[' {
		return nil, nil
	}
	var parts []struct {
		Type     string `json:"type"`
		ImageURL struct {
			URL string `json:"url"`
		} `json:"image_url"`
	}
	if err := json.Unmarshal(raw, &parts); err != nil {
		return nil, err
	}
	var out []Image
	for _, p := range parts {
		if p.Type != "image_url" {
			continue
		}
		head, data, ok := strings.Cut(strings.TrimPrefix(p.ImageURL.URL, "data:"), ";base64,")
		if !ok {
			return nil, fmt.Errorf("image_url %.40q is not a base64 data URL", p.ImageURL.URL)
		}
		out = append(out, Image{MediaType: head, Data: data})
	}
	return out, nil
}

func (openAIWire) decode(x *exchange) error {
	var body oaRequest
	if err := json.Unmarshal(x.req.Body, &body); err != nil {
		return err
	}
	r := x.req
	r.Model, r.Stream, r.MaxTokens = body.Model, body.Stream, max(body.MaxCompletionTokens, body.MaxTokens)
	r.ReasoningEffort = body.ReasoningEffort
	x.includeUsage = body.StreamOptions.IncludeUsage
	for _, t := range body.Tools {
		name := t.Function.Name
		if name == "" {
			name = t.Custom.Name
		}
		if name == "" {
			name = t.Name
		}
		r.Tools = append(r.Tools, name)
	}
	var system []string
	for i, m := range body.Messages {
		text, err := oaText(m.Content)
		if err != nil {
			return fmt.Errorf("messages[%d].content: %w", i, err)
		}
		switch m.Role {
		case "system", "developer":
			system = append(system, text)
		case "user":
			images, err := oaImages(m.Content)
			if err != nil {
				return fmt.Errorf("messages[%d].content: %w", i, err)
			}
			r.Messages = appendUser(r.Messages, Message{Role: "user", Text: text, Images: images})
		case "tool":
			r.Messages = appendUser(r.Messages, Message{Role: "user",
				ToolResults: []ToolResult{{ToolUseID: m.ToolCallID, Content: text}}})
		case "assistant":
			msg := Message{Role: "assistant", Text: text}
			for _, tc := range m.ToolCalls {
				msg.ToolUses = append(msg.ToolUses, ToolUse{ID: tc.ID, Name: tc.Function.Name,
					Input: json.RawMessage(tc.Function.Arguments)})
			}
			r.Messages = append(r.Messages, msg)
		default:
			return fmt.Errorf("messages[%d]: unknown role %q", i, m.Role)
		}
	}
	r.System = strings.Join(system, "\n")
	return nil
}

func (openAIWire) writeError(x *exchange, status int, message string, header http.Header) {
	for k, v := range header {
		x.w.Header()[k] = v
	}
	x.w.Header().Set("x-request-id", x.book.next("req_fake_"))
	typ, code := "invalid_request_error", any(nil)
	switch {
	case status == 401:
		code = "invalid_api_key"
	case status == 404:
		code = "model_not_found"
	case status == 429:
		typ, code = "requests", "rate_limit_exceeded"
	case status >= 500:
		typ = "server_error"
	}
	writeJSON(x.w, status, map[string]any{
		"error": map[string]any{"message": message, "type": typ, "param": nil, "code": code},
	})
}

// Response shapes of Chat Completions.
type (
	oaChunk struct {
		ID      string          `json:"id"`
		Object  string          `json:"object"`
		Created int64           `json:"created"`
		Model   string          `json:"model"`
		Choices []oaChunkChoice `json:"choices"`
		Usage   *oaUsage        `json:"usage,omitempty"`
	}
	oaChunkChoice struct {
		Index        int     `json:"index"`
		Delta        oaDelta `json:"delta"`
		Logprobs     any     `json:"logprobs"`
		FinishReason *string `json:"finish_reason"`
	}
	oaDelta struct {
		Role      string            `json:"role,omitempty"`
		Content   any               `json:"content,omitempty"`
		ToolCalls []oaToolCallDelta `json:"tool_calls,omitempty"`
	}
	oaToolCallDelta struct {
		Index    int             `json:"index"`
		ID       string          `json:"id,omitempty"`
		Type     string          `json:"type,omitempty"`
		Function oaFunctionDelta `json:"function"`
	}
	oaFunctionDelta struct {
		Name      string `json:"name,omitempty"`
		Arguments string `json:"arguments"`
	}
	oaUsage struct {
		PromptTokens        int `json:"prompt_tokens"`
		CompletionTokens    int `json:"completion_tokens"`
		TotalTokens         int `json:"total_tokens"`
		PromptTokensDetails struct {
			CachedTokens int `json:"cached_tokens"`
		} `json:"prompt_tokens_details"`
	}
	oaCompletion struct {
		ID      string     `json:"id"`
		Object  string     `json:"object"`
		Created int64      `json:"created"`
		Model   string     `json:"model"`
		Choices []oaChoice `json:"choices"`
		Usage   oaUsage    `json:"usage"`
	}
	oaChoice struct {
		Index        int          `json:"index"`
		Message      oaOutMessage `json:"message"`
		Logprobs     any          `json:"logprobs"`
		FinishReason string       `json:"finish_reason"`
	}
	oaOutMessage struct {
		Role      string       `json:"role"`
		Content   *string      `json:"content"`
		Refusal   *string      `json:"refusal"`
		ToolCalls []oaToolCall `json:"tool_calls,omitempty"`
	}
)

func (openAIWire) respond(x *exchange) error {
	r := x.reply
	u := usageFor(r, len(x.req.Body), x.req.MaxTokens)
	usage := oaUsage{PromptTokens: u.InputTokens + u.CacheReadTokens, CompletionTokens: u.OutputTokens}
	usage.TotalTokens = usage.PromptTokens + usage.CompletionTokens
	usage.PromptTokensDetails.CachedTokens = u.CacheReadTokens
	finish := openAIStop(r)
	id := x.book.next("chatcmpl-fake-")
	created := time.Now().Unix()
	x.w.Header().Set("x-request-id", x.book.next("req_fake_"))

	calls := make([]oaToolCall, len(r.ToolCalls))
	for i, tc := range r.ToolCalls {
		if tc.ID == "" {
			tc.ID = x.book.next("call_fake_")
		}
		calls[i] = oaToolCall{ID: tc.ID, Type: "function", Function: oaFunction{Name: tc.Name, Arguments: inputJSON(tc)}}
	}

	if !x.req.Stream {
		msg := oaOutMessage{Role: "assistant", ToolCalls: calls}
		if r.Text != "" {
			msg.Content = &r.Text
		}
		return x.sendWhole(oaCompletion{ID: id, Object: "chat.completion", Created: created, Model: x.model(),
			Choices: []oaChoice{{Message: msg, FinishReason: finish}}, Usage: usage})
	}

	if err := x.startStream(); err != nil {
		return err
	}
	chunk := func(d oaDelta, finish *string) oaChunk {
		return oaChunk{ID: id, Object: "chat.completion.chunk", Created: created, Model: x.model(),
			Choices: []oaChunkChoice{{Delta: d, FinishReason: finish}}}
	}
	empty := ""
	if err := x.send("", chunk(oaDelta{Role: "assistant", Content: &empty}, nil)); err != nil {
		return err
	}
	if r.KeepAlive > 0 {
		ping, err := marshal(chunk(oaDelta{Content: &empty}, nil))
		if err != nil {
			return err
		}
		return x.keepAlive(": keep-alive\n\n", "data: "+string(ping)+"\n\n")
	}
	err := x.streamText(func(piece any) error {
		return x.send("", chunk(oaDelta{Content: piece}, nil))
	})
	if err != nil {
		return err
	}
	for i, tc := range calls {
		first := oaToolCallDelta{Index: i, ID: tc.ID, Type: "function", Function: oaFunctionDelta{Name: tc.Function.Name}}
		if err := x.send("", chunk(oaDelta{ToolCalls: []oaToolCallDelta{first}}, nil)); err != nil {
			return err
		}
		for _, piece := range splitJSON(tc.Function.Arguments) {
			d := oaToolCallDelta{Index: i, Function: oaFunctionDelta{Arguments: piece}}
			if err := x.send("", chunk(oaDelta{ToolCalls: []oaToolCallDelta{d}}, nil)); err != nil {
				return err
			}
		}
	}
	if err := x.ending(); err != nil {
		return err
	}
	if err := x.send("", chunk(oaDelta{}, &finish)); err != nil {
		return err
	}
	if x.includeUsage {
		last := oaChunk{ID: id, Object: "chat.completion.chunk", Created: created, Model: x.model(),
			Choices: []oaChunkChoice{}, Usage: &usage}
		if err := x.send("", last); err != nil {
			return err
		}
	}
	if err := x.send("", "[DONE]"); err != nil {
		return err
	}
	return x.endStream()
}

func (openAIWire) streamError(x *exchange) (string, any) {
	var code any
	if c := x.reply.ErrorCode; c != "" {
		code = c
		if n, err := strconv.Atoi(c); err == nil {
			code = n
		}
	}
	return "", map[string]any{
		"error": map[string]any{"message": streamErrorMessage(x.reply), "type": x.reply.StreamError, "param": nil, "code": code},
	}
}
