package permission

import (
	"strings"
	"testing"
)

// With a workspace policy, every command not judged read-only runs
// confined to it in default and accept-edits mode, whatever lets it run;
// asking to run outside the sandbox always asks, runs in bypass mode, and
// meets sandbox.required's refusal everywhere.
func TestDecideWorkspaceAndEscalation(t *testing.T) {
	fx := newFixture(t)
	bash := func(cmd string, outside bool) Access {
		return Access{Tool: "Bash", Kind: KindExec, Command: cmd, Unsandboxed: outside}
	}
	def, acc, byp := Context{Mode: ModeDefault}, Context{Mode: ModeAcceptEdits}, Context{Mode: ModeBypass}
	plan := Context{Mode: ModePlan, PlanFile: fx.plan}
	ws := SandboxPolicy{Available: true, Workspace: true}
	req := SandboxPolicy{Available: true, Workspace: true, Required: true}
	noWS := SandboxPolicy{Available: true}
	noWSReq := SandboxPolicy{Available: true, Required: true}
	rules := Rules{Allow: []string{"Bash(make:*)", "Bash(git push:*)"}}
	cases := []struct {
		name                 string
		policy               SandboxPolicy
		ctx                  Context
		access               Access
		want                 Behavior
		sandbox, workspace   bool
		suggestHas, reasonIn string
	}{
		{"allowed writer confined to the workspace", ws, def, bash("make test", false), Allow, true, true, "", ""},
		{"accept-edits too", ws, acc, bash("make test", false), Allow, true, true, "", ""},
		{"a reader stays confined to reading", ws, def, bash("ls", false), Allow, true, false, "", ""},
		{"an unapproved writer asks, then runs in the workspace", ws, def, bash("touch x", false), Ask, true, true, "", ""},
		{"bypass runs a writer unconfined", ws, byp, bash("touch x", false), Allow, false, false, "", ""},
		{"bypass under required stays in the workspace", req, byp, bash("touch x", false), Allow, true, true, "", ""},
		{"no workspace policy: today's behaviour", noWS, def, bash("make test", false), Allow, false, false, "", ""},
		{"no workspace policy under required: refused", noWSReq, def, bash("make test", false), Deny, false, false, "", "sandbox.required"},
		{"outside the sandbox asks despite an allow rule", ws, def, bash("git push origin main", true), Ask, false, false, "unsandboxed Bash(git push:*)", "outside the OS sandbox"},
		{"outside the sandbox in bypass runs", ws, byp, bash("git push origin main", true), Allow, false, false, "", ""},
		{"outside the sandbox under required is refused", req, byp, bash("git push", true), Deny, false, false, "", "sandbox.required"},
		{"outside the sandbox in plan mode is refused", ws, plan, bash("ls", true), Deny, false, false, "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e, err := NewEngine(rules, fx.root, fx.home)
			if err != nil {
				t.Fatal(err)
			}
			e.SetSandbox(tc.policy)
			d := e.Decide(tc.ctx, tc.access)
			if d.Behavior != tc.want || d.Sandbox != tc.sandbox || d.Workspace != tc.workspace {
				t.Errorf("got %v sandbox=%v workspace=%v (%s), want %v %v %v", d.Behavior, d.Sandbox, d.Workspace, d.Reason, tc.want, tc.sandbox, tc.workspace)
			}
			if tc.suggestHas != "" && d.Suggest != tc.suggestHas {
				t.Errorf("suggest %q, want %q", d.Suggest, tc.suggestHas)
			}
			if tc.reasonIn != "" && !strings.Contains(d.Reason, tc.reasonIn) {
				t.Errorf("reason %q lacks %q", d.Reason, tc.reasonIn)
			}
		})
	}
}

// A yes for a command prefix outside the sandbox spares the question for
// that prefix only, and no rule for the whole shell is taken.
func TestUnsandboxedSessionGrant(t *testing.T) {
	fx := newFixture(t)
	e, _ := NewEngine(Rules{Allow: []string{"Bash(git push:*)", "Bash(make:*)"}}, fx.root, fx.home)
	e.SetSandbox(SandboxPolicy{Available: true, Workspace: true})
	def := Context{Mode: ModeDefault}
	if err := e.AddUnsandboxed("unsandboxed Bash(git push:*)"); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"unsandboxed Bash", "unsandboxed Bash(*)", "unsandboxed Read(x)"} {
		if err := e.AddUnsandboxed(bad); err == nil {
			t.Errorf("%q was taken", bad)
		}
	}
	if d := e.Decide(def, Access{Tool: "Bash", Kind: KindExec, Command: "git push origin main", Unsandboxed: true}); d.Behavior != Allow || d.Sandbox {
		t.Errorf("granted prefix: %v sandbox=%v", d.Behavior, d.Sandbox)
	}
	if d := e.Decide(def, Access{Tool: "Bash", Kind: KindExec, Command: "make install", Unsandboxed: true}); d.Behavior != Ask {
		t.Errorf("another prefix: %v", d.Behavior)
	}
	if d := e.Decide(def, Access{Tool: "Bash", Kind: KindExec, Command: "git push origin main && make install", Unsandboxed: true}); d.Behavior != Ask {
		t.Errorf("a line adding another command: %v", d.Behavior)
	}
}
