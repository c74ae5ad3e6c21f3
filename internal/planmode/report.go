package planmode

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ponder-agent/ponder/event"
)

// Work is what an implementation did, as ponder saw it: the todo list as
// it stands, the files ponder's tools changed (from the checkpoints), and
// the commands that ran outside the sandbox, whose changes ponder cannot
// see.
type Work struct {
	Todos    []event.TodoItem
	Changed  []string
	Commands []string
}

// Check compares an implementation with its approved plan: each step
// done, skipped (still open on the todo list) or changed (no longer on
// it: the model rewrote or dropped it); files changed that the plan did
// not name; planned files nothing touched; the commands whose changes
// are unknown. root resolves the plan's relative paths.
func Check(c Carried, w Work, root string) event.PlanReport {
	r := event.PlanReport{PlanFile: c.PlanFile, Title: c.Title, Commands: w.Commands}
	byContent := map[string]event.TodoStatus{}
	for _, it := range w.Todos {
		byContent[strings.TrimSpace(it.Content)] = it.Status
	}
	tracked := !slices.Equal(w.Todos, c.StepItems())
	for _, st := range c.Steps {
		s := event.StepCheck{Step: st}
		switch status, ok := byContent[strings.TrimSpace(st)]; {
		case !tracked:
			s.Status = event.StepUntracked
		case !ok:
			s.Status = event.StepChanged
		case status == event.TodoCompleted:
			s.Status = event.StepDone
		default:
			s.Status = event.StepSkipped
		}
		r.Steps = append(r.Steps, s)
	}
	abs := func(p string) string {
		if !filepath.IsAbs(p) {
			p = filepath.Join(root, p)
		}
		return realish(filepath.Clean(p))
	}
	root = realish(root)
	inPlan := func(p string) bool {
		for _, f := range c.Files {
			if abs(f) == p {
				return true
			}
		}
		for _, d := range c.Dirs {
			if rel, err := filepath.Rel(abs(d), p); err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
				return true
			}
		}
		return false
	}
	changed := map[string]bool{}
	for _, p := range w.Changed {
		p = abs(p)
		if changed[p] {
			continue
		}
		changed[p] = true
		if len(c.Files)+len(c.Dirs) > 0 && !inPlan(p) {
			// A plan that names no file cannot be held to its files.
			r.Unplanned = append(r.Unplanned, rel(root, p))
		}
	}
	for _, f := range c.Files {
		if !changed[abs(f)] {
			r.Untouched = append(r.Untouched, f)
		}
	}
	slices.Sort(r.Unplanned)
	r.Summary = summary(r)
	return r
}

// rel shows p relative to root when it is inside.
func rel(root, p string) string {
	if r, err := filepath.Rel(root, p); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return p
}

// Drift reports whether an implementation departed from its plan.
func Drift(r event.PlanReport) bool {
	for _, s := range r.Steps {
		if s.Status == event.StepSkipped || s.Status == event.StepChanged {
			return true
		}
	}
	return len(r.Unplanned)+len(r.Untouched) > 0
}

// summary says in a sentence or two how the implementation went, and
// what to do next.
func summary(r event.PlanReport) string {
	done := 0
	for _, s := range r.Steps {
		if s.Status == event.StepDone {
			done++
		}
	}
	var b strings.Builder
	if len(r.Steps) > 0 && r.Steps[0].Status == event.StepUntracked {
		fmt.Fprintf(&b, "The todo list was not updated, so the %d steps are unchecked.", len(r.Steps))
	} else if len(r.Steps) > 0 {
		fmt.Fprintf(&b, "%d of %d steps done.", done, len(r.Steps))
	} else {
		b.WriteString("The plan has no numbered steps to check.")
	}
	if len(r.Unplanned) > 0 {
		fmt.Fprintf(&b, " %d file(s) changed outside the plan.", len(r.Unplanned))
	}
	if len(r.Untouched) > 0 {
		fmt.Fprintf(&b, " %d planned file(s) not touched.", len(r.Untouched))
	}
	if len(r.Commands) > 0 {
		fmt.Fprintf(&b, " %d command(s) ran outside the sandbox; what they changed is unknown.", len(r.Commands))
	}
	if Drift(r) {
		b.WriteString(" Next: finish or drop the open steps, and review the files outside the plan.")
	} else {
		b.WriteString(" The implementation follows the plan.")
	}
	return b.String()
}

// ReportMarkdown renders a report for the file next to the plan and for
// `ponder plans check`.
func ReportMarkdown(r event.PlanReport) string {
	var b strings.Builder
	title := r.Title
	if title == "" {
		title = filepath.Base(r.PlanFile)
	}
	fmt.Fprintf(&b, "# Conformance: %s\n\n%s\n", title, r.Summary)
	if len(r.Steps) > 0 {
		b.WriteString("\n## Steps\n\n")
		for i, s := range r.Steps {
			fmt.Fprintf(&b, "%d. [%s] %s\n", i+1, s.Status, s.Step)
		}
	}
	list := func(head string, items []string) {
		if len(items) == 0 {
			return
		}
		fmt.Fprintf(&b, "\n## %s\n\n", head)
		for _, it := range items {
			fmt.Fprintf(&b, "- %s\n", it)
		}
	}
	list("Changed, not in the plan", r.Unplanned)
	list("In the plan, never touched", r.Untouched)
	list("Commands whose changes are unknown", r.Commands)
	return b.String()
}

// DriftPrompt is what the model reads when it would end the
// implementation while it departs from the plan: once, so it can finish
// the work or say why not.
func DriftPrompt(r event.PlanReport) string {
	var b strings.Builder
	b.WriteString("Before you finish: the implementation departs from the approved plan.\n")
	for i, s := range r.Steps {
		if s.Status == event.StepSkipped || s.Status == event.StepChanged {
			fmt.Fprintf(&b, "- Step %d is %s: %s\n", i+1, map[event.StepStatus]string{event.StepSkipped: "not done", event.StepChanged: "no longer on your todo list"}[s.Status], shorten(s.Step, 120))
		}
	}
	for _, f := range r.Unplanned {
		fmt.Fprintf(&b, "- %s was changed but is not in the plan\n", f)
	}
	for _, f := range r.Untouched {
		fmt.Fprintf(&b, "- %s is in the plan but was not changed\n", f)
	}
	b.WriteString("Finish what is missing (marking steps with TodoWrite), or tell the user which steps you skipped or changed and why. Then end your turn.")
	return b.String()
}

// ReportPath is where the report of the plan at planFile is written:
// next to it, named after it.
func ReportPath(planFile string) string {
	return strings.TrimSuffix(planFile, ".md") + ".report.txt"
}

// realish resolves the links of p, or of its directory when p itself
// does not exist (a file the implementation removed or never made), so
// planned paths compare with the checkpoints' real paths.
func realish(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	if d, err := filepath.EvalSymlinks(filepath.Dir(p)); err == nil {
		return filepath.Join(d, filepath.Base(p))
	}
	return p
}
