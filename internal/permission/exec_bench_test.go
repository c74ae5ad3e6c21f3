package permission

import "testing"

// BenchmarkDecideShell measures one decision on a typical shell line with
// a handful of rules: one parse of the line plus the rule checks.
func BenchmarkDecideShell(b *testing.B) {
	e, err := NewEngine(Rules{
		Allow: []string{"Bash(git diff:*)", "Bash(npm test:*)", "Bash(go test:*)", "WebFetch(domain:docs.dev)"},
		Ask:   []string{"Bash(git push:*)"},
		Deny:  []string{"Bash(rm:*)", "Bash(curl:*)", "WebFetch(domain:evil.com)"},
	}, b.TempDir(), b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	a := Access{Tool: "Bash", Kind: KindExec, Command: `git diff --stat HEAD~3 -- internal/ | head -20 && go test ./internal/permission/... 2>&1 | tail -5`}
	ctx := Context{Mode: ModeDefault}
	for b.Loop() {
		if d := e.Decide(ctx, a); d.Behavior != Allow {
			b.Fatal(d.Reason)
		}
	}
}
