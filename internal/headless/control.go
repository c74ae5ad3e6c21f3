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
	text         string
	compactID    string
	instructions string
}

// control reads the host's side of a stream-json session: user messages,
// answers to questions, mode changes and interrupts.
type control struct {
	app   *app.App
	out   *writer
	input *queue

	mu        sync.Mutex
	kinds     map[string]event.QuestionKind
	interrupt context.CancelFunc
}

func newControl(a *app.App, out *writer) *control {
	return &control{app: a, out: out, input: newQueue(), kinds: map[string]event.QuestionKind{}}
}

// noteQuestion remembers what kind each open question is, to read its
// answer.
func (c *control) noteQuestion(q event.Question) {
	c.mu.Lock()
	c.kinds[q.ID] = q.Kind
	c.mu.Unlock()
}

// forgetQuestion drops a question that no longer waits, however it ended.
func (c *control) forgetQuestion(id string) {
	c.mu.Lock()
	delete(c.kinds, id)
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
// later, are withdrawn, so nothing waits forever and nothing is approved
// by default.
func (c *control) read(r io.Reader) {
	defer c.input.close()
	defer c.app.AnswererGone()
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
		c.input.push(work{text: text})
	case "control_response":
		c.answer(n, in.RequestID, in.Response)
	case "control_request":
		c.request(n, in.RequestID, in.Request)
	default:
		c.complain(n, "unknown line type %q (want user, control_response or control_request)", in.Type)
	}
}

// answer turns a control_response into the answer of its question.
func (c *control) answer(n int, id string, raw json.RawMessage) {
	c.mu.Lock()
	kind, ok := c.kinds[id]
	c.mu.Unlock()
	if !ok {
		c.complain(n, "no open question has request_id %q", id)
		return
	}
	var r struct {
		Behavior string            `json:"behavior"`
		Message  string            `json:"message"`
		Always   bool              `json:"always"`
		Option   string            `json:"option"`
		Feedback string            `json:"feedback"`
		Plan     *string           `json:"plan"`
		Answers  map[string]string `json:"answers"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		c.complain(n, "control_response %q: %v", id, err)
		c.app.Dismiss(id)
		return
	}
	var ans event.Answer
	switch kind {
	case event.AskToolUse, event.AskEnterPlan:
		ans = event.Answer{Allow: r.Behavior == "allow", Message: r.Message, Always: r.Always}
	case event.AskPlanExit:
		opt := r.Option
		if opt == "" && r.Behavior == "allow" {
			opt = event.OptionApprove
		}
		if opt == "" && r.Behavior == "deny" {
			opt = event.OptionReject
			if r.Feedback == "" {
				r.Feedback = r.Message
			}
		}
		ans = event.Answer{Option: opt, Feedback: r.Feedback, EditedPlan: r.Plan}
	case event.AskUser:
		ans = event.Answer{Answers: r.Answers}
	}
	if !c.app.Answer(id, ans) {
		c.complain(n, "the question %q no longer waits for an answer", id)
	}
}

// request handles a host's own control request.
func (c *control) request(n int, id string, raw json.RawMessage) {
	var r struct {
		Subtype      string `json:"subtype"`
		Mode         string `json:"mode"`
		Instructions string `json:"instructions"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		c.reply(id, fmt.Errorf("invalid request: %v", err))
		return
	}
	switch r.Subtype {
	case "set_permission_mode":
		c.reply(id, c.app.SetMode(r.Mode, "control"))
	case "interrupt":
		c.mu.Lock()
		cancel := c.interrupt
		c.mu.Unlock()
		if cancel != nil {
			cancel()
		}
		c.reply(id, nil)
	case "compact":
		// Queued behind the messages before it, so it never runs while a
		// turn does.
		c.input.push(work{compactID: id, instructions: r.Instructions})
	default:
		c.reply(id, fmt.Errorf("unknown control request %q (want set_permission_mode, interrupt or compact)", r.Subtype))
	}
}

func (c *control) reply(id string, err error) {
	resp := map[string]any{"subtype": "success"}
	if err != nil {
		resp = map[string]any{"subtype": "error", "error": err.Error()}
	}
	c.out.line(map[string]any{"type": "control_response", "request_id": id, "response": resp})
}

func (c *control) complain(n int, format string, args ...any) {
	msg := fmt.Sprintf("input line %d: ", n) + fmt.Sprintf(format, args...)
	c.out.line(map[string]any{"type": "event", "event": "notice", "level": "warning", "text": msg, "session_id": c.app.ID()})
}
