package planmode

import (
	"testing"

	"github.com/ponder-agent/ponder/internal/permission"
)

// No path into bypassPermissions gets past the transition's guard unless
// the command line allowed it.
func TestBypassGuardHoldsOnEveryPath(t *testing.T) {
	for _, via := range []Via{ViaTool, ViaApproval, ViaFlag, ViaControl, ViaTUI, ViaSlash, ViaSDK, ViaResume} {
		s, rec := newSession(t)
		s.SetMode(permission.ModeAcceptEdits, ViaTUI)
		ch := s.SetMode(permission.ModeBypass, via)
		if !ch.Refused || ch.To != permission.ModeAcceptEdits || s.Mode() != permission.ModeAcceptEdits {
			t.Errorf("via %s: %+v, mode %s", via, ch, s.Mode())
		}
		if k := rec.kinds(); k[len(k)-1] != "notice" {
			t.Errorf("via %s: no notice, events %v", via, k)
		}
		allowed, _ := newSession(t, func(c *Config) { c.BypassAllowed = true })
		if ch := allowed.SetMode(permission.ModeBypass, via); ch.Refused || allowed.Mode() != permission.ModeBypass {
			t.Errorf("via %s with bypass allowed: %+v", via, ch)
		}
	}
}

func TestRestoredBypassNeedsThisRunsPermission(t *testing.T) {
	s, _ := newSession(t)
	s.Restore(State{Mode: permission.ModeBypass})
	if s.Mode() != permission.ModeDefault {
		t.Fatalf("resumed in %s", s.Mode())
	}
	// Planning that began in bypass returns to default on approval.
	s.Restore(State{Mode: permission.ModePlan, PrePlanMode: permission.ModeBypass})
	a, err := s.Approve(OptionApprove, nil)
	if err != nil || a.Mode != permission.ModeDefault || s.Mode() != permission.ModeDefault {
		t.Fatalf("approval: %+v %v, mode %s", a, err, s.Mode())
	}
	allowed, _ := newSession(t, func(c *Config) { c.BypassAllowed = true })
	allowed.Restore(State{Mode: permission.ModeBypass})
	if allowed.Mode() != permission.ModeBypass {
		t.Fatalf("allowed: %s", allowed.Mode())
	}
}
