package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/llm"
	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/runguard"
	"github.com/ponder-agent/ponder/internal/session"
	"github.com/ponder-agent/ponder/internal/tool"
)

// stopInfo says whether a batch of calls ended the turn.
type stopInfo struct {
	pending  *session.Pending
	clear    bool
	approved bool
}

// runCalls runs the tool calls of one assistant message and returns their
// results in call order. Consecutive concurrency-safe calls run together;
// any other call runs alone, in order. Once a call ends the turn (a plan
// awaiting approval, an approved plan that clears the conversation) or the
// turn is interrupted, the calls after it do not run and say so.
func (a *Agent) runCalls(ctx context.Context, uses []llm.Block) ([]llm.Block, stopInfo) {
	results := make([]tool.Result, len(uses))
	ran := make([]bool, len(uses))
	var stop stopInfo
	for i := 0; i < len(uses); {
		j := i + 1
		if a.concurrent(uses[i]) {
			for j < len(uses) && a.concurrent(uses[j]) {
				j++
			}
		}
		if ctx.Err() != nil || stop.pending != nil || stop.clear || stop.approved {
			break
		}
		var wg sync.WaitGroup
		for k := i; k < j; k++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				results[k] = a.runOne(ctx, uses[k])
				ran[k] = true
			}()
		}
		wg.Wait()
		for k := i; k < j; k++ {
			switch results[k].Stop {
			case tool.StopPending:
				stop.pending = &session.Pending{ToolUseID: uses[k].ID, CallIndex: k}
				if p := results[k].Pending; p != nil {
					stop.pending.Plan, stop.pending.PlanFile, stop.pending.Permissions = p.Plan, p.PlanFile, p.Permissions
				}
			case tool.StopClearContext:
				stop.clear = true
			case tool.StopApproved:
				stop.approved = true
			}
		}
		i = j
	}
	blocks := make([]llm.Block, 0, len(uses))
	for k, u := range uses {
		r := results[k]
		if !ran[k] {
			// A call that never ran ends too, so front ends close it.
			r = notRun(ctx, stop)
			a.cfg.Emit(finished(a.cfg.ID, u, r, 0))
		}
		b := llm.Block{Type: llm.BlockToolResult, ToolUseID: u.ID, Content: r.Content, IsError: r.IsError}
		if stop.pending != nil && k == stop.pending.CallIndex {
			continue
		}
		blocks = append(blocks, b)
	}
	if stop.pending != nil {
		stop.pending.Results = blocks
	}
	return blocks, stop
}

func notRun(ctx context.Context, stop stopInfo) tool.Result {
	switch {
	case ctx.Err() != nil:
		return tool.Errorf("Not run: the user interrupted the turn.")
	case stop.pending != nil:
		return tool.Errorf("Not run: the plan is waiting for approval.")
	case stop.approved:
		return tool.Errorf("Not run: the plan was approved, and the user will say when to start.")
	}
	return tool.Errorf("Not run: the conversation was cleared to carry out the approved plan.")
}

// concurrent reports whether a call may run beside others.
func (a *Agent) concurrent(use llm.Block) bool {
	t, ok := a.cfg.Tools.Get(use.Name)
	return !ok || t.ConcurrencySafe()
}

// runOne prepares, gates and runs one call. Every call ends in exactly one
// event: ToolRefused when the permission engine (or the user) refused it,
// else ToolFinished. A panic in a tool becomes an error result, like
// every other failure the model can react to.
func (a *Agent) runOne(ctx context.Context, use llm.Block) (res tool.Result) {
	start := time.Now()
	refused := false
	defer func() {
		if p := recover(); p != nil {
			res = tool.Errorf("%s failed unexpectedly (%v). This is a bug in ponder; the call may have done part of its work.", use.Name, p)
			a.cfg.Emit(event.Notice{Level: "warning", Text: fmt.Sprintf("tool %s panicked: %v\n%s", use.Name, p, debug.Stack())})
			refused = false
		}
		if !refused {
			a.cfg.Emit(finished(a.cfg.ID, use, res, time.Since(start)))
		}
	}()
	pc := a.permContext()
	t, known := a.cfg.Tools.Get(use.Name)
	if !slices.Contains(pc.Offered, use.Name) {
		// The engine refuses a tool it did not offer, whatever the
		// input says, and tells the model why; the input need not even
		// parse.
		access := permission.Access{Tool: use.Name}
		if known {
			access.Kind, access.ReadOnly = t.Kind(), tool.MarkedReadOnly(t)
		}
		var g gateResult
		g, _, refused = a.gate(ctx, use, access, nil, pc)
		if refused {
			return g.Result
		}
	}
	if !known {
		return tool.Errorf("There is no tool named %q.", use.Name)
	}
	if use.InvalidInput != "" {
		return tool.Errorf("Invalid input for %s: the input is not valid JSON: %s", use.Name, excerpt(use.InvalidInput, 200))
	}
	call, err := t.Prepare(a.cfg.Env, use.Input)
	if err != nil {
		return tool.Errorf("Invalid input for %s: %v", use.Name, err)
	}
	pc.Hook = a.preToolUse(ctx, use)
	access := call.Access()
	access.Tool, access.Kind, access.ReadOnly = t.Name(), t.Kind(), tool.MarkedReadOnly(t)
	g, confine, refused := a.gate(ctx, use, access, call, pc)
	if refused || g.IsError {
		return g.Result
	}
	asked := g.asked
	if g.updated != nil {
		// The one who approved the call changed its input: the new
		// input is judged again from the start, and only what the rules
		// let through (or what asking would have allowed) runs.
		use.Input = g.updated
		if call, err = t.Prepare(a.cfg.Env, use.Input); err != nil {
			return tool.Errorf("Invalid input for %s (as changed on approval): %v", use.Name, err)
		}
		access = call.Access()
		access.Tool, access.Kind, access.ReadOnly = t.Name(), t.Kind(), tool.MarkedReadOnly(t)
		var again gateResult
		if again, confine, refused = a.regate(ctx, use, access, call, pc); refused || again.IsError {
			return again.Result
		}
	}
	a.cfg.Emit(event.ToolStarted{AgentID: a.cfg.ID, ID: use.ID, Name: use.Name, Input: use.Input})
	runCtx := tool.WithGate(tool.WithCallID(ctx, use.ID), &tool.Gate{Engine: a.cfg.Perm, Context: pc, Tool: t.Name(), Kind: t.Kind()})
	out := a.guarded(use, pc, asked, access, func(onEnd func()) tool.Result {
		ctx := tool.WithConfinement(runCtx, confine)
		if onEnd != nil {
			ctx = tool.WithBackgroundEnd(ctx, onEnd)
		}
		return call.Run(ctx)
	})
	if a.cfg.Plan != nil && a.cfg.ID == "" {
		a.cfg.Plan.Observe(access)
	}
	if access.Kind == permission.KindWrite && !out.IsError {
		a.snapshotPlan()
	}
	return a.postToolUse(ctx, use, out)
}

// finished is the event that ends a call that was not refused.
func finished(agentID string, use llm.Block, res tool.Result, took time.Duration) event.ToolFinished {
	return event.ToolFinished{AgentID: agentID, ID: use.ID, Name: use.Name, Content: res.Content, Summary: res.Summary,
		IsError: res.IsError, Duration: took, Todos: res.Todos, Answers: res.Answers, Diff: res.Diff}
}

// gate asks the permission engine about a call, validates calls that are
// not refused, and asks the user when the engine says ask. It returns an
// error result when the call may not run, with refused set when that is
// a refusal (then it has emitted ToolRefused), and otherwise how the
// engine ruled that it must run (in the OS sandbox or not). A call that
// was not prepared (nil) is only ever refused.
func (a *Agent) gate(ctx context.Context, use llm.Block, access permission.Access, call tool.Call, pc permission.Context) (res gateResult, confine tool.Confinement, refused bool) {
	return a.decideAndAsk(ctx, use, access, call, pc, a.cfg.Perm.Decide(pc, access), true)
}

// gateResult is a gate's ruling: an error result when the call may not
// run, the input the approver replaced the call's with, if any, and
// whether the user approved this very call.
type gateResult struct {
	tool.Result
	updated json.RawMessage
	asked   bool
}

// regate judges a call again after its approver changed its input. A
// refusal stands; a call that would ask was approved already (with the
// new input in view), so it runs; no second change is taken.
func (a *Agent) regate(ctx context.Context, use llm.Block, access permission.Access, call tool.Call, before permission.Context) (gateResult, tool.Confinement, bool) {
	// The mode may have changed while the question waited: judge the new
	// input as things stand now.
	pc := a.permContext()
	pc.Hook = before.Hook
	d := a.cfg.Perm.Decide(pc, access)
	if d.Behavior == permission.Ask {
		d.Behavior = permission.Allow
	}
	return a.decideAndAsk(ctx, use, access, call, pc, d, false)
}

// decideAndAsk acts on decision d: it validates, asks when d says ask,
// and refuses or lets the call run.
func (a *Agent) decideAndAsk(ctx context.Context, use llm.Block, access permission.Access, call tool.Call, pc permission.Context, d permission.Decision, mayUpdate bool) (res gateResult, confine tool.Confinement, refused bool) {
	if v, ok := call.(tool.Validator); ok && d.Behavior != permission.Deny {
		if err := v.Validate(); err != nil {
			return gateResult{Result: tool.Errorf("%s cannot run: %v", use.Name, err)}, tool.Confinement{}, false
		}
	}
	switch d.Behavior {
	case permission.Allow:
		return gateResult{}, tool.ConfinementFor(d), false
	case permission.Ask:
		q := permission.Question{Kind: permission.AskToolUse, AgentID: a.cfg.ID, ToolUseID: use.ID, Tool: use.Name, Input: use.Input,
			Reason: d.Reason, Suggest: d.Suggest}
		if p, ok := call.(tool.Previewer); ok {
			q.Path, q.Diff = p.Preview()
			if !d.Readable {
				// The diff would show what the file holds now: only
				// what the rules let this agent read is shown.
				q.Diff = ""
			}
		}
		ans, err := a.cfg.Ask.Ask(ctx, q)
		switch {
		case errors.Is(err, permission.ErrNoAnswerer) && d.Rule == permission.RuleScope:
			d.Reason = "Refused: nobody can approve a change outside the approved plan in this session. " + d.Reason
		case errors.Is(err, permission.ErrNoAnswerer):
			d.Reason = "This call needs approval, and nobody can give it in this session. " + d.Reason +
				" (In a headless run, allow such calls with --allowedTools or --permission-mode.)"
		case err != nil:
			d.Reason = "Nobody answered the request to run this call, so it did not run."
		case !ans.Allow:
			d.Reason = "The user refused this call."
			if m := strings.TrimSpace(ans.Message); m != "" {
				d.Reason += " The user said: " + m
			}
			if ans.Interrupt {
				a.interruptTurn()
			}
		default:
			switch {
			case ans.Always && strings.HasPrefix(q.Suggest, permission.UnsandboxedPrefix):
				_ = a.cfg.Perm.AddUnsandboxed(q.Suggest)
			case ans.Always && q.Suggest != "":
				_ = a.cfg.Perm.AddAllowIn(q.Suggest, d.SuggestModes...)
			}
			out := gateResult{asked: true}
			if mayUpdate && len(ans.UpdatedInput) > 0 && !sameJSON(ans.UpdatedInput, use.Input) {
				out.updated = ans.UpdatedInput
			}
			return out, tool.ConfinementFor(d), false
		}
		if d.Rule != permission.RuleScope || !errors.Is(err, permission.ErrNoAnswerer) {
			d.Rule = "user"
		}
	}
	a.cfg.Emit(event.ToolRefused{AgentID: a.cfg.ID, ID: use.ID, Tool: use.Name, Input: use.Input, Rule: d.Rule,
		Reason: d.Reason, Mode: string(pc.Mode), PlanFile: pc.PlanFile})
	return gateResult{Result: tool.Result{Content: d.Reason, IsError: true, Summary: "refused"}}, tool.Confinement{}, true
}

// permContext is what the permission engine needs to know about this
// agent and the session's mode now, the tools offered to it included
// (computed once per model request, see offeredIn).
func (a *Agent) permContext() permission.Context {
	pc := a.callerContext()
	pc.Offered = Names(a.offeredIn(pc, false))
	return pc
}

// callerContext is permContext without the tools offered.
func (a *Agent) callerContext() permission.Context {
	var planFile func() string
	if a.cfg.Plan != nil {
		planFile = func() string { return a.cfg.Plan.PlanFile(a.cfg.ID) }
	}
	pc := permission.NewContext(a.mode(), planFile, permission.Caller{
		Type: a.cfg.Type, ReadOnly: a.cfg.ReadOnly, Subagent: a.cfg.ID != "", DeniedTools: a.cfg.DeniedTools})
	if a.cfg.Plan != nil {
		pc.Scope = a.cfg.Plan.Scope()
	}
	return pc
}

// offeredIn returns the tools offered to this agent in pc's mode. They are
// worked out when a model request is made (fresh) and reused by the calls
// of its answer, unless the mode has changed since (an approval while
// they ran): the model may call exactly what it was offered.
func (a *Agent) offeredIn(pc permission.Context, fresh bool) []tool.Tool {
	a.mu.Lock()
	if !fresh && a.offered != nil && a.offeredMode == pc.Mode {
		defer a.mu.Unlock()
		return a.offered
	}
	a.mu.Unlock()
	tools := Offered(a.cfg.Tools, a.cfg.Available, a.cfg.Perm, pc)
	a.mu.Lock()
	a.offered, a.offeredMode = tools, pc.Mode
	a.mu.Unlock()
	return tools
}

// snapshotPlan records the plan file's content in the transcript when it
// changed since the last record, so a lost plan file can be restored.
func (a *Agent) snapshotPlan() {
	if a.cfg.Plan == nil || a.cfg.ID != "" {
		return
	}
	content, ok := a.cfg.Plan.ReadPlan("")
	a.mu.Lock()
	changed := ok && content != a.snapshot
	if changed {
		a.snapshot = content
	}
	a.mu.Unlock()
	if changed {
		_ = a.log(session.Entry{Type: session.TypePlanSnapshot, Plan: &session.PlanSnapshot{
			Slug: a.cfg.Plan.Slug(), Path: a.cfg.Plan.PlanFile(""), Content: content, Cause: session.CauseModel}})
	}
}

// excerpt shortens s for an error message.
func excerpt(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// guarded runs a call under the session's guard of the files that make
// something run later (see runguard): unless the user approved this very call (or
// chose bypass mode), what it changed of them is put back and the model
// and the user are told. Around a file tool only the files every call
// is held to are compared; around a command (which writes what its words
// do not name) the whole table is. A command left running in the
// background is compared again when it ends (or the session stops it):
// what it wrote after the call returned is put back then.
func (a *Agent) guarded(use llm.Block, pc permission.Context, asked bool, access permission.Access, run func(onEnd func()) tool.Result) tool.Result {
	g := a.cfg.Guard
	if g == nil || pc.Mode == permission.ModeBypass {
		return run(nil)
	}
	if asked {
		defer g.Approved()()
		return run(nil)
	}
	var snap runguard.Snapshot
	if access.Kind == permission.KindWrite || access.Kind == permission.KindRead {
		snap = g.TakeTool()
	} else {
		snap = g.Take()
	}
	var onEnd func()
	if access.Background {
		onEnd = func() {
			for _, c := range snap.Restore() {
				a.cfg.Emit(event.Notice{Level: "warning", Text: guardMessage(use.Name+" (in the background)", c)})
			}
		}
	}
	out := run(onEnd)
	for _, c := range snap.Restore() {
		msg := guardMessage(use.Name, c)
		a.cfg.Emit(event.Notice{Level: "warning", Text: msg})
		out.Content = strings.TrimRight(out.Content, "\n") + "\n\n" + msg
	}
	return out
}

// guardMessage tells what the guard did about the change c that the
// call named did.
func guardMessage(name string, c runguard.Change) string {
	msg := fmt.Sprintf("%s changed %s, which makes something run later (ponder's settings, trust answers, commands, agents or skills, another agent's settings or instructions, git's config or hooks, editor, build-tool or dev-container settings); changing it needs the user's own yes, so ", name, c.Path)
	if c.Err != nil {
		return msg + fmt.Sprintf("ponder tried to put it back, and could not: %v.", c.Err)
	}
	return msg + "ponder put it back."
}
