package builtin

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/tool"
)

// gated returns ctx carrying a gate over an engine with rules, as the
// agent loop gives every call it runs.
func gated(t *testing.T, rules permission.Rules, root, home string, c permission.Context) context.Context {
	t.Helper()
	e, err := permission.NewEngine(rules, root, home)
	if err != nil {
		t.Fatal(err)
	}
	return tool.WithGate(context.Background(), &tool.Gate{Engine: e, Context: c})
}

// secretTree is a project whose secrets sit where rules name them, plus
// links inside the tree to a secret outside it.
func secretTree(t *testing.T) (env *tool.Env, home string) {
	t.Helper()
	env = newEnv(t)
	home = t.TempDir()
	for rel, content := range map[string]string{
		"main.go":            "package main // MARKER\n",
		".env":               "API_KEY=MARKER-env\n",
		"svc/.env":           "DB_PASSWORD=MARKER-svc\n",
		"certs/server.pem":   "MARKER-pem\n",
		"secrets/db.txt":     "MARKER-secret\n",
		"secrets/more/x.txt": "MARKER-secret2\n",
		"docs/readme.md":     "MARKER docs\n",
	} {
		p := filepath.Join(env.Dir, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(content), 0o644)
	}
	os.MkdirAll(filepath.Join(home, ".ssh"), 0o700)
	os.WriteFile(filepath.Join(home, ".ssh", "id_rsa"), []byte("MARKER-ssh\n"), 0o600)
	os.Symlink(filepath.Join(home, ".ssh"), filepath.Join(env.Dir, "sshdir"))
	os.Symlink(filepath.Join(home, ".ssh", "id_rsa"), filepath.Join(env.Dir, "docs", "key.txt"))
	return env, home
}

func TestSearchesAndListingsHideWhatRulesDeny(t *testing.T) {
	env, home := secretTree(t)
	rules := permission.Rules{
		Deny: []string{"Read(.env)", "Read(*.pem)", "Read(~/.ssh/**)"},
		Ask:  []string{"Read(secrets/**)"},
	}
	for _, mode := range []permission.Mode{permission.ModeDefault, permission.ModeAcceptEdits, permission.ModeBypass, permission.ModePlan} {
		ctx := gated(t, rules, env.Dir, home, permission.Context{Mode: mode})
		for _, input := range []map[string]any{
			{"pattern": "MARKER", "output_mode": "content"},
			{"pattern": "MARKER", "output_mode": "files_with_matches", "-i": true},
			{"pattern": "MARKER", "output_mode": "count", "glob": "**/*"},
			{"pattern": "MARKER", "path": "docs"},
		} {
			res := prepare(t, NewGrep(), env, input).Run(ctx)
			for _, leak := range []string{"MARKER-env", "MARKER-svc", "MARKER-pem", "MARKER-secret", "MARKER-ssh", ".env", "server.pem", "id_rsa", "key.txt", "db.txt"} {
				if strings.Contains(res.Content, leak) {
					t.Errorf("%s: Grep %v shows %q:\n%s", mode, input, leak, res.Content)
				}
			}
			// (Grep does not follow links, so docs/ hides nothing.)
			if input["path"] == nil && !strings.Contains(res.Content, "hidden by permission rules") {
				t.Errorf("%s: Grep %v does not say what it hid:\n%s", mode, input, res.Content)
			}
		}
		res := prepare(t, NewGrep(), env, map[string]any{"pattern": "MARKER"}).Run(ctx)
		if !strings.Contains(res.Content, "main.go") || !strings.Contains(res.Content, "needs approval (Read(secrets/**))") {
			t.Errorf("%s: Grep should still find main.go and name the ask rule:\n%s", mode, res.Content)
		}

		glob := prepare(t, NewGlob(), env, map[string]any{"pattern": "**/*"}).Run(ctx)
		ls := prepare(t, NewLS(), env, map[string]any{"path": "."}).Run(ctx)
		for name, res := range map[string]tool.Result{"Glob": glob, "LS": ls} {
			for _, leak := range []string{".env", "server.pem", "sshdir", "key.txt", "db.txt"} {
				if strings.Contains(res.Content, leak) {
					t.Errorf("%s: %s shows %q:\n%s", mode, name, leak, res.Content)
				}
			}
			if !strings.Contains(res.Content, "main.go") || !strings.Contains(res.Content, "hidden by permission rules") {
				t.Errorf("%s: %s result:\n%s", mode, name, res.Content)
			}
		}
	}
}

// Without rules that could refuse a read, nothing is hidden and nothing
// is said.
func TestSearchesWithoutRulesSayNothing(t *testing.T) {
	env, home := secretTree(t)
	ctx := gated(t, permission.Rules{Allow: []string{"Bash(ls:*)"}}, env.Dir, home, permission.Context{Mode: permission.ModeDefault})
	res := prepare(t, NewGrep(), env, map[string]any{"pattern": "MARKER-env"}).Run(ctx)
	if !strings.Contains(res.Content, ".env") || strings.Contains(res.Content, "permission") {
		t.Fatalf("%s", res.Content)
	}
}

func TestFetchRedirectsMeetTheRulesAtEveryHop(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/public/next":
			http.Redirect(w, r, "/private/data", http.StatusFound)
		case "/public/dotdot":
			w.Header().Set("Location", "/public/../private/data")
			w.WriteHeader(http.StatusMovedPermanently)
		case "/public/page":
			fmt.Fprint(w, "public page")
		case "/private/data":
			fmt.Fprint(w, "TOP-SECRET")
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	deny := permission.Rules{Allow: []string{"WebFetch(" + srv.URL + "/public/)"}, Deny: []string{"WebFetch(" + srv.URL + "/private)"}}
	askOnly := permission.Rules{Allow: []string{"WebFetch(" + srv.URL + "/public/)"}}
	for name, tc := range map[string]struct {
		rules permission.Rules
		mode  permission.Mode
		want  string
	}{
		"deny rule":            {deny, permission.ModeDefault, "refused"},
		"deny rule, bypass":    {deny, permission.ModeBypass, "refused"},
		"outside the allow":    {askOnly, permission.ModeDefault, "needs approval"},
		"outside, accept edit": {askOnly, permission.ModeAcceptEdits, "needs approval"},
	} {
		ctx := gated(t, tc.rules, t.TempDir(), t.TempDir(), permission.Context{Mode: tc.mode})
		for _, path := range []string{"/public/next", "/public/dotdot"} {
			res := prepare(t, NewWebFetch(nil), newEnv(t), map[string]any{"url": srv.URL + path, "prompt": "read"}).Run(ctx)
			if strings.Contains(res.Content, "TOP-SECRET") || !strings.Contains(res.Content, tc.want) {
				t.Errorf("%s %s: %s", name, path, res.Content)
			}
		}
	}
	// In bypass mode without a deny rule, the same-host hop is followed.
	ctx := gated(t, askOnly, t.TempDir(), t.TempDir(), permission.Context{Mode: permission.ModeBypass})
	res := prepare(t, NewWebFetch(nil), newEnv(t), map[string]any{"url": srv.URL + "/public/next", "prompt": "read"}).Run(ctx)
	if !strings.Contains(res.Content, "TOP-SECRET") {
		t.Errorf("bypass: %s", res.Content)
	}
}

// A search the user approved because an ask rule covers where it starts
// shows what lies there, however the start is named.
func TestApprovedSearchShowsWhatItWasApprovedFor(t *testing.T) {
	env, home := secretTree(t)
	rules := permission.Rules{Ask: []string{"Read(secrets/**)"}, Deny: []string{"Read(*.pem)"}}
	ctx := gated(t, rules, env.Dir, home, permission.Context{Mode: permission.ModeDefault})
	for name, call := range map[string]tool.Call{
		"Glob by pattern": prepare(t, NewGlob(), env, map[string]any{"pattern": "secrets/**/*.txt"}),
		"Glob by path":    prepare(t, NewGlob(), env, map[string]any{"pattern": "**/*.txt", "path": "secrets"}),
		"Grep":            prepare(t, NewGrep(), env, map[string]any{"pattern": "MARKER", "path": "secrets"}),
		"LS":              prepare(t, NewLS(), env, map[string]any{"path": "secrets"}),
	} {
		res := call.Run(ctx)
		if !strings.Contains(res.Content, "db.txt") || !strings.Contains(res.Content, "x.txt") {
			t.Errorf("%s:\n%s", name, res.Content)
		}
	}
}
