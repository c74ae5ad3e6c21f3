// Package tool defines what a tool is to ponder: a name, the kind of
// access its calls make, a description and an input schema for the model,
// and a Prepare step that parses the input and declares what the call
// would touch before anything runs. The agent
// loop hands that declaration to the permission engine and runs the call
// only when the engine allows it.
package tool

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/permission"
)

// Tool is one capability offered to the model.
type Tool interface {
	// Name is the name the model calls the tool by.
	Name() string
	// Kind is what every call of the tool does to the system (reads
	// files, writes them, runs commands...). It is the tool's one
	// declaration of its nature: permission rules group tools by it, and
	// an agent is read-only when all its tools are of reading kinds.
	Kind() permission.Kind
	// Description tells the model what the tool does and when to use it.
	Description() string
	// Schema is the JSON schema of the tool's input.
	Schema() json.RawMessage
	// ConcurrencySafe says that calls of this tool may run at the same
	// time as other concurrency-safe calls.
	ConcurrencySafe() bool
	// Prepare parses and validates input. A returned error goes back to
	// the model as the call's result, and nothing runs.
	Prepare(env *Env, input json.RawMessage) (Call, error)
}

// Call is a prepared tool call.
type Call interface {
	// Access declares what the call would touch: its paths, command or
	// target. The agent loop fills in the tool's name and kind.
	Access() permission.Access
	// Run performs the call. It must return promptly once ctx is done.
	Run(ctx context.Context) Result
}

// Validator is implemented by calls that can tell, before running, that
// they would fail (an edit whose text is not in the file, a write to a
// file not read first). The agent loop validates a call after the
// permission engine has ruled out a refusal and before it asks the user,
// so nobody is asked to approve a call that cannot succeed, and a refused
// call is reported as refused rather than as invalid. Run must check again.
type Validator interface {
	Validate() error
}

// Previewer is a call that can show, before it runs, what it will change:
// the file, relative to the project directory when inside it, and the
// change as a unified diff ("" when it cannot be shown: a binary or huge
// file, or one that is not a regular file). The agent loop puts both in
// the question that asks the user; it must not block or change anything.
type Previewer interface {
	Preview() (path, diff string)
}

// Result is what a call gives back to the model.
type Result struct {
	// Content is the text the model receives.
	Content string
	// IsError marks a failure the model should act on.
	IsError bool
	// Summary is a short line for front ends ("Read 120 lines").
	Summary string
	// Todos and Answers are details for front ends (the list TodoWrite
	// saved, the answers AskUserQuestion got); they are never sent to the
	// model.
	Todos   []event.TodoItem
	Answers map[string]string
	// Diff is, for a call that changed a file (Write, Edit), the change
	// as a unified diff, for front ends to show; never sent to the model.
	Diff string
	// Stop asks the agent loop to end the turn once the current calls
	// are done.
	Stop Stop
	// Pending is, with StopPending, the plan that waits for approval.
	Pending *PendingPlan
}

// PendingPlan is a plan left waiting for an approval nobody can give now.
type PendingPlan struct {
	Plan     string
	PlanFile string
	// Permissions are what the plan asks to be granted.
	Permissions []event.PlanPermission
}

// Stop is a reason for the agent loop to end a turn early.
type Stop int

// The reasons a tool can end a turn.
const (
	// StopNone lets the turn go on.
	StopNone Stop = iota
	// StopPending ends the turn with the call's result still to come: a
	// plan (Result.Pending) waits for an approval nobody can give now.
	// The loop records the pending call instead of sending results to the
	// model.
	StopPending
	// StopClearContext ends the turn because the approved plan is to be
	// carried out in a fresh conversation.
	StopClearContext
	// StopApproved ends the turn once the call's result is recorded: the
	// plan is approved and the user, not the model, starts its
	// implementation.
	StopApproved
)

// Errorf returns an error result.
func Errorf(format string, args ...any) Result {
	return Result{Content: fmt.Sprintf(format, args...), IsError: true}
}

// Env is what every call of a session shares.
type Env struct {
	// Dir is the project directory, absolute; relative paths resolve
	// against it and commands run in it.
	Dir string
	// AgentID is empty for the main conversation and names the subagent
	// otherwise.
	AgentID string
	// Files remembers which files were read, so that writes to existing
	// files can insist on a read first.
	Files *FileTracker
	// Changes, when set, hears of every change a tool is about to make,
	// so that the session can checkpoint it (see ChangeRecorder).
	Changes ChangeRecorder
	// Editor, when set, is the user's editor: file tools read its
	// buffers and write through it (see Editor).
	Editor Editor
	// MaxWrite is the largest file, in bytes, Write and Edit may leave
	// behind; 0 means DefaultMaxWrite.
	MaxWrite int64
}

// DefaultMaxWrite is the bound on a file Write or Edit produces when the
// settings name none (files.maxWriteMiB).
const DefaultMaxWrite = 32 << 20

// WriteLimit returns the bound on a file Write or Edit produces.
func (e *Env) WriteLimit() int64 {
	if e == nil || e.MaxWrite <= 0 {
		return DefaultMaxWrite
	}
	return e.MaxWrite
}

// CheckWriteSize refuses a result of size bytes for path when it is larger
// than the bound, before anything is written.
func (e *Env) CheckWriteSize(path string, size int64) error {
	if limit := e.WriteLimit(); size > limit {
		return fmt.Errorf("refused: the result for %s would be %d bytes, more than the %d bytes (%d MiB) one call may write (setting files.maxWriteMiB); write smaller pieces or generate the file with a command", path, size, limit, limit>>20)
	}
	return nil
}

// ChangeRecorder hears of the changes tools make to files. BeforeWrite is
// called before a tool replaces or creates path (absolute, cleaned), while
// the old content is still there; the write goes ahead whatever it
// returns. RanCommand is called when a shell command ran outside the
// sandbox, so could have changed files nobody can restore.
type ChangeRecorder interface {
	BeforeWrite(path string)
	RanCommand(command string)
}

// Abs resolves a path the model gave against the project directory and
// cleans it. It does not resolve symlinks; the permission engine does.
func (e *Env) Abs(p string) string {
	if p == "" {
		return e.Dir
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(e.Dir, p)
	}
	return filepath.Clean(p)
}

type callIDKey struct{}

// WithCallID records in ctx the id of the tool call being run, for tools
// that report progress against it (Task).
func WithCallID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, callIDKey{}, id)
}

// CallID returns the id recorded by WithCallID, or "".
func CallID(ctx context.Context) string {
	id, _ := ctx.Value(callIDKey{}).(string)
	return id
}

type confinedKey struct{}

// Confinement is the permission engine's ruling on how a command runs.
type Confinement struct {
	// Sandbox says the call must run in the OS sandbox (a command allowed
	// only because it was judged read-only, or any command in plan mode
	// or a read-only agent).
	Sandbox bool
	// Ports are the TCP ports of the fetches the rules allowed the
	// command; a confined command may connect to these only.
	Ports []uint16
	// Lookup says a fetch must look its host up, so the command may also
	// send DNS queries.
	Lookup bool
	// Workspace says the confined command may write its workspace (see
	// permission.Decision.Workspace).
	Workspace bool
}

// ConfinementFor is how the engine's decision says a call must run.
func ConfinementFor(d permission.Decision) Confinement {
	return Confinement{Sandbox: d.Sandbox, Ports: d.Ports, Lookup: d.Lookup, Workspace: d.Workspace}
}

// WithConfinement records the engine's ruling for the call being run.
func WithConfinement(ctx context.Context, c Confinement) context.Context {
	return context.WithValue(ctx, confinedKey{}, c)
}

// ConfinementOf reports what WithConfinement recorded; no sandbox when
// nothing was.
func ConfinementOf(ctx context.Context) Confinement {
	c, _ := ctx.Value(confinedKey{}).(Confinement)
	return c
}
