package planmode

import (
	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/permission"
)

// Phase is a step of the planning workflow.
type Phase string

// The planning phases, in workflow order.
const (
	PhaseExplore  Phase = "explore"
	PhaseDesign   Phase = "design"
	PhaseReview   Phase = "review"
	PhaseFinalize Phase = "finalize"
	PhaseExit     Phase = "exit"
)

// Phase returns the planning phase, or "" outside plan mode.
func (s *Session) Phase() Phase {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.st.Phase
}

// Observe updates the planning phase from a tool call the main agent made
// in plan mode: launching Explore agents is exploring, launching Plan
// agents is designing, asking the user or reading after a design is
// reviewing, writing the plan file is finalising, and ExitPlanMode is the
// exit. It emits PlanPhase when the phase changes.
func (s *Session) Observe(a permission.Access) {
	s.mu.Lock()
	if s.st.Mode != permission.ModePlan {
		s.mu.Unlock()
		return
	}
	cur := s.st.Phase
	next := cur
	switch {
	case a.Tool == "ExitPlanMode":
		next = PhaseExit
	case a.Kind == permission.KindAgent && a.Target == "Plan":
		next = PhaseDesign
	case a.Kind == permission.KindAgent:
		if cur == "" || cur == PhaseExplore {
			next = PhaseExplore
		}
	case a.Tool == "AskUserQuestion":
		next = PhaseReview
	case a.Kind == permission.KindWrite:
		next = PhaseFinalize
	case a.Kind == permission.KindRead && cur == PhaseDesign:
		next = PhaseReview
	}
	if next == cur {
		s.mu.Unlock()
		return
	}
	s.st.Phase = next
	s.changed()
	emit := s.emit
	s.mu.Unlock()
	emit(event.PlanPhase{Phase: string(next)})
}
