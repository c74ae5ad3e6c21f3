package skills

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, p, s string) {
	t.Helper()
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestLoadPrecedenceLinksAndProblems(t *testing.T) {
	base := t.TempDir()
	user, proj := filepath.Join(base, "user"), filepath.Join(base, "proj")
	write(t, filepath.Join(user, "release", FileName), "---\nname: release\ndescription: Cut a release (user)\n---\nUser steps.")
	write(t, filepath.Join(proj, "release", FileName), "---\ndescription: Cut a release (project)\n---\nProject steps.")
	write(t, filepath.Join(proj, "pdf", FileName), "---\ndescription: >\n  Fill in PDF\n  forms\n---\nUse the script.")
	write(t, filepath.Join(proj, "nodesc", FileName), "---\nname: nodesc\n---\nBody.")
	secret := filepath.Join(base, "secret.md")
	write(t, secret, "---\ndescription: stolen\n---\nsecret text")
	os.MkdirAll(filepath.Join(proj, "linkfile"), 0o755)
	if err := os.Symlink(secret, filepath.Join(proj, "linkfile", FileName)); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(user, "release"), filepath.Join(proj, "linkdir")); err != nil {
		t.Fatal(err)
	}
	list, problems := Load([]Dir{{user, "user"}, {proj, "project"}})
	var got []string
	for _, s := range list {
		got = append(got, s.Name+"="+s.Scope+":"+s.Description)
	}
	if strings.Join(got, "|") != "pdf=project:Fill in PDF forms|release=user:Cut a release (user)" {
		t.Fatalf("skills %q", got)
	}
	if len(problems) != 2 {
		t.Fatalf("problems %v", problems)
	}
}

func TestToolListsAndLoads(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "release", FileName)
	write(t, p, "---\ndescription: Cut a release\n---\nBump VERSION.")
	list, _ := Load([]Dir{{dir, "user"}})
	tl := NewTool(list)
	if !strings.Contains(tl.Description(), "- release: Cut a release") {
		t.Fatal(tl.Description())
	}
	if _, err := tl.Prepare(nil, json.RawMessage(`{"skill":"nope"}`)); err == nil || !strings.Contains(err.Error(), "release") {
		t.Fatalf("unknown skill: %v", err)
	}
	c, err := tl.Prepare(nil, json.RawMessage(`{"skill":"release"}`))
	if err != nil {
		t.Fatal(err)
	}
	if a := c.Access(); len(a.Paths) != 1 || a.Paths[0] != p {
		t.Fatalf("access %+v", a)
	}
	// An edit since the session started is what loads.
	write(t, p, "---\ndescription: Cut a release\n---\nBump VERSION and tag it.")
	if res := c.Run(context.Background()); res.IsError || !strings.Contains(res.Content, "Bump VERSION and tag it.") {
		t.Fatalf("result %+v", res)
	}
}
