package app

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/ponder-agent/ponder/internal/agent"
	"github.com/ponder-agent/ponder/internal/checkpoint"
	"github.com/ponder-agent/ponder/internal/llm"
	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/session"
)

// This file is checkpoints and rewind as front ends see them: the turns
// of the session with what each changed, and Rewind, which restores files,
// the conversation or both to how they were before a turn.

// What a rewind puts back.
const (
	RewindBoth         = "both"
	RewindFiles        = "files"
	RewindConversation = "conversation"
)

// TurnInfo is one user turn of the session, as /rewind lists it.
type TurnInfo struct {
	// N is the turn's number (for --rewind-to).
	N int
	// Prompt is what the user sent ("" for a turn that continued an
	// earlier one).
	Prompt string
	Time   time.Time
	// Files are the files ponder changed in the turn.
	Files []string
	// Commands are shell commands that ran outside the sandbox in the
	// turn; what they changed cannot be restored.
	Commands []string
	// Conversation says the conversation can be cut back to before
	// this turn (not after a compaction or a clear since).
	Conversation bool
	// Mode is the mode the turn was sent in (for /plan <task>, the one
	// before the command); Command is the command that sent it ("/plan",
	// or "" for a prompt typed as it is). "" when not recorded.
	Mode    string
	Command string
	// Approval says the turn began by approving a plan a run left
	// pending (Option says how); rewinding its conversation makes the
	// plan pending again.
	Approval bool
	Option   string
}

// RewindResult is what a rewind did.
type RewindResult struct {
	Turn                int
	Files, Conversation bool
	// Prompt is the prompt of the turn rewound to, for the user to edit
	// and send again; Command is the command that sent it ("/plan").
	Prompt  string
	Command string
	// Mode is the mode a rewind of the conversation went back to (the
	// one the turn was sent in), "" when it did not change it.
	Mode string
	// Restored, Removed and Unchanged are files, by path.
	Restored, Removed, Unchanged []string
	// Failed are files left alone, each "path: why".
	Failed []string
	// NotRestorable names the shell commands whose changes stay.
	NotRestorable []string
}

// checkpointStore builds the session's checkpoints over its transcript.
// The plan files are left out: plan mode keeps their history itself.
func (a *App) checkpointStore(tr *session.Transcript) *checkpoint.Store {
	plans := a.plan.PlansDir()
	realPlans, err := filepath.EvalSymlinks(plans)
	if err != nil {
		realPlans = plans
	}
	skip := func(p string) bool {
		for _, dir := range []string{plans, realPlans} {
			if rel, err := filepath.Rel(dir, p); err == nil && !strings.HasPrefix(rel, "..") && filepath.Ext(p) == ".md" {
				return true
			}
		}
		return false
	}
	s := checkpoint.New(filepath.Join(a.cfg.ConfigDir, "file-history"), a.log.Append, skip)
	if tr != nil {
		s.Replay(tr.Entries)
	}
	return s
}

// beginTurn starts the checkpoints of a user turn about to be sent to
// main, typed as the user typed it, recording how it was sent.
func (a *App) beginTurn(main *agent.Agent, prompt, typed string) int {
	return a.checkpoints.BeginFrom(prompt, len(main.History()), a.turnStart(typed))
}

// Turns lists the session's turns, oldest first, with what each changed.
func (a *App) Turns() []TurnInfo {
	hist := a.mainAgent().History()
	turns := a.checkpoints.Turns()
	out := make([]TurnInfo, len(turns))
	for i, t := range turns {
		info := TurnInfo{N: t.N, Prompt: t.Prompt, Time: t.Time, Conversation: turnAt(hist, t),
			Mode: t.Start.Mode, Command: t.Start.Via, Approval: t.Approved != nil, Option: t.Option}
		for _, f := range t.Files {
			info.Files = append(info.Files, f.Path)
		}
		for _, c := range t.Commands {
			info.Commands = append(info.Commands, c.Command)
		}
		out[i] = info
	}
	return out
}

// turnAt reports whether the conversation can be cut back to before turn
// t: its prompt, or for a turn that approved a pending plan the answer to
// the call that asked, is still where the turn began.
func turnAt(hist []llm.Message, t checkpoint.Turn) bool {
	if t.Approved != nil {
		return answerAt(hist, t.Keep, t.Approved.ToolUseID)
	}
	return promptAt(hist, t.Keep, t.Prompt)
}

// answerAt reports whether the conversation holds, at index keep, the
// results that answer the tool call id, right after the message that
// made it.
func answerAt(hist []llm.Message, keep int, id string) bool {
	if keep <= 0 || keep >= len(hist) || id == "" || !hist[keep].IsToolResult() {
		return false
	}
	for _, b := range hist[keep].Content {
		if b.Type == llm.BlockToolResult && b.ToolUseID == id {
			return true
		}
	}
	return false
}

// promptAt reports whether the conversation still holds prompt as the
// user message at index keep, so cutting it there goes back to before
// the turn. A compaction or a clear since changes what is there.
func promptAt(hist []llm.Message, keep int, prompt string) bool {
	if keep < 0 || keep >= len(hist) || prompt == "" {
		return false
	}
	m := hist[keep]
	if m.Role != llm.RoleUser || m.IsToolResult() {
		return false
	}
	for _, b := range m.Content {
		if b.Type == llm.BlockText && b.Reminder == "" {
			return b.Text == prompt
		}
	}
	return false
}

// ErrBusy says a turn is running.
var ErrBusy = errors.New("a turn is running; wait for it to finish, or interrupt it")

// Rewind puts files, the conversation or both (what: one of the Rewind*
// names) back to how they were before turn n. Files are restored only
// outside plan mode (plan mode changes nothing but the plan), atomically,
// and never through a symbolic link; what shell commands changed is named
// as not restorable. The conversation is cut back before the turn's
// prompt and the cut is recorded, so a resume continues from it.
func (a *App) Rewind(n int, what string) (RewindResult, error) {
	res := RewindResult{Turn: n}
	switch what {
	case RewindBoth, "":
		res.Files, res.Conversation = true, true
	case RewindFiles:
		res.Files = true
	case RewindConversation:
		res.Conversation = true
	default:
		return res, &UsageError{Msg: fmt.Sprintf("rewind %q: want %s, %s or %s", what, RewindBoth, RewindFiles, RewindConversation)}
	}
	if a.work.busy() {
		return res, ErrBusy
	}
	t, ok := a.checkpoints.Turn(n)
	if !ok {
		return res, &UsageError{Msg: fmt.Sprintf("there is no turn %d to rewind to (see /rewind for the turns)", n)}
	}
	res.Prompt, res.Command = t.Prompt, t.Start.Via
	if res.Files {
		if err := a.rewindMayWrite(n); err != nil {
			return res, err
		}
	}
	main := a.mainAgent()
	hist := main.History()
	if res.Conversation && !turnAt(hist, t) {
		return res, fmt.Errorf("the conversation of turn %d is gone (compacted or cleared since); rewind its files only", n)
	}
	if res.Files {
		rep, err := a.checkpoints.RestoreChecked(n, a.mayRestore)
		if err != nil {
			return res, err
		}
		res.Restored, res.Removed, res.Unchanged = rep.Restored, rep.Removed, rep.Unchanged
		for _, f := range rep.Failed {
			res.Failed = append(res.Failed, f.Path+": "+f.Reason)
		}
		for _, c := range rep.Commands {
			s := c.Command
			if len(c.Writes) > 0 {
				s += " (writes " + strings.Join(c.Writes, ", ") + ")"
			}
			res.NotRestorable = append(res.NotRestorable, s)
		}
	}
	if res.Conversation && t.Approved != nil {
		// Back to the moment of approval: the plan waits again, in plan
		// mode, to be approved (perhaps otherwise) or sent back.
		main.ReplaceHistory(hist[:t.Keep])
		a.checkpoints.Rewound(n, res.Files, res.Conversation, t.Keep)
		a.unapprove(t.Approved)
		return res, a.log.Sync()
	}
	if res.Conversation {
		main.ReplaceHistory(hist[:t.Keep])
		if a.pendingPlan() != nil {
			// The approval asked for is in the part cut away.
			_ = a.log.Append(session.Entry{Type: session.TypeResolved})
			a.mu.Lock()
			a.pending = nil
			a.mu.Unlock()
		}
	}
	a.checkpoints.Rewound(n, res.Files, res.Conversation, t.Keep)
	if res.Conversation {
		res.Mode = a.restoreTurnMode(t.Start)
	}
	return res, a.log.Sync()
}

// Summary says in a few lines what a rewind did.
func (r RewindResult) Summary() string {
	var b strings.Builder
	what := map[[2]bool]string{{true, true}: "files and conversation", {true, false}: "files", {false, true}: "conversation"}[[2]bool{r.Files, r.Conversation}]
	fmt.Fprintf(&b, "Rewound the %s to before turn %d.", what, r.Turn)
	if r.Mode != "" {
		fmt.Fprintf(&b, " Mode: %s again, as when the turn was sent.", permission.Mode(r.Mode).Title())
	}
	list := func(label string, items []string) {
		if len(items) > 0 {
			fmt.Fprintf(&b, "\n%s: %s", label, strings.Join(items, "; "))
		}
	}
	if r.Files {
		if len(r.Restored)+len(r.Removed)+len(r.Unchanged)+len(r.Failed) == 0 {
			b.WriteString("\nNo file was changed by ponder since then.")
		}
		list("Restored", r.Restored)
		list("Removed (created since)", r.Removed)
		list("Already as before", r.Unchanged)
		list("Not restored", r.Failed)
		list("Not restorable (changed by shell commands)", r.NotRestorable)
	}
	return b.String()
}

// busy reports whether work is in progress.
func (r *running) busy() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.cancels) > 0
}

// rewindMayWrite applies plan mode's rule on changing files
// (permission.PlanModeWrite) to the files a rewind of turn n would put
// back. They never include a plan file (plan mode keeps the plans'
// history itself), so in plan mode a rewind of files is refused, even one
// with nothing to put back.
func (a *App) rewindMayWrite(n int) error {
	files, _, err := a.checkpoints.Plan(n)
	if err != nil {
		return err
	}
	paths := make([]string, len(files))
	for i, f := range files {
		paths[i] = f.Path
	}
	if err := permission.PlanModeWrite(a.plan.Mode(), a.plan.PlanFile(""), paths...); err != nil {
		return fmt.Errorf("a rewind in plan mode may not put files back (%v): leave plan mode first, or rewind the conversation only", err)
	}
	return nil
}

// mayRestore is the permission check of a file a rewind would put back.
// The rewind is the user's own act, so a question counts as answered;
// but a deny rule wins over it as over everything else.
func (a *App) mayRestore(path string) error {
	pc := a.userContext()
	if d := a.perm.Decide(pc, permission.Access{Tool: "Edit", Kind: permission.KindWrite, Paths: []string{path}}); d.Behavior == permission.Deny {
		return fmt.Errorf("%s", d.Reason)
	}
	return nil
}
