// Package anthropic adapts the Anthropic Messages API, through the official
// Go SDK, to ponder's provider-neutral llm.Provider.
package anthropic

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"os"
	"strings"
	"time"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/ponder-agent/ponder/internal/llm"
)

// DefaultBaseURL is where requests go when ANTHROPIC_BASE_URL is unset.
const DefaultBaseURL = "https://api.anthropic.com"

// Default models for the main conversation and for fast helpers.
const (
	DefaultModel     = "claude-sonnet-5-5"
	DefaultFastModel = "claude-haiku-5-5"
	// LargestModel is the most capable model, which "opus" names.
	LargestModel = "claude-opus-5-5"
)

// Aliases are the short names a user may give for a model ("--model
// opus"), each with the current model it stands for. A request always
// carries the model's id.
var Aliases = map[string]string{"sonnet": DefaultModel, "opus": LargestModel, "haiku": DefaultFastModel}

// defaultMaxTokens bounds one answer when the request does not say.
const defaultMaxTokens = 16384

// Options configure a Provider.
type Options struct {
	// APIKey overrides ANTHROPIC_API_KEY.
	APIKey string
	// BaseURL overrides ANTHROPIC_BASE_URL.
	BaseURL string
	// HTTPClient overrides the client built by llm.NewHTTPClient with
	// the default timeouts.
	HTTPClient *http.Client
}

// Provider talks to the Anthropic Messages API.
type Provider struct {
	messages sdk.MessageService
	baseURL  string
}

// New returns a provider configured from opts and the environment. Retries
// are left to llm.WithRetry, so the SDK's own are switched off. Only the
// Messages service is built: a whole client would keep every API of the
// SDK in the binary, which makes ponder larger and slower to start.
func New(opts Options) *Provider {
	base := opts.BaseURL
	if base == "" {
		base = os.Getenv("ANTHROPIC_BASE_URL")
	}
	if base == "" {
		base = DefaultBaseURL
	}
	client := opts.HTTPClient
	if client == nil {
		client = llm.NewHTTPClient(llm.NetOptions{})
	}
	ro := []option.RequestOption{option.WithHTTPClient(client), option.WithBaseURL(base), option.WithMaxRetries(0)}
	switch key, token := firstNonEmpty(opts.APIKey, os.Getenv("ANTHROPIC_API_KEY")), os.Getenv("ANTHROPIC_AUTH_TOKEN"); {
	case key != "":
		ro = append(ro, option.WithAPIKey(key))
	case token != "":
		ro = append(ro, option.WithAuthToken(token))
	}
	return &Provider{messages: sdk.NewMessageService(ro...), baseURL: strings.TrimRight(base, "/")}
}

// Name is "anthropic".
func (p *Provider) Name() string { return "anthropic" }

// BaseURL is the API address in use.
func (p *Provider) BaseURL() string { return p.baseURL }

// Stream sends the request and yields the streamed answer. Only what
// moves the answer on (a block, its text or input, the stop) counts
// against the idle timeout, so keep-alive pings do not hold a request
// open; an answer past the bounds of llm.AnswerBudget, or an event that
// cannot be read, ends the stream with an error.
func (p *Provider) Stream(ctx context.Context, req llm.Request) iter.Seq2[llm.Event, error] {
	return func(yield func(llm.Event, error) bool) {
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		ctx, progress := llm.WithProgress(ctx)
		params := buildParams(req)
		stream := p.messages.NewStreaming(ctx, params)
		defer stream.Close()
		acc := newAccumulator(p.baseURL, int(params.MaxTokens))
		for stream.Next() {
			out, moved, err := acc.add(stream.Current())
			if err != nil {
				yield(llm.Event{}, err)
				return
			}
			if moved {
				progress.Moved()
			}
			if out.Type != 0 && !yield(out, nil) {
				return
			}
		}
		if err := stream.Err(); err != nil {
			yield(llm.Event{}, p.wrapError(err, req.Model))
			return
		}
		if !acc.stopped {
			yield(llm.Event{}, llm.StreamBrokenError(p.Name(), nil))
			return
		}
		resp := acc.response()
		yield(llm.Event{Type: llm.EventDone, Response: &resp}, nil)
	}
}

// wrapError turns SDK errors into llm errors that say where they came from.
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
		e := &llm.APIError{
			Provider:   p.Name(),
			BaseURL:    p.baseURL,
			Model:      model,
			Status:     apiErr.StatusCode,
			Message:    msg,
			RetryAfter: llm.ParseRetryAfter(h, time.Now()),
			Type:       string(apiErr.Type()),
		}
		if e.Status < 400 {
			// An "event: error" inside a stream that began with 200 OK,
			// which is how an overload in mid-answer is reported.
			e.InStream = true
			e.Status = llm.StreamErrorStatus(e.Type, "")
		}
		return e
	}
	return llm.TransportError(p.Name(), p.baseURL, err)
}

// accumulator builds the final message from stream events. Text and tool
// input grow in builders, so that assembling an answer costs time in
// proportion to its size, however small its deltas.
type accumulator struct {
	blocks  []llm.Block
	text    map[int]*strings.Builder // text by block index
	partial map[int]*strings.Builder // tool input JSON by block index
	index   map[int64]int            // wire index -> blocks index, -1 for blocks not kept
	stop    string
	usage   llm.Usage
	stopped bool
	budget  *llm.AnswerBudget
	baseURL string
}

// newAccumulator assembles an answer from the server at baseURL to a
// request that allowed maxTokens.
func newAccumulator(baseURL string, maxTokens int) *accumulator {
	return &accumulator{text: map[int]*strings.Builder{}, partial: map[int]*strings.Builder{},
		index: map[int64]int{}, budget: llm.NewAnswerBudget("anthropic", baseURL, maxTokens), baseURL: baseURL}
}

// badEvent is the error for an event that cannot be read.
func (a *accumulator) badEvent(event, why, data string) error {
	return llm.NewBadEventError("anthropic", a.baseURL, event, why, data)
}

// field is what the SDK knows of a decoded field.
type field interface {
	Raw() string
}

// notString says what a field that should be a string is instead, or ""
// when it is one. (The SDK would take a number for a string.)
func notString(f field) string {
	switch kind := llm.JSONKind(f.Raw()); kind {
	case "a string":
		return ""
	case "empty":
		return "missing"
	default:
		return kind + ", not a string"
	}
}

// add folds one event in. It returns the llm.Event to pass on (Type 0 for
// none), whether the answer moved on, and an error when the event cannot
// be read or the answer passed its bounds.
func (a *accumulator) add(ev sdk.MessageStreamEventUnion) (llm.Event, bool, error) {
	if kind := llm.JSONKind(ev.RawJSON()); kind != "an object" {
		return llm.Event{}, false, a.badEvent("stream", "the data is "+kind, ev.RawJSON())
	}
	if err := a.budget.Event(len(ev.RawJSON())); err != nil {
		return llm.Event{}, false, err
	}
	switch ev.Type {
	case "message_start":
		u := ev.Message.Usage
		a.usage.InputTokens = int(u.InputTokens)
		a.usage.CacheReadTokens = int(u.CacheReadInputTokens)
		a.usage.CacheWriteTokens = int(u.CacheCreationInputTokens)
		a.usage.OutputTokens = int(u.OutputTokens)
		return llm.Event{}, true, nil
	case "content_block_start":
		if err := a.budget.Block(); err != nil {
			return llm.Event{}, false, err
		}
		cb := ev.ContentBlock
		a.index[ev.Index] = -1
		switch cb.Type {
		case "text":
			i := len(a.blocks)
			a.index[ev.Index] = i
			a.blocks = append(a.blocks, llm.Block{Type: llm.BlockText})
			b := &strings.Builder{}
			b.WriteString(cb.Text)
			a.text[i] = b
			if err := a.budget.Grow("a text block", b.Len(), len(cb.Text)); err != nil {
				return llm.Event{}, false, err
			}
			if cb.Text != "" {
				return llm.Event{Type: llm.EventText, Text: cb.Text}, true, nil
			}
		case "tool_use":
			i := len(a.blocks)
			a.index[ev.Index] = i
			a.partial[i] = &strings.Builder{}
			a.blocks = append(a.blocks, llm.Block{Type: llm.BlockToolUse, ID: cb.ID, Name: cb.Name})
			return llm.Event{Type: llm.EventToolStart, ToolID: cb.ID, ToolName: cb.Name}, true, nil
		}
		return llm.Event{}, true, nil
	case "content_block_delta":
		i, ok := a.index[ev.Index]
		if !ok {
			return llm.Event{}, false, a.badEvent(ev.Type, fmt.Sprintf("a delta for block %d, which never started", ev.Index), ev.RawJSON())
		}
		if kind := llm.JSONKind(ev.JSON.Delta.Raw()); kind != "an object" {
			return llm.Event{}, false, a.badEvent(ev.Type, "delta is "+kind+", not an object", ev.RawJSON())
		}
		switch ev.Delta.Type {
		case "text_delta":
			if why := notString(ev.Delta.JSON.Text); why != "" {
				return llm.Event{}, false, a.badEvent(ev.Type, "delta.text is "+why, ev.RawJSON())
			}
			b := a.text[i]
			if b == nil || ev.Delta.Text == "" {
				return llm.Event{}, false, nil
			}
			b.WriteString(ev.Delta.Text)
			if err := a.budget.Grow("a text block", b.Len(), len(ev.Delta.Text)); err != nil {
				return llm.Event{}, false, err
			}
			return llm.Event{Type: llm.EventText, Text: ev.Delta.Text}, true, nil
		case "input_json_delta":
			if why := notString(ev.Delta.JSON.PartialJSON); why != "" {
				return llm.Event{}, false, a.badEvent(ev.Type, "delta.partial_json is "+why, ev.RawJSON())
			}
			b := a.partial[i]
			if b == nil || ev.Delta.PartialJSON == "" {
				return llm.Event{}, false, nil
			}
			b.WriteString(ev.Delta.PartialJSON)
			what := "the input of tool call " + a.blocks[i].Name
			if err := a.budget.Grow(what, b.Len(), len(ev.Delta.PartialJSON)); err != nil {
				return llm.Event{}, false, err
			}
			return llm.Event{}, true, nil
		}
		// Deltas of blocks ponder does not keep (thinking, signatures,
		// citations) still show the model at work.
		return llm.Event{}, true, nil
	case "content_block_stop":
		return llm.Event{}, true, nil
	case "message_delta":
		a.stop = string(ev.Delta.StopReason)
		if ev.Usage.OutputTokens > 0 {
			a.usage.OutputTokens = int(ev.Usage.OutputTokens)
			if err := a.budget.Tokens(a.usage.OutputTokens); err != nil {
				return llm.Event{}, false, err
			}
		}
		if ev.Usage.InputTokens > 0 {
			a.usage.InputTokens = int(ev.Usage.InputTokens)
		}
		return llm.Event{}, true, nil
	case "message_stop":
		a.stopped = true
		return llm.Event{}, true, nil
	}
	return llm.Event{}, false, nil
}

func (a *accumulator) response() llm.Response {
	for i, b := range a.text {
		a.blocks[i].Text = b.String()
	}
	for i, b := range a.partial {
		a.blocks[i] = llm.ToolUseBlock(a.blocks[i].ID, a.blocks[i].Name, strings.TrimSpace(b.String()))
	}
	return llm.Response{
		Message:    llm.Message{Role: llm.RoleAssistant, Content: a.blocks},
		StopReason: a.stop,
		Usage:      a.usage,
	}
}

func firstNonEmpty(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}
