package headless

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/app"
)

// inLine is one line a host writes on stream-json input.
type inLine struct {
	Type      string          `json:"type"`
	Message   *inMessage      `json:"message"`
	RequestID string          `json:"request_id"`
	Request   json.RawMessage `json:"request"`
	Response  json.RawMessage `json:"response"`
}

type inMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

// text returns a user message's text, given as a string or as blocks.
func (m *inMessage) text() (string, error) {
	var s string
	if err := json.Unmarshal(m.Content, &s); err == nil {
		return s, nil
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(m.Content, &blocks); err != nil {
		return "", fmt.Errorf("message content must be a string or a list of text blocks")
	}
	var parts []string
	for _, b := range blocks {
		if b.Type == "text" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n"), nil
}

// work is one thing the host asked for, done in order: a user message, or
// a compaction.
type work struct {
	// team marks a turn for the messages of the lead's team.
	team         bool
	text         string
	images       []app.Image
	compactID    string
	instructions string
}

// control reads the host's side of a stream-json session: user messages,
// answers to questions, mode changes and interrupts; and carries ponder's
// own requests to the host (hook callbacks).
type control struct {
	app   *app.App
	out   *writer
	input *queue
	calls *hostCalls

	mu        sync.Mutex
	questions map[string]event.Question
	interrupt context.CancelFunc
}

func newControl(a *app.App, out *writer) *control {
	return &control{app: a, out: out, input: newQueue(), calls: newHostCalls(out), questions: map[string]event.Question{}}
}

// noteQuestion remembers each open question, to read its answer.
func (c *control) noteQuestion(q event.Question) {
	c.mu.Lock()
	c.questions[q.ID] = q
	c.mu.Unlock()
}

// forgetQuestion drops a question that no longer waits, however it ended.
func (c *control) forgetQuestion(id string) {
	c.mu.Lock()
	delete(c.questions, id)
	c.mu.Unlock()
}

// setInterrupt registers how to interrupt the running turn.
func (c *control) setInterrupt(cancel context.CancelFunc) {
	c.mu.Lock()
	c.interrupt = cancel
	c.mu.Unlock()
}

// read consumes standard input until it ends. It never waits for a turn:
// user messages queue up, control lines take effect as they come. The end
// of input means the host is gone: questions still open, and any asked
// later, are withdrawn, and requests to the host fail, so nothing waits
// forever and nothing is approved by default.
func (c *control) read(r io.Reader) {
	defer c.input.close()
	defer c.app.AnswererGone()
	defer c.calls.close()
	br := bufio.NewReaderSize(r, 1<<20)
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		if trimmed := strings.TrimSpace(string(line)); trimmed != "" {
			c.handle([]byte(trimmed), n)
		}
		if err != nil {
			return
		}
	}
}

func (c *control) handle(data []byte, n int) {
	var in inLine
	if err := json.Unmarshal(data, &in); err != nil {
		c.complain(n, "not valid JSON: %v", err)
		return
	}
	switch in.Type {
	case "user":
		if in.Message == nil {
			c.complain(n, "a user line needs a message")
			return
		}
		text, err := in.Message.text()
		if err != nil {
			c.complain(n, "%v", err)
			return
		}
		images, err := in.Message.images()
		if err != nil {
			c.complain(n, "%v", err)
			return
		}
		c.input.push(work{text: text, images: images})
	case "control_response":
		c.response(n, in.RequestID, in.Response)
	case "control_request":
		c.request(n, in.RequestID, in.Request)
	case "control_cancel_request", "keep_alive", "update_environment_variables":
		// A host withdrawing a request ponder already answered, or
		// keeping the pipe warm: nothing to do.
	default:
		c.complain(n, "unknown line type %q (want user, control_response or control_request)", in.Type)
	}
}

// response reads a control_response in either shape: request_id at the
// top with the answer as response (ponder's), or the SDK's envelope
// {"subtype":"success"|"error","request_id":…,"response":{…}}.
func (c *control) response(n int, id string, raw json.RawMessage) {
	var env struct {
		Subtype   string          `json:"subtype"`
		RequestID string          `json:"request_id"`
		Response  json.RawMessage `json:"response"`
		Error     string          `json:"error"`
	}
	_ = json.Unmarshal(raw, &env)
	payload := raw
	failed := ""
	if env.Subtype == "success" || env.Subtype == "error" {
		if id == "" {
			id = env.RequestID
		}
		payload = env.Response
		if env.Subtype == "error" {
			failed = env.Error
			if failed == "" {
				failed = "the host answered with an error"
			}
		}
	}
	if id == "" {
		c.complain(n, "a control_response needs a request_id")
		return
	}
	if c.calls.deliver(id, payload, failed) {
		return
	}
	c.answer(n, id, payload, failed)
}

// answer turns a host's reply into the answer of its question. A host
// that failed to answer (an SDK host without a canUseTool callback, say)
// dismisses the question, which counts as no.
func (c *control) answer(n int, id string, raw json.RawMessage, failed string) {
	c.mu.Lock()
	q, ok := c.questions[id]
	c.mu.Unlock()
	if !ok {
		c.complain(n, "no open question has request_id %q", id)
		return
	}
	if failed != "" {
		c.complain(n, "the host could not answer %s %q: %s", q.Kind, id, failed)
		c.app.Dismiss(id)
		return
	}
	var r reply
	if len(raw) == 0 || string(raw) == "null" {
		raw = json.RawMessage(`{}`)
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		c.complain(n, "control_response %q: %v", id, err)
		c.app.Dismiss(id)
		return
	}
	ans, mode, dismiss, err := toAnswer(q.Kind, r)
	if err != nil {
		c.complain(n, "control_response %q: %v", id, err)
		c.app.Dismiss(id)
		return
	}
	if dismiss {
		c.app.Dismiss(id)
		return
	}
	if ans.EditedPlan != nil && *ans.EditedPlan == q.Plan {
		ans.EditedPlan = nil // the plan sent back as it was
	}
	if q.Kind == event.AskPlanExit {
		// ponder's own fields: comments on lines, the implementing
		// model, the rules to grant.
		if ans, err = c.planExitAnswer(q, raw, ans); err != nil {
			c.complain(n, "control_response %q: %v", id, err)
			if c.out.sdk.Load() {
				// An SDK host's callback answers once: its answer
				// that does not fit counts as no.
				c.app.Dismiss(id)
			}
			// Otherwise the question stays open, so the host can
			// answer again.
			return
		}
	}
	if !c.app.Answer(id, ans) {
		c.complain(n, "the question %q no longer waits for an answer", id)
		return
	}
	if mode != "" {
		if err := c.app.SetMode(mode, "sdk"); err != nil {
			c.complain(n, "control_response %q: %v", id, err)
		}
	}
}

func (c *control) reply(id string, err error) { c.replyWith(id, nil, err) }

// replyWith answers a host's control request with a payload, in a shape
// both dialects read: request_id at the top (ponder's) and inside the
// response (the SDK's).
func (c *control) replyWith(id string, payload any, err error) {
	resp := map[string]any{"subtype": "success", "request_id": id}
	if payload != nil {
		resp["response"] = payload
	}
	if err != nil {
		resp = map[string]any{"subtype": "error", "request_id": id, "error": err.Error()}
	}
	c.out.line(map[string]any{"type": "control_response", "request_id": id, "response": resp})
}

func (c *control) complain(n int, format string, args ...any) {
	msg := fmt.Sprintf("input line %d: ", n) + fmt.Sprintf(format, args...)
	c.out.line(c.out.eventLine(event.Notice{Level: "warning", Text: msg}))
}
