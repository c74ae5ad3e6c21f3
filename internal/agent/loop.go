package agent

import (
	"context"
	"errors"
	"strings"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/llm"
	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/planmode"
	"github.com/ponder-agent/ponder/internal/session"
	"github.com/ponder-agent/ponder/internal/tool"
)

// loop sends content as the next user message and runs model requests and
// tool calls until the turn ends.
func (a *Agent) loop(ctx context.Context, content []llm.Block) (Result, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	a.mu.Lock()
	a.cancelTurn = cancel
	a.mu.Unlock()
	var res Result
	continued := 0
	for {
		if err := a.appendUser(content, true); err != nil {
			return res, err
		}
		if a.cfg.MaxTurns > 0 && res.Requests >= a.cfg.MaxTurns {
			res.StopReason = StopMaxTurns
			return res, nil
		}
		a.maybeCompact(ctx)
		resp, err := a.request(ctx)
		res.Requests++
		if err != nil {
			if ctx.Err() != nil {
				res.StopReason = StopInterrupted
				return res, nil
			}
			return res, err
		}
		res.Usage = res.Usage.Add(resp.Usage)
		if text := resp.Message.Text(); text != "" {
			res.Text = text
		}
		if err := a.appendAssistant(resp); err != nil {
			return res, err
		}
		uses := resp.Message.ToolUses()
		if len(uses) == 0 {
			if more := a.stopHook(ctx, res.Text, continued); more != "" {
				continued++
				content = []llm.Block{llm.TextBlock(more)}
				continue
			}
			if a.cfg.BeforeStop != nil && a.cfg.ID == "" && ctx.Err() == nil {
				if more := a.cfg.BeforeStop(); more != "" {
					content = []llm.Block{llm.TextBlock(more)}
					continue
				}
			}
			res.StopReason = StopEndTurn
			return res, nil
		}
		results, stop := a.runCalls(ctx, uses)
		switch {
		case stop.pending != nil:
			res.StopReason = StopPlanPending
			res.Pending = stop.pending
			return res, a.log(session.Entry{Type: session.TypePending, Pending: stop.pending})
		case ctx.Err() != nil:
			res.StopReason = StopInterrupted
			return res, a.appendUser(results, true)
		case stop.approved:
			res.StopReason = StopPlanApproved
			return res, a.appendUser(results, false)
		case stop.clear:
			// The conversation is about to be replaced: reminders due now
			// belong to the fresh one.
			res.StopReason = StopClearContext
			return res, a.appendUser(results, false)
		}
		content = results
	}
}

// request sends the conversation to the model and streams the answer.
func (a *Agent) request(ctx context.Context) (*llm.Response, error) {
	pc := a.callerContext()
	offered := a.offeredIn(pc, true)
	a.mu.Lock()
	system := a.cfg.System
	a.mu.Unlock()
	req := llm.Request{
		Model:     a.cfg.Model(pc.Mode),
		System:    system,
		Messages:  a.History(),
		Tools:     specs(offered),
		MaxTokens: a.cfg.MaxTokens,
	}
	if a.cfg.Effort != nil {
		req.Effort = a.cfg.Effort(pc.Mode)
	}
	var resp *llm.Response
	for ev, err := range a.cfg.Provider.Stream(ctx, req) {
		if err != nil {
			return nil, err
		}
		switch ev.Type {
		case llm.EventText:
			a.cfg.Emit(event.TextDelta{AgentID: a.cfg.ID, Text: ev.Text})
		case llm.EventRetry:
			a.cfg.Emit(event.Retrying{AgentID: a.cfg.ID, Attempt: ev.Attempt, Wait: ev.Wait, Error: ev.Err.Error()})
		case llm.EventDone:
			resp = ev.Response
		}
	}
	if resp == nil {
		return nil, llm.StreamBrokenError(a.cfg.Provider.Name(), errors.New("no response"))
	}
	a.cfg.Emit(event.AssistantMessage{AgentID: a.cfg.ID, Message: EventMessage(resp.Message), Model: req.Model, Usage: EventUsage(resp.Usage), StopReason: resp.StopReason})
	return resp, nil
}

func (a *Agent) mode() permission.Mode {
	if a.cfg.Plan == nil {
		return permission.ModeDefault
	}
	return a.cfg.Plan.Mode()
}

// specs describes tools to the model.
func specs(tools []tool.Tool) []llm.ToolSpec {
	out := make([]llm.ToolSpec, len(tools))
	for i, t := range tools {
		out[i] = llm.ToolSpec{Name: t.Name(), Description: t.Description(), Schema: t.Schema()}
	}
	return out
}

// appendUser adds a user message carrying content and, if asked, whatever
// reminders are due now.
func (a *Agent) appendUser(content []llm.Block, withReminders bool) error {
	msg := llm.Message{Role: llm.RoleUser, Content: append([]llm.Block(nil), content...)}
	if withReminders {
		msg.Content = append(msg.Content, a.reminders()...)
	}
	a.mu.Lock()
	a.history = append(a.history, msg)
	a.mu.Unlock()
	a.cfg.Emit(event.UserMessage{AgentID: a.cfg.ID, Message: EventMessage(msg)})
	return a.log(session.Entry{Type: session.TypeMessage, Message: &msg})
}

func (a *Agent) appendAssistant(resp *llm.Response) error {
	msg := resp.Message
	u := resp.Usage
	a.mu.Lock()
	a.history = append(a.history, msg)
	a.usage = a.usage.Add(u)
	a.contextTokens = u.InputTokens + u.CacheReadTokens + u.CacheWriteTokens + u.OutputTokens
	a.mu.Unlock()
	if err := a.log(session.Entry{Type: session.TypeMessage, Message: &msg}); err != nil {
		return err
	}
	return a.log(session.Entry{Type: session.TypeUsage, Usage: &u})
}

// reminders returns the reminder blocks due for the next request.
func (a *Agent) reminders() []llm.Block {
	var rs []planmode.Reminder
	if a.cfg.Plan != nil {
		if a.cfg.ID == "" {
			rs = a.cfg.Plan.Reminders()
		} else {
			rs = a.cfg.Plan.SubagentReminders(a.cfg.ID, &a.tracker)
		}
	}
	if a.cfg.Reminders != nil {
		rs = append(rs, a.cfg.Reminders()...)
	}
	out := make([]llm.Block, 0, len(rs))
	for _, r := range rs {
		out = append(out, ReminderBlock(r))
	}
	return out
}

// ReminderBlock wraps a reminder as the text block that carries it.
func ReminderBlock(r planmode.Reminder) llm.Block {
	return llm.Block{Type: llm.BlockText, Reminder: r.Kind, Text: "<system-reminder>\n" + strings.TrimSpace(r.Text) + "\n</system-reminder>"}
}

func (a *Agent) log(e session.Entry) error {
	if a.cfg.Log == nil {
		return nil
	}
	return a.cfg.Log.Append(e)
}

// maybeCompact lets the AutoCompact hook shrink the conversation before a
// request. A failure is reported and the request goes ahead uncompacted.
func (a *Agent) maybeCompact(ctx context.Context) {
	if a.cfg.AutoCompact == nil {
		return
	}
	a.mu.Lock()
	n := a.contextTokens
	a.mu.Unlock()
	if n == 0 {
		return
	}
	if err := a.cfg.AutoCompact(ctx, a, n); err != nil && ctx.Err() == nil {
		a.cfg.Emit(event.Notice{Level: "warning", Text: "Automatic compaction failed (" + err.Error() + "); continuing with the full conversation."})
	}
}
