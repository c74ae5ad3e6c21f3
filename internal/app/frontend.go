package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/agent"
	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/planmode"
)

// This file is what front ends (the terminal interface, headless runs,
// and any other) may ask of a session besides its events. They see event
// types and plain values here, never the packages the session is built
// from, so that every rule stays where it is enforced.

// The ways a turn ends (TurnResult.StopReason).
const (
	StopEndTurn      = agent.StopEndTurn
	StopMaxTurns     = agent.StopMaxTurns
	StopInterrupted  = agent.StopInterrupted
	StopPlanPending  = agent.StopPlanPending
	StopClearContext = agent.StopClearContext
	StopPlanApproved = agent.StopPlanApproved
)

// TurnResult is how a turn ended.
type TurnResult struct {
	// StopReason is one of the Stop* constants.
	StopReason string
	// Text is the model's last text.
	Text string
	// Requests counts the model requests of the turn.
	Requests int
	Usage    event.Usage
	// Plan and PlanFile are, with StopPlanPending, the plan that waits
	// for approval, and Permissions what it asks to be granted.
	Plan, PlanFile string
	// Turn numbers the user turn Send began, for a later rewind to
	// before it (0 when the turn continued an earlier one).
	Turn        int
	Permissions []event.PlanPermission
}

// turnResult is how front ends see an agent's result; token counts are
// converted here, once.
func turnResult(res agent.Result) TurnResult {
	out := TurnResult{StopReason: res.StopReason, Text: res.Text, Requests: res.Requests, Usage: agent.EventUsage(res.Usage)}
	if p := res.Pending; p != nil {
		out.Plan, out.PlanFile, out.Permissions = p.Plan, p.PlanFile, p.Permissions
	}
	return out
}

// Subscribe returns the session's events as they happen, in order, with
// room for buf of them, and the function that ends the subscription (see
// event.Bus for what may be dropped).
func (a *App) Subscribe(buf int) (<-chan event.Event, func()) { return a.bus.Subscribe(buf) }

// ID is the session id.
func (a *App) ID() string { return a.id }

// Dir is the working directory.
func (a *App) Dir() string { return a.dir }

// Resumed says the session continues an earlier one.
func (a *App) Resumed() bool { return a.resumed }

// Model is the main model.
func (a *App) Model() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.models.Main
}

// SandboxKind names the OS sandbox in force: "landlock", "bwrap",
// "seatbelt" or event.SandboxNone.
func (a *App) SandboxKind() string { return string(a.sandbox.Kind()) }

// Mode is the current permission mode (one of event's Mode* names).
func (a *App) Mode() string { return string(a.plan.Mode()) }

// SetMode changes the mode through the one transition function, with its
// guards; via names the front end's path ("control", "sdk", "tui"). It
// takes effect at the next model request; an error says why it did not.
func (a *App) SetMode(mode, via string) error {
	m, err := permission.ParseMode(mode)
	if err != nil {
		return err
	}
	if ch := a.plan.SetMode(m, planmode.Via(via)); ch.Refused {
		return fmt.Errorf("%s; the mode stays %s", ch.Reason, ch.To)
	}
	return nil
}

// CycleMode moves to the next mode of the Shift+Tab cycle through the one
// transition function, so leaving plan mode this way tells the model too.
func (a *App) CycleMode() {
	a.plan.SetMode(a.plan.NextMode(), planmode.ViaTUI)
}

// ModeTitle is a mode in words, as users see it ("plan mode").
func ModeTitle(mode string) string { return permission.Mode(mode).Title() }

// PlanFile is the main conversation's plan file, or "" while the session
// has none (entering plan mode names it; asking does not).
func (a *App) PlanFile() string {
	if a.plan.State().Slug == "" {
		return ""
	}
	return a.plan.PlanFile("")
}

// PlanText returns the plan, and whether there is one.
func (a *App) PlanText() (string, bool) { return a.plan.ReadPlan("") }

// ErrNoPlan says there is no plan yet.
var ErrNoPlan = errors.New("there is no plan yet")

// PlanForEditor returns the plan file to open in an editor. In plan mode
// a missing plan file is created empty through plan mode, so the user may
// start the plan; outside plan mode a missing plan is an error.
func (a *App) PlanForEditor() (string, error) {
	if a.plan.State().Slug == "" && a.plan.Mode() != permission.ModePlan {
		return "", ErrNoPlan
	}
	path := a.plan.PlanFile("")
	if _, ok := a.plan.ReadPlan(""); ok {
		return path, nil
	}
	if _, err := os.Lstat(path); err == nil {
		return path, nil // there, but unreadable: the editor will say why
	}
	if a.plan.Mode() != permission.ModePlan {
		return "", ErrNoPlan
	}
	if err := a.plan.WritePlan("", ""); err != nil {
		return "", fmt.Errorf("cannot create the plan file: %w", err)
	}
	return path, nil
}

// ApprovalOptions are the answers a plan approval offers in this session.
func (a *App) ApprovalOptions() []event.Option { return a.plan.Options() }

// HasPendingPlan says a plan an earlier headless run left waiting still
// needs an answer (see AskPending and AnswerPending).
func (a *App) HasPendingPlan() bool { return a.pendingPlan() != nil }

// History returns the main conversation so far.
func (a *App) History() []event.Message {
	hist := a.mainAgent().History()
	out := make([]event.Message, len(hist))
	for i, m := range hist {
		out[i] = agent.EventMessage(m)
	}
	return out
}

// Ask puts a question to whoever answers this session's questions, as a
// tool does, and waits for the answer or for ctx to end.
func (a *App) Ask(ctx context.Context, q event.Question) (event.Answer, error) {
	return a.asker.Ask(ctx, q)
}

// SessionInfo describes an earlier session of the project.
type SessionInfo struct {
	ID       string
	Modified time.Time
	// Title is the first line the user wrote in it.
	Title string
}

// Sessions lists this project's sessions, newest first, with their
// titles. It reads every transcript: call it away from a UI's event loop.
func (a *App) Sessions() ([]SessionInfo, error) { return listSessions(a.store) }

// CheckMode returns nil when mode names a permission mode.
func CheckMode(mode string) error {
	_, err := permission.ParseMode(mode)
	return err
}

// AnswererGone withdraws every question still waiting and refuses those
// asked later, for a front end whose answerer went away (a host that
// closed its input): nothing waits forever, and nothing is approved.
func (a *App) AnswererGone() { a.broker.Close() }
