// Package planmode holds the rules of plan mode: the per-session state
// machine and its one transition function, plan files and their names, the
// reminders that teach the model the planning workflow, and what entering
// and leaving plan mode mean. Front ends and the agent loop only call it.
//
// What plan mode lets through is decided by package permission, which this
// package feeds with the plan file's path; the reminders only explain what
// that layer already enforces.
package planmode

import (
	"math/rand/v2"
	"sync"
	"time"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/permission"
)

// Config is what a plan-mode session needs from settings and the
// environment.
type Config struct {
	// ConfigDir is ponder's directory; plans go to ConfigDir/plans by
	// default.
	ConfigDir string
	// ProjectDir is the project root; PlansDirectory resolves against it.
	ProjectDir string
	// PlansDirectory is the plansDirectory setting ("" for the default).
	PlansDirectory string
	// FileNaming is "words" (the default) or "session-timestamp".
	FileNaming string
	// ReminderTurns is the number of human turns between plan-mode
	// reminders; FullReminderEvery makes every Nth reminder the full one.
	ReminderTurns     int
	FullReminderEvery int
	// ExploreAgents and PlanAgents are the agent counts the workflow
	// suggests.
	ExploreAgents int
	PlanAgents    int
	// Interview selects the interview workflow.
	Interview bool
	// Variant is the plan length guidance: full, trim, cut or cap.
	Variant string
	// BypassAllowed offers "approve and bypass permissions".
	BypassAllowed bool
	// NoScopeFence turns off the approved plan's fence on accept-edits
	// (planMode.scopeFence: false).
	NoScopeFence bool
	// Ceiling, when set, is the freest mode the session may be in (a
	// teammate's: its lead's). A change to a freer mode, whatever its
	// path, and a restored state get the ceiling instead; "" means none.
	Ceiling func() permission.Mode
	// HasTaskTool reports whether subagents can be launched in plan mode
	// (the Task tool is offered there), so the workflow may suggest
	// them; nil means they cannot.
	HasTaskTool func() bool
	// Now and Intn default to the clock and math/rand.
	Now  func() time.Time
	Intn func(n int) int
	// Logf reports problems that do not stop the session (a bad
	// plansDirectory, an unreadable plan file).
	Logf func(format string, args ...any)
}

func (c *Config) defaults() {
	if c.ReminderTurns <= 0 {
		c.ReminderTurns = 5
	}
	if c.FullReminderEvery <= 0 {
		c.FullReminderEvery = 5
	}
	if c.ExploreAgents <= 0 {
		c.ExploreAgents = 3
	}
	if c.PlanAgents <= 0 {
		c.PlanAgents = 1
	}
	if c.Variant == "" {
		c.Variant = "full"
	}
	if c.FileNaming == "" {
		c.FileNaming = "words"
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Intn == nil {
		c.Intn = rand.IntN
	}
	if c.Logf == nil {
		c.Logf = func(string, ...any) {}
	}
}

// State is the plan-mode state of one session. It is saved in the
// transcript so that a resumed session continues exactly where it was.
type State struct {
	Mode permission.Mode `json:"mode"`
	// PrePlanMode is the mode before plan mode was entered; a plain
	// approval returns to it.
	PrePlanMode permission.Mode `json:"pre_plan_mode,omitempty"`
	// HasExitedPlanMode says plan mode was left since the last re-entry
	// reminder, so entering again with a plan present gets one.
	HasExitedPlanMode bool `json:"has_exited_plan_mode,omitempty"`
	// NeedsExitReminder says plan mode was just left and the model has not
	// yet been told.
	NeedsExitReminder bool `json:"needs_exit_reminder,omitempty"`
	// Slug names the session's plan file; empty until first needed.
	Slug string `json:"slug,omitempty"`
	// Reminders schedules the main conversation's plan-mode reminders.
	Reminders Tracker `json:"reminders"`
	// Phase is the planning phase the agent seems to be in.
	Phase Phase `json:"phase,omitempty"`
	// SentBack is the plan as it stood when the user last sent it back,
	// so the next approval can show what changed since; cleared when a
	// plan is approved.
	SentBack string `json:"sent_back,omitempty"`
	// Carried is the last approved plan, as its implementation carries
	// it (see Carried).
	Carried *Carried `json:"carried,omitempty"`
	// Provenance is what the project looked like when the plan was last
	// put up for approval.
	Provenance *Provenance `json:"provenance,omitempty"`
}

// Session is the plan-mode state of one session with the operations on it.
// It is safe for concurrent use.
type Session struct {
	cfg Config
	id  string

	mu       sync.Mutex
	st       State
	hint     string // task words for the slug, until the slug exists
	plansDir string // resolved once
	emit     func(event.Event)
	persist  func(State)
}

// New returns the plan-mode session of session id, starting in mode.
// Events go to emit; every state change is handed to persist so it can be
// written to the transcript. Either may be nil.
func New(cfg Config, id string, mode permission.Mode, emit func(event.Event), persist func(State)) *Session {
	cfg.defaults()
	if emit == nil {
		emit = func(event.Event) {}
	}
	if persist == nil {
		persist = func(State) {}
	}
	return &Session{cfg: cfg, id: id, st: State{Mode: mode}, emit: emit, persist: persist}
}

// ID is the session id.
func (s *Session) ID() string { return s.id }

// Config returns the configuration in force.
func (s *Session) Config() Config { return s.cfg }

// Mode is the current permission mode.
func (s *Session) Mode() permission.Mode {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.st.Mode
}

// State returns a copy of the state.
func (s *Session) State() State {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.st
}

// Restore replaces the state with one loaded from a transcript. It emits
// nothing: the session simply continues. A session saved in (or planning
// its way back to) bypassPermissions resumes in default mode unless this
// run allows bypassing: the permission to bypass belongs to the command
// line that started a process, not to a transcript. Neither mode is
// freer than the ceiling.
func (s *Session) Restore(st State) {
	if s.guard(st.Mode, ViaResume) != nil {
		st.Mode = permission.ModeDefault
	}
	if st.PrePlanMode != "" && s.guard(st.PrePlanMode, ViaResume) != nil {
		st.PrePlanMode = permission.ModeDefault
	}
	if c := s.ceiling(); c != "" {
		st.Mode = st.Mode.Within(c)
		if st.PrePlanMode != "" {
			st.PrePlanMode = st.PrePlanMode.Within(c)
		}
	}
	s.mu.Lock()
	s.st = st
	s.mu.Unlock()
}

// SetEmit replaces where events go (front ends attach after start-up).
func (s *Session) SetEmit(emit func(event.Event)) {
	s.mu.Lock()
	s.emit = emit
	s.mu.Unlock()
}

// changed persists the state; the caller holds s.mu.
func (s *Session) changed() { s.persist(s.st) }
