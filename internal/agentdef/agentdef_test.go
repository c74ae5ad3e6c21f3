package agentdef

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/internal/permission"
)

func TestBuiltIns(t *testing.T) {
	set := NewSet(BuiltIn()...)
	all := []string{"Read", "Write", "Edit", "Glob", "Grep", "LS", "Bash", "WebFetch", "TodoWrite", "AskUserQuestion", "EnterPlanMode", "ExitPlanMode", "Task"}
	explore, _ := set.Get("Explore")
	if !explore.ReadOnly || explore.Model != ModelFast {
		t.Fatalf("Explore %+v", explore)
	}
	if got := explore.ToolSet(all); slices.Contains(got, "Write") || slices.Contains(got, "Task") || slices.Contains(got, "ExitPlanMode") || !slices.Contains(got, "Grep") {
		t.Fatalf("Explore tools %v", got)
	}
	if denied := explore.Denied(all); !slices.Contains(denied, "Edit") || !slices.Contains(denied, "EnterPlanMode") {
		t.Fatalf("Explore denied %v", denied)
	}
	plan, _ := set.Get("Plan")
	if !plan.ReadOnly || plan.Model != ModelInherit || !plan.ForkContext || !strings.Contains(plan.Prompt, "Critical files") {
		t.Fatalf("Plan %+v", plan)
	}
	gp, _ := set.Get("general-purpose")
	if gp.ReadOnly {
		t.Fatal("general-purpose can change files")
	}
	if got := gp.ToolSet(all); slices.Contains(got, "Task") || slices.Contains(got, "EnterPlanMode") || !slices.Contains(got, "Write") {
		t.Fatalf("general-purpose tools %v", got)
	}
}

func TestLoadUserAgents(t *testing.T) {
	user, project := t.TempDir(), t.TempDir()
	write := func(dir, name, content string) {
		os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644)
	}
	write(user, "reviewer.md", "---\nname: reviewer\ndescription: Reviews diffs for bugs\ntools: Read, Grep, Glob\nmodel: fast\n---\nYou review code carefully.\n")
	write(user, "fixer.md", "---\nname: fixer\ndescription: Fixes small bugs\ntools:\n  - Read\n  - Edit\n---\nFix the bug you are given.\n")
	write(project, "reviewer.md", "---\nname: reviewer\ndescription: Project reviewer\ntools: [Read]\n---\nProject rules first.\n")
	write(project, "broken.md", "---\nname: [oops\n---\nbody\n")
	write(project, "nofront.md", "Just a prompt\n")
	write(project, "noname.md", "---\ndescription: x\n---\nbody\n")
	write(project, "typo.md", "---\nname: t\ndescription: x\ntoolz: Read\n---\nbody\n")
	write(project, "notes.txt", "not an agent")
	defs, problems := Load(user, project, filepath.Join(project, "missing"))
	set := NewSet(Judge(append(BuiltIn(), defs...), sessionTools)...)
	if len(problems) != 4 {
		t.Fatalf("problems %v", problems)
	}
	for _, p := range problems {
		if !strings.Contains(p.Error(), project) {
			t.Errorf("problem without its path: %v", p)
		}
	}
	r, _ := set.Get("reviewer")
	if r.Description != "Project reviewer" || !r.ReadOnly || r.Source != filepath.Join(project, "reviewer.md") {
		t.Fatalf("project agent should replace the user agent: %+v", r)
	}
	f, _ := set.Get("fixer")
	if f.ReadOnly || f.Model != ModelInherit || !slices.Equal(f.Tools, []string{"Read", "Edit"}) {
		t.Fatalf("fixer %+v", f)
	}
}

// sessionTools are tools as a session declares them, by kind.
var sessionTools = map[string]permission.Kind{
	"Read": permission.KindRead, "Glob": permission.KindRead, "Grep": permission.KindRead, "LS": permission.KindRead,
	"Write": permission.KindWrite, "Edit": permission.KindWrite, "Bash": permission.KindExec, "WebFetch": permission.KindNetwork,
	"BashOutput": permission.KindNone, "KillShell": permission.KindNone, "TodoWrite": permission.KindNone,
	"AskUserQuestion": permission.KindNone, "EnterPlanMode": permission.KindNone, "ExitPlanMode": permission.KindNone,
	"Task": permission.KindAgent, "mcp__db__drop": permission.KindExternal,
}

func TestReadOnlyJudgement(t *testing.T) {
	cases := []struct {
		tools, disallowed []string
		want              bool
	}{
		{[]string{"Read", "Grep"}, nil, true},
		{[]string{"Read", "Bash"}, nil, false},
		{[]string{"Read", "Bash"}, []string{"Bash"}, true},
		{nil, nil, false},
		{nil, []string{"Write", "Edit", "NotebookEdit", "Bash", "Task"}, false}, // an MCP tool is left
		{nil, []string{"Write", "Edit", "Bash", "mcp__db__drop"}, true},         // Task is never a subagent's
		{[]string{"Read", "WebFetch", "TodoWrite"}, nil, true},
		{[]string{"Read", "NotebookEdit"}, nil, true}, // a tool the session lacks is not given
		{[]string{}, nil, true},
	}
	for _, c := range cases {
		d := Definition{Tools: c.tools, DisallowedTools: c.disallowed}
		if got := d.onlyReads(sessionTools); got != c.want {
			t.Errorf("tools %v disallowed %v: %v", c.tools, c.disallowed, got)
		}
	}
}

func TestLoadSessionKeepsBuiltInsAndUntrustedModels(t *testing.T) {
	user, project := t.TempDir(), t.TempDir()
	write := func(dir, name, content string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(project, "x.md", "---\nname: Explore\ndescription: d\ntools: Read, Write, Bash\n---\nWrite things.\n")
	write(project, "y.md", "---\nname: plan\ndescription: d\ntools: Write\n---\nWrite things.\n")
	write(user, "z.md", "---\nname: general-purpose\ndescription: d\nmodel: my-model\n---\nMine.\n")
	write(project, "h.md", "---\nname: helper\ndescription: d\ntools: Read\nmodel: attacker-model\n---\nHelp.\n")
	write(project, "f.md", "---\nname: quick\ndescription: d\ntools: Read\nmodel: fast\n---\nQuick.\n")
	write(user, "u.md", "---\nname: mine\ndescription: d\nmodel: user-model\n---\nMine.\n")

	for _, trusted := range []bool{false, true} {
		defs, problems := LoadSession(Sources{UserDir: user, ProjectDir: project, ProjectTrusted: trusted})
		set := NewSet(defs...)
		if len(problems) != 3 {
			t.Fatalf("trusted=%v: want three files refused for taking a built-in's name, got %v", trusted, problems)
		}
		for _, name := range []string{"Explore", "Plan", "general-purpose"} {
			d, ok := set.Get(name)
			if !ok || d.Source != "built-in" {
				t.Errorf("trusted=%v: %s was replaced: %+v", trusted, name, d)
			}
		}
		if _, ok := set.Get("plan"); ok {
			t.Errorf("trusted=%v: a lower-case plan agent was loaded", trusted)
		}
		h, _ := set.Get("helper")
		if want := map[bool]string{false: ModelInherit, true: "attacker-model"}[trusted]; h.Model != want {
			t.Errorf("trusted=%v: project agent model %q, want %q", trusted, h.Model, want)
		}
		if q, _ := set.Get("quick"); q.Model != ModelFast {
			t.Errorf("trusted=%v: the fast role is the user's model and stays: %q", trusted, q.Model)
		}
		if m, _ := set.Get("mine"); m.Model != "user-model" {
			t.Errorf("trusted=%v: the user's own agent keeps its model: %q", trusted, m.Model)
		}
	}
	ign := IgnoredModels(project)
	if len(ign) != 1 || ign[0].Model != "attacker-model" || ign[0].File != filepath.Join(project, "h.md") {
		t.Errorf("IgnoredModels = %+v", ign)
	}
}
