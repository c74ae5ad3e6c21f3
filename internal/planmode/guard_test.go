package planmode

import (
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/internal/permission"
)

// No path into bypassPermissions gets past the transition's guard unless
// the command line allowed it.
func TestBypassGuardHoldsOnEveryPath(t *testing.T) {
	for _, via := range []Via{ViaTool, ViaApproval, ViaFlag, ViaControl, ViaTUI, ViaSlash, ViaSDK, ViaResume, ViaSettings} {
		s, rec := newSession(t)
		s.SetMode(permission.ModeAcceptEdits, ViaTUI)
		ch := s.SetMode(permission.ModeBypass, via)
		if !ch.Refused || ch.To != permission.ModeAcceptEdits || s.Mode() != permission.ModeAcceptEdits {
			t.Errorf("via %s: %+v, mode %s", via, ch, s.Mode())
		}
		if k := rec.kinds(); k[len(k)-1] != "notice" {
			t.Errorf("via %s: no notice, events %v", via, k)
		}
		// A settings file never turns bypass on, even where the command
		// line allows it: a repository's settings could say anything.
		allowed, _ := newSession(t, func(c *Config) { c.BypassAllowed = true })
		fromSettings := via == ViaSettings
		if ch := allowed.SetMode(permission.ModeBypass, via); ch.Refused != fromSettings || (allowed.Mode() == permission.ModeBypass) == fromSettings {
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
	// A transcript naming no mode at all resumes in default mode.
	s.Restore(State{Mode: "yolo", PrePlanMode: "whatever"})
	if st := s.State(); st.Mode != permission.ModeDefault || st.PrePlanMode != permission.ModeDefault {
		t.Fatalf("unknown modes restored as %+v", st)
	}
	if ch := s.SetMode("yolo", ViaControl); !ch.Refused || s.Mode() != permission.ModeDefault {
		t.Fatalf("a mode that is none: %+v", ch)
	}
}

// Every approval option comes from one table: the dialog's options, the
// ids flags accept, and what Approve does with each.
func TestApprovalOptionsTable(t *testing.T) {
	s, _ := newSession(t)
	var shown []string
	for _, o := range s.Options() {
		shown = append(shown, o.ID)
	}
	if strings.Join(shown, " ") != "accept-edits manual clear-context reject" {
		t.Fatalf("dialog options %v", shown)
	}
	if ids := strings.Join(OptionIDs(true), " "); ids != "accept-edits manual clear-context bypass approve-stop approve" {
		t.Fatalf("approving options %s", ids)
	}
	for _, id := range OptionIDs(false) {
		if _, ok := LookupOption(id); !ok {
			t.Errorf("%s is not in the table", id)
		}
	}
	if _, ok := LookupOption("yes"); ok {
		t.Error("an option that is none was found")
	}
	s.SetMode(permission.ModePlan, ViaTool)
	if _, err := s.Approve(OptionReject, nil); err == nil || s.Mode() != permission.ModePlan {
		t.Fatalf("Approve took a rejection: %v, mode %s", err, s.Mode())
	}
}

// Plan mode's defaults live here alone: settings that say nothing leave
// the fields zero, and these apply.
func TestDefaults(t *testing.T) {
	s, _ := newSession(t)
	c := s.Config()
	if c.ReminderTurns != 5 || c.FullReminderEvery != 5 || c.ExploreAgents != 3 || c.PlanAgents != 1 || c.Variant != "full" || c.FileNaming != "words" {
		t.Fatalf("defaults %+v", c)
	}
}
