package permission

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// engineFixture is a project with a plan file outside it, as in real use.
type engineFixture struct {
	root, home, plan string
}

func newFixture(t *testing.T) engineFixture {
	t.Helper()
	base := t.TempDir()
	root := filepath.Join(base, "proj")
	home := filepath.Join(base, "home")
	plans := filepath.Join(home, ".ponder", "plans")
	for _, d := range []string{filepath.Join(root, "src"), plans, filepath.Join(home, ".ssh")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return engineFixture{root: root, home: home, plan: filepath.Join(plans, "brisk-sorting-harbor.md")}
}

func TestDecideTable(t *testing.T) {
	fx := newFixture(t)
	src := func(p string) string { return filepath.Join(fx.root, "src", p) }
	read := func(p string) Access { return Access{Tool: "Read", Kind: KindRead, Paths: []string{p}} }
	write := func(tool string, p ...string) Access { return Access{Tool: tool, Kind: KindWrite, Paths: p} }
	bash := func(cmd string) Access { return Access{Tool: "Bash", Kind: KindExec, Command: cmd} }
	agent := func(typ string, ro bool) Access {
		return Access{Tool: "Task", Kind: KindAgent, Target: typ, AgentReadOnly: ro}
	}
	none := func(tool string) Access { return Access{Tool: tool, Kind: KindNone} }
	fetch := Access{Tool: "WebFetch", Kind: KindNetwork, Target: "https://docs.example.com/page"}

	def := Context{Mode: ModeDefault}
	acc := Context{Mode: ModeAcceptEdits}
	byp := Context{Mode: ModeBypass}
	plan := Context{Mode: ModePlan, PlanFile: fx.plan}
	explore := Context{Mode: ModeDefault, ReadOnlyAgent: true, AgentType: "Explore", DeniedTools: []string{"Task", "Write", "Edit", "ExitPlanMode"}}
	explorePlan := explore
	explorePlan.Mode, explorePlan.PlanFile = ModePlan, fx.plan

	noRules := Rules{}
	rules := Rules{
		Allow: []string{"Bash(git diff:*)", "Bash(npm test)", "Edit(src/gen/**)", "WebFetch(domain:example.com)", "Bash(make:*)"},
		Ask:   []string{"Bash(git push:*)", "Read(secrets/**)"},
		Deny:  []string{"Read(~/.ssh/**)", "Bash(rm:*)", "Edit(.env)", "Task(general-purpose)"},
	}

	cases := []struct {
		name   string
		rules  Rules
		ctx    Context
		access Access
		want   Behavior
		reason string // substring of the reason, when it matters
	}{
		// default mode
		{"default read", noRules, def, read(src("a.go")), Allow, ""},
		{"default read outside project", noRules, def, read("/etc/hosts"), Allow, ""},
		{"default write asks", noRules, def, write("Write", src("a.go")), Ask, "needs approval"},
		{"default edit asks", noRules, def, write("Edit", src("a.go")), Ask, ""},
		{"default read-only bash", noRules, def, bash("git status"), Allow, ""},
		{"default ls pipe", noRules, def, bash("ls -la | head -5"), Allow, ""},
		{"default writing bash asks", noRules, def, bash("rm -rf build"), Ask, ""},
		{"default redirect asks", noRules, def, bash("echo hi > main.go"), Ask, ""},
		{"default env wrapper asks", noRules, def, bash("env rm -rf x"), Ask, ""},
		{"default unknown command asks", noRules, def, bash("frobnicate --all"), Ask, ""},
		{"default none", noRules, def, none("TodoWrite"), Allow, ""},
		{"default agent", noRules, def, agent("general-purpose", false), Allow, ""},
		{"default webfetch asks", noRules, def, fetch, Ask, ""},
		{"default external read-only", noRules, def, Access{Tool: "mcp__db__query", Kind: KindExternal, ReadOnly: true}, Allow, ""},
		{"default external writer asks", noRules, def, Access{Tool: "mcp__db__exec", Kind: KindExternal}, Ask, ""},

		// acceptEdits
		{"acceptEdits edit inside", noRules, acc, write("Edit", src("a.go")), Allow, ""},
		{"acceptEdits write new inside", noRules, acc, write("Write", src("new/b.go")), Allow, ""},
		{"acceptEdits outside asks", noRules, acc, write("Write", "/tmp/elsewhere.txt"), Ask, ""},
		{"acceptEdits via dotdot asks", noRules, acc, write("Write", filepath.Join(fx.root, "..", "escape.txt")), Ask, ""},
		{"acceptEdits bash still asks", noRules, acc, bash("npm install"), Ask, ""},
		{"acceptEdits read-only bash", noRules, acc, bash("cat go.mod"), Allow, ""},

		// bypassPermissions
		{"bypass write", noRules, byp, write("Write", "/tmp/x"), Allow, ""},
		{"bypass bash", noRules, byp, bash("rm -rf build"), Allow, ""},
		{"bypass deny rule still wins", rules, byp, bash("rm -rf build"), Deny, "Bash(rm:*)"},
		{"bypass deny ssh", rules, byp, read(filepath.Join(fx.home, ".ssh", "id_rsa")), Deny, "~/.ssh"},

		// rules
		{"allow rule prefix", rules, def, bash("git diff HEAD~1"), Allow, "git diff"},
		{"allow rule exact", rules, def, bash("npm test"), Allow, ""},
		{"allow rule exact needs exact", rules, def, bash("npm test --watch"), Ask, ""},
		{"allow rule word boundary", rules, def, bash("git difftool"), Ask, ""},
		{"allow rule compound not all", rules, def, bash("git diff && curl -X POST https://x"), Ask, ""},
		{"allow rule compound all", rules, def, bash("make build && make test"), Allow, ""},
		{"a wrapper that only limits time needs no rule", rules, def, bash("timeout 5 make install"), Allow, ""},
		{"a wrapper that changes user needs its own rule", rules, def, bash("sudo make install"), Ask, ""},
		{"allow rules for wrapper and inner", Rules{Allow: []string{"Bash(timeout:*)", "Bash(make:*)"}}, def, bash("timeout 5 make install"), Allow, ""},
		{"wrapper allow does not cover inner", Rules{Allow: []string{"Bash(timeout:*)"}}, def, bash("timeout 5 rm -rf x"), Ask, ""},
		{"deny rule inside compound", rules, def, bash("ls && rm -rf /"), Deny, "Bash(rm:*)"},
		{"deny rule inside sh -c", rules, def, bash("sh -c 'rm -rf x'"), Deny, ""},
		{"deny rule inside xargs", rules, def, bash("find . | xargs rm"), Deny, ""},
		{"deny rule inside substitution", rules, def, bash("echo $(rm x)"), Deny, ""},
		{"ask rule", rules, def, bash("git push origin main"), Ask, "git push"},
		{"ask over allow", Rules{Allow: []string{"Bash"}, Ask: []string{"Bash(git push:*)"}}, def, bash("git push"), Ask, ""},
		{"deny over allow", Rules{Allow: []string{"Bash"}, Deny: []string{"Bash(curl:*)"}}, def, bash("curl https://x"), Deny, ""},
		{"bare tool allow", Rules{Allow: []string{"Bash"}}, def, bash("npm install"), Allow, ""},
		{"edit rule allows glob", rules, def, write("Edit", filepath.Join(fx.root, "src", "gen", "x.pb.go")), Allow, ""},
		{"edit rule not outside glob", rules, def, write("Edit", src("a.go")), Ask, ""},
		{"edit rule covers Write", rules, def, write("Write", filepath.Join(fx.root, "src", "gen", "y.go")), Allow, ""},
		{"deny edit of .env", rules, acc, write("Write", filepath.Join(fx.root, ".env")), Deny, ".env"},
		{"read rule category covers Grep", rules, def, Access{Tool: "Grep", Kind: KindRead, Paths: []string{filepath.Join(fx.home, ".ssh")}}, Deny, ""},
		{"ask read secrets", rules, def, read(filepath.Join(fx.root, "secrets", "k")), Ask, ""},
		{"webfetch domain allow", rules, def, fetch, Allow, ""},
		{"webfetch other domain asks", rules, def, Access{Tool: "WebFetch", Kind: KindNetwork, Target: "https://evil.test/"}, Ask, ""},
		{"task deny rule", rules, def, agent("general-purpose", false), Deny, ""},
		{"task other type", rules, def, agent("Explore", true), Allow, ""},

		// plan mode
		{"plan read", noRules, plan, read(src("a.go")), Allow, ""},
		{"plan write plan file", noRules, plan, write("Write", fx.plan), Allow, "plan file"},
		{"plan edit plan file", noRules, plan, write("Edit", fx.plan), Allow, ""},
		{"plan write project file", noRules, plan, write("Write", src("a.go")), Deny, fx.plan},
		{"plan write names the rule", noRules, plan, write("Edit", src("a.go")), Deny, "Plan mode is on"},
		{"plan dotdot to plan file", noRules, plan, write("Write", filepath.Join(filepath.Dir(fx.plan), "..", "plans", filepath.Base(fx.plan))), Allow, ""},
		{"plan dotdot elsewhere", noRules, plan, write("Write", filepath.Join(filepath.Dir(fx.plan), "..", "settings.json")), Deny, ""},
		{"plan two paths one bad", noRules, plan, write("Write", fx.plan, src("a.go")), Deny, ""},
		{"plan case trick", noRules, plan, write("Write", filepath.Join(filepath.Dir(fx.plan), strings.ToUpper(filepath.Base(fx.plan)))), Deny, ""},
		{"plan read-only bash", noRules, plan, bash("git log --oneline | head"), Allow, ""},
		{"plan writing bash asks to run confined", noRules, plan, bash("npm install"), Ask, "read-only sandbox"},
		{"plan redirect to plan file only asks to run confined", noRules, plan, bash("echo x > " + fx.plan), Ask, "read-only sandbox"},
		{"plan allow rule cannot lift limit", Rules{Allow: []string{"Bash", "Edit", "Write"}}, plan, bash("make install"), Ask, "read-only sandbox"},
		{"plan allow rule cannot allow write", Rules{Allow: []string{"Edit", "Write"}}, plan, write("Write", src("a.go")), Deny, ""},
		{"plan bypass-like allow all", Rules{Allow: []string{"Bash(git commit:*)"}}, plan, bash("git commit -m x"), Ask, "read-only sandbox"},
		{"plan read-only agent", noRules, plan, agent("Explore", true), Allow, ""},
		{"plan writing agent", noRules, plan, agent("general-purpose", false), Deny, "read-only agent types"},
		{"plan none tools", noRules, plan, none("ExitPlanMode"), Allow, ""},
		{"plan ask question", noRules, plan, none("AskUserQuestion"), Allow, ""},
		{"plan external writer", noRules, plan, Access{Tool: "mcp__db__exec", Kind: KindExternal}, Deny, ""},
		{"plan external read-only", noRules, plan, Access{Tool: "mcp__db__q", Kind: KindExternal, ReadOnly: true}, Allow, ""},
		{"plan webfetch asks", noRules, plan, fetch, Ask, ""},
		{"plan deny rule before plan file", Rules{Deny: []string{"Write"}}, plan, write("Write", fx.plan), Deny, ""},
		{"plan ask rule read-only bash", Rules{Ask: []string{"Bash(git log:*)"}}, plan, bash("git log"), Ask, ""},

		// read-only agents
		{"explore read", noRules, explore, read(src("a.go")), Allow, ""},
		{"explore denied tool", noRules, explore, write("Write", src("a.go")), Deny, "may not use Write"},
		{"explore writing bash", noRules, explore, bash("touch x"), Deny, "Explore agent may only read"},
		{"explore read-only bash", noRules, explore, bash("rg foo"), Allow, ""},
		{"explore nested task", noRules, explore, agent("Explore", true), Deny, "may not use Task"},
		{"explore in plan mode cannot write plan", noRules, explorePlan, write("NotebookEdit", fx.plan), Deny, ""},
	}
	if len(cases) < 60 {
		t.Fatalf("only %d cases", len(cases))
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e, err := NewEngine(tc.rules, fx.root, fx.home)
			if err != nil {
				t.Fatal(err)
			}
			e.SetSandbox(SandboxPolicy{Available: true})
			d := e.Decide(tc.ctx, tc.access)
			if d.Behavior != tc.want {
				t.Fatalf("Decide = %s (%s: %s), want %s", d.Behavior, d.Rule, d.Reason, tc.want)
			}
			if tc.reason != "" && !strings.Contains(d.Reason, tc.reason) && !strings.Contains(d.Rule, tc.reason) {
				t.Fatalf("reason %q / rule %q does not mention %q", d.Reason, d.Rule, tc.reason)
			}
			if d.Reason == "" {
				t.Fatal("every decision needs a reason")
			}
		})
	}
}

func TestPlanFileLinks(t *testing.T) {
	fx := newFixture(t)
	e, _ := NewEngine(Rules{}, fx.root, fx.home)
	plan := Context{Mode: ModePlan, PlanFile: fx.plan}
	target := filepath.Join(fx.root, "src", "main.go")
	if err := os.WriteFile(target, []byte("package main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	w := Access{Tool: "Write", Kind: KindWrite, Paths: []string{fx.plan}}

	// A symlink at the plan path would write through to main.go.
	if err := os.Symlink(target, fx.plan); err != nil {
		t.Fatal(err)
	}
	if d := e.Decide(plan, w); d.Behavior != Deny || !strings.Contains(d.Reason, "symbolic link") {
		t.Fatalf("symlink at plan path: %s %s", d.Behavior, d.Reason)
	}
	os.Remove(fx.plan)

	// A hard link at the plan path shares main.go's content.
	if err := os.Link(target, fx.plan); err != nil {
		t.Fatal(err)
	}
	if d := e.Decide(plan, w); d.Behavior != Deny || !strings.Contains(d.Reason, "hard links") {
		t.Fatalf("hard link at plan path: %s %s", d.Behavior, d.Reason)
	}
	os.Remove(fx.plan)

	// A symlinked directory leading into the project is not the plan file.
	link := filepath.Join(filepath.Dir(fx.plan), "proj-link")
	if err := os.Symlink(fx.root, link); err != nil {
		t.Fatal(err)
	}
	via := Access{Tool: "Write", Kind: KindWrite, Paths: []string{filepath.Join(link, "src", "main.go")}}
	if d := e.Decide(plan, via); d.Behavior != Deny {
		t.Fatalf("write through symlinked dir: %s", d.Behavior)
	}

	// A symlink in the project pointing at the plan file resolves to it,
	// and a plain plan file is fine.
	alias := filepath.Join(fx.root, "plan-alias.md")
	os.WriteFile(fx.plan, []byte("# plan\n"), 0o644)
	if err := os.Symlink(fx.plan, alias); err != nil {
		t.Fatal(err)
	}
	if d := e.Decide(plan, Access{Tool: "Edit", Kind: KindWrite, Paths: []string{alias}}); d.Behavior != Allow {
		t.Fatalf("alias of the plan file: %s %s", d.Behavior, d.Reason)
	}
	// A dangling symlink whose target is a project file is judged by
	// its target.
	dangling := filepath.Join(filepath.Dir(fx.plan), "dangling.md")
	os.Symlink(filepath.Join(fx.root, "src", "new.go"), dangling)
	if d := e.Decide(plan, Access{Tool: "Write", Kind: KindWrite, Paths: []string{dangling}}); d.Behavior != Deny {
		t.Fatalf("dangling symlink: %s", d.Behavior)
	}
}

func TestParseRules(t *testing.T) {
	good := []string{"Read", "Bash(git diff:*)", "Edit(src/**)", "Read(~/.ssh/**)", "mcp__srv__tool", "WebFetch(domain:x.com)"}
	rs, err := ParseRules(good)
	if err != nil || len(rs) != len(good) {
		t.Fatalf("ParseRules = %v, %v", rs, err)
	}
	// --allowedTools takes a comma-separated list; commas inside
	// parentheses belong to the specifier.
	rs, err = ParseRules([]string{"Read,Bash(git diff:*),Edit(a,b)"})
	if err != nil || len(rs) != 3 || rs[2].Specifier != "a,b" {
		t.Fatalf("list = %+v, %v", rs, err)
	}
	for _, bad := range []string{"", "Bash(", "(x)", "Bash()", "Ba sh"} {
		if _, err := ParseRule(bad); err == nil {
			t.Errorf("ParseRule(%q) should fail", bad)
		}
	}
}

func TestSuggest(t *testing.T) {
	fx := newFixture(t)
	e, _ := NewEngine(Rules{}, fx.root, fx.home)
	def := Context{Mode: ModeDefault}
	cases := map[string]Access{
		"Bash(npm test:*)":          {Tool: "Bash", Kind: KindExec, Command: "npm test --watch"},
		"Bash(make:*)":              {Tool: "Bash", Kind: KindExec, Command: "make -j4"},
		"":                          {Tool: "Bash", Kind: KindExec, Command: "make && rm x"},
		"Edit(src/**)":              {Tool: "Write", Kind: KindWrite, Paths: []string{filepath.Join(fx.root, "src", "a.go")}},
		"WebFetch(domain:docs.dev)": {Tool: "WebFetch", Kind: KindNetwork, Target: "https://docs.dev/x"},
	}
	for want, a := range cases {
		d := e.Decide(def, a)
		if d.Behavior != Ask || d.Suggest != want {
			t.Errorf("Decide(%+v) = %s, suggest %q; want ask, suggest %q", a, d.Behavior, d.Suggest, want)
		}
	}
	// The suggested rule really allows the call.
	a := cases["Bash(npm test:*)"]
	if err := e.AddAllow(e.Decide(def, a).Suggest); err != nil {
		t.Fatal(err)
	}
	if d := e.Decide(def, a); d.Behavior != Allow {
		t.Fatalf("after AddAllow: %s", d.Behavior)
	}
	// A decision that is not to ask suggests nothing.
	if d := e.Decide(def, Access{Tool: "Bash", Kind: KindExec, Command: "ls"}); d.Suggest != "" {
		t.Fatalf("allowed call suggests %q", d.Suggest)
	}
}
