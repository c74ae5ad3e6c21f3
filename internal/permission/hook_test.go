package permission

import (
	"path/filepath"
	"testing"
)

// A hook is one voice among the rules: it may refuse or ask, and spare a
// question, but a deny rule, plan mode and read-only agents hold whatever
// it says.
func TestHookRulings(t *testing.T) {
	fx := newFixture(t)
	e, err := NewEngine(Rules{Deny: []string{"Bash(rm:*)", "Read(.env)"}, Ask: []string{"Write(/src/asked.go)"}}, fx.root, fx.home)
	if err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(fx.root, "src", "main.go")
	write := Access{Tool: "Write", Kind: KindWrite, Paths: []string{src}}
	asked := Access{Tool: "Write", Kind: KindWrite, Paths: []string{filepath.Join(fx.root, "src", "asked.go")}}
	read := Access{Tool: "Read", Kind: KindRead, Paths: []string{src}}
	env := Access{Tool: "Read", Kind: KindRead, Paths: []string{filepath.Join(fx.root, ".env")}}
	rm := Access{Tool: "Bash", Kind: KindExec, Command: "rm -rf src"}
	touch := Access{Tool: "Bash", Kind: KindExec, Command: "touch src/x"}
	allow := HookRuling{Behavior: Allow, Reason: "host says yes"}
	for _, tc := range []struct {
		name string
		mode Mode
		hook HookRuling
		a    Access
		want Behavior
	}{
		{"allow spares the question of a write", ModeDefault, allow, write, Allow},
		{"allow spares the question of a command", ModeDefault, allow, touch, Allow},
		{"allow does not lift plan mode for a write", ModePlan, allow, write, Deny},
		{"allow does not lift plan mode for a command", ModePlan, allow, touch, Deny},
		{"allow does not lift a deny rule", ModeBypass, allow, rm, Deny},
		{"allow does not lift a deny rule for files", ModeDefault, allow, env, Deny},
		{"allow does not lift an ask rule", ModeAcceptEdits, allow, asked, Ask},
		{"deny refuses a read", ModeDefault, HookRuling{Behavior: Deny, Reason: "not today"}, read, Deny},
		{"deny refuses in bypass mode", ModeBypass, HookRuling{Behavior: Deny}, write, Deny},
		{"ask makes a read ask", ModeDefault, HookRuling{Behavior: Ask}, read, Ask},
		{"no ruling leaves the mode's default", ModeDefault, HookRuling{}, write, Ask},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := e.Decide(Context{Mode: tc.mode, PlanFile: fx.plan, Hook: tc.hook}, tc.a)
			if d.Behavior != tc.want {
				t.Errorf("got %v (%s: %s), want %v", d.Behavior, d.Rule, d.Reason, tc.want)
			}
			if tc.hook.Behavior == Deny && d.Rule != "hook" {
				t.Errorf("a hook's refusal names rule %q, want hook", d.Rule)
			}
		})
	}
}
