package planmode

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/permission"
)

// Carried is the approved plan as the implementation carries it: its
// outline (title, steps, files), whether its scope fences accept-edits,
// and where the implementation stands. It is part of the state, so a
// resumed session keeps it; a new approval replaces it.
type Carried struct {
	Outline
	PlanFile   string    `json:"plan_file"`
	Option     string    `json:"option"`
	ApprovedAt time.Time `json:"approved_at"`
	// Fence says the plan's scope fences accept-edits (planMode.scopeFence,
	// on by default).
	Fence bool `json:"fence,omitempty"`
	// FromTurn is the checkpoint turn the implementation began in: what
	// that turn and later ones changed is the implementation's.
	FromTurn int `json:"from_turn,omitempty"`
	// DriftAsked says the model was asked once to address drift from
	// the plan; Reported that the report was made at the end of the
	// implementation.
	DriftAsked bool `json:"drift_asked,omitempty"`
	Reported   bool `json:"reported,omitempty"`
}

// MarkCarried notes the checkpoint turn the implementation begins in.
func (s *Session) MarkCarried(fromTurn int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.st.Carried != nil {
		s.st.Carried.FromTurn = fromTurn
		s.changed()
	}
}

// NoteCarried sets a flag of the carried plan once: it reports true the
// first time (the caller acts), false after, or without a carried plan.
func (s *Session) NoteCarried(flag func(*Carried) *bool) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.st.Carried == nil {
		return false
	}
	f := flag(s.st.Carried)
	if *f {
		return false
	}
	*f = true
	s.changed()
	return true
}

// Carried returns the approved plan the implementation carries, if any.
func (s *Session) Carried() (Carried, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.st.Carried == nil {
		return Carried{}, false
	}
	return *s.st.Carried, true
}

// carry records an approved plan's outline; the caller holds s.mu.
func (s *Session) carryLocked(option, path, plan string) {
	s.st.Carried = &Carried{Outline: ParseOutline(plan), PlanFile: path, Option: option, ApprovedAt: s.cfg.Now().UTC(),
		Fence: !s.cfg.NoScopeFence}
}

// DropCarried lets the approved plan go: a rewind undid its approval.
func (s *Session) DropCarried() {
	s.mu.Lock()
	s.st.Carried = nil
	s.changed()
	s.mu.Unlock()
}

// Scope is the fence the approved plan puts on accept-edits: the files
// and directories it names, inside the project, as absolute paths. It is
// nil (no fence) outside accept-edits, without an approved plan, with the
// fence turned off, or when the plan names no file at all (a plan that
// says nothing of its files cannot be held to them).
func (s *Session) Scope() *permission.Scope {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.st.Carried
	if c == nil || !c.Fence || s.st.Mode != permission.ModeAcceptEdits || s.cfg.ProjectDir == "" {
		return nil
	}
	sc := &permission.Scope{}
	root := filepath.Clean(s.cfg.ProjectDir)
	inside := func(p string) (string, bool) {
		if !filepath.IsAbs(p) {
			p = filepath.Join(root, p)
		}
		p = filepath.Clean(p)
		rel, err := filepath.Rel(root, p)
		if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return "", false
		}
		return p, true
	}
	for _, f := range c.Files {
		if p, ok := inside(f); ok {
			sc.Files = append(sc.Files, p)
		}
	}
	for _, d := range c.Dirs {
		if p, ok := inside(d); ok {
			sc.Dirs = append(sc.Dirs, p)
		}
	}
	if len(sc.Files)+len(sc.Dirs) == 0 {
		return nil
	}
	return sc
}

// StepItems are the approved plan's steps as a todo list, all pending:
// the list the implementation starts from.
func (c Carried) StepItems() []event.TodoItem {
	items := make([]event.TodoItem, len(c.Steps))
	for i, st := range c.Steps {
		items[i] = event.TodoItem{Content: st, Status: event.TodoPending, ActiveForm: "Working on: " + shorten(st, 80)}
	}
	return items
}

// KindPlanSteps is the kind of the reminder of the plan's unfinished
// steps.
const KindPlanSteps = "plan_steps"

// StepReminder reminds the model of the approved plan's unfinished steps
// (from the todo list, which TodoWrite keeps): how many are done and the
// next few, each cut short, so the reminder stays small however long the
// plan. It returns false when there is nothing to remind of.
func StepReminder(items []event.TodoItem) (Reminder, bool) {
	done := 0
	var open []string
	for _, it := range items {
		if it.Status == event.TodoCompleted {
			done++
			continue
		}
		open = append(open, it.Content)
	}
	if len(items) == 0 || len(open) == 0 {
		return Reminder{}, false
	}
	var b strings.Builder
	fmt.Fprintf(&b, "The approved plan: %d of %d steps done. Not done yet:\n", done, len(items))
	for i, o := range open {
		if i == 3 {
			fmt.Fprintf(&b, "- …and %d more\n", len(open)-3)
			break
		}
		fmt.Fprintf(&b, "- %s\n", shorten(o, 120))
	}
	b.WriteString("Mark each step with TodoWrite as you finish it; if you skip or change a step, say so and why.")
	return Reminder{Kind: KindPlanSteps, Text: b.String()}, true
}

// shorten cuts s to n runes on one line.
func shorten(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
