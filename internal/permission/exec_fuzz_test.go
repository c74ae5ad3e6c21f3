package permission

import (
	"testing"

	"github.com/ponder-agent/ponder/internal/permission/shellclass"
)

// FuzzShellRules checks properties of shell-line decisions that must hold
// for any input: every decision gives a reason; a narrow allow rule never
// allows a line that writes through a redirection, changes the
// environment or hides commands; and a line that names rm as a program is
// never allowed where rm is denied.
func FuzzShellRules(f *testing.F) {
	for _, cases := range ruleAttacks {
		for _, tc := range cases {
			f.Add(tc.cmd)
		}
	}
	root, home := f.TempDir(), f.TempDir()
	narrow, _ := NewEngine(Rules{Allow: []string{"Bash(git diff:*)", "Bash(echo:*)", "Bash(rm:*)"}}, root, home)
	denied, _ := NewEngine(Rules{Allow: []string{"Bash"}, Deny: []string{"Bash(rm:*)"}}, root, home)
	f.Fuzz(func(t *testing.T, cmd string) {
		a := Access{Tool: "Bash", Kind: KindExec, Command: cmd}
		class := shellclass.Classify(cmd)
		for _, m := range []Mode{ModeDefault, ModePlan} {
			d := narrow.Decide(Context{Mode: m, PlanFile: "/nonexistent/plan.md"}, a)
			if d.Reason == "" {
				t.Fatalf("%q: decision without a reason", cmd)
			}
			if d.Behavior == Allow && d.Rule != "read-only command" && (len(class.Writes) > 0 || len(class.Env) > 0 || class.Opaque != "") {
				t.Fatalf("%q allowed by %s though it writes %v, changes %v, hides %q", cmd, d.Rule, class.Writes, class.Env, class.Opaque)
			}
		}
		d := denied.Decide(Context{Mode: ModeDefault}, a)
		if d.Behavior != Allow {
			return
		}
		for _, c := range class.Commands {
			if len(c.Words) > 0 && (!c.Words[0].Lit || shellclass.BaseName(c.Words[0].Text) == "rm") {
				t.Fatalf("%q allowed where rm is denied (command %q)", cmd, c.String())
			}
		}
	})
}
