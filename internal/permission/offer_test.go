package permission

import (
	"strings"
	"testing"
)

// sessionKinds are the kinds a session's tools declare.
var sessionKinds = map[string]Kind{
	"Read": KindRead, "Glob": KindRead, "Grep": KindRead, "LS": KindRead, "Write": KindWrite, "Edit": KindWrite,
	"Bash": KindExec, "BashOutput": KindNone, "KillShell": KindNone, "WebFetch": KindNetwork, "Task": KindAgent,
	"TodoWrite": KindNone, "EnterPlanMode": KindNone, "ExitPlanMode": KindNone,
}

// Offers and Decide agree: a tool denied outright, by any name of its
// kind, is not offered, and a call of a tool not offered is refused with
// the reason whatever its input.
func TestToolsNotOfferedAreRefused(t *testing.T) {
	root := t.TempDir()
	cases := []struct {
		deny      []string
		c         Context
		tool      string
		offered   bool
		reasonHas string
	}{
		{nil, Context{}, "Task", true, ""},
		{[]string{"Task"}, Context{}, "Task", false, "Denied by the permission rule Task"},
		{[]string{"Read"}, Context{}, "Grep", false, "Denied by the permission rule Read"},
		{[]string{"Glob"}, Context{}, "Read", false, "Denied by the permission rule Glob"},
		{[]string{"Edit"}, Context{}, "Write", false, "Denied by the permission rule Edit"},
		{[]string{"NotebookEdit"}, Context{}, "Edit", false, "Denied by the permission rule NotebookEdit"},
		{[]string{"Bash(*)"}, Context{}, "Bash", false, "Denied by the permission rule Bash(*)"},
		{[]string{"Bash(rm:*)"}, Context{}, "Bash", true, ""},
		{[]string{"Read(.env)"}, Context{}, "Read", true, ""},
		{[]string{"TodoWrite"}, Context{}, "ExitPlanMode", true, ""},
		{[]string{"BashOutput"}, Context{}, "Read", true, ""}, // a tool of no file kind names itself only
		{nil, Context{DeniedTools: []string{"Write"}, AgentType: "Explore"}, "Write", false, "the Explore agent may not use Write"},
		{nil, Context{Subagent: true}, "Task", false, "Subagents cannot launch agents"},
	}
	for _, tc := range cases {
		e, err := NewEngine(Rules{Deny: tc.deny, Tools: sessionKinds}, root, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		kind := sessionKinds[tc.tool]
		if got := e.Offers(tc.c, tc.tool, kind); got != tc.offered {
			t.Errorf("deny %v %+v: Offers(%s) = %v", tc.deny, tc.c, tc.tool, got)
		}
		// The model calls it anyway, with the list the engine offered.
		c := tc.c
		for name, k := range sessionKinds {
			if e.Offers(tc.c, name, k) {
				c.Offered = append(c.Offered, name)
			}
		}
		d := e.Decide(c, Access{Tool: tc.tool, Kind: kind})
		if tc.offered {
			if d.Behavior == Deny && d.Rule == "not offered" {
				t.Errorf("deny %v: an offered %s was refused as not offered", tc.deny, tc.tool)
			}
			continue
		}
		if d.Behavior != Deny || !strings.Contains(d.Reason, tc.reasonHas) {
			t.Errorf("deny %v %+v: calling %s anyway: %+v", tc.deny, tc.c, tc.tool, d)
		}
	}
}

// A tool missing from Context.Offered (the session does not have it in
// this mode, or there is no such tool) is refused, and the reason lists
// what is available.
func TestCallOfAToolNotOfferedIsRefused(t *testing.T) {
	e, err := NewEngine(Rules{Tools: sessionKinds}, t.TempDir(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	c := Context{Mode: ModeBypass, Offered: []string{"Read", "Grep"}}
	for _, tool := range []string{"EnterPlanMode", "Teleport", "Bash"} {
		d := e.Decide(c, Access{Tool: tool, Kind: sessionKinds[tool], Command: "true"})
		if d.Behavior != Deny || d.Rule != "not offered" || !strings.Contains(d.Reason, `no tool named "`+tool+`"`) || !strings.Contains(d.Reason, "Read, Grep") {
			t.Errorf("%s: %+v", tool, d)
		}
	}
	if d := e.Decide(c, Access{Tool: "Grep", Kind: KindRead, Paths: []string{"/x"}}); d.Behavior != Allow {
		t.Errorf("an offered Grep: %+v", d)
	}
}

// A rule naming a tool covers every tool of that tool's declared kind,
// as a rule for Read does, and compiles its specifier by that kind.
func TestRulesLearnKindsFromTheTools(t *testing.T) {
	root := t.TempDir()
	e, err := NewEngine(Rules{Deny: []string{"Glob(secrets/**)"}, Tools: sessionKinds}, root, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	secret := root + "/secrets/key.txt"
	if d := e.Decide(Context{}, Access{Tool: "Read", Kind: KindRead, Paths: []string{secret}}); d.Behavior != Deny {
		t.Errorf("Read of a file a Glob deny rule names: %+v", d)
	}
	if _, err := NewEngine(Rules{Deny: []string{"Grep([)"}, Tools: sessionKinds}, root, t.TempDir()); err == nil {
		t.Error("a Grep rule with a broken path pattern was accepted")
	}
	if e, _ := NewEngine(Rules{Deny: []string{"BashOutput", "KillShell(x)"}, Tools: sessionKinds}, root, t.TempDir()); !strings.Contains(strings.Join(e.Warnings(), "\n"), "takes no specifier") || strings.Contains(strings.Join(e.Warnings(), "\n"), "names no tool") {
		t.Errorf("warnings %v", e.Warnings())
	}
}
