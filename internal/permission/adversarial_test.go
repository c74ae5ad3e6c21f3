package permission

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAdversarialRules puts the calls a hostile model would try against
// the rules users write, in default and accept-edits mode (and bypass,
// where deny rules must still hold). Each row: the rules, the mode, the
// call, the verdict.
func TestAdversarialRules(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "proj")
	home := filepath.Join(base, "home")
	other := filepath.Join(base, "other")
	for _, d := range []string{filepath.Join(root, "src", "deep"), filepath.Join(root, "secrets"), filepath.Join(root, "docs"), filepath.Join(home, ".ssh"), other} {
		os.MkdirAll(d, 0o755)
	}
	for _, f := range []string{".env", "src/.env", "secrets/db.txt", "src/main.go", "docs/a.md"} {
		os.WriteFile(filepath.Join(root, f), []byte("x"), 0o644)
	}
	os.WriteFile(filepath.Join(home, ".ssh", "id_rsa"), []byte("k"), 0o600)
	os.WriteFile(filepath.Join(other, "notes.txt"), []byte("n"), 0o644)
	os.Symlink(filepath.Join(home, ".ssh", "id_rsa"), filepath.Join(root, "docs", "key.md"))
	os.Symlink(filepath.Join(home, ".ssh"), filepath.Join(root, "sshdir"))
	os.Symlink(filepath.Join(root, ".env"), filepath.Join(other, "env-link"))
	os.Symlink(root, filepath.Join(base, "proj-link"))

	p := func(rel string) string { return filepath.Join(root, rel) }
	read := func(tool, path string) Access { return Access{Tool: tool, Kind: KindRead, Paths: []string{path}} }
	write := func(path string) Access { return Access{Tool: "Write", Kind: KindWrite, Paths: []string{path}} }
	fetch := func(u string) Access { return Access{Tool: "WebFetch", Kind: KindNetwork, Target: u} }

	readRules := Rules{Sets: []RuleSet{{Source: SourceUser, File: "/u/settings.json",
		Deny: []string{"Read(.env)", "Read(~/.ssh/**)", "Read(//" + strings.TrimPrefix(other, "/") + "/notes.txt)"},
		Ask:  []string{"Read(secrets/**)"}}}}
	editRules := Rules{Sets: []RuleSet{{Source: SourceProject, File: "/p/.ponder/settings.json",
		Deny: []string{"Edit(/src/**)"}, Allow: []string{"Edit(docs/**)"}}}}
	netRules := Rules{Allow: []string{"WebFetch(https://docs.test/public/)", "WebFetch(domain:ok.test)"},
		Deny: []string{"WebFetch(https://docs.test/private)", "WebFetch(domain:127.0.0.1)", "WebFetch(domain:metadata.test)"}}

	def, acc, byp := Context{Mode: ModeDefault}, Context{Mode: ModeAcceptEdits}, Context{Mode: ModeBypass}
	cases := []struct {
		rules  Rules
		ctx    Context
		access Access
		want   Behavior
	}{
		// Read rules, every reading tool, every spelling.
		{readRules, def, read("Read", p(".env")), Deny},
		{readRules, def, read("Grep", p(".env")), Deny},
		{readRules, def, read("Read", p("src/.env")), Deny},
		{readRules, def, read("Read", p("src/deep/../.env")), Deny},
		{readRules, def, read("Read", filepath.Join(base, "proj-link", ".env")), Deny},
		{readRules, def, read("Read", filepath.Join(other, "env-link")), Deny},
		{readRules, byp, read("Read", p(".env")), Deny},
		{readRules, acc, read("LS", filepath.Join(home, ".ssh")), Deny},
		{readRules, def, read("Glob", p("sshdir")), Deny},
		{readRules, def, read("Read", p("docs/key.md")), Deny},
		{readRules, def, read("Grep", p("sshdir/id_rsa")), Deny},
		{readRules, def, read("Read", filepath.Join(other, "notes.txt")), Deny},
		{readRules, def, read("Read", filepath.Join(other, "..", "other", "notes.txt")), Deny},
		{readRules, def, read("Read", p("secrets/db.txt")), Ask},
		{readRules, def, read("Grep", p("secrets")), Ask},
		{readRules, def, read("Read", p("src/main.go")), Allow},
		{readRules, def, read("Grep", root), Allow},
		{readRules, def, read("Read", "/etc/hostname"), Allow},
		// Edit rules: /path is the project root, not the file system's.
		{editRules, acc, write(p("src/main.go")), Deny},
		{editRules, acc, write(p("src/deep/new.go")), Deny},
		{editRules, byp, write(filepath.Join(base, "proj-link", "src", "main.go")), Deny},
		{editRules, def, write(p("docs/b.md")), Allow},
		{editRules, def, write(p("docs/../src/main.go")), Deny},
		{editRules, def, write(p("docs/key.md")), Ask}, // a link out of the project
		{editRules, def, write("/src/main.go"), Ask},
		{editRules, acc, write(p("lib/src/x.go")), Allow},
		// Accept-edits and the files that decide what runs.
		{Rules{}, acc, write(p(".git/config")), Ask},
		{Rules{}, acc, write(p(".git/hooks/pre-push")), Ask},
		{Rules{}, acc, write(p(".ponder/settings.local.json")), Ask},
		{Rules{}, acc, write(p("src/../.envrc")), Ask},
		{Rules{}, acc, write(p(".githooks/pre-commit")), Ask},
		{Rules{}, acc, write(p("src/main.go")), Allow},
		{Rules{}, byp, write(p(".git/config")), Allow},
		// URL rules compare parsed URLs.
		{netRules, def, fetch("https://docs.test/public/guide"), Allow},
		{netRules, def, fetch("https://docs.test/public/../private/x"), Deny},
		{netRules, def, fetch("https://docs.test/%70rivate/x"), Deny},
		{netRules, def, fetch("https://DOCS.test./private"), Deny},
		{netRules, def, fetch("https://docs.test:443/private"), Deny},
		{netRules, def, fetch("https://docs.test:8443/public/x"), Ask},
		{netRules, def, fetch("http://docs.test/public/x"), Ask},
		{netRules, def, fetch("https://docs.test@evil.test/public/x"), Ask},
		{netRules, def, fetch("https://docs.test/publicity"), Ask},
		{netRules, byp, fetch("http://127.1/"), Deny},
		{netRules, byp, fetch("http://0x7f.0.0.1/"), Deny},
		{netRules, byp, fetch("http://2130706433/"), Deny},
		{netRules, byp, fetch("http://[::ffff:127.0.0.1]/"), Deny},
		{netRules, byp, fetch("http://localhost:8080/"), Deny},
		{netRules, byp, fetch("http://ok.test@127.0.0.1/"), Deny},
		{netRules, byp, fetch(`http://ok.test\@127.0.0.1/`), Deny},
		{netRules, byp, fetch("http://METADATA.test./latest"), Deny},
		{netRules, def, fetch("https://api.ok.test/x"), Allow},
		{netRules, def, fetch("https://ok.test.evil.test/x"), Ask},
	}
	for i, tc := range cases {
		t.Run(fmt.Sprintf("%d-%s-%s", i, tc.ctx.Mode, tc.access.Tool), func(t *testing.T) {
			e, err := NewEngine(tc.rules, root, home)
			if err != nil {
				t.Fatal(err)
			}
			d := e.Decide(tc.ctx, tc.access)
			if d.Behavior != tc.want {
				t.Fatalf("%+v in %s: %s (%s: %s), want %s", tc.access, tc.ctx.Mode, d.Behavior, d.Rule, d.Reason, tc.want)
			}
			if strings.HasPrefix(d.Rule, "deny rule") && !strings.Contains(d.Reason, "settings.json") && !strings.Contains(d.Reason, "command line") {
				t.Errorf("the reason does not say where the rule was written: %s", d.Reason)
			}
		})
	}
}
