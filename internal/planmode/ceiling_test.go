package planmode

import (
	"os"
	"sync/atomic"
	"testing"

	"github.com/ponder-agent/ponder/internal/permission"
)

// withCeiling gives a session a ceiling the test can move.
func withCeiling(c *atomic.Value) func(*Config) {
	return func(cfg *Config) {
		cfg.BypassAllowed = true
		cfg.Ceiling = func() permission.Mode { return c.Load().(permission.Mode) }
	}
}

// No path into a mode freer than the ceiling gets past it: the session
// gets the ceiling instead and says so; stricter modes are untouched.
func TestCeilingHoldsOnEveryPath(t *testing.T) {
	for _, via := range []Via{ViaTool, ViaApproval, ViaFlag, ViaControl, ViaTUI, ViaSlash, ViaSDK, ViaResume, ViaSettings, ViaTeam} {
		for _, to := range []permission.Mode{permission.ModeAcceptEdits, permission.ModeBypass, "yolo"} {
			var c atomic.Value
			c.Store(permission.ModeDefault)
			s, rec := newSession(t, withCeiling(&c))
			ch := s.SetMode(to, via)
			if s.Mode() != permission.ModeDefault {
				t.Errorf("via %s to %s: mode %s beyond the ceiling", via, to, s.Mode())
			}
			if !ch.Refused && (!ch.Limited || ch.Asked != to || ch.To != permission.ModeDefault) {
				t.Errorf("via %s to %s: change %+v", via, to, ch)
			}
			if k := rec.kinds(); len(k) == 0 || k[len(k)-1] != "notice" {
				t.Errorf("via %s to %s: nothing said, events %v", via, to, k)
			}
		}
	}
	var c atomic.Value
	c.Store(permission.ModeAcceptEdits)
	s, _ := newSession(t, withCeiling(&c))
	for _, to := range []permission.Mode{permission.ModePlan, permission.ModeDefault, permission.ModeAcceptEdits} {
		if ch := s.SetMode(to, ViaControl); ch.Limited || s.Mode() != to {
			t.Errorf("%s within the ceiling: %+v, mode %s", to, ch, s.Mode())
		}
	}
	// The ceiling is read at each change: lowered, it holds the next one.
	c.Store(permission.ModeDefault)
	s.SetMode(permission.ModePlan, ViaControl)
	if ch := s.SetMode(permission.ModeAcceptEdits, ViaControl); !ch.Limited || s.Mode() != permission.ModeDefault {
		t.Errorf("after lowering the ceiling: %+v, mode %s", ch, s.Mode())
	}
}

// An approval asking for a freer mode leaves plan mode for the ceiling,
// and says which mode it gave; so does a plain approval whose earlier
// mode was freer.
func TestCeilingLimitsApprovals(t *testing.T) {
	var c atomic.Value
	c.Store(permission.ModeDefault)
	s, _ := newSession(t, withCeiling(&c))
	for _, option := range []string{OptionAcceptEdits, OptionBypass, OptionApprove} {
		s.SetMode(permission.ModePlan, ViaTool)
		os.WriteFile(s.PlanFile(""), []byte("# Plan\n"), 0o644)
		a, err := s.Approve(option, nil)
		if err != nil || a.Mode != permission.ModeDefault || s.Mode() != permission.ModeDefault {
			t.Errorf("%s: approval %+v, %v, mode %s", option, a, err, s.Mode())
		}
	}
	// A ceiling of plan mode keeps the session planning.
	c.Store(permission.ModePlan)
	s.SetMode(permission.ModePlan, ViaTool)
	if _, err := s.Approve(OptionManual, nil); err == nil || s.Mode() != permission.ModePlan {
		t.Errorf("approval under a plan-mode ceiling: %v, mode %s", err, s.Mode())
	}
}

// A transcript cannot bring back a mode freer than the ceiling, neither
// as the mode nor as the one a plain approval returns to.
func TestCeilingLimitsRestore(t *testing.T) {
	var c atomic.Value
	c.Store(permission.ModeDefault)
	s, _ := newSession(t, withCeiling(&c))
	s.Restore(State{Mode: permission.ModeAcceptEdits})
	if s.Mode() != permission.ModeDefault {
		t.Fatalf("restored in %s", s.Mode())
	}
	s.Restore(State{Mode: permission.ModePlan, PrePlanMode: permission.ModeBypass})
	if st := s.State(); st.Mode != permission.ModePlan || st.PrePlanMode != permission.ModeDefault {
		t.Fatalf("restored %+v", st)
	}
}
