package permission

import (
	"os"
	"path/filepath"
	"testing"
)

// The files a shell line names meet the Read and Edit rules: reading a
// file a Read rule denies is denied, writing one an Edit rule denies is
// denied, in any mode.
func TestShellFilesMeetFileRules(t *testing.T) {
	fx := newFixture(t)
	os.WriteFile(filepath.Join(fx.root, ".env"), []byte("SECRET=1\n"), 0o644)
	os.WriteFile(filepath.Join(fx.root, "README"), []byte("readme\n"), 0o644)
	os.MkdirAll(filepath.Join(fx.root, "secrets"), 0o755)
	e, err := NewEngine(Rules{
		Deny: []string{"Read(.env)", "Read(~/.ssh/**)", "Edit(/src/**)", "Write(/src/**)"},
		Ask:  []string{"Read(secrets/**)"},
	}, fx.root, fx.home)
	if err != nil {
		t.Fatal(err)
	}
	e.SetSandbox(SandboxPolicy{Available: true})
	cases := []struct {
		cmd  string
		want Behavior
	}{
		{"cat .env", Deny}, {"base64 .env", Deny}, {"head -n 5 .env", Deny}, {"cat < .env", Deny},
		{"grep -e x .env", Deny}, {"grep x .env README", Deny}, {"sed -n 1p .env", Deny}, {"cp .env /tmp/x", Deny},
		{"cat ~/.ssh/id_rsa", Deny}, {"xxd " + filepath.Join(fx.home, ".ssh", "id_rsa"), Deny}, {"cat services/api/.env", Deny},
		{"cd services && cat api/.env", Deny}, {"tar -cf /tmp/x.tar .env", Deny},
		{"echo x > src/a.txt", Deny}, {"sed -i s/a/b/ src/a.txt", Deny}, {"echo x | tee src/a.txt", Deny},
		{"cd src && echo x > a.txt", Deny}, {"cp README src/a.txt", Deny}, {"mv src/a.txt b", Deny}, {"rm src/a.txt", Deny},
		{"dd if=README of=src/a.txt", Deny}, {"perl -pi -e s/a/b/ src/a.txt", Deny}, {"touch src/new", Deny},
		{"cat secrets/key", Ask},
		// A program whose use of its words is not known is denied when
		// any word names a denied file, whatever the mode: it may read
		// or write it.
		{"gzip -c .env", Deny}, {"iconv -f utf8 -t utf8 .env", Deny}, {"ed .env", Deny}, {"vim -es src/a.txt", Deny},
		{"git add -N .env", Deny}, {"git checkout -- src/a.txt", Deny}, {"some-tool --input=.env", Deny},
		{"some-tool -o.env", Deny}, {"cd services && gzip -c api/.env", Deny}, {"xargs gzip -c .env < /dev/null", Deny},
		{"perl -ne print .env", Deny},
		// An edit in place reads the file too; an option that writes
		// meets the Edit rules.
		{"sed -i 's/S/S/w /dev/stdout' .env", Deny}, {"perl -pi -e 1 .env", Deny},
		{"sort -o src/a.txt README", Deny}, {"uniq README src/a.txt", Deny},
		// What the line does not name as a file is not judged here.
		{"grep .env README", Allow}, {"cat README", Allow}, {"echo .env", Allow}, {"cd src; cd ..; cat README", Allow},
	}
	for _, mode := range []Mode{ModeDefault, ModeBypass} {
		for _, tc := range cases {
			d := e.Decide(Context{Mode: mode}, Access{Tool: "Bash", Kind: KindExec, Command: tc.cmd, Dir: fx.root})
			want := tc.want
			if mode == ModeDefault && want == Allow && tc.cmd == "cd src; cd ..; cat README" {
				want = Allow
			}
			if d.Behavior != want {
				t.Errorf("%s: %q = %s (%s), want %s", mode, tc.cmd, d.Behavior, d.Reason, want)
			}
		}
	}
}
