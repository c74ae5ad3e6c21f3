package permission

import (
	"path/filepath"
	"testing"
)

// A decision to ask about a call says whether the caller may read the
// files it touches, so that a preview of them needs no second decision.
func TestAskSaysWhetherTheFilesAreReadable(t *testing.T) {
	root := t.TempDir()
	e, err := NewEngine(Rules{Deny: []string{"Read(secret.txt)"}}, root, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	c := NewContext(ModeDefault, nil, Caller{})
	open := e.Decide(c, Access{Tool: "Edit", Kind: KindWrite, Paths: []string{filepath.Join(root, "open.txt")}})
	secret := e.Decide(c, Access{Tool: "Edit", Kind: KindWrite, Paths: []string{filepath.Join(root, "secret.txt")}})
	if open.Behavior != Ask || !open.Readable {
		t.Errorf("open.txt: %+v", open)
	}
	if secret.Readable {
		t.Errorf("secret.txt, which may not be read, is said to be readable: %+v", secret)
	}
}
