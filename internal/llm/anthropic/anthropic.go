// Package anthropic adapts the Anthropic Messages API, through the official
// Go SDK, to ponder's provider-neutral llm.Provider.
package anthropic

import (
	"context"
	"errors"
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

// Stream sends the request and yields the streamed answer.
func (p *Provider) Stream(ctx context.Context, req llm.Request) iter.Seq2[llm.Event, error] {
	return func(yield func(llm.Event, error) bool) {
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		stream := p.messages.NewStreaming(ctx, buildParams(req))
		defer stream.Close()
		acc := newAccumulator()
		for stream.Next() {
			ev := stream.Current()
			out, ok := acc.add(ev)
			if ok && !yield(out, nil) {
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

// accumulator builds the final message from stream events.
type accumulator struct {
	blocks  []llm.Block
	partial map[int]*strings.Builder // tool input JSON by block index
	index   map[int64]int            // wire index -> blocks index
	stop    string
	usage   llm.Usage
	stopped bool
}

func newAccumulator() *accumulator {
	return &accumulator{partial: map[int]*strings.Builder{}, index: map[int64]int{}}
}

// add folds one event in and returns the llm.Event to pass on, if any.
func (a *accumulator) add(ev sdk.MessageStreamEventUnion) (llm.Event, bool) {
	switch ev.Type {
	case "message_start":
		u := ev.Message.Usage
		a.usage.InputTokens = int(u.InputTokens)
		a.usage.CacheReadTokens = int(u.CacheReadInputTokens)
		a.usage.CacheWriteTokens = int(u.CacheCreationInputTokens)
		a.usage.OutputTokens = int(u.OutputTokens)
	case "content_block_start":
		cb := ev.ContentBlock
		switch cb.Type {
		case "text":
			a.index[ev.Index] = len(a.blocks)
			a.blocks = append(a.blocks, llm.TextBlock(cb.Text))
			if cb.Text != "" {
				return llm.Event{Type: llm.EventText, Text: cb.Text}, true
			}
		case "tool_use":
			a.index[ev.Index] = len(a.blocks)
			a.partial[len(a.blocks)] = &strings.Builder{}
			a.blocks = append(a.blocks, llm.Block{Type: llm.BlockToolUse, ID: cb.ID, Name: cb.Name})
			return llm.Event{Type: llm.EventToolStart, ToolID: cb.ID, ToolName: cb.Name}, true
		}
	case "content_block_delta":
		i, ok := a.index[ev.Index]
		if !ok {
			return llm.Event{}, false
		}
		switch ev.Delta.Type {
		case "text_delta":
			a.blocks[i].Text += ev.Delta.Text
			return llm.Event{Type: llm.EventText, Text: ev.Delta.Text}, true
		case "input_json_delta":
			if b := a.partial[i]; b != nil {
				b.WriteString(ev.Delta.PartialJSON)
			}
		}
	case "message_delta":
		a.stop = string(ev.Delta.StopReason)
		if ev.Usage.OutputTokens > 0 {
			a.usage.OutputTokens = int(ev.Usage.OutputTokens)
		}
		if ev.Usage.InputTokens > 0 {
			a.usage.InputTokens = int(ev.Usage.InputTokens)
		}
	case "message_stop":
		a.stopped = true
	}
	return llm.Event{}, false
}

func (a *accumulator) response() llm.Response {
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
