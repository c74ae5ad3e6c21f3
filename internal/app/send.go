package app

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/agent"
	"github.com/ponder-agent/ponder/internal/config"
	"github.com/ponder-agent/ponder/internal/llm"
	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/planmode"
	"github.com/ponder-agent/ponder/internal/session"
	"github.com/ponder-agent/ponder/internal/tool"
	"github.com/ponder-agent/ponder/internal/tool/sessiontool"
)

// Start announces the session to front ends and applies the starting
// mode: --permission-mode, else (for a new session) the settings' default
// mode. The mode change goes through the one transition function like any
// other, with its guards (a settings file never turns bypass on), so
// starting in plan mode behaves as entering it.
func (a *App) Start() error {
	names := a.offeredNames(a.Plan.Mode())
	sort.Strings(names)
	a.emit(event.SessionStarted{SessionID: a.ID, Model: a.Models.Main, Mode: string(a.Plan.Mode()), Cwd: a.Dir, Tools: names, Resumed: a.Resumed,
		Sandbox: string(a.Sandbox.Kind())})
	for _, w := range a.Warnings {
		a.emit(event.Notice{Level: "warning", Text: w})
	}
	for _, i := range a.infos {
		a.emit(event.Notice{Level: "info", Text: i})
	}
	mode, via := a.opts.Mode, planmode.ViaFlag
	if mode == "" && !a.Resumed {
		mode, via = config.Str(a.Config.Settings.Permissions.DefaultMode, ""), planmode.ViaSettings
	}
	if mode == "" {
		return nil
	}
	m, err := permission.ParseMode(mode)
	if err != nil {
		return &UsageError{Msg: err.Error()}
	}
	a.Plan.SetMode(m, via)
	return nil
}

// Mode is the current permission mode.
func (a *App) Mode() permission.Mode { return a.Plan.Mode() }

// SetMode changes the mode through the one transition function, whose
// guard refuses bypassPermissions unless the command line allowed it. It
// takes effect at the next model request.
func (a *App) SetMode(m permission.Mode, via planmode.Via) planmode.Change {
	return a.Plan.SetMode(m, via)
}

// Answer delivers a front end's answer to a pending question. It reports
// false when the question is not waiting (answered already, or gone).
func (a *App) Answer(id string, ans permission.Answer) bool { return a.Broker.Answer(id, ans) }

// Dismiss closes a question without an answer; whatever asked it takes
// that as no.
func (a *App) Dismiss(id string) bool { return a.Broker.Dismiss(id) }

// ErrPlanPending is returned by Send while a plan waits for approval.
var ErrPlanPending = errors.New("a plan is waiting for approval")

// Pending returns the plan approval a headless run left waiting, or nil.
func (a *App) Pending() *session.Pending {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.pending
}

// Send gives the user's input to the main agent and runs the turn. An
// approval that clears the conversation starts a fresh one from the plan
// within the same call.
func (a *App) Send(ctx context.Context, text string) (agent.Result, error) {
	ctx, done := a.work.track(ctx)
	defer done()
	if a.Pending() != nil {
		return agent.Result{}, fmt.Errorf("%w: answer it first (headless: --approve-plan or --reject-plan)", ErrPlanPending)
	}
	a.mu.Lock()
	main := a.main
	a.mu.Unlock()
	a.Plan.SetTaskHint(text)
	res, err := main.Run(ctx, text)
	return a.finish(ctx, res, err)
}

// AnswerPending answers the plan approval a headless run left waiting and
// continues the turn, exactly as if the answer had come at once.
func (a *App) AnswerPending(ctx context.Context, ans permission.Answer) (agent.Result, error) {
	ctx, done := a.work.track(ctx)
	defer done()
	p := a.Pending()
	if p == nil {
		return agent.Result{}, &UsageError{Msg: fmt.Sprintf("session %s has no plan waiting for approval", a.ID)}
	}
	if a.Plan.Mode() != permission.ModePlan {
		return agent.Result{}, fmt.Errorf("session %s has a pending plan but is no longer in plan mode", a.ID)
	}
	if ans.Option != "" {
		if err := a.Plan.CheckOption(ans.Option); err != nil {
			return agent.Result{}, &UsageError{Msg: err.Error()}
		}
	}
	res := sessiontool.Answer(a.Plan, ans)
	if err := a.Log.Append(session.Entry{Type: session.TypeResolved}); err != nil {
		return agent.Result{}, err
	}
	a.mu.Lock()
	a.pending = nil
	main := a.main
	a.mu.Unlock()
	results := make([]llm.Block, 0, len(p.Results)+1)
	results = append(results, p.Results[:min(p.CallIndex, len(p.Results))]...)
	results = append(results, llm.Block{Type: llm.BlockToolResult, ToolUseID: p.ToolUseID, Content: res.Content, IsError: res.IsError})
	results = append(results, p.Results[min(p.CallIndex, len(p.Results)):]...)
	if res.Stop == tool.StopClearContext {
		if err := main.Record(results); err != nil {
			return agent.Result{}, err
		}
		return a.finish(ctx, agent.Result{StopReason: agent.StopClearContext}, nil)
	}
	out, err := main.Continue(ctx, results)
	return a.finish(ctx, out, err)
}

// finish handles how a turn ended: it clears the conversation and carries
// on from an approved plan, remembers a pending approval, and syncs the
// transcript.
func (a *App) finish(ctx context.Context, res agent.Result, err error) (agent.Result, error) {
	for err == nil && res.StopReason == agent.StopClearContext {
		plan, _ := a.Plan.ReadPlan("")
		approval := planmode.Approval{Plan: plan, PlanFile: a.Plan.PlanFile("")}
		main := a.clearConversation()
		var next agent.Result
		next, err = main.Run(ctx, planmode.Implementation(approval))
		next.Requests += res.Requests
		next.Usage = next.Usage.Add(res.Usage)
		res = next
	}
	if res.Pending != nil {
		a.mu.Lock()
		a.pending = res.Pending
		a.mu.Unlock()
	}
	if serr := a.Log.Sync(); serr != nil && err == nil {
		err = serr
	}
	done := event.TurnFinished{StopReason: res.StopReason, Text: res.Text, Requests: res.Requests, Usage: event.Usage{
		InputTokens: res.Usage.InputTokens, OutputTokens: res.Usage.OutputTokens,
		CacheReadTokens: res.Usage.CacheReadTokens, CacheWriteTokens: res.Usage.CacheWriteTokens}}
	if err != nil {
		done.Error = err.Error()
	}
	a.emit(done)
	return res, err
}

// clearConversation starts a fresh conversation in the same session.
func (a *App) clearConversation() *agent.Agent {
	_ = a.Log.Append(session.Entry{Type: session.TypeClear})
	main := a.newMain(nil)
	a.mu.Lock()
	a.main = main
	a.mu.Unlock()
	return main
}

// Main returns the main agent.
func (a *App) Main() *agent.Agent {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.main
}

// Close ends the session: running work is cancelled (which stops its
// commands) and waited for, so that the transcript records how it ended;
// pending questions are withdrawn, background shells are stopped, the
// transcript is closed and the session's lock is let go.
func (a *App) Close() error {
	a.Broker.Close()
	if !a.work.stop(closeWait) {
		a.emit(event.Notice{Level: "warning", Text: "The running turn did not stop in time; its last steps may be missing from the transcript."})
	}
	a.Shells.KillAll()
	err := a.Log.Close()
	a.unlock()
	return err
}

// AskPending puts a plan approval that a headless run left waiting to
// whoever answers this session's questions (a dialog, a control channel),
// then continues the turn with the answer. Nobody answering leaves the plan
// pending.
func (a *App) AskPending(ctx context.Context) (agent.Result, error) {
	ctx, done := a.work.track(ctx)
	defer done()
	p := a.Pending()
	if p == nil {
		return agent.Result{}, nil
	}
	a.Plan.RequestExit("", p.Plan)
	ans, err := a.asker.Ask(ctx, permission.Question{Kind: permission.AskPlanExit, Plan: p.Plan, PlanFile: p.PlanFile, Options: a.Plan.Options()})
	if err != nil {
		return agent.Result{StopReason: agent.StopPlanPending, Pending: p}, nil
	}
	return a.AnswerPending(ctx, ans)
}
