package permission

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestScopeFencesAcceptEdits(t *testing.T) {
	fx := newFixture(t)
	e, _ := NewEngine(Rules{Allow: []string{"Edit(/docs/**)"}}, fx.root, fx.home)
	in := func(p string) string { return filepath.Join(fx.root, p) }
	sc := &Scope{Files: []string{in("src/main.go")}, Dirs: []string{in("src/api")}}
	c := Context{Mode: ModeAcceptEdits, Scope: sc}
	write := func(p string) Decision {
		return e.Decide(c, Access{Tool: "Edit", Kind: KindWrite, Paths: []string{p}})
	}
	for _, p := range []string{in("src/main.go"), in("src/api/new.go"), in("src/api/v2/deep.go")} {
		if d := write(p); d.Behavior != Allow {
			t.Errorf("%s in the plan: %s (%s)", p, d.Behavior, d.Reason)
		}
	}
	for _, p := range []string{in("src/other.go"), in("src/api"), in("src/main.go.bak"), in("src/apix/a.go")} {
		d := write(p)
		if d.Behavior != Ask || d.Rule != RuleScope || !strings.Contains(d.Reason, "not in the plan") {
			t.Errorf("%s outside the plan: %s %s (%s)", p, d.Behavior, d.Rule, d.Reason)
		}
	}
	// A named file does not open its directory.
	if d := write(in("src/sibling.go")); d.Behavior != Ask {
		t.Errorf("a sibling of a planned file: %s", d.Behavior)
	}
	// A write of two files, one outside, asks.
	if d := e.Decide(c, Access{Tool: "Write", Kind: KindWrite, Paths: []string{in("src/main.go"), in("x.go")}}); d.Behavior != Ask {
		t.Errorf("one file outside of two: %s", d.Behavior)
	}
	// A link inside the plan to a file outside it is the file outside.
	if err := os.MkdirAll(in("src/api"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(in("secret.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(in("secret.txt"), in("src/api/link.txt")); err != nil {
		t.Fatal(err)
	}
	if d := write(in("src/api/link.txt")); d.Behavior != Ask {
		t.Errorf("a link from the plan's directory to a file outside: %s", d.Behavior)
	}
	// The user's allow rule still allows; the fence narrows the mode only.
	if d := write(in("docs/guide.md")); d.Behavior != Allow {
		t.Errorf("an allow rule outside the plan: %s (%s)", d.Behavior, d.Reason)
	}
	// Without a scope accept-edits is as before; in default mode the
	// question says the file is not in the plan.
	if d := e.Decide(Context{Mode: ModeAcceptEdits}, Access{Tool: "Edit", Kind: KindWrite, Paths: []string{in("src/other.go")}}); d.Behavior != Allow {
		t.Errorf("no scope: %s", d.Behavior)
	}
	if d := e.Decide(Context{Mode: ModeDefault, Scope: sc}, Access{Tool: "Edit", Kind: KindWrite, Paths: []string{in("src/other.go")}}); d.Behavior != Ask || d.Rule != RuleScope {
		t.Errorf("default mode with a scope: %s %s", d.Behavior, d.Rule)
	}
}
