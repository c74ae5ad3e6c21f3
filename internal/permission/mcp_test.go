package permission

import (
	"strings"
	"testing"
)

func TestMCPRuleNames(t *testing.T) {
	cases := []struct {
		rule, tool string
		want       bool
	}{
		{"mcp__github", "mcp__github__create_pr", true},
		{"mcp__github__*", "mcp__github__create_pr", true},
		{"mcp__github__create_*", "mcp__github__create_pr", true},
		{"mcp__github__list_*", "mcp__github__create_pr", false},
		{"mcp__github", "mcp__github2__create_pr", false},
		{"mcp__github__*", "mcp__github2__x", false},
		{"mcp__git", "mcp__github__x", false},
		// A tool's own name may hold "__"; the server is before the first.
		{"mcp__a__b", "mcp__a__b__c", false},
		{"mcp__a", "mcp__a__b__c", true},
		{"mcp__a__b__*", "mcp__a__b__c", true},
		{"mcp__*", "mcp__github__x", false},
		{"mcp__g*b__x", "mcp__github__x", false},
		{"mcp__github__cre*te", "mcp__github__create", false},
		{"Read", "mcp__github__x", false},
		{"mcp__github", "Read", false},
	}
	for _, c := range cases {
		got := applies(Rule{Tool: c.rule}, Access{Tool: c.tool, Kind: KindExternal})
		if got != c.want {
			t.Errorf("rule %s on %s: %v, want %v", c.rule, c.tool, got, c.want)
		}
	}
}

// An MCP tool that is not marked read-only is not offered in plan mode or
// to a read-only agent, and a call of it is refused there whatever allow
// rule or mode; elsewhere it asks unless a rule allows it. A read-only
// one is offered everywhere and still meets the deny rules.
func TestMCPToolsInEveryMode(t *testing.T) {
	root := t.TempDir()
	writer := Access{Tool: "mcp__demo__stamp", Kind: KindExternal}
	reader := Access{Tool: "mcp__demo__lookup", Kind: KindExternal, ReadOnly: true}
	cases := []struct {
		name        string
		allow, deny []string
		c           Context
		a           Access
		offered     bool
		want        Behavior
	}{
		{"writer asks in default", nil, nil, Context{Mode: ModeDefault}, writer, true, Ask},
		{"writer asks in acceptEdits", nil, nil, Context{Mode: ModeAcceptEdits}, writer, true, Ask},
		{"allowed writer runs", []string{"mcp__demo__stamp"}, nil, Context{Mode: ModeAcceptEdits}, writer, true, Allow},
		{"server rule allows", []string{"mcp__demo"}, nil, Context{Mode: ModeDefault}, writer, true, Allow},
		{"writer in plan mode", []string{"mcp__demo__stamp"}, nil, Context{Mode: ModePlan, PlanFile: "/p.md"}, writer, false, Deny},
		{"writer in a read-only agent", []string{"mcp__demo"}, nil, Context{Mode: ModeDefault, ReadOnlyAgent: true}, writer, false, Deny},
		{"writer in bypass", nil, nil, Context{Mode: ModeBypass}, writer, true, Allow},
		{"reader in default", nil, nil, Context{Mode: ModeDefault}, reader, true, Allow},
		{"reader in plan mode", nil, nil, Context{Mode: ModePlan, PlanFile: "/p.md"}, reader, true, Allow},
		{"reader in read-only agent", nil, nil, Context{ReadOnlyAgent: true}, reader, true, Allow},
		{"denied reader in plan mode", nil, []string{"mcp__demo__*"}, Context{Mode: ModePlan, PlanFile: "/p.md"}, reader, false, Deny},
	}
	for _, tc := range cases {
		e, err := NewEngine(Rules{Allow: tc.allow, Deny: tc.deny, Tools: sessionKinds}, root, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		if got := e.OffersTool(tc.c, tc.a); got != tc.offered {
			t.Errorf("%s: offered %v, want %v", tc.name, got, tc.offered)
		}
		// Offered or not, the model calls it anyway (Offered nil: every
		// tool counts as offered, so the limits themselves must hold).
		if d := e.Decide(tc.c, tc.a); d.Behavior != tc.want {
			t.Errorf("%s: %s (%s), want %s", tc.name, d.Behavior, d.Reason, tc.want)
		}
	}
}

// A writing MCP tool the model calls in plan mode although it was not
// offered is refused for what it is, naming plan mode and the plan file.
func TestMCPWriterRefusedForWhatItIs(t *testing.T) {
	e, err := NewEngine(Rules{Tools: sessionKinds}, t.TempDir(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	c := Context{Mode: ModePlan, PlanFile: "/plans/p.md", Offered: []string{"Read"}}
	d := e.Decide(c, Access{Tool: "mcp__demo__stamp", Kind: KindExternal})
	if d.Behavior != Deny || d.Rule != "plan mode" || !strings.Contains(d.Reason, "not marked read-only") || !strings.Contains(d.Reason, "/plans/p.md") {
		t.Errorf("decision %+v", d)
	}
	d = e.Decide(Context{Mode: ModeDefault, Offered: []string{"Read"}}, Access{Tool: "mcp__demo__stamp", Kind: KindExternal})
	if d.Rule != "not offered" {
		t.Errorf("outside plan mode a tool not offered is refused as such: %+v", d)
	}
}

// A refusal names an MCP tool as it is spelt: the sentence starts with a
// word of its own, so the name keeps its lower case.
func TestRefusalKeepsMCPToolNamesCase(t *testing.T) {
	fx := newFixture(t)
	e, _ := NewEngine(Rules{}, fx.root, fx.home)
	for _, c := range []Context{{Mode: ModePlan, PlanFile: fx.plan}, {Mode: ModeDefault, ReadOnlyAgent: true}} {
		d := e.Decide(c, Access{Tool: "mcp__notes__purge", Kind: KindExternal})
		if d.Behavior != Deny || !strings.Contains(d.Reason, "mcp__notes__purge") || strings.Contains(d.Reason, "Mcp__") {
			t.Errorf("%s: %s", d.Behavior, d.Reason)
		}
	}
}
