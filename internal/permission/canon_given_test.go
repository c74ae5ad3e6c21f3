package permission

import (
	"path/filepath"
	"testing"
)

// Decide judges the canonical form a tool resolved once (Access.Canon),
// which is the path the tool then opens, not a fresh resolution of the
// path as given: a file named inside the project whose canonical form is
// outside it is judged as outside.
func TestDecideJudgesGivenCanon(t *testing.T) {
	fx := newFixture(t)
	e, _ := NewEngine(Rules{}, fx.root, fx.home)
	acc := Context{Mode: ModeAcceptEdits}
	inside := filepath.Join(fx.root, "notes", "f.txt")
	outside := filepath.Join(fx.home, ".ssh", "authorized_keys")

	w := Access{Tool: "Write", Kind: KindWrite, Paths: []string{inside}}
	if d := e.Decide(acc, w); d.Behavior != Allow {
		t.Fatalf("a write inside the project in acceptEdits: %s (%s)", d.Behavior, d.Reason)
	}
	w.Canon = []string{outside}
	if d := e.Decide(acc, w); d.Behavior == Allow {
		t.Fatalf("a write whose canonical path is %s was allowed", outside)
	}
	// A Canon that does not match Paths one for one is ignored.
	w.Canon = []string{outside, outside}
	if d := e.Decide(acc, w); d.Behavior != Allow {
		t.Fatalf("a mismatched Canon was used: %s", d.Behavior)
	}
}
