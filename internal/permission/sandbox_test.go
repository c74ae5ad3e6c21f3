package permission

import (
	"strings"
	"testing"
)

// Which calls run in the OS sandbox, and what happens where there is none.
func TestDecideSandbox(t *testing.T) {
	fx := newFixture(t)
	bash := func(cmd string) Access { return Access{Tool: "Bash", Kind: KindExec, Command: cmd} }
	bg := func(cmd string) Access { a := bash(cmd); a.Background = true; return a }
	read := Access{Tool: "Read", Kind: KindRead, Paths: []string{fx.root + "/a.go"}}

	def := Context{Mode: ModeDefault}
	acc := Context{Mode: ModeAcceptEdits}
	byp := Context{Mode: ModeBypass}
	plan := Context{Mode: ModePlan, PlanFile: fx.plan}
	explore := Context{Mode: ModeDefault, ReadOnlyAgent: true, AgentType: "Explore"}
	exploreBypass := explore
	exploreBypass.Mode = ModeBypass

	have := SandboxPolicy{Available: true}
	none := SandboxPolicy{}
	loose := SandboxPolicy{AllowUnsandboxed: true}
	off := SandboxPolicy{Available: true, ClassifierOff: true}
	offNone := SandboxPolicy{ClassifierOff: true}
	rules := Rules{Allow: []string{"Bash(make:*)", "Bash(git diff:*)", "Bash(docker ps -a)"}, Ask: []string{"Bash(git log:*)"}, Deny: []string{"Bash(rm:*)"}}

	cases := []struct {
		name    string
		policy  SandboxPolicy
		ctx     Context
		access  Access
		want    Behavior
		sandbox bool
		reason  string
	}{
		// Default, accept-edits and bypass modes: every line judged
		// read-only is confined, whatever lets it run; a line that is not
		// runs unconfined once approved.
		{"default read-only", have, def, bash("ls -la"), Allow, true, ""},
		{"accept-edits read-only", have, acc, bash("cat go.mod"), Allow, true, ""},
		{"default writer asks, unconfined once approved", have, def, bash("touch x"), Ask, false, ""},
		{"allow rule is the user's yes", have, def, bash("make test"), Allow, false, ""},
		{"allow rule on a reader still confined", have, def, bash("git diff HEAD"), Allow, true, ""},
		{"allow rule on a reader in accept-edits still confined", have, acc, bash("git diff HEAD"), Allow, true, ""},
		{"ask rule on a reader: confined after yes", have, def, bash("git log -1"), Ask, true, ""},
		{"deny rule", have, def, bash("rm -f x"), Deny, false, ""},
		{"bypass mode confines a reader", have, byp, bash("ls"), Allow, true, ""},
		{"bypass mode confines git status", have, byp, bash("git status"), Allow, true, ""},
		{"bypass mode runs a writer unconfined", have, byp, bash("touch x"), Allow, false, ""},
		{"bypass mode runs an allowed writer unconfined", have, byp, bash("make test"), Allow, false, ""},
		{"allow rule on a writer next to a reader", have, def, bash("make test | tail -3"), Allow, false, ""},
		{"a service client judged read-only is confined", have, def, bash("docker ps"), Allow, true, ""},
		{"a service client approved runs unconfined", have, def, bash("docker ps -a"), Allow, false, ""},
		{"a service client in bypass runs unconfined", have, byp, bash("kubectl get pods"), Allow, false, ""},
		{"default read-only without a sandbox runs unconfined", none, def, bash("ls"), Allow, false, ""},
		{"reads are not execs", have, def, read, Allow, false, ""},

		// Plan mode and read-only agents: everything is confined, whatever
		// rule or answer lets it run.
		{"plan read-only", have, plan, bash("git status"), Allow, true, ""},
		{"plan allow rule still confined", have, plan, bash("git diff HEAD"), Allow, true, ""},
		{"plan ask rule still confined after yes", have, plan, bash("git log -1"), Ask, true, ""},
		{"plan writer asked, confined after yes", have, plan, bash("touch x"), Ask, true, "read-only sandbox"},
		{"plan writer refused without a sandbox", none, plan, bash("touch x"), Deny, false, "only read-only commands"},
		{"explore read-only", have, explore, bash("grep -r x ."), Allow, true, ""},
		{"explore under bypass still confined", have, exploreBypass, bash("ls"), Allow, true, ""},

		// No sandbox: plan mode and read-only agents run no commands, unless
		// the user allowed running them unconfined.
		{"plan without a sandbox", none, plan, bash("ls"), Deny, false, "sandbox.allowUnsandboxed"},
		{"explore without a sandbox", none, explore, bash("ls"), Deny, false, "No OS sandbox"},
		{"plan without a sandbox, allowed", loose, plan, bash("ls"), Allow, false, ""},
		{"plan without a sandbox, allowed, writer still refused", loose, plan, bash("touch x"), Deny, false, "Plan mode"},

		// Background commands never in plan mode or read-only agents.
		{"plan background reader", have, plan, bg("tail -f log"), Deny, false, "background"},
		{"explore background reader", have, explore, bg("ls"), Deny, false, "background"},
		{"default background reader", have, def, bg("tail -f log"), Allow, true, ""},
		{"default background writer asks", have, def, bg("npm run dev"), Ask, false, ""},

		// The classifier switch: every command counts as read-only and is
		// confined, deny rules still hold; without a sandbox it is ignored.
		{"classifier off, plan writer confined", off, plan, bash("echo x > main.go; chmod 000 main.go"), Allow, true, ""},
		{"classifier off, default writer confined", off, def, bash("touch x"), Allow, true, ""},
		{"classifier off, deny rule holds", off, def, bash("rm -rf x"), Deny, false, "rm"},
		{"classifier off without a sandbox is ignored", offNone, plan, bash("touch x"), Deny, false, ""},
		{"classifier off without a sandbox, default asks", offNone, def, bash("touch x"), Ask, false, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e, err := NewEngine(rules, fx.root, fx.home)
			if err != nil {
				t.Fatal(err)
			}
			e.SetSandbox(tc.policy)
			d := e.Decide(tc.ctx, tc.access)
			if d.Behavior != tc.want || d.Sandbox != tc.sandbox {
				t.Fatalf("Decide = %s sandbox=%v (%s: %s), want %s sandbox=%v", d.Behavior, d.Sandbox, d.Rule, d.Reason, tc.want, tc.sandbox)
			}
			if tc.reason != "" && !strings.Contains(d.Reason, tc.reason) && !strings.Contains(d.Rule, tc.reason) {
				t.Fatalf("reason %q does not mention %q", d.Reason, tc.reason)
			}
		})
	}
}

// An engine nobody told about a sandbox assumes there is none: plan mode
// then refuses commands rather than run them unconfined.
func TestEngineWithoutSandboxPolicyIsStrict(t *testing.T) {
	fx := newFixture(t)
	e, _ := NewEngine(Rules{}, fx.root, fx.home)
	d := e.Decide(Context{Mode: ModePlan, PlanFile: fx.plan}, Access{Tool: "Bash", Kind: KindExec, Command: "ls"})
	if d.Behavior != Deny {
		t.Fatalf("Decide = %s", d.Behavior)
	}
}
