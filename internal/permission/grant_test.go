package permission

import "testing"

// A plan is written by the model: the rules it asks for are judged by what
// they would let through, so wording cannot make a wide rule look narrow.
func TestJudgeGrantFlagsRulesThatReachOutsideTheProject(t *testing.T) {
	root := t.TempDir()
	home := t.TempDir()
	e, err := NewEngine(Rules{}, root, home)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		rule    string
		outside bool
	}{
		{"Edit(src/**)", false},
		{"Edit(/src/**)", false},
		{"Write(*.go)", false},
		{"Read(docs/**)", false},
		// A command runs what the project's files say, which the plan
		// may change; a fetch can carry the project off the machine; an
		// agent runs commands of its own: none is granted unasked.
		{"Bash(go test:*)", true},
		{"Bash(npm run lint)", true},
		{"Bash(go build ./...)", true},
		{"Bash(make test)", true},
		{"Bash(make:*)", true},
		{"Bash(npm test:*)", true},
		{"WebFetch(domain:go.dev)", true},
		{"WebFetch(domain:localhost)", true},
		{"Task(Explore)", true},
		// Files that decide what runs, however the pattern spells them.
		{"Edit(Makefile)", true},
		{"Edit(makefile)", true},
		{"Edit(GNUmakefile)", true},
		{"Edit(**/Makefile)", true},
		{"Edit(.gi[t]/hooks/pre-push)", true},
		{"Edit(.npmrc)", true},
		{"Edit(.envrc)", true},
		{"Edit(.env)", true},
		{"Edit(.vscode/tasks.json)", true},
		{"Edit(AGENTS.md)", true},
		{"Edit(.github/workflows/ci.yml)", true},
		{"Edit(.husky/pre-commit)", true},
		{"Edit(sub/.git/config)", true},
		{"Edit(.cargo/config.toml)", true},
		{"Edit(mise.toml)", true},
		{"Edit(.ponder/commands/x.md)", true},
		// Whole tools, and commands that run other commands.
		{"Bash", true},
		{"Bash(*)", true},
		{"Bash(:*)", true},
		{"Edit", true},
		{"Read", true},
		{"WebFetch", true},
		{"Bash(sh:*)", true},
		{"Bash(bash -c:*)", true},
		{"Bash(env:*)", true},
		{"Bash(xargs:*)", true},
		{"Bash(python3:*)", true},
		{"Bash(/usr/bin/env:*)", true},
		{"Bash(find:*)", true},
		{"Bash(npx:*)", true},
		{"Bash(*test*)", true},
		// Programs whose open words name files they write.
		{"Bash(rm:*)", true},
		{"Bash(cp:*)", true},
		{"Bash(sed -i:*)", true},
		{"Bash(touch:*)", true},
		{"Bash(tee:*)", true},
		{"Bash(rm -rf /tmp/x)", true},
		{"Bash(cp a ../elsewhere)", true},
		{"Bash(go build -o /usr/local/bin/x)", true},
		{"Bash(go build -o ~/bin/x)", true},
		// Paths outside the project, by any spelling.
		{"Edit(//etc/**)", true},
		{"Edit(~/.bashrc)", true},
		{"Edit(../**)", true},
		{"Edit(/../other/**)", true},
		{"Edit(src/../../x)", true},
		{"Read(~/.ssh/**)", true},
		{"Write(//tmp/x)", true},
		// Files inside the project that decide what runs.
		{"Edit(.git/**)", true},
		{"Edit(**)", true},
		{"Edit(/**)", true},
		{"Write(.git/hooks/*)", true},
		{"Edit(.ponder/**)", true},
		{"Edit(.mcp.json)", true},
		{"Edit(*.json)", true},
		// The network and services: changes made elsewhere.
		{"Bash(git push)", true},
		{"Bash(git push:*)", true},
		{"Bash(curl -X POST https://example.com)", true},
		{"Bash(docker run:*)", true},
		{"Bash(kubectl apply:*)", true},
		{"Bash(systemctl restart nginx)", true},
		// Tools ponder cannot see into.
		{"mcp__server__tool", true},
	}
	for _, tc := range cases {
		_, r, err := e.JudgeGrant(tc.rule)
		if err != nil {
			t.Errorf("%s: %v", tc.rule, err)
			continue
		}
		if r.Outside != tc.outside {
			t.Errorf("%s: outside=%v (%s), want %v", tc.rule, r.Outside, r.Why, tc.outside)
		}
		if r.Outside && r.Why == "" {
			t.Errorf("%s: no reason given", tc.rule)
		}
	}
	if _, _, err := e.JudgeGrant("Bash("); err == nil {
		t.Error("a broken rule was accepted")
	}
}

// A rule a plan was granted lets its command run after the approval, and
// never in plan mode again: plan mode's limits come before allow rules.
func TestGrantedRuleDoesNotLiftPlanMode(t *testing.T) {
	root := t.TempDir()
	e, err := NewEngine(Rules{}, root, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := e.AddAllow("Bash(touch built.txt)"); err != nil {
		t.Fatal(err)
	}
	call := Access{Tool: "Bash", Kind: KindExec, Command: "touch built.txt"}
	if d := e.Decide(Context{Mode: ModeDefault}, call); d.Behavior != Allow {
		t.Fatalf("default mode: %+v", d)
	}
	if d := e.Decide(Context{Mode: ModePlan, PlanFile: root + "/plan.md"}, call); d.Behavior == Allow {
		t.Fatalf("a granted rule ran in plan mode: %+v", d)
	}
}
