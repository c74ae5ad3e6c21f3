package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ponder-agent/ponder/event"
)

// relayQueue bounds the events waiting to go out; a client that reads
// too slowly loses the oldest kinds of news (never the result).
const relayQueue = 1024

// relay sends a session's events to the MCP client of the call that runs
// it: each as a log notification ({"event": kind, ...}), and, when the
// call carried a progress token, as a progress notification naming it.
// The session never waits for the client: events queue, and what does
// not fit is dropped.
type relay struct {
	ctx     context.Context
	session *mcp.ServerSession
	token   any

	mu     sync.Mutex
	closed bool
	queue  chan event.Event
	done   chan struct{}
	count  float64
}

func newRelay(ctx context.Context, req *mcp.CallToolRequest) *relay {
	r := &relay{ctx: ctx, session: req.Session, queue: make(chan event.Event, relayQueue), done: make(chan struct{})}
	if req.Params != nil {
		r.token = req.Params.GetProgressToken()
	}
	go r.loop()
	return r
}

// send is the session's event sink.
func (r *relay) send(e event.Event) {
	if _, ok := e.(event.TextDelta); ok {
		return // the whole message follows
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return // the call has returned its result
	}
	select {
	case r.queue <- e:
	default:
	}
}

// close sends what is queued and stops. It is safe to call twice.
func (r *relay) close() {
	r.mu.Lock()
	if !r.closed {
		r.closed = true
		close(r.queue)
	}
	r.mu.Unlock()
	<-r.done
}

func (r *relay) loop() {
	defer close(r.done)
	for e := range r.queue {
		if r.ctx.Err() != nil || r.session == nil {
			continue
		}
		r.count++
		// Logging is deprecated by the newest protocol version but is
		// what clients of the versions in use show; progress
		// notifications carry the same news for the others.
		//lint:ignore SA1019 still the log channel of current clients
		_ = r.session.Log(r.ctx, &mcp.LoggingMessageParams{Level: level(e), Logger: "ponder", Data: data(e)})
		if r.token != nil {
			_ = r.session.NotifyProgress(r.ctx, &mcp.ProgressNotificationParams{ProgressToken: r.token, Progress: r.count, Message: headline(e)})
		}
	}
}

// level is how a client should weigh an event.
//
//lint:ignore SA1019 see loop
func level(e event.Event) mcp.LoggingLevel {
	switch e := e.(type) {
	case event.ToolRefused:
		return "warning"
	case event.Notice:
		if e.Level == "warning" {
			return "warning"
		}
	case event.AssistantMessage, event.UserMessage:
		return "debug"
	}
	return "info"
}

// data is the event as JSON with its kind, as stream-json shows it.
func data(e event.Event) map[string]any {
	out := map[string]any{}
	if raw, err := json.Marshal(e); err == nil {
		_ = json.Unmarshal(raw, &out)
	}
	out["event"] = e.Kind()
	return out
}

// headline is an event in a few words, for progress messages.
func headline(e event.Event) string {
	switch e := e.(type) {
	case event.ToolStarted:
		return "running " + e.Name
	case event.ToolRefused:
		return "refused " + e.Tool
	case event.ModeChanged:
		return "mode " + e.To
	case event.PlanExitRequested:
		return "plan ready for approval"
	}
	return fmt.Sprint(e.Kind())
}
