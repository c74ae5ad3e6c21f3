package app

import "testing"

// A teammate never gets a mode that lets through more than the lead's.
func TestTeammateModeStaysWithinTheLeads(t *testing.T) {
	cases := []struct {
		lead, mate string
		ok         bool
	}{
		{"default", "acceptEdits", false},
		{"default", "default", true},
		{"default", "", true},
		{"default", "plan", true},
		{"plan", "default", false},
		{"acceptEdits", "acceptEdits", true},
		{"bypassPermissions", "acceptEdits", true},
	}
	for _, c := range cases {
		if err := withinLeadMode(c.lead, c.mate); (err == nil) != c.ok {
			t.Errorf("lead %s, teammate %s: %v", c.lead, c.mate, err)
		}
	}
}
