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
	start := a.plan.Mode()
	if m, via, err := a.startingMode(); err == nil && m != "" && a.plan.Allows(m, via) == nil {
		// Hosts read the mode from the first line: it names the mode the
		// session starts in, which the change below puts in force.
		start = m
		if c := a.modeCeiling(); c != "" {
			start = start.Within(c)
		}
	}
	names := a.offeredNames(start)
	sort.Strings(names)
	a.emit(event.SessionStarted{SessionID: a.id, Model: a.models.Main, Mode: string(start), Cwd: a.dir, Tools: names, Resumed: a.resumed,
		Sandbox: string(a.sandbox.Kind()), MCPServers: a.MCPServers(), APIKeySource: a.APIKeySource()})
	for _, w := range a.warnings {
		a.emit(event.Notice{Level: "warning", Text: w})
	}
	for _, i := range a.infos {
		a.emit(event.Notice{Level: "info", Text: i})
	}
	if a.resumed && a.pendingPlan() != nil {
		a.sayStale()
	}
	m, via, err := a.startingMode()
	if err != nil {
		return err
	}
	if m != "" {
		a.plan.SetMode(m, via)
	}
	// A lead holds its team to its mode from the start, whether or not
	// the mode changed (the first call tells every member it knows).
	a.holdTeammates()
	return nil
}

// startingMode is the mode a session starts in, and where it comes from:
// --permission-mode, else (for a new session) the settings' default mode;
// "" keeps the mode as it is.
func (a *App) startingMode() (permission.Mode, planmode.Via, error) {
	mode, via := a.opts.Mode, planmode.ViaFlag
	if mode == "" && !a.resumed {
		mode, via = config.Str(a.cfg.Settings.Permissions.DefaultMode, ""), planmode.ViaSettings
	}
	if mode == "" {
		return "", via, nil
	}
	m, err := permission.ParseMode(mode)
	if err != nil {
		return "", via, &UsageError{Msg: err.Error()}
	}
	return m, via, nil
}

// Answer delivers a front end's answer to a pending question. It reports
// false when the question is not waiting (answered already, or gone).
func (a *App) Answer(id string, ans permission.Answer) bool { return a.broker.Answer(id, ans) }

// Dismiss closes a question without an answer; whatever asked it takes
// that as no.
func (a *App) Dismiss(id string) bool { return a.broker.Dismiss(id) }

// ErrPlanPending is returned by Send while a plan waits for approval.
var ErrPlanPending = errors.New("a plan is waiting for approval")

// pendingPlan returns the plan approval a headless run left waiting, or
// nil.
func (a *App) pendingPlan() *session.Pending {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.pending
}

// Send gives the user's input to the main agent and runs the turn. An
// approval that clears the conversation starts a fresh one from the plan
// within the same call.
func (a *App) Send(ctx context.Context, text string) (TurnResult, error) {
	return a.send(ctx, text, nil)
}

// send is Send with blocks to attach after the prompt besides its
// @-mentions (images a host sent).
func (a *App) send(ctx context.Context, text string, extra []llm.Block) (TurnResult, error) {
	ctx, done := a.work.track(ctx)
	defer done()
	a.adoptHostMCP(ctx)
	if a.pendingPlan() != nil {
		return TurnResult{}, fmt.Errorf("%w: answer it first (headless: --approve-plan or --reject-plan)", ErrPlanPending)
	}
	a.mu.Lock()
	main := a.main
	a.mu.Unlock()
	typed := text
	text, model, ownText := a.expandCommand(text)
	mentioned := text
	if !ownText {
		// A repository's command may not attach files by naming them:
		// only what the user typed does.
		mentioned = typed
	}
	a.plan.SetTaskHint(text)
	text, err := a.promptHooks(ctx, text)
	if err != nil {
		return a.finish(ctx, agent.Result{StopReason: agent.StopEndTurn}, err)
	}
	a.setTurnModel(model)
	defer a.setTurnModel("")
	turn := a.beginTurn(main, text, typed)
	a.stepsDue.Store(true)
	input := append([]llm.Block{llm.TextBlock(a.withTeamMessages(text))}, a.attach(ctx, mentioned)...)
	input = append(input, extra...)
	res, err := main.RunBlocks(ctx, input)
	out, err := a.finish(ctx, res, err)
	out.Turn = turn
	return out, err
}

// AnswerPending answers the plan approval a headless run left waiting and
// continues the turn, exactly as if the answer had come at once.
func (a *App) AnswerPending(ctx context.Context, ans event.Answer) (TurnResult, error) {
	ctx, done := a.work.track(ctx)
	defer done()
	a.adoptHostMCP(ctx)
	p := a.pendingPlan()
	if p == nil {
		return TurnResult{}, &UsageError{Msg: fmt.Sprintf("session %s has no plan waiting for approval", a.id)}
	}
	if a.plan.Mode() != permission.ModePlan {
		return TurnResult{}, fmt.Errorf("session %s has a pending plan but is no longer in plan mode", a.id)
	}
	if err := a.CheckPlanAnswer(event.Question{Kind: event.AskPlanExit, Plan: p.Plan, Permissions: p.Permissions}, ans); err != nil {
		return TurnResult{}, &UsageError{Msg: err.Error()}
	}
	// Named before the answer takes effect: the plan was written
	// against files that may no longer be what it saw.
	a.sayStale()
	a.mu.Lock()
	main := a.main
	a.mu.Unlock()
	keep := len(main.History())
	res := sessiontool.Answer(a.plan, implementer{a}, p.Permissions, ans)
	if err := a.log.Append(session.Entry{Type: session.TypeResolved}); err != nil {
		return TurnResult{}, err
	}
	a.mu.Lock()
	a.pending = nil
	a.mu.Unlock()
	turn := 0
	if a.plan.Mode() != permission.ModePlan {
		// The implementation is a turn of its own, which a rewind
		// undoes back to the moment of approval.
		turn = a.checkpoints.BeginApproved(p, ans.Option, keep)
	}
	results := make([]llm.Block, 0, len(p.Results)+1)
	results = append(results, p.Results[:min(p.CallIndex, len(p.Results))]...)
	results = append(results, llm.Block{Type: llm.BlockToolResult, ToolUseID: p.ToolUseID, Content: res.Content, IsError: res.IsError})
	results = append(results, p.Results[min(p.CallIndex, len(p.Results)):]...)
	if res.Stop == tool.StopApproved {
		if err := main.Record(results); err != nil {
			return TurnResult{}, err
		}
		out, err := a.finish(ctx, agent.Result{StopReason: agent.StopPlanApproved}, nil)
		out.Turn = turn
		return out, err
	}
	if res.Stop == tool.StopClearContext {
		if err := main.Record(results); err != nil {
			return TurnResult{}, err
		}
		out, err := a.finish(ctx, agent.Result{StopReason: agent.StopClearContext}, nil)
		out.Turn = turn
		return out, err
	}
	res2, err := main.Continue(ctx, results)
	out, err := a.finish(ctx, res2, err)
	out.Turn = turn
	return out, err
}

// finish handles how a turn ended: it clears the conversation and carries
// on from an approved plan, remembers a pending approval, and syncs the
// transcript.
func (a *App) finish(ctx context.Context, res agent.Result, err error) (TurnResult, error) {
	for err == nil && res.StopReason == agent.StopClearContext {
		plan, _ := a.plan.ReadPlan("")
		approval := planmode.Approval{Plan: plan, PlanFile: a.plan.PlanFile("")}
		a.mu.Lock()
		if a.approved != nil {
			approval.Model, approval.Granted, approval.Notes = a.approved.Model, a.approved.Granted, a.approved.Notes
		}
		a.mu.Unlock()
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
	if err == nil && res.StopReason == agent.StopEndTurn {
		a.implementationEnded()
	}
	if serr := a.log.Sync(); serr != nil && err == nil {
		err = serr
	}
	out := turnResult(res)
	done := event.TurnFinished{StopReason: out.StopReason, Text: out.Text, Requests: out.Requests, Usage: out.Usage}
	if err != nil {
		done.Error = err.Error()
	}
	a.emit(done)
	return out, err
}

// clearConversation starts a fresh conversation in the same session.
func (a *App) clearConversation() *agent.Agent {
	_ = a.log.Append(session.Entry{Type: session.TypeClear})
	main := a.newMain(nil)
	a.mu.Lock()
	a.main = main
	a.mu.Unlock()
	return main
}

// mainAgent returns the main agent.
func (a *App) mainAgent() *agent.Agent {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.main
}

// Close ends the session: running work is cancelled (which stops its
// commands) and waited for, so that the transcript records how it ended;
// pending questions are withdrawn, background shells are stopped, the
// transcript is closed and the session's lock is let go.
func (a *App) Close() error {
	a.closeLead()
	a.sessionEndHooks()
	a.waitObservers(sessionEndWait)
	a.broker.Close()
	if !a.work.stop(closeWait) {
		a.emit(event.Notice{Level: "warning", Text: "The running turn did not stop in time; its last steps may be missing from the transcript."})
	}
	a.shells.KillAll()
	if a.mate != nil {
		a.mate.m.close()
	}
	a.mcp.Close()
	err := a.log.Close()
	a.unlock()
	return err
}

// AskPending puts a plan approval that a headless run left waiting to
// whoever answers this session's questions (a dialog, a control channel),
// then continues the turn with the answer. Nobody answering leaves the plan
// pending.
func (a *App) AskPending(ctx context.Context) (TurnResult, error) {
	ctx, done := a.work.track(ctx)
	defer done()
	p := a.pendingPlan()
	if p == nil {
		return TurnResult{}, nil
	}
	a.plan.RequestExit("", p.Plan, p.Permissions)
	q := sessiontool.Question(a.plan, implementer{a}, p.Plan, p.Permissions)
	q.ToolUseID = p.ToolUseID
	ans, err := a.asker.Ask(ctx, q)
	if err != nil {
		return turnResult(agent.Result{StopReason: agent.StopPlanPending, Pending: p}), nil
	}
	return a.AnswerPending(ctx, ans)
}
