package app

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ponder-agent/ponder/internal/config"
	"github.com/ponder-agent/ponder/internal/permission"
)

// This file is what the interface's information commands show: the
// context window's use (/context), the permission rules in force and
// where each comes from (/permissions), and the session's state (/status).
// Nothing here changes anything.

// ContextUse is how much of the model's context window the conversation
// takes.
type ContextUse struct {
	Model string
	// Tokens is the size of the last request's context with its answer,
	// as the provider counted it; Estimated says no request has been made
	// in this conversation yet, and Tokens is guessed from its text.
	Tokens    int
	Estimated bool
	// Window is the model's context window; CompactAt the share of it at
	// which the conversation is compacted (0: never automatically).
	Window    int
	CompactAt float64
	// Messages counts the conversation's messages.
	Messages int
}

// ContextUse reports the main conversation's use of the context window.
func (a *App) ContextUse() ContextUse {
	main := a.mainAgent()
	model := a.modelFor(a.plan.Mode())
	u := ContextUse{Model: model, Tokens: main.ContextTokens(), Window: a.contextWindow(model), CompactAt: defaultCompactAt}
	if s := a.cfg.Settings.Context.AutoCompactAt; s != nil {
		u.CompactAt = *s
	}
	hist := main.History()
	u.Messages = len(hist)
	if u.Tokens == 0 {
		// About four bytes a token, for the system prompt and the
		// conversation as they would be sent.
		data, _ := json.Marshal(hist)
		a.mu.Lock()
		sys := len(a.system)
		a.mu.Unlock()
		u.Tokens, u.Estimated = (sys+len(data))/4, true
	}
	return u
}

// Summary says the use in a few lines.
func (u ContextUse) Summary() string {
	var b strings.Builder
	share := 0.0
	if u.Window > 0 {
		share = float64(u.Tokens) / float64(u.Window)
	}
	about := ""
	if u.Estimated {
		about = "about "
	}
	fmt.Fprintf(&b, "Context: %s%s of %s tokens (%.0f%%) for %s, %d messages.", about, thousands(u.Tokens), thousands(u.Window), share*100, u.Model, u.Messages)
	if u.Estimated {
		b.WriteString(" (estimated: no request yet in this conversation)")
	}
	b.WriteString("\n" + bar(share, 40))
	if u.CompactAt > 0 {
		fmt.Fprintf(&b, "\nThe conversation is compacted at %.0f%%; /compact does it now.", u.CompactAt*100)
	} else {
		b.WriteString("\nAutomatic compaction is off (context.autoCompactAt is 0); /compact does it now.")
	}
	return b.String()
}

// bar draws share of width cells.
func bar(share float64, width int) string {
	n := min(width, max(0, int(share*float64(width)+0.5)))
	return "[" + strings.Repeat("█", n) + strings.Repeat("·", width-n) + "]"
}

// thousands writes n with thin groups of three digits ("12,345").
func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// RuleInfo is a permission rule in force and where it was written.
type RuleInfo = permission.ListedRule

// PermissionRules lists the permission rules in force, deny first, then
// ask, then allow, each with where it was written.
func (a *App) PermissionRules() []RuleInfo { return a.perm.Listed() }

// PermissionsSummary says which rules are in force, where each comes
// from, and what applies when none matches.
func (a *App) PermissionsSummary() string {
	var b strings.Builder
	rules := a.PermissionRules()
	b.WriteString("Permission rules in force (deny rules win, then ask, then allow):")
	if len(rules) == 0 {
		b.WriteString("\n  (none)")
	}
	for _, r := range rules {
		fmt.Fprintf(&b, "\n  %-5s %s  ← %s", r.Behavior, r.Text, r.Origin)
	}
	fmt.Fprintf(&b, "\nWhat no rule covers: %s.", modeDefaultWords(a.plan.Mode()))
	if !a.cfg.Trusted && a.projectHasSettings() {
		b.WriteString("\nThis folder is not trusted: its settings may only narrow (their allow rules are ignored) until you trust it.")
	}
	return b.String()
}

// projectHasSettings reports whether a settings file of the project
// (not the user's) counts in this session.
func (a *App) projectHasSettings() bool {
	for _, l := range a.cfg.Layers {
		if l.Scope != config.ScopeUser {
			return true
		}
	}
	return false
}

// modeDefaultWords says what a mode does with a call no rule covers.
func modeDefaultWords(m permission.Mode) string {
	switch m {
	case permission.ModePlan:
		return "in plan mode, reads and read-only commands run (commands in the sandbox); " + permission.PlanModeRule
	case permission.ModeAcceptEdits:
		return "in accept-edits mode, reads, read-only commands and edits inside the project run; other commands and edits ask"
	case permission.ModeBypass:
		return "with permissions bypassed, everything runs within ponder's hard limits"
	}
	return "in default mode, reads and read-only commands run; edits and other commands ask"
}

// Status is the session's state as /status shows it.
type Status struct {
	Session, Model, Mode, Sandbox, Dir string
	// PlanFile is the plan file, "" when the session has none yet.
	PlanFile string
	Resumed  bool
	Trusted  bool
}

// Status reports the session's state.
func (a *App) Status() Status {
	return Status{Session: a.ID(), Model: a.Model(), Mode: a.Mode(), Sandbox: a.SandboxKind(), Dir: a.Dir(),
		PlanFile: a.PlanFile(), Resumed: a.Resumed(), Trusted: a.cfg.Trusted}
}
