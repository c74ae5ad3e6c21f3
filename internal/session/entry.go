// Package session stores conversations as append-only JSONL transcripts,
// one typed entry per line, and loads them back for resume and fork.
//
// The format is documented in docs/transcript.md. Every file starts with a
// header entry carrying the format version; loaders skip lines they cannot
// read (a line cut by a killed process, a corrupted or foreign line) and
// report them, so a transcript always stays usable.
package session

import (
	"encoding/json"
	"time"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/llm"
)

// FormatVersion is the transcript format this build writes.
const FormatVersion = 1

// Entry types.
const (
	TypeHeader       = "header"
	TypeMessage      = "message"
	TypeState        = "state"
	TypePlanSnapshot = "plan_snapshot"
	TypePending      = "pending_approval"
	TypeResolved     = "approval_resolved"
	TypeCompact      = "compact"
	TypeClear        = "clear"
	TypeTodos        = "todos"
	TypeUsage        = "usage"
	TypeRepaired     = "repaired"
	// TypeTeam records a message of a team protocol sent or received,
	// or a teammate's change of state (opaque here; package app writes it).
	TypeTeam = "team"
	// TypeTurn, TypeCheckpoint and TypeRewind record checkpoints: where
	// a user turn began, what a file held before ponder changed it, and
	// a rewind (see Checkpoint).
	TypeTurn       = "turn"
	TypeCheckpoint = "checkpoint"
	TypeRewind     = "rewind"
	// TypeModel records the main model chosen during the session (an
	// approval that names the implementing model); resume keeps it.
	TypeModel = "model"
	// TypeGrant records rules an approved plan granted for the session.
	TypeGrant = "grant"
	// TypeFileSeen records the state of a file when the session read or
	// wrote it, so that a resume knows which files the model has seen.
	TypeFileSeen = "file_seen"
)

// Entry is one line of a transcript. Type says which fields are set.
type Entry struct {
	Type string    `json:"type"`
	Time time.Time `json:"time"`

	// Header: the format version, the session, where it ran, and for a
	// fork the session it came from.
	Version    int    `json:"version,omitempty"`
	SessionID  string `json:"session_id,omitempty"`
	Cwd        string `json:"cwd,omitempty"`
	ForkedFrom string `json:"forked_from,omitempty"`
	AgentID    string `json:"agent_id,omitempty"`
	AgentType  string `json:"agent_type,omitempty"`

	// Message: one message of the conversation.
	Message *llm.Message `json:"message,omitempty"`

	// State: the plan-mode state (opaque here; package planmode owns it).
	State json.RawMessage `json:"state,omitempty"`

	// PlanSnapshot: the plan file's content after a write, or an approved
	// plan.
	Plan *PlanSnapshot `json:"plan,omitempty"`

	// Pending: an approval that waits for an answer.
	Pending *Pending `json:"pending,omitempty"`

	// Compact: the summary that replaces every message before it.
	Summary string `json:"summary,omitempty"`

	// Todos: the todo list (opaque here).
	Todos json.RawMessage `json:"todos,omitempty"`

	// Team: a team message or state change.
	Team json.RawMessage `json:"team,omitempty"`

	// Usage: tokens used by one model request.
	Usage *llm.Usage `json:"usage,omitempty"`

	// Repaired: the damage up to this line was reported when the session
	// was resumed, and is not reported again.
	Through int `json:"through,omitempty"`

	// Turn, Checkpoint, Rewind: see Checkpoint.
	Checkpoint *Checkpoint `json:"checkpoint,omitempty"`
	// Model: the main model from here on.
	Model string `json:"model,omitempty"`
	// Grant: the rules granted for the rest of the session.
	Rules []string `json:"rules,omitempty"`
	// FileSeen: a file's state when the session read or wrote it.
	Seen *FileSeen `json:"seen,omitempty"`

	// Line is where the entry was read from (not stored).
	Line int `json:"-"`
}

// FileSeen is a file's state as the session saw it: its absolute path,
// modification time and size.
type FileSeen struct {
	Path    string    `json:"path"`
	ModTime time.Time `json:"mod_time"`
	Size    int64     `json:"size"`
}

// PlanSnapshot records a plan's content.
type PlanSnapshot struct {
	Slug     string `json:"slug"`
	Path     string `json:"path"`
	Content  string `json:"content"`
	Approved bool   `json:"approved,omitempty"`
	// Cause says what made this version: the model's write, the user's
	// edit at approval, a plan sent back, an approval, a fork's copy.
	Cause string `json:"cause,omitempty"`
}

// The causes of a plan's versions.
const (
	CauseModel    = "written by the model"
	CauseApproved = "approved"
	CauseEdited   = "edited by the user and approved"
	CauseSentBack = "sent back with feedback"
	CauseForked   = "copied for a fork"
)

// Pending is a plan approval that a headless run left unanswered: the
// ExitPlanMode call waiting for its result and the results of the other
// calls of the same message, to be sent together once it is answered.
type Pending struct {
	ToolUseID string      `json:"tool_use_id"`
	Plan      string      `json:"plan"`
	PlanFile  string      `json:"plan_file"`
	Results   []llm.Block `json:"results,omitempty"`
	// CallIndex is the position of the ExitPlanMode call among the
	// message's calls.
	CallIndex int `json:"call_index"`
	// Permissions are what the plan asked to be granted.
	Permissions []event.PlanPermission `json:"permissions,omitempty"`
}

// Checkpoint is one record of the checkpoints that let a user rewind a
// session (package checkpoint owns their meaning). Which fields are set
// depends on the entry's type:
//
//   - turn: Turn, Prompt and Keep (the number of messages of the
//     conversation before the turn's prompt);
//   - checkpoint: Turn and Path with Blob (the content-addressed copy of
//     what the file held) or Absent (it did not exist); or Command and
//     Writes for a shell command whose changes cannot be restored; or
//     Path with Reason for a file that could not be copied;
//   - rewind: Turn, and Conversation with Keep when the conversation was
//     cut back to its first Keep messages, Files when files were restored.
type Checkpoint struct {
	Turn         int      `json:"turn"`
	Prompt       string   `json:"prompt,omitempty"`
	Keep         int      `json:"keep,omitempty"`
	Path         string   `json:"path,omitempty"`
	Blob         string   `json:"blob,omitempty"`
	Absent       bool     `json:"absent,omitempty"`
	Command      string   `json:"command,omitempty"`
	Writes       []string `json:"writes,omitempty"`
	Reason       string   `json:"reason,omitempty"`
	Conversation bool     `json:"conversation,omitempty"`
	Files        bool     `json:"files,omitempty"`
	// Mode and Via, on a turn, are how to send its prompt again: the
	// mode to be in, and the command that sent it ("/plan"; "" for none).
	Mode string `json:"mode,omitempty"`
	Via  string `json:"via,omitempty"`
	// Approved, on a turn, is the plan approval that turn answered (a
	// turn that implements a plan approved in a later run): rewinding its
	// conversation makes the approval pending again. Option is how it
	// was answered.
	Approved *Pending `json:"approved,omitempty"`
	Option   string   `json:"option,omitempty"`
}
