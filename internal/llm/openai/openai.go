// Package openai adapts OpenAI-compatible Chat Completions APIs (OpenAI,
// Ollama, vLLM, llama.cpp server, OpenRouter…), through the official Go SDK,
// to ponder's provider-neutral llm.Provider.
package openai

import (
	"context"
	"encoding/json"
	"errors"
	"iter"
	"net/http"
	"os"
	"sort"
	"strings"
	"time"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/respjson"
	"github.com/openai/openai-go/v3/packages/ssestream"

	"github.com/ponder-agent/ponder/internal/llm"
)

// DefaultBaseURL is where requests go when OPENAI_BASE_URL is unset.
const DefaultBaseURL = "https://api.openai.com/v1"

// DefaultModel is the main model when none is configured.
const DefaultModel = "gpt-5.5"

// Aliases are the short names of Claude's model tiers, as other agents'
// users type them, with the model each stands for here: the default
// model for the large tiers and its small sibling for the fast one.
// Settings (modelAliases) override them for a local server.
var Aliases = map[string]string{"sonnet": DefaultModel, "opus": DefaultModel, "haiku": DefaultModel + "-mini"}

// Options configure a Provider.
type Options struct {
	// APIKey overrides OPENAI_API_KEY; local servers often need none.
	APIKey string
	// BaseURL overrides OPENAI_BASE_URL.
	BaseURL string
	// HTTPClient overrides the client built by llm.NewHTTPClient with
	// the default timeouts.
	HTTPClient *http.Client
}

// Provider talks to a Chat Completions API.
type Provider struct {
	completions sdk.ChatCompletionService
	baseURL     string
}

// New returns a provider configured from opts and the environment. Retries
// are left to llm.WithRetry.
func New(opts Options) *Provider {
	base := opts.BaseURL
	if base == "" {
		base = os.Getenv("OPENAI_BASE_URL")
	}
	if base == "" {
		base = DefaultBaseURL
	}
	key := opts.APIKey
	if key == "" {
		key = os.Getenv("OPENAI_API_KEY")
	}
	if key == "" {
		// Local servers take any key; the SDK insists on one.
		key = "none"
	}
	client := opts.HTTPClient
	if client == nil {
		client = llm.NewHTTPClient(llm.NetOptions{})
	}
	// Only the Chat Completions service is built: a whole client keeps
	// every API of the SDK in the binary.
	ro := []option.RequestOption{option.WithHTTPClient(client), option.WithBaseURL(base), option.WithAPIKey(key), option.WithMaxRetries(0)}
	return &Provider{completions: sdk.NewChatCompletionService(ro...), baseURL: strings.TrimRight(base, "/")}
}

// Name is "openai".
func (p *Provider) Name() string { return "openai" }

// BaseURL is the API address in use.
func (p *Provider) BaseURL() string { return p.baseURL }

// Stream sends the request and yields the streamed answer. Only what
// moves the answer on (its text, a tool call's name or input, the finish)
// counts against the idle timeout, so keep-alive comments and empty
// chunks do not hold a request open; an answer past the bounds of
// llm.AnswerBudget, or a chunk that cannot be read, ends the stream with
// an error.
func (p *Provider) Stream(ctx context.Context, req llm.Request) iter.Seq2[llm.Event, error] {
	return func(yield func(llm.Event, error) bool) {
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		ctx, progress := llm.WithProgress(ctx)
		stream := p.completions.NewStreaming(ctx, buildParams(req))
		defer stream.Close()
		acc := newAccumulator(p.baseURL, req.MaxTokens)
		for stream.Next() {
			evs, moved, err := acc.add(stream.Current())
			if err != nil {
				yield(llm.Event{}, err)
				return
			}
			if moved {
				progress.Moved()
			}
			for _, ev := range evs {
				if !yield(ev, nil) {
					return
				}
			}
		}
		if err := stream.Err(); err != nil {
			yield(llm.Event{}, p.wrapError(err, req.Model))
			return
		}
		if acc.finish == "" {
			yield(llm.Event{}, llm.StreamBrokenError(p.Name(), nil))
			return
		}
		resp := acc.response()
		yield(llm.Event{Type: llm.EventDone, Response: &resp}, nil)
	}
}

func (p *Provider) wrapError(err error, model string) error {
	var apiErr *sdk.Error
	if errors.As(err, &apiErr) {
		var h http.Header
		if apiErr.Response != nil {
			h = apiErr.Response.Header
		}
		msg := apiErr.Message
		if msg == "" {
			msg = strings.TrimSpace(apiErr.RawJSON())
		}
		return &llm.APIError{
			Provider:   p.Name(),
			BaseURL:    p.baseURL,
			Model:      model,
			Status:     apiErr.StatusCode,
			Message:    msg,
			RetryAfter: llm.ParseRetryAfter(h, time.Now()),
			Type:       apiErr.Type,
		}
	}
	var streamErr *ssestream.StreamError
	if errors.As(err, &streamErr) {
		return p.streamError(streamErr.Event.Data, model)
	}
	return llm.TransportError(p.Name(), p.baseURL, err)
}

// streamError reads an {"error":{…}} chunk sent in the middle of a 200
// stream, as OpenAI-compatible servers report a failure once the answer
// has begun. Its type or code says whether it is worth another attempt.
func (p *Provider) streamError(data []byte, model string) error {
	var body struct {
		Error json.RawMessage `json:"error"`
	}
	_ = json.Unmarshal(data, &body)
	var detail struct {
		Message string          `json:"message"`
		Type    string          `json:"type"`
		Code    json.RawMessage `json:"code"`
	}
	if json.Unmarshal(body.Error, &detail) != nil {
		// The error is a bare string, or not JSON at all.
		var s string
		if json.Unmarshal(body.Error, &s) == nil {
			detail.Message = s
		} else {
			detail.Message = strings.TrimSpace(string(data))
		}
	}
	code := strings.Trim(string(detail.Code), `"`)
	if code == "null" {
		code = ""
	}
	typ := detail.Type
	if typ == "" {
		typ = code
	}
	return &llm.APIError{
		Provider: p.Name(),
		BaseURL:  p.baseURL,
		Model:    model,
		Status:   llm.StreamErrorStatus(detail.Type, code),
		Message:  detail.Message,
		Type:     typ,
		InStream: true,
	}
}

type call struct {
	id, name string
	args     strings.Builder
}

// accumulator builds the final message from chunks, in builders, so that
// assembling an answer costs time in proportion to its size.
type accumulator struct {
	text    strings.Builder
	calls   map[int64]*call
	finish  string
	usage   llm.Usage
	budget  *llm.AnswerBudget
	baseURL string
}

// newAccumulator assembles an answer from the server at baseURL to a
// request that allowed maxTokens (0: the server's own limit).
func newAccumulator(baseURL string, maxTokens int) *accumulator {
	return &accumulator{calls: map[int64]*call{}, budget: llm.NewAnswerBudget("openai", baseURL, maxTokens), baseURL: baseURL}
}

// badChunk is the error for a chunk that cannot be read.
func (a *accumulator) badChunk(why string, ch sdk.ChatCompletionChunk) error {
	return llm.NewBadEventError("openai", a.baseURL, "chunk", why, ch.RawJSON())
}

// field is what the SDK knows of a decoded field.
type field interface {
	Raw() string
}

// undecodable reports a field that is present but not of the kind of JSON
// value it should be, such as "a string" (null and absent are fine: the
// API leaves out what a chunk does not carry). The SDK would take a
// number for a string.
func undecodable(f field, kind string) bool {
	raw := f.Raw()
	return raw != "" && raw != "null" && llm.JSONKind(raw) != kind
}

// reasoning reports whether a delta carries text in a field the SDK does
// not know, as servers of reasoning models stream their thinking
// ("reasoning_content", "reasoning"): not part of the answer, but the
// model at work.
func reasoning(extra map[string]respjson.Field) bool {
	for _, f := range extra {
		if r := f.Raw(); len(r) > 2 && r[0] == '"' {
			return true
		}
	}
	return false
}

// add folds one chunk in. It returns the events to pass on, whether the
// answer moved on, and an error when the chunk cannot be read or the
// answer passed its bounds.
func (a *accumulator) add(ch sdk.ChatCompletionChunk) ([]llm.Event, bool, error) {
	if kind := llm.JSONKind(ch.RawJSON()); kind != "an object" {
		return nil, false, a.badChunk("the data is "+kind, ch)
	}
	if err := a.budget.Event(len(ch.RawJSON())); err != nil {
		return nil, false, err
	}
	if undecodable(ch.JSON.Choices, "an array") {
		return nil, false, a.badChunk("choices is "+llm.JSONKind(ch.JSON.Choices.Raw())+", not a list", ch)
	}
	var out []llm.Event
	moved := false
	if ch.Usage.PromptTokens > 0 || ch.Usage.CompletionTokens > 0 {
		a.usage = llm.Usage{
			InputTokens:     int(ch.Usage.PromptTokens),
			OutputTokens:    int(ch.Usage.CompletionTokens),
			CacheReadTokens: int(ch.Usage.PromptTokensDetails.CachedTokens),
		}
		if err := a.budget.Tokens(a.usage.OutputTokens); err != nil {
			return nil, false, err
		}
		moved = true
	}
	for _, choice := range ch.Choices {
		if choice.Index != 0 {
			continue
		}
		if undecodable(choice.JSON.Delta, "an object") {
			return nil, false, a.badChunk("delta is "+llm.JSONKind(choice.JSON.Delta.Raw())+", not an object", ch)
		}
		if undecodable(choice.Delta.JSON.Content, "a string") {
			return nil, false, a.badChunk("delta.content is "+llm.JSONKind(choice.Delta.JSON.Content.Raw())+", not a string", ch)
		}
		if choice.Delta.Role != "" || choice.Delta.Refusal != "" || reasoning(choice.Delta.JSON.ExtraFields) {
			moved = true
		}
		if d := choice.Delta.Content; d != "" {
			if a.text.Len() == 0 {
				if err := a.budget.Block(); err != nil {
					return nil, false, err
				}
			}
			a.text.WriteString(d)
			if err := a.budget.Grow("the text", a.text.Len(), len(d)); err != nil {
				return nil, false, err
			}
			out = append(out, llm.Event{Type: llm.EventText, Text: d})
			moved = true
		}
		for _, tc := range choice.Delta.ToolCalls {
			if undecodable(tc.Function.JSON.Arguments, "a string") || undecodable(tc.Function.JSON.Name, "a string") {
				return nil, false, a.badChunk("a tool call's function name or arguments is not a string", ch)
			}
			c := a.calls[tc.Index]
			if c == nil {
				if err := a.budget.Block(); err != nil {
					return nil, false, err
				}
				c = &call{}
				a.calls[tc.Index] = c
			}
			if tc.ID != "" {
				c.id = tc.ID
				moved = true
			}
			if tc.Function.Name != "" && c.name == "" {
				c.name = tc.Function.Name
				out = append(out, llm.Event{Type: llm.EventToolStart, ToolID: c.id, ToolName: c.name})
				moved = true
			}
			if args := tc.Function.Arguments; args != "" {
				c.args.WriteString(args)
				if err := a.budget.Grow("the input of tool call "+c.name, c.args.Len(), len(args)); err != nil {
					return nil, false, err
				}
				moved = true
			}
		}
		if choice.FinishReason != "" {
			a.finish = choice.FinishReason
			moved = true
		}
	}
	return out, moved, nil
}

func (a *accumulator) response() llm.Response {
	msg := llm.Message{Role: llm.RoleAssistant}
	if a.text.Len() > 0 {
		msg.Content = append(msg.Content, llm.TextBlock(a.text.String()))
	}
	idx := make([]int64, 0, len(a.calls))
	for i := range a.calls {
		idx = append(idx, i)
	}
	sort.Slice(idx, func(i, j int) bool { return idx[i] < idx[j] })
	for _, i := range idx {
		c := a.calls[i]
		msg.Content = append(msg.Content, llm.ToolUseBlock(c.id, c.name, strings.TrimSpace(c.args.String())))
	}
	stop := "end_turn"
	switch a.finish {
	case "tool_calls", "function_call":
		stop = "tool_use"
	case "length":
		stop = "max_tokens"
	}
	return llm.Response{Message: msg, StopReason: stop, Usage: a.usage}
}
