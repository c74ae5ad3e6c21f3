package app

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/config"
	"github.com/ponder-agent/ponder/internal/llm/anthropic"
	"github.com/ponder-agent/ponder/internal/llm/openai"
	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/planmode"
	"github.com/ponder-agent/ponder/internal/session"
	"github.com/ponder-agent/ponder/internal/tool/sessiontool"
)

// This file is what an approved plan changes besides the mode: the model
// that implements it and the permissions it was granted. Both are
// recorded in the transcript, so a resumed session keeps them.

// implementer is the session's side of an approval (sessiontool.Implementer).
type implementer struct{ a *App }

var _ sessiontool.Implementer = implementer{}

// JudgeGrant parses a rule a plan asks for and says how far it reaches.
func (i implementer) JudgeGrant(rule string) (permission.Reach, error) {
	_, r, err := i.a.perm.JudgeGrant(rule)
	return r, err
}

// CheckModel returns nil when name may be given the implementation.
func (i implementer) CheckModel(name string) error { return CheckModelName(name) }

// Models lists the models an approval may choose, the one in use first.
func (i implementer) Models() []string { return i.a.ModelChoices() }

// Implement switches to the chosen model and allows the granted rules for
// the rest of the session, recording both.
func (i implementer) Implement(model string, rules []string) {
	a := i.a
	if model != "" {
		model = a.aliases.resolve(model)
		a.mu.Lock()
		a.models.Main = model
		a.mu.Unlock()
		_ = a.log.Append(session.Entry{Type: session.TypeModel, Model: model})
	}
	var granted []string
	for _, r := range rules {
		if err := a.perm.AddAllow(r); err != nil {
			a.emit(event.Notice{Level: "warning", Text: fmt.Sprintf("could not grant %s: %v", r, err)})
			continue
		}
		granted = append(granted, r)
	}
	if len(granted) > 0 {
		_ = a.log.Append(session.Entry{Type: session.TypeGrant, Rules: granted})
	}
	a.mu.Lock()
	a.approved = &planmode.Approval{Model: model, Granted: granted}
	a.mu.Unlock()
	a.carrySteps()
}

// KeepNotes keeps the user's notes on the approved plan for an
// implementation that starts from the plan alone (sessiontool.NoteKeeper).
func (i implementer) KeepNotes(notes []event.Annotation) {
	a := i.a
	a.mu.Lock()
	if a.approved != nil {
		a.approved.Notes = notes
	}
	a.mu.Unlock()
}

// CheckModelName returns nil when name can name a model: one word of
// printable characters, at most 200 bytes.
func CheckModelName(name string) error {
	if name == "" || len(name) > 200 || strings.IndexFunc(name, func(r rune) bool { return unicode.IsSpace(r) || !unicode.IsPrint(r) }) >= 0 {
		return fmt.Errorf("model %q: a model name is one word of printable characters", name)
	}
	return nil
}

// ModelChoices lists the models a user may pick for an implementation:
// the main model in use first, then the others this session knows of
// (the plan-mode and fast models, the settings' model, the provider's
// defaults), each once.
func (a *App) ModelChoices() []string {
	a.mu.Lock()
	m := a.models
	a.mu.Unlock()
	list := []string{m.Main, m.Plan, m.Explore, config.Str(a.cfg.Settings.Model, "")}
	switch {
	case a.opts.LLM != nil:
		// A stand-in model (the demo, a benchmark) knows no others.
	case a.provider != nil && a.provider.Name() == "openai":
		list = append(list, openai.DefaultModel)
	default:
		list = append(list, anthropic.DefaultModel, anthropic.LargestModel, anthropic.DefaultFastModel)
	}
	var out []string
	for _, name := range list {
		if name = a.aliases.resolve(name); name != "" && !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	return out
}

// restoreImplementation brings back, on resume, the model an approval
// chose (unless --model names one) and the rules approvals granted.
func (a *App) restoreImplementation(tr *session.Transcript) {
	if m := tr.LastModel(); m != "" && a.opts.Model == "" && CheckModelName(m) == nil {
		a.models.Main = a.aliases.resolve(m)
	}
	for _, r := range tr.Grants() {
		if err := a.perm.AddAllow(r); err != nil {
			a.warnings = append(a.warnings, fmt.Sprintf("%s: a granted rule %q no longer parses: %v", tr.Path, r, err))
		}
	}
}

// CheckPlanAnswer returns nil when ans may answer the plan approval q,
// and otherwise says what is wrong with it, so a front end can have it
// corrected before anything happens: an option the session does not
// offer, a model that is no model name, a grant of a rule the plan did
// not ask for, a comment on a line the plan does not have.
func (a *App) CheckPlanAnswer(q event.Question, ans event.Answer) error {
	if ans.Option != "" {
		if err := a.plan.CheckOption(ans.Option); err != nil {
			return err
		}
	}
	if ans.Model != "" {
		if err := CheckModelName(ans.Model); err != nil {
			return err
		}
	}
	if err := sessiontool.CheckGrant(q.Permissions, ans.Grant); err != nil {
		return err
	}
	if len(ans.Annotations) > 0 && ans.Option != "" && !planmode.CarriesNotes(ans.Option) {
		return fmt.Errorf("the option %q cannot carry comments on lines of the plan", ans.Option)
	}
	plan := q.Plan
	if ans.EditedPlan != nil {
		plan = *ans.EditedPlan
	}
	return planmode.CheckAnnotations(plan, ans.Annotations)
}
