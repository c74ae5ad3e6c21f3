package app

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/agent"
	"github.com/ponder-agent/ponder/internal/llm"
	"github.com/ponder-agent/ponder/internal/planmode"
	"github.com/ponder-agent/ponder/internal/session"
	"github.com/ponder-agent/ponder/internal/todo"
)

//go:embed compact.md
var compactPrompt string

// compactMaxTokens bounds the summary.
const compactMaxTokens = 8192

// Compact replaces the main conversation by a summary the model writes,
// then gives the model back what the summary must not lose: the plan
// file's content and the todo list. Plan mode, if on, stays on and its
// reminder comes again with the next request.
func (a *App) Compact(ctx context.Context, instructions string) error {
	ctx, done := a.work.track(ctx)
	defer done()
	return a.compactAgent(ctx, a.mainAgent(), instructions, "manual")
}

// compactAgent compacts main's conversation; trigger says who asked
// ("manual", "auto"), for the PreCompact hooks.
func (a *App) compactAgent(ctx context.Context, main *agent.Agent, instructions, trigger string) error {
	hist := main.History()
	if len(hist) < 2 {
		return errors.New("there is nothing to compact yet")
	}
	a.preCompactHooks(ctx, trigger, instructions)
	ask := "Summarise the conversation so far as your instructions say."
	if s := strings.TrimSpace(instructions); s != "" {
		ask += "\n\nThe user adds: " + s
	}
	req := llm.Request{
		Model:     a.modelFor(a.plan.Mode()),
		System:    compactPrompt,
		Messages:  append(hist, llm.UserText(ask)),
		MaxTokens: compactMaxTokens,
	}
	var resp *llm.Response
	for ev, err := range a.provider.Stream(ctx, req) {
		if err != nil {
			return fmt.Errorf("compacting: %w", err)
		}
		if ev.Type == llm.EventDone {
			resp = ev.Response
		}
	}
	if resp == nil || strings.TrimSpace(resp.Message.Text()) == "" {
		return errors.New("compacting: the model returned no summary")
	}
	return a.applyCompaction(main, resp.Message.Text())
}

// applyCompaction records the summary and restarts the conversation from
// it, with the plan and the todos attached.
func (a *App) applyCompaction(main *agent.Agent, summary string) error {
	if err := a.log.Append(session.Entry{Type: session.TypeCompact, Summary: summary}); err != nil {
		return err
	}
	history := []llm.Message{llm.UserText(session.SummaryPrefix + summary)}
	var carried []llm.Block
	if ref, ok := a.plan.PlanReference(); ok {
		carried = append(carried, agent.ReminderBlock(ref))
	}
	if items, _ := a.Todos(); len(items) > 0 {
		carried = append(carried, agent.ReminderBlock(todoReminder(items)))
	}
	// The summary lost the plan-mode instructions: give them again, in
	// full, with the compacted conversation.
	a.plan.RestartReminders()
	for _, r := range a.plan.Reminders() {
		carried = append(carried, agent.ReminderBlock(r))
	}
	if len(carried) > 0 {
		msg := llm.Message{Role: llm.RoleUser, Content: carried}
		history = append(history, msg)
		if err := a.log.Append(session.Entry{Type: session.TypeMessage, Message: &msg}); err != nil {
			return err
		}
	}
	main.ReplaceHistory(history)
	a.emit(event.Notice{Level: "info", Text: "The conversation was summarised to free context."})
	return nil
}

// todoReminder gives the todo list back to the model after compaction.
func todoReminder(items []todo.Item) planmode.Reminder {
	data, _ := json.MarshalIndent(items, "", "  ")
	return planmode.Reminder{Kind: "todos", Text: "Your todo list, as it stood before the conversation was summarised. Keep using it:\n" + string(data)}
}
