// Package agent runs the conversation loop: it sends the history to the
// model, streams the answer, passes every tool call through the permission
// engine, runs the allowed calls (concurrency-safe ones in parallel),
// records everything in the transcript, and repeats until the model stops.
// Subagents are agents too, with their own history, tools and transcript.
package agent

import (
	"context"
	"sync"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/hooks"
	"github.com/ponder-agent/ponder/internal/llm"
	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/planmode"
	"github.com/ponder-agent/ponder/internal/runguard"
	"github.com/ponder-agent/ponder/internal/session"
	"github.com/ponder-agent/ponder/internal/tool"
)

// Config is everything an agent works with.
type Config struct {
	// ID is empty for the main conversation and names a subagent.
	ID string
	// Type is the subagent type ("Explore"), for messages.
	Type string

	Provider llm.Provider
	// Model picks the model for a request in the given mode, so plan
	// mode can use its own model.
	Model func(permission.Mode) string
	// Effort picks how hard the model thinks in the given mode ("" for
	// its default); nil for always the default.
	Effort    func(permission.Mode) llm.Effort
	System    string
	MaxTokens int
	// MaxTurns stops the loop after that many model requests (0: no
	// limit).
	MaxTurns int

	Tools *tool.Registry
	// Available says whether the session has a tool for this agent in a
	// mode (nil: every tool of the registry). What the model is offered
	// is what the permission engine lets through of these (see Offered).
	Available func(t tool.Tool, mode permission.Mode) bool
	Env       *tool.Env

	Perm *permission.Engine
	Plan *planmode.Session
	Ask  permission.Asker
	// ReadOnly limits the agent to reading (Explore, Plan).
	ReadOnly bool
	// DeniedTools may not be used at all, even when a model calls them.
	DeniedTools []string
	// Reminders adds text to every request of a subagent (such as the
	// read-only reminder).
	Reminders func() []planmode.Reminder

	Emit func(event.Event)
	Log  *session.Writer

	// Hooks run before and after tool calls and when the model would end
	// the turn (nil: none).
	Hooks *hooks.Registry
	// BeforeStop, when set, runs when the main conversation's model
	// would end the turn (after the Stop hooks let it): a non-empty text
	// goes back to the model as the next message and the turn goes on.
	// It must say something only a bounded number of times.
	BeforeStop func() string
	// Guard puts back the files that decide what ponder runs when a call
	// the user did not approve one by one changed them (nil: none).
	Guard *runguard.Guard

	// AutoCompact, when set, runs before each model request with the size
	// of the last request's context in tokens; it may compact the
	// conversation (through ReplaceHistory).
	AutoCompact func(ctx context.Context, ag *Agent, contextTokens int) error
}

// Agent is one conversation with a model.
type Agent struct {
	cfg Config

	mu       sync.Mutex
	history  []llm.Message
	tracker  planmode.Tracker
	usage    llm.Usage
	snapshot string // plan content last recorded in the transcript
	// contextTokens is the size of the last request's context with its
	// answer, as the provider counted it.
	contextTokens int
	// cancelTurn ends the turn in progress (an approver's refusal that
	// also interrupts).
	cancelTurn context.CancelFunc
	// offered are the tools offered in offeredMode, as the last model
	// request worked them out (see offeredIn).
	offered     []tool.Tool
	offeredMode permission.Mode
}

// ContextTokens is the size of the last request's context with its
// answer, as the provider counted it.
func (a *Agent) ContextTokens() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.contextTokens
}

// SetSystem replaces the system prompt for the requests from now on.
func (a *Agent) SetSystem(system string) {
	a.mu.Lock()
	a.cfg.System = system
	a.mu.Unlock()
}

// interruptTurn ends the turn in progress.
func (a *Agent) interruptTurn() {
	a.mu.Lock()
	cancel := a.cancelTurn
	a.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// New returns an agent that continues history (nil for a new one).
func New(cfg Config, history []llm.Message) *Agent {
	if cfg.Emit == nil {
		cfg.Emit = func(event.Event) {}
	}
	if cfg.Ask == nil {
		cfg.Ask = permission.NoAnswerer{}
	}
	if cfg.Env == nil {
		cfg.Env = &tool.Env{Files: tool.NewFileTracker()}
	}
	return &Agent{cfg: cfg, history: append([]llm.Message(nil), history...)}
}

// History returns a copy of the conversation so far.
func (a *Agent) History() []llm.Message {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]llm.Message(nil), a.history...)
}

// Usage returns the tokens used so far.
func (a *Agent) Usage() llm.Usage {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.usage
}

// Config returns the agent's configuration.
func (a *Agent) Config() Config { return a.cfg }

// Stop reasons of a turn.
const (
	StopEndTurn      = "end_turn"
	StopMaxTurns     = "max_turns"
	StopInterrupted  = "interrupted"
	StopPlanPending  = "plan_pending"
	StopClearContext = "clear_context"
	// StopPlanApproved: a plan was approved to be implemented when the
	// user says so.
	StopPlanApproved = "plan_approved"
)

// Result is how a turn ended.
type Result struct {
	// StopReason is one of the Stop* constants.
	StopReason string
	// Text is the model's last text.
	Text string
	// Requests counts the model requests of the turn.
	Requests int
	Usage    llm.Usage
	// Pending is set when a plan waits for approval (StopPlanPending).
	Pending *session.Pending
}

// Run sends the user's input and continues until the model ends its turn,
// a limit is reached, or ctx is cancelled. The returned error is a model or
// transcript failure; everything a tool does comes back to the model as a
// result instead.
func (a *Agent) Run(ctx context.Context, input string) (Result, error) {
	return a.RunBlocks(ctx, []llm.Block{llm.TextBlock(input)})
}

// RunBlocks is Run for input made of several blocks: the typed text
// first, then what the user attached to it (files, images).
func (a *Agent) RunBlocks(ctx context.Context, input []llm.Block) (Result, error) {
	if a.cfg.ID == "" && a.cfg.Plan != nil {
		a.cfg.Plan.NoteHumanTurn()
	} else {
		a.tracker.NoteHumanTurn()
	}
	return a.loop(ctx, input)
}

// Continue resumes a turn whose tool results are already known (a pending
// approval answered on resume): the blocks are sent as the next user
// message.
func (a *Agent) Continue(ctx context.Context, results []llm.Block) (Result, error) {
	return a.loop(ctx, results)
}

// Record adds results to the conversation without asking the model, for a
// turn that ends as soon as they are known (the conversation is about to be
// cleared, so no reminder is spent on it).
func (a *Agent) Record(results []llm.Block) error { return a.appendUser(results, false) }

// ReplaceHistory swaps the conversation for msgs (after compaction). The
// caller records the change in the transcript.
func (a *Agent) ReplaceHistory(msgs []llm.Message) {
	a.mu.Lock()
	a.history = append([]llm.Message(nil), msgs...)
	a.contextTokens = 0
	a.mu.Unlock()
}
