package permission

import "testing"

// Modes are ordered by what they let through; a name that is no mode is
// never within a limit.
func TestModeWithin(t *testing.T) {
	cases := []struct{ m, limit, want Mode }{
		{ModeAcceptEdits, ModeDefault, ModeDefault},
		{ModeBypass, ModeAcceptEdits, ModeAcceptEdits},
		{ModeDefault, ModePlan, ModePlan},
		{ModePlan, ModeDefault, ModePlan},
		{ModeDefault, ModeAcceptEdits, ModeDefault},
		{ModeAcceptEdits, ModeBypass, ModeAcceptEdits},
		{"yolo", ModeAcceptEdits, ModeAcceptEdits},
		{"", ModeDefault, ModeDefault},
	}
	for _, c := range cases {
		if got := c.m.Within(c.limit); got != c.want {
			t.Errorf("%q within %q = %q; want %q", c.m, c.limit, got, c.want)
		}
	}
}
