package event

import (
	"context"
	"encoding/json"
	"time"
)

// HookEvent names a moment of a session at which hooks run.
type HookEvent string

// The moments hooks run at.
const (
	// HookPreToolUse runs before a tool call is judged; a hook may
	// refuse it, ask for it, or allow what would otherwise be asked.
	HookPreToolUse HookEvent = "PreToolUse"
	// HookPostToolUse runs after a call ran; a hook may add words for
	// the model to its result.
	HookPostToolUse HookEvent = "PostToolUse"
	// HookUserPromptSubmit runs before the user's input reaches the
	// model; a hook may block it or add context.
	HookUserPromptSubmit HookEvent = "UserPromptSubmit"
	// HookStop runs when the model is about to end its turn; a hook may
	// keep it going with a reason.
	HookStop HookEvent = "Stop"
	// HookPostToolUseFailure runs after a call that ended in an error
	// (PostToolUse runs after those that succeeded).
	HookPostToolUseFailure HookEvent = "PostToolUseFailure"
	// HookSessionStart runs before the session's first input reaches the
	// model; a hook may add context.
	HookSessionStart HookEvent = "SessionStart"
	// HookSessionEnd runs when the session closes; it only observes.
	HookSessionEnd HookEvent = "SessionEnd"
	// HookPreCompact runs before the conversation is compacted (Trigger
	// says "manual" or "auto"); it only observes.
	HookPreCompact HookEvent = "PreCompact"
	// HookNotification runs when ponder asks the user something (a
	// permission question, a plan approval); it only observes.
	HookNotification HookEvent = "Notification"
	// HookPermissionRequest runs when ponder would ask the user something
	// (a tool call that needs a yes, entering plan mode, a plan's
	// approval); a hook may answer in the user's place: allow (with an
	// edited input or plan), deny with a message, or pass.
	HookPermissionRequest HookEvent = "PermissionRequest"
	// HookPlanTransition runs as plan mode changes (Transition says how:
	// entered, exit_requested, approved, rejected, exited); it only
	// observes.
	HookPlanTransition HookEvent = "PlanTransition"
)

// HookInput is what a hook is told. Which fields are set depends on the
// event.
type HookInput struct {
	Event          HookEvent `json:"hook_event_name"`
	SessionID      string    `json:"session_id"`
	TranscriptPath string    `json:"transcript_path"`
	Cwd            string    `json:"cwd"`
	Mode           string    `json:"permission_mode,omitempty"`
	AgentID        string    `json:"agent_id,omitempty"`

	// For tool events.
	ToolName  string          `json:"tool_name,omitempty"`
	ToolInput json.RawMessage `json:"tool_input,omitempty"`
	ToolUseID string          `json:"tool_use_id,omitempty"`
	// ToolResponse is the result of the call (PostToolUse).
	ToolResponse string `json:"tool_response,omitempty"`
	// ToolFailed says the call ended in an error (PostToolUse).
	ToolFailed bool `json:"tool_failed,omitempty"`

	// Prompt is the user's input (UserPromptSubmit).
	Prompt string `json:"prompt,omitempty"`
	// Source is how the session began (SessionStart: "startup",
	// "resume"); Reason why it ends (SessionEnd).
	Source string `json:"source,omitempty"`
	Reason string `json:"reason,omitempty"`

	// StopHookActive says the turn goes on already because a Stop hook
	// asked it to (Stop); LastAssistantMessage is the model's last text.
	StopHookActive       bool   `json:"stop_hook_active,omitempty"`
	LastAssistantMessage string `json:"last_assistant_message,omitempty"`

	// Trigger says what started a compaction, "manual" or "auto", and
	// CustomInstructions what the user asked the summary to keep
	// (PreCompact).
	Trigger            string `json:"trigger,omitempty"`
	CustomInstructions string `json:"custom_instructions,omitempty"`
	// Message is what ponder asks the user about (Notification).
	Message string `json:"message,omitempty"`

	// Transition is the change of plan mode (PlanTransition): one of the
	// Transition* names. Via is the path it came through (tool, tui,
	// slash, approval, ...); PlanFile the plan's file; Plan the plan's
	// text (exit_requested, approved); Option the approval option
	// (approved); Feedback what sent the plan back (rejected).
	Transition string `json:"transition,omitempty"`
	Via        string `json:"via,omitempty"`
	PlanFile   string `json:"plan_file,omitempty"`
	Plan       string `json:"plan,omitempty"`
	Option     string `json:"option,omitempty"`
	Feedback   string `json:"feedback,omitempty"`
}

// The plan transitions PlanTransition hooks are told about.
const (
	TransitionEntered       = "entered"
	TransitionExitRequested = "exit_requested"
	TransitionApproved      = "approved"
	TransitionRejected      = "rejected"
	// TransitionExited: plan mode ended without an approval (Shift+Tab,
	// a control message).
	TransitionExited = "exited"
)

// The decisions a hook may return (HookOutput.Decision).
const (
	// HookAllow lets a call run without asking (PreToolUse). The hard
	// limits (plan mode, read-only agents, deny rules) still hold.
	HookAllow = "allow"
	// HookAsk makes a call ask first (PreToolUse).
	HookAsk = "ask"
	// HookDeny refuses a call (PreToolUse).
	HookDeny = "deny"
	// HookBlock blocks a prompt (UserPromptSubmit), keeps the turn going
	// (Stop) or sends the reason to the model with a result
	// (PostToolUse).
	HookBlock = "block"
)

// HookOutput is a hook's answer. The zero value has no opinion.
type HookOutput struct {
	// Decision is one of the Hook* decisions, or "".
	Decision string `json:"decision,omitempty"`
	// Reason explains the decision; for a refusal or a block it is what
	// the model is told.
	Reason string `json:"reason,omitempty"`
	// Context is text added to the conversation for the model.
	Context string `json:"additional_context,omitempty"`
	// Stop ends the turn after this point, with StopReason.
	Stop       bool   `json:"stop,omitempty"`
	StopReason string `json:"stop_reason,omitempty"`
	// SystemMessage is shown to the user (as a notice), not the model.
	SystemMessage string `json:"system_message,omitempty"`
	// UpdatedInput, with an allow of a PermissionRequest, replaces the
	// call's input (for ExitPlanMode, {"plan": "..."} replaces the
	// plan). A replaced call is judged again: what the rules refuse
	// stays refused.
	UpdatedInput json.RawMessage `json:"updated_input,omitempty"`
	// Mode, with an allow of ExitPlanMode's PermissionRequest, is the
	// mode the approved plan is implemented in (default, acceptEdits,
	// bypassPermissions where the command line allowed it).
	Mode string `json:"mode,omitempty"`
}

// HookFunc is a hook written in Go, or one that a front end forwards to
// its host (the Claude Agent SDK's hook callbacks).
type HookFunc func(ctx context.Context, in HookInput) (HookOutput, error)

// HookMatcher registers hooks for an event. For tool events Matcher
// selects tools by name: "" or "*" is every tool, otherwise a regular
// expression that must match the whole name ("Write|Edit"). SessionStart
// matches it against Source and PreCompact against Trigger; other events
// ignore it.
type HookMatcher struct {
	Event   HookEvent
	Matcher string
	Hooks   []HookFunc
	// Timeout bounds each hook's run (0: a minute). A hook that fails or
	// runs out of time has no opinion.
	Timeout time.Duration
}
