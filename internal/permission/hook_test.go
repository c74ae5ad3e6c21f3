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

// A hook that waves calls through never spares the question of a write to
// a file that decides what runs, ponder's settings (which define hooks)
// above all, nor one to the user's own settings file, wherever it lies.
func TestHookAllowDoesNotRewriteWhatRuns(t *testing.T) {
	fx := newFixture(t)
	e, err := NewEngine(Rules{}, fx.root, fx.home)
	if err != nil {
		t.Fatal(err)
	}
	userSettings := filepath.Join(t.TempDir(), "config", "settings.json")
	e.SetSettingsFiles([]string{userSettings})
	allow := HookRuling{Behavior: Allow}
	writeTo := func(p string) Access { return Access{Tool: "Write", Kind: KindWrite, Paths: []string{p}} }
	for _, tc := range []struct {
		name string
		mode Mode
		a    Access
		want Behavior
	}{
		{"project settings", ModeAcceptEdits, writeTo(filepath.Join(fx.root, ".ponder", "settings.json")), Ask},
		{"local settings", ModeDefault, writeTo(filepath.Join(fx.root, ".ponder", "settings.local.json")), Ask},
		{"claude settings", ModeDefault, writeTo(filepath.Join(fx.root, ".claude", "settings.json")), Ask},
		{"settings in a subproject", ModeAcceptEdits, writeTo(filepath.Join(fx.root, "sub", ".ponder", "settings.json")), Ask},
		{"the user's settings", ModeDefault, writeTo(userSettings), Ask},
		{"git hooks", ModeDefault, writeTo(filepath.Join(fx.root, ".git", "hooks", "pre-commit")), Ask},
		{"a command redirecting into the settings", ModeDefault, Access{Tool: "Bash", Kind: KindExec, Command: "echo '{}' > .ponder/settings.json", Dir: fx.root}, Ask},
		{"a command copying over the settings", ModeDefault, Access{Tool: "Bash", Kind: KindExec, Command: "cp /tmp/evil.json .ponder/settings.json", Dir: fx.root}, Ask},
		{"an ordinary file still", ModeDefault, writeTo(filepath.Join(fx.root, "src", "main.go")), Allow},
		{"bypass mode is the user's choice", ModeBypass, writeTo(filepath.Join(fx.root, ".ponder", "settings.json")), Allow},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := e.Decide(Context{Mode: tc.mode, PlanFile: fx.plan, Hook: allow}, tc.a)
			if d.Behavior != tc.want {
				t.Errorf("got %v (%s: %s), want %v", d.Behavior, d.Rule, d.Reason, tc.want)
			}
		})
	}
}

// An allow rule for a command is no yes for every file the command may
// write: a line whose words show it writes a file that decides what runs
// (the settings, which define hooks) asks, outside bypass mode.
func TestCommandRulesDoNotCoverWhatRuns(t *testing.T) {
	fx := newFixture(t)
	e, err := NewEngine(Rules{Allow: []string{"Bash(cp:*)", "Bash(echo:*)", "Bash"}}, fx.root, fx.home)
	if err != nil {
		t.Fatal(err)
	}
	userSettings := filepath.Join(t.TempDir(), "config", "settings.json")
	e.SetSettingsFiles([]string{userSettings})
	for _, tc := range []struct {
		command string
		mode    Mode
		want    Behavior
	}{
		{"cp /tmp/evil .ponder/settings.json", ModeAcceptEdits, Ask},
		{"echo x | tee .ponder/settings.local.json", ModeDefault, Ask},
		{"cp /tmp/evil .git/config", ModeDefault, Ask},
		{"cp /tmp/evil " + userSettings, ModeDefault, Ask},
		{"cp /tmp/evil .ponder/settings.json", ModeBypass, Allow},
		{"cp a.txt b.txt", ModeDefault, Allow},
		{"echo hello", ModeDefault, Allow},
	} {
		d := e.Decide(Context{Mode: tc.mode, PlanFile: fx.plan}, Access{Tool: "Bash", Kind: KindExec, Command: tc.command, Dir: fx.root})
		if d.Behavior != tc.want {
			t.Errorf("%s in %s: got %v (%s: %s), want %v", tc.command, tc.mode, d.Behavior, d.Rule, d.Reason, tc.want)
		}
	}
}
