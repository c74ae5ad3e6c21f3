package tui

import (
	"fmt"
	"strings"

	"github.com/ponder-agent/ponder/event"
)

// The approved plan's steps are the todo list: this file is how the
// status area and the approval's notice speak of them.

// currentStep names the step under way in a todo list (the first in
// progress, else the first not done), for the status area's header;
// "" when every item is done.
func currentStep(items []event.TodoItem) string {
	for _, want := range []event.TodoStatus{event.TodoInProgress, event.TodoPending} {
		for i, it := range items {
			if it.Status == want {
				return fmt.Sprintf(" · step %d: %s", i+1, oneLine(it.Content, 60))
			}
		}
	}
	return ""
}

// stepsNotice says what the approval made of the plan's steps and files.
func stepsNotice(e event.PlanApproved) string {
	s := fmt.Sprintf(" Its %d steps are the todo list.", len(e.Steps))
	if n := len(e.Files) + len(e.Dirs); n > 0 {
		s += " It names " + strings.Join(append(append([]string(nil), e.Files...), e.Dirs...), ", ") + "."
	}
	return s
}

// oneLine cuts s to n runes on one line.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// reportNotice shows a conformance report: the summary, then each step
// that was not done and each file out of line.
func reportNotice(r event.PlanReport) string {
	var b strings.Builder
	b.WriteString("Plan check: " + r.Summary)
	for i, s := range r.Steps {
		if s.Status != event.StepDone {
			fmt.Fprintf(&b, "\n  step %d %s: %s", i+1, s.Status, oneLine(s.Step, 70))
		}
	}
	for _, f := range r.Unplanned {
		b.WriteString("\n  not in the plan: " + f)
	}
	for _, f := range r.Untouched {
		b.WriteString("\n  planned, not touched: " + f)
	}
	if r.ReportFile != "" {
		b.WriteString("\n  report: " + r.ReportFile)
	}
	return b.String()
}
