package fakemodel

import (
	"context"
	"encoding/json"
	"io"
	"iter"
	"net/http"
	"strings"
	"time"

	"github.com/ponder-agent/ponder/internal/llm"
)

// ProviderName and ProviderBaseURL are what a Provider reports as its
// Name and BaseURL, and what its errors carry.
const (
	ProviderName    = "fakemodel"
	ProviderBaseURL = "inprocess://fakemodel"
)

// Provider answers from a Script in process, as an llm.Provider, with the
// same reply selection as Server but no HTTP. It is safe for concurrent
// use.
//
// A reply's Text arrives as several EventText events, each tool call as an
// EventToolStart, then EventDone carries the whole llm.Response (stop
// reasons in Anthropic's words: end_turn, tool_use, max_tokens). A reply
// with Status fails with an *llm.APIError; one with CutAfter fails with an
// error matching llm.ErrStreamBroken (and io.ErrUnexpectedEOF) after that
// many EventText/EventToolStart events; one with StreamError fails with an
// *llm.APIError marked InStream. A stalling reply (NoAnswer,
// StallAfterHeaders, StallAfter) blocks until ctx is done: without HTTP
// there is no idle timeout, so the consumer's context must end it.
type Provider struct {
	book *book
}

var _ llm.Provider = (*Provider)(nil)

// NewProvider returns a Provider serving s. It panics on a reply that
// cannot be served (see Script.Validate).
func NewProvider(s Script) *Provider { return &Provider{book: newBook(s)} }

// Name returns ProviderName.
func (p *Provider) Name() string { return ProviderName }

// BaseURL returns ProviderBaseURL.
func (p *Provider) BaseURL() string { return ProviderBaseURL }

// Add appends replies to the script. It panics on a reply that cannot be
// served.
func (p *Provider) Add(replies ...Reply) { p.book.add(replies...) }

// Requests returns a copy of the request log in arrival order. The
// messages and bodies in it are shared with the log: treat them as
// read-only.
func (p *Provider) Requests() []Request { return p.book.requests() }

// Unused names the replies that still have uses left, in script order.
func (p *Provider) Unused() []string { return p.book.unused() }

// WaitFor blocks until cond holds for the request log, or ctx is done.
func (p *Provider) WaitFor(ctx context.Context, cond func([]Request) bool) error {
	return p.book.waitFor(ctx, cond)
}

// Stream answers req with the first matching reply. The request is logged
// when iteration starts.
func (p *Provider) Stream(ctx context.Context, req llm.Request) iter.Seq2[llm.Event, error] {
	return func(yield func(llm.Event, error) bool) {
		view := inProcessRequest(req)
		reply, found, at := p.book.take(view)
		apiErr := func(status int, msg string) *llm.APIError {
			return &llm.APIError{Provider: ProviderName, BaseURL: ProviderBaseURL, Model: req.Model, Status: status, Message: msg}
		}
		if !found {
			p.book.settle(at, OutcomeUnmatched)
			yield(llm.Event{}, apiErr(http.StatusBadRequest,
				"fakemodel: no scripted reply matches this request ("+view.describe()+")"))
			return
		}
		outcome := OutcomeCanceled
		defer func() { p.book.settle(at, outcome) }()

		if err := pause(ctx, nil, reply.Delay.D()); err != nil {
			yield(llm.Event{}, err)
			return
		}
		if reply.Status != 0 {
			outcome = OutcomeError
			e := apiErr(reply.Status, errorMessage(reply))
			h := http.Header{}
			h.Set("retry-after", reply.RetryAfter)
			h.Set("retry-after-ms", reply.RetryAfterMS)
			e.RetryAfter = llm.ParseRetryAfter(h, time.Now())
			yield(llm.Event{}, e)
			return
		}

		// stall waits for the consumer to give up, as a silent server
		// makes it.
		stall := func() {
			outcome = OutcomeStalled
			<-ctx.Done()
			yield(llm.Event{}, context.Cause(ctx))
		}
		if reply.NoAnswer || reply.StallAfterHeaders {
			stall()
			return
		}
		errorSent := false
		streamErr := func() {
			errorSent = true
			outcome = OutcomeStreamErr
			yield(llm.Event{}, &llm.APIError{Provider: ProviderName, BaseURL: ProviderBaseURL, Model: req.Model,
				Status: llm.StreamErrorStatus(reply.StreamError, reply.ErrorCode), Message: streamErrorMessage(reply),
				Type: reply.StreamError, InStream: true})
		}

		sent := 0
		// emit yields ev after the chunk delay; it reports false when the
		// stream must end: the consumer stopped, ctx ended, or the script
		// cut, stalled or failed the stream (then outcome says so).
		emit := func(ev llm.Event) bool {
			if reply.StreamError != "" && sent == reply.ErrorAfter {
				streamErr()
				return false
			}
			if sent > 0 {
				if err := pause(ctx, nil, reply.ChunkDelay.D()); err != nil {
					yield(llm.Event{}, err)
					return false
				}
			}
			if !yield(ev, nil) {
				return false
			}
			sent++
			if reply.StallAfter > 0 && sent >= reply.StallAfter {
				stall()
				return false
			}
			if reply.CutAfter > 0 && sent >= reply.CutAfter {
				outcome = OutcomeCut
				yield(llm.Event{}, llm.StreamBrokenError(ProviderName, io.ErrUnexpectedEOF))
				return false
			}
			return true
		}

		msg := llm.Message{Role: llm.RoleAssistant}
		if reply.Text != "" {
			for _, piece := range splitText(reply.Text) {
				if !emit(llm.Event{Type: llm.EventText, Text: piece}) {
					return
				}
			}
			msg.Content = append(msg.Content, llm.TextBlock(reply.Text))
		}
		for _, tc := range reply.ToolCalls {
			if tc.ID == "" {
				tc.ID = p.book.next("toolu_fake_")
			}
			if !emit(llm.Event{Type: llm.EventToolStart, ToolID: tc.ID, ToolName: tc.Name}) {
				return
			}
			msg.Content = append(msg.Content, llm.ToolUseBlock(tc.ID, tc.Name, inputJSON(tc)))
		}
		switch {
		case reply.StreamError != "" && !errorSent:
			streamErr()
			return
		case reply.StallAfter > 0:
			stall()
			return
		}
		if reply.CutAfter > 0 {
			outcome = OutcomeCut
			yield(llm.Event{}, llm.StreamBrokenError(ProviderName, io.ErrUnexpectedEOF))
			return
		}
		if err := ctx.Err(); err != nil {
			yield(llm.Event{}, context.Cause(ctx))
			return
		}
		resp := &llm.Response{Message: msg, StopReason: anthropicStop(reply), Usage: usageFor(reply, view.size(), 0)}
		outcome = OutcomeServed
		yield(llm.Event{Type: llm.EventDone, Response: resp}, nil)
	}
}

// size approximates the request's size in bytes from its text, for token
// estimates.
func (r *Request) size() int {
	n := len(r.System)
	for _, m := range r.Messages {
		n += len(m.Text)
		for _, tu := range m.ToolUses {
			n += len(tu.Name) + len(tu.Input)
		}
		for _, tr := range m.ToolResults {
			n += len(tr.Content)
		}
	}
	return n
}

// inProcessRequest is the logged view of an llm.Request.
func inProcessRequest(req llm.Request) Request {
	body, err := json.Marshal(req)
	if err != nil {
		body = nil // a tool input that is not JSON; the view below still has it
	}
	r := Request{
		API:    APIInProcess,
		Body:   body,
		Model:  req.Model,
		System: req.System,
		Stream: true,
		Time:   time.Now(),
	}
	for _, t := range req.Tools {
		r.Tools = append(r.Tools, t.Name)
	}
	for _, m := range req.Messages {
		msg := Message{Role: string(m.Role)}
		var texts []string
		for _, b := range m.Content {
			switch b.Type {
			case llm.BlockText:
				texts = append(texts, b.Text)
			case llm.BlockToolUse:
				msg.ToolUses = append(msg.ToolUses, ToolUse{ID: b.ID, Name: b.Name, Input: b.Input})
			case llm.BlockToolResult:
				msg.ToolResults = append(msg.ToolResults, ToolResult{ToolUseID: b.ToolUseID, Content: b.Content, IsError: b.IsError})
			case llm.BlockImage:
				msg.Images = append(msg.Images, Image{MediaType: b.MediaType, Data: b.Data})
			}
		}
		msg.Text = strings.Join(texts, "\n")
		r.Messages = append(r.Messages, msg)
	}
	return r
}
