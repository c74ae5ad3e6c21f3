package permission

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The examples of Claude Code's permission documentation, whose settings
// ponder reads the same way: gitignore patterns with //, ~/, / and
// relative forms.
func TestPathPatternsFollowTheDocumentedSyntax(t *testing.T) {
	const root, home = "/work/proj", "/home/alice"
	cases := []struct {
		spec, path string
		want       bool
	}{
		// //path is absolute.
		{"//Users/alice/secrets/**", "/Users/alice/secrets/key.pem", true},
		{"//Users/alice/secrets/**", "/Users/alice/secrets/deep/er/key", true},
		{"//Users/alice/secrets/**", "/Users/alice/secrets", true},
		{"//Users/alice/secrets/**", "/Users/alice/secretsx/key", false},
		{"//Users/alice/secrets/**", root + "/Users/alice/secrets/key", false},
		{"//tmp/scratch.txt", "/tmp/scratch.txt", true},
		{"//tmp/scratch.txt", "/tmp/scratch.txt.bak", false},
		// ~/path is below the home directory.
		{"~/Documents/*.pdf", home + "/Documents/a.pdf", true},
		{"~/Documents/*.pdf", home + "/Documents/sub/a.pdf", false},
		{"~/Documents/*.pdf", "/other/Documents/a.pdf", false},
		{"~/.zshrc", home + "/.zshrc", true},
		{"~/.ssh/**", home + "/.ssh/id_ed25519", true},
		{"~/.ssh/**", home + "/.ssh", true},
		{"~/.ssh", home + "/.ssh/id_rsa", true},
		// A wildcard segment stands for one directory name.
		{"src/*/secret.txt", root + "/src/a/secret.txt", true},
		{"src/*/secret.txt", root + "/src/a/b/secret.txt", false},
		{"//abs/teams/*/team.key", "/abs/teams/core/team.key", true},
		{"~/*/id_rsa", home + "/.ssh/id_rsa", true},
		// /path is below the project root, never absolute.
		{"/src/**/*.ts", root + "/src/a.ts", true},
		{"/src/**/*.ts", root + "/src/x/y/z.ts", true},
		{"/src/**/*.ts", root + "/src/x/y/z.tsx", false},
		{"/src/**/*.ts", root + "/lib/src/a.ts", false},
		{"/Users/alice/file", "/Users/alice/file", false},
		{"/Users/alice/file", root + "/Users/alice/file", true},
		{"/src/*.ts", root + "/src/a.ts", true},
		{"/src/*.ts", root + "/src/sub/a.ts", false},
		// A pattern without a slash matches at any depth below the root.
		{"*.env", root + "/prod.env", true},
		{"*.env", root + "/config/dev.env", true},
		{".env", root + "/.env", true},
		{".env", root + "/services/api/.env", true},
		{".env", root + "/.env.local", false},
		{".env", "/elsewhere/.env", false},
		{"*.pem", root + "/a/b/c/server.pem", true},
		{"*.pem", root + "/server.pem.txt", false},
		// ./path and path/with/slash are anchored at the root.
		{"./.env", root + "/.env", true},
		{"./.env", root + "/sub/.env", false},
		{"docs/**", root + "/docs/guide/intro.md", true},
		{"docs/**", root + "/src/docs/x.md", false},
		{"src/gen/*.go", root + "/src/gen/a.go", true},
		// A pattern naming a directory covers what is inside it.
		{"secrets", root + "/secrets/db/password", true},
		{"secrets", root + "/app/secrets/k", true},
		{"/build", root + "/build/out/bin", true},
		{"*.d", root + "/conf.d/x", true},
		// ** and ranges.
		{"**/id_rsa", root + "/id_rsa", true},
		{"**/id_rsa", root + "/a/b/id_rsa", true},
		{"**", root + "/anything/at/all", true},
		{"key[0-9].txt", root + "/key7.txt", true},
		{"key[0-9].txt", root + "/keyx.txt", false},
		// .. in a pattern is resolved.
		{"../shared/**", "/work/shared/x", true},
		{"/../proj/.env", root + "/.env", true},
		// Escapes.
		{`\*.txt`, root + "/*.txt", true},
		{`\*.txt`, root + "/a.txt", false},
	}
	for _, tc := range cases {
		p, err := compilePath(tc.spec, root, home)
		if err != nil {
			t.Errorf("compilePath(%q): %v", tc.spec, err)
			continue
		}
		if got := p.match(tc.path, func() bool { return false }, false); got != tc.want {
			t.Errorf("%q matches %q = %v, want %v", tc.spec, tc.path, got, tc.want)
		}
	}
}

func TestDirectoryOnlyPatterns(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "logs"), 0o755)
	os.WriteFile(filepath.Join(root, "cache"), nil, 0o644)
	e, err := NewEngine(Rules{Deny: []string{"Read(logs/)", "Read(cache/)"}}, root, "/home/x")
	if err != nil {
		t.Fatal(err)
	}
	read := func(p string) Behavior {
		return e.Decide(Context{Mode: ModeDefault}, Access{Tool: "Read", Kind: KindRead, Paths: []string{filepath.Join(root, p)}}).Behavior
	}
	if read("logs") != Deny || read("logs/today.txt") != Deny {
		t.Error("a directory-only pattern must cover the directory and its files")
	}
	if read("cache") != Allow {
		t.Error("a directory-only pattern must not match a file of that name")
	}
}

func TestRulesThatCanNeverMatchAreRejected(t *testing.T) {
	bad := map[string]string{
		"Read(":                    "want Tool",
		"Read()":                   "empty",
		"Read(!secrets/**)":        "negate",
		"Edit(src/[a-z.go)":        "never closed",
		"Read(~bob/.ssh/**)":       "~user",
		"WebFetch(example.com)":    "domain:example.com",
		"WebFetch(domain:a/b)":     "not a host",
		"WebFetch(ftp//x)":         "domain:",
		`Read(foo\)`:               "backslash",
		"WebFetch(http://a b/)":    "cannot be parsed",
		"WebFetch(domain:x:99999)": "port",
	}
	for text, want := range bad {
		_, err := NewEngine(Rules{Sets: []RuleSet{{Source: SourceProject, File: "/p/.ponder/settings.json", Deny: []string{text}}}}, "/p", "/h")
		if err == nil {
			t.Errorf("%s was accepted", text)
			continue
		}
		if !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "/p/.ponder/settings.json") || !strings.Contains(err.Error(), "permissions.deny") {
			t.Errorf("%s: error %q should name the file, the list and %q", text, err, want)
		}
	}
}

func TestSuspiciousRulesAreWarnedAbout(t *testing.T) {
	root := t.TempDir()
	cases := map[string]string{
		"Bash(rm*)":           "Bash(rm:*)",
		"Bash(git * --force)": "literal command",
		"Reed(x)":             "no tool",
		"Read(/etc/passwd)":   "Read(//etc/passwd)",
		"TodoWrite(x)":        "takes no specifier",
	}
	for text, want := range cases {
		e, err := NewEngine(Rules{Sets: []RuleSet{{Source: SourceUser, File: "/u/settings.json", Deny: []string{text}}}}, root, "/h")
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		w := strings.Join(e.Warnings(), "\n")
		if !strings.Contains(w, want) || !strings.Contains(w, "/u/settings.json") {
			t.Errorf("%s: warnings %q should name the file and say %q", text, w, want)
		}
	}
	for _, fine := range []string{"Bash(git diff:*)", "Bash(npm test *)", "Read(/src/**)", "Read(//etc/passwd)", "mcp__db__query", "Task(Explore)", "WebFetch(domain:x.dev)"} {
		e, err := NewEngine(Rules{Allow: []string{fine}}, root, "/h")
		if err != nil || len(e.Warnings()) > 0 {
			t.Errorf("%s: %v %v", fine, err, e.Warnings())
		}
	}
}

// A path reached through a symlinked project root, or through a link to a
// file below it, meets the rules written for the root as given.
func TestPathRulesSeeThroughSymlinks(t *testing.T) {
	base := t.TempDir()
	real := filepath.Join(base, "real")
	os.MkdirAll(filepath.Join(real, "conf"), 0o755)
	os.WriteFile(filepath.Join(real, "conf", ".env"), []byte("K=1"), 0o644)
	link := filepath.Join(base, "link")
	os.Symlink(real, link)
	os.Symlink(filepath.Join(real, "conf", ".env"), filepath.Join(base, "innocent.txt"))
	for _, root := range []string{real, link} {
		e, err := NewEngine(Rules{Deny: []string{"Read(.env)", "Read(/conf/**)"}}, root, "/h")
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{
			filepath.Join(real, "conf", ".env"),
			filepath.Join(link, "conf", ".env"),
			filepath.Join(base, "innocent.txt"),
			filepath.Join(link, "conf", "..", "conf", ".env"),
		} {
			if d := e.Decide(Context{Mode: ModeBypass}, Access{Tool: "Read", Kind: KindRead, Paths: []string{p}}); d.Behavior != Deny {
				t.Errorf("root %s: reading %s = %s", root, p, d.Behavior)
			}
		}
	}
}

func TestBracesExpand(t *testing.T) {
	cases := map[string]string{
		"src/*.{ts,tsx}":  "src/*.ts src/*.tsx",
		"{a,b}/{c,d}":     "a/c a/d b/c b/d",
		"x{a,{b,c}}y":     "xay xby xcy",
		"no-braces":       "no-braces",
		`lit\{a,b}`:       `lit\{a,b}`,
		"{single}":        "{single}",
		"*.{pem,key,p12}": "*.pem *.key *.p12",
	}
	for in, want := range cases {
		if got := strings.Join(expandBraces(in), " "); got != want {
			t.Errorf("expandBraces(%q) = %q, want %q", in, got, want)
		}
	}
	e, err := NewEngine(Rules{Deny: []string{"Read(*.{pem,key})"}}, "/p", "/h")
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]Behavior{"/p/a/server.key": Deny, "/p/b.pem": Deny, "/p/c.crt": Allow} {
		if got := e.Decide(Context{Mode: ModeDefault}, Access{Tool: "Read", Kind: KindRead, Paths: []string{path}}).Behavior; got != want {
			t.Errorf("%s: %s, want %s", path, got, want)
		}
	}
}
