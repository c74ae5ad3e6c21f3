package permission

import (
	"slices"
	"strings"
	"testing"
)

// In plan mode a line the classifier cannot prove read-only is asked
// about, to run in the sandbox; every way it may run keeps it confined.
func TestPlanAsksToRunConfined(t *testing.T) {
	fx := newFixture(t)
	bash := func(cmd string) Access { return Access{Tool: "Bash", Kind: KindExec, Command: cmd} }
	plan := Context{Mode: ModePlan, PlanFile: fx.plan}
	def := Context{Mode: ModeDefault}
	rules := Rules{
		Allow: []string{"Bash(git commit:*)"},
		Deny:  []string{"Bash(rm:*)"},
		Sets:  []RuleSet{{Source: SourceUser, File: "settings.json", Modes: []Mode{ModePlan}, Allow: []string{"Bash(gh issue view:*)", "Bash(sed -i:*)"}}},
	}
	e, err := NewEngine(rules, fx.root, fx.home)
	if err != nil {
		t.Fatal(err)
	}
	e.SetSandbox(SandboxPolicy{Available: true})

	for _, tc := range []struct {
		name    string
		ctx     Context
		cmd     string
		want    Behavior
		sandbox bool
	}{
		{"a writer is asked, confined", plan, "touch x", Ask, true},
		{"sed -i is asked unless a plan rule allows it", plan, "sed -i s/a/b/ f", Allow, true},
		{"git commit: a rule for every mode does not lift the limit", plan, "git commit -m x", Ask, true},
		{"a plan rule lets its command run confined", plan, "gh issue view 3", Allow, true},
		{"a plan rule does not count in default mode", def, "gh issue view 3", Ask, false},
		{"a deny rule still refuses", plan, "rm -f x", Deny, false},
		{"a reader runs as before", plan, "ls", Allow, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := e.Decide(tc.ctx, bash(tc.cmd))
			if d.Behavior != tc.want || d.Sandbox != tc.sandbox {
				t.Fatalf("Decide(%q) = %s sandbox=%v (%s: %s), want %s sandbox=%v", tc.cmd, d.Behavior, d.Sandbox, d.Rule, d.Reason, tc.want, tc.sandbox)
			}
		})
	}

	// The question says where it runs and how to allow it; its "don't
	// ask again" is for plan mode alone.
	d := e.Decide(plan, bash("touch x"))
	if !strings.Contains(d.Reason, "read-only sandbox") || !strings.Contains(d.Reason, "planMode.commands") {
		t.Fatalf("reason %q", d.Reason)
	}
	if d.Suggest == "" || !slices.Equal(d.SuggestModes, []Mode{ModePlan}) {
		t.Fatalf("suggest %q for %v", d.Suggest, d.SuggestModes)
	}
	if err := e.AddAllowIn(d.Suggest, d.SuggestModes...); err != nil {
		t.Fatal(err)
	}
	if d := e.Decide(plan, bash("touch x")); d.Behavior != Allow || !d.Sandbox {
		t.Fatalf("after yes for the prefix: %s sandbox=%v", d.Behavior, d.Sandbox)
	}
	if d := e.Decide(def, bash("touch x")); d.Behavior != Ask {
		t.Fatalf("a plan-mode yes counted in default mode: %s (%s)", d.Behavior, d.Rule)
	}
}

// Where the limit cannot be kept by the sandbox, it refuses as before.
func TestPlanRefusesWhatCannotRunConfined(t *testing.T) {
	fx := newFixture(t)
	plan := Context{Mode: ModePlan, PlanFile: fx.plan}
	explorePlan := Context{Mode: ModePlan, ReadOnlyAgent: true, AgentType: "Explore"}
	rules := Rules{Sets: []RuleSet{{Source: SourceUser, Modes: []Mode{ModePlan}, Allow: []string{"Bash(touch:*)"}}}}
	for _, tc := range []struct {
		name   string
		policy SandboxPolicy
		ctx    Context
		access Access
	}{
		{"no sandbox", SandboxPolicy{}, plan, Access{Tool: "Bash", Kind: KindExec, Command: "touch x"}},
		{"no sandbox, unsandboxed readers allowed", SandboxPolicy{AllowUnsandboxed: true}, plan, Access{Tool: "Bash", Kind: KindExec, Command: "touch x"}},
		{"background", SandboxPolicy{Available: true}, plan, Access{Tool: "Bash", Kind: KindExec, Command: "touch x", Background: true}},
		{"read-only agent", SandboxPolicy{Available: true}, explorePlan, Access{Tool: "Bash", Kind: KindExec, Command: "touch x"}},
		{"a file tool", SandboxPolicy{Available: true}, plan, Access{Tool: "Write", Kind: KindWrite, Paths: []string{fx.root + "/x"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, err := NewEngine(rules, fx.root, fx.home)
			if err != nil {
				t.Fatal(err)
			}
			e.SetSandbox(tc.policy)
			if d := e.Decide(tc.ctx, tc.access); d.Behavior != Deny {
				t.Fatalf("Decide = %s (%s: %s), want deny", d.Behavior, d.Rule, d.Reason)
			}
		})
	}
}

// A rule set scoped to modes may only allow, and names real modes.
func TestModeRuleSetsOnlyAllow(t *testing.T) {
	fx := newFixture(t)
	for _, tc := range []struct {
		set  RuleSet
		want string
	}{
		{RuleSet{Source: SourceUser, File: "/u/settings.json", Modes: []Mode{ModePlan}, Deny: []string{"Bash(rm:*)"}}, "can only allow"},
		{RuleSet{Source: SourceUser, File: "/u/settings.json", Modes: []Mode{ModePlan}, Ask: []string{"Bash(rm:*)"}}, "can only allow"},
		{RuleSet{Source: SourceUser, File: "/u/settings.json", Modes: []Mode{"planning"}, Allow: []string{"Bash(ls:*)"}}, "planning"},
		{RuleSet{Source: SourceUser, File: "/u/settings.json", Modes: []Mode{ModePlan}, Allow: []string{"Bash(ls"}}, "/u/settings.json"},
	} {
		_, err := NewEngine(Rules{Sets: []RuleSet{tc.set}}, fx.root, fx.home)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want one mentioning %q", tc.set, err, tc.want)
		}
	}
}

// A yes to run a line confined opens no network port unless WebFetch
// rules allow what it fetches.
func TestPlanConfinedLineGetsNoNetworkUnlessAllowed(t *testing.T) {
	fx := newFixture(t)
	plan := Context{Mode: ModePlan, PlanFile: fx.plan}
	post := Access{Tool: "Bash", Kind: KindExec, Command: "curl -o page.html https://example.com/in"}
	for _, tc := range []struct {
		name  string
		rules Rules
		ports bool
	}{
		{"no rule", Rules{}, false},
		{"a WebFetch rule for the host", Rules{Allow: []string{"WebFetch(domain:example.com)"}}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, err := NewEngine(tc.rules, fx.root, fx.home)
			if err != nil {
				t.Fatal(err)
			}
			e.SetSandbox(SandboxPolicy{Available: true})
			d := e.Decide(plan, post)
			if d.Behavior != Ask || !d.Sandbox {
				t.Fatalf("Decide = %s sandbox=%v (%s: %s)", d.Behavior, d.Sandbox, d.Rule, d.Reason)
			}
			if got := len(d.Ports) > 0; got != tc.ports {
				t.Fatalf("ports %v, want some: %v", d.Ports, tc.ports)
			}
		})
	}
}
