package planmode

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/textdiff"
)

// This file is what a user says back about a plan besides yes or no:
// comments on its lines, an edited plan, the permissions an approval
// grants and the model that implements it; and what changed in a plan
// since the user last sent it back.

// Feedback is a plan sent back: the user's words, comments anchored to
// lines of the plan, and an edited plan.
type Feedback struct {
	Text string
	// Edited, when not nil, replaces the plan file.
	Edited *string
	// Annotations refer to the lines of the plan as the answer leaves it
	// (the edited plan when there is one).
	Annotations []event.Annotation
	// Interrupted marks a request nobody answered.
	Interrupted bool
}

// SendBack records that the plan was sent back with fb: an edited plan is
// saved, plan mode stays on with all its limits, and the plan as it now
// stands is remembered so the next approval shows what changed. It
// returns what the model is told: the comments with the lines they are
// about, and what the user changed in an edited plan.
func (s *Session) SendBack(fb Feedback) (string, error) {
	path := s.PlanFile("")
	before, _ := s.ReadPlan("")
	if fb.Edited != nil {
		if err := s.WritePlan("", *fb.Edited); err != nil {
			return "", fmt.Errorf("saving the edited plan to %s: %w", path, err)
		}
	}
	now, _ := s.ReadPlan("")
	if !fb.Interrupted {
		s.mu.Lock()
		s.st.SentBack = now
		s.changed()
		s.mu.Unlock()
	}
	s.emitEvent(event.PlanRejected{Feedback: fb.Text, PlanFile: path, Interrupted: fb.Interrupted, Annotations: fb.Annotations})
	edit := ""
	if fb.Edited != nil {
		edit = textdiff.Unified("plan as you wrote it", "plan as the user left it", before, now, 2)
	}
	return RejectedWithComments(fb.Text, now, fb.Annotations, edit, fb.Edited != nil), nil
}

// Reject records that the plan was sent back with feedback and an edited
// plan, without comments on lines.
func (s *Session) Reject(feedback string, edited *string, interrupted bool) error {
	_, err := s.SendBack(Feedback{Text: feedback, Edited: edited, Interrupted: interrupted})
	return err
}

// Revision says how plan differs from the version the user last sent
// back: that version, and the 1-based lines of plan that are new since.
// Both are empty when the plan was never sent back or did not change.
func (s *Session) Revision(plan string) (previous string, changed []int) {
	prev := s.State().SentBack
	if prev == "" || prev == plan {
		return "", nil
	}
	return prev, textdiff.NewLines(prev, plan)
}

// CheckAnnotations returns nil when every annotation names a line of plan
// and says something.
func CheckAnnotations(plan string, notes []event.Annotation) error {
	n := len(textdiff.Lines(plan))
	for _, a := range notes {
		if a.Line < 1 || a.Line > n {
			return fmt.Errorf("annotation on line %d: the plan has %d lines", a.Line, n)
		}
		if strings.TrimSpace(a.Comment) == "" {
			return fmt.Errorf("annotation on line %d has no comment", a.Line)
		}
	}
	return nil
}

// RejectedWithComments is what the model is told of a plan sent back:
// the user's comments, each under the line of plan it is about (quoted,
// so the model need not count lines), what the user changed in an edited
// plan (a unified diff, "" for none), and the user's words.
func RejectedWithComments(feedback, plan string, notes []event.Annotation, editDiff string, edited bool) string {
	var b strings.Builder
	b.WriteString("The user did not approve the plan and wants you to keep planning. Plan mode is still on.")
	if edited {
		b.WriteString(" The user edited the plan file; read it again before changing it.")
	}
	if len(notes) > 0 {
		b.WriteString("\n\nThe user's comments on lines of the plan:\n")
		b.WriteString(quotedComments(plan, notes, "Comment"))
	}
	if strings.TrimSpace(editDiff) != "" {
		b.WriteString("\n\nWhat the user changed in the plan:\n```diff\n")
		b.WriteString(editDiff)
		b.WriteString("```")
	}
	if f := strings.TrimSpace(feedback); f != "" {
		b.WriteString("\n\nThe user's feedback:\n")
		b.WriteString(f)
	}
	b.WriteString("\n\nRevise the plan file accordingly, then call ExitPlanMode again.")
	return b.String()
}

// approvalNotes is what the implementing model is told of the comments
// the user approved the plan with: each under the line it is about.
func approvalNotes(plan string, notes []event.Annotation) string {
	if len(notes) == 0 {
		return ""
	}
	return "\n\nThe user approved the plan with these notes on its lines; follow them where they differ from the plan:\n" +
		quotedComments(plan, notes, "Note")
}

// quotedComments lists comments in line order, each under the line of
// plan it is about (quoted, so the model need not count lines).
func quotedComments(plan string, notes []event.Annotation, label string) string {
	var b strings.Builder
	lines := textdiff.Lines(plan)
	sorted := slices.Clone(notes)
	slices.SortStableFunc(sorted, func(x, y event.Annotation) int { return x.Line - y.Line })
	for _, a := range sorted {
		quoted := "(no such line)"
		if a.Line >= 1 && a.Line <= len(lines) {
			quoted = "> " + lines[a.Line-1]
		}
		fmt.Fprintf(&b, "\nLine %d:\n%s\n%s: %s\n", a.Line, quoted, label, indentRest(strings.TrimSpace(a.Comment)))
	}
	return b.String()
}

// indentRest indents every line of s after the first, so a comment of
// several lines stays one item.
func indentRest(s string) string {
	return strings.ReplaceAll(s, "\n", "\n  ")
}
