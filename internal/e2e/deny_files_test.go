package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// secretsWorld is a project with a .env, a key in ~/.ssh and another
// name (a hard link) for each, and user settings that deny reading them.
func secretsWorld(t *testing.T, api string) (*world, string) {
	t.Helper()
	w := newWorld(t, api)
	home := filepath.Dir(w.cfg)
	w.write(".env", "DB_PASSWORD=ENVSECRET-HUNTER2\n")
	w.write("services/api/.env", "API_TOKEN=NESTED-HUNTER3\n")
	w.write("README.md", "readme\n")
	os.MkdirAll(filepath.Join(home, ".ssh"), 0o700)
	os.WriteFile(filepath.Join(home, ".ssh", "id_rsa"), []byte("PRIVATE-SSH-KEY-MATERIAL\n"), 0o600)
	if err := os.Link(filepath.Join(w.dir, ".env"), filepath.Join(w.dir, "hard.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(filepath.Join(home, ".ssh", "id_rsa"), filepath.Join(home, "hardkey")); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(w.cfg, 0o755)
	os.WriteFile(filepath.Join(w.cfg, "settings.json"), []byte(`{"permissions":{"deny":["Read(.env)","Read(~/.ssh/**)"]}}`), 0o644)
	return w, home
}

// secretLeaked reports whether any request to the fake model carried a secret.
func secretLeaked(w *world) string {
	for _, r := range w.srv.Requests() {
		for _, s := range []string{"HUNTER2", "HUNTER3", "PRIVATE-SSH", "REJfUEFTU1dPUkQ9RU5WU0VDUkVULUhVTlRFUjIK"} {
			if strings.Contains(string(r.Body), s) {
				return s
			}
		}
	}
	return ""
}

// Read deny rules hold for what shell commands read, by name or not, and
// for every name of a denied file: the decision refuses what the line
// names, and the kernel keeps every command from the rest.
func TestReadDenyRulesHoldForCommandsAndLinks(t *testing.T) {
	haveSandbox(t, "landlock")
	forAPIs(t, func(t *testing.T, api string) {
		w, home := secretsWorld(t, api)
		lines := []string{
			"cat .env", "grep -r HUNTER .", "cat ~/.ssh/id_rsa", "base64 .env", "cat hard.txt", "cat " + filepath.Join(home, "hardkey"),
			"find . -name '.env' -exec cat {} +", "cat services/api/.env", "tar -cf - . | tar -xOf -",
		}
		var cs []fakemodel.ToolCall
		for _, l := range lines {
			cs = append(cs, bashCall(l))
		}
		cs = append(cs,
			fakemodel.ToolCall{Name: "Read", Input: map[string]any{"file_path": "hard.txt"}},
			fakemodel.ToolCall{Name: "Read", Input: map[string]any{"file_path": filepath.Join(home, "hardkey")}},
			fakemodel.ToolCall{Name: "Grep", Input: map[string]any{"pattern": "HUNTER", "output_mode": "content"}},
			bashCall("cat README.md"))
		w.srv.Add(callsThenDone("look for secrets", cs)...)
		w.mustRun(0, "", "-p", "look for secrets")
		if s := secretLeaked(w); s != "" {
			t.Fatalf("a denied secret (%s) reached the model", s)
		}
		res := w.lastResults(len(cs))
		if r := res[len(res)-1]; failed(r) || !strings.Contains(r.Content, "readme") {
			t.Errorf("cat README.md: %q", r.Content)
		}
		for i, want := range []string{"Read(.env)", "", "Read(~/.ssh/**)", "Read(.env)", "hard link"} {
			if want != "" && !strings.Contains(res[i].Content, want) {
				t.Errorf("%q: the refusal does not say why: %q", lines[i], res[i].Content)
			}
		}

		// Bypass mode and an Explore agent are held the same way.
		// So are programs whose use of a word ponder cannot tell: a word
		// naming a denied file is enough.
		w.srv.Add(callsThenDone("bypass secrets", []fakemodel.ToolCall{bashCall("cat .env"), bashCall("cat hard.txt"), bashCall("grep -r HUNTER ."),
			bashCall("python3 -c \"print(open('" + filepath.Join(home, ".ssh", "id_rsa") + "').read())\""),
			bashCall("gzip -c .env | gunzip"), bashCall("iconv -f utf8 -t utf8 .env"), bashCall("sed -i 's/X/X/w /dev/stdout' .env")})...)
		w.mustRun(0, "", "-p", "bypass secrets", "--dangerously-skip-permissions", "--permission-mode", "bypassPermissions")
		w.srv.Add(
			fakemodel.Reply{Name: "launch", When: fakemodel.Match{LastUser: "explore secrets"}, ToolCalls: []fakemodel.ToolCall{taskCall("Explore", "read the env")}},
			agentReply("read the env", fakemodel.Reply{ToolCalls: []fakemodel.ToolCall{bashCall("cat .env"), bashCall("grep -r HUNTER .")}}),
			fakemodel.Reply{Name: "agent done", When: fakemodel.Match{FirstUser: "read the env", Func: func(r *fakemodel.Request) bool {
				return len(r.LastUser().ToolResults) == 2
			}}, Text: "explored"},
			fakemodel.Reply{Name: "main done", When: fakemodel.Match{ToolResult: "explored"}, Text: "done"},
		)
		w.mustRun(0, "", "-p", "explore secrets")
		if s := secretLeaked(w); s != "" {
			t.Fatalf("a denied secret (%s) reached the model in bypass mode or through an agent", s)
		}

		// The secrets are real: without the rules they are read.
		os.Remove(filepath.Join(w.cfg, "settings.json"))
		w.srv.Add(calls("no rules", bashCall("cat hard.txt"))...)
		w.mustRun(0, "", "-p", "no rules")
		if secretLeaked(w) == "" {
			t.Error("control: without rules the file was not read, so the test proves nothing")
		}
	})
}

// Edit deny rules hold for what shell commands write, in bypass mode where
// they are the only guard.
func TestEditDenyRulesHoldForCommands(t *testing.T) {
	haveSandbox(t, "landlock")
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api)
		w.write("src/a.txt", "orig\n")
		w.write("src/deep/b.txt", "orig\n")
		lines := []string{
			"echo PWNED > src/a.txt", "sed -i s/orig/PWNED/ src/a.txt", "echo PWNED | tee src/a.txt", "cd src && echo PWNED > a.txt",
			"cp src/a.txt x && cp x src/deep/b.txt", "echo PWNED >> src/deep/b.txt", "echo PWNED > src/new.txt",
			"mv src/deep/b.txt gone.txt", "rm src/a.txt",
			"echo PWNED > y && sort -o src/a.txt y", "uniq y src/deep/b.txt", "echo PWNED > y && some-tool --out=src/a.txt",
		}
		var cs []fakemodel.ToolCall
		for _, l := range lines {
			cs = append(cs, bashCall(l))
		}
		cs = append(cs, bashCall("echo fine > sub.txt && mkdir -p other && echo fine > other/x.txt"))
		w.srv.Add(callsThenDone("change things", cs)...)
		w.mustRun(0, "", "-p", "change things", "--dangerously-skip-permissions", "--permission-mode", "bypassPermissions",
			"--disallowedTools", "Edit(/src/**),Write(/src/**)")
		for _, f := range []string{"src/a.txt", "src/deep/b.txt"} {
			if got := w.read(f); got != "orig\n" {
				t.Errorf("%s was changed: %q", f, got)
			}
		}
		if w.exists("src/new.txt") {
			t.Error("a file was created in a denied directory")
		}
		res := w.lastResults(len(cs))
		if r := res[len(res)-1]; failed(r) || w.read("other/x.txt") != "fine\n" {
			t.Errorf("writing elsewhere failed: %q", r.Content)
		}
		if !strings.Contains(res[0].Content, "Edit(/src/**)") {
			t.Errorf("the refusal does not name the rule: %q", res[0].Content)
		}
		// The writes are real: without the rule they land.
		w.srv.Add(calls("no rule", bashCall(lines[5]))...)
		w.mustRun(0, "", "-p", "no rule", "--dangerously-skip-permissions", "--permission-mode", "bypassPermissions")
		if w.read("src/deep/b.txt") != "orig\nPWNED\n" {
			t.Error("control: the write did not land without the rule, so the test proves nothing")
		}
	})
}

// What git keeps of a denied file is that file: its committed and staged
// copies do not reach the model, in plan mode or any other, while git
// commands limited to allowed files run.
func TestGitCopiesOfDeniedFilesStayHidden(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w, _ := secretsWorld(t, api)
		for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "init"}} {
			cmd := exec.Command("git", args...)
			cmd.Dir = w.dir
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("git %v: %v %s", args, err, out)
			}
		}
		lines := []string{"git show HEAD:.env", "git log -p", "git diff --cached HEAD~0", "git grep HUNTER HEAD", "git cat-file -p HEAD:services/api/.env", "git show HEAD:hard.txt", "git log -p -- README.md"}
		var cs []fakemodel.ToolCall
		for _, l := range lines {
			cs = append(cs, bashCall(l))
		}
		w.srv.Add(callsThenDone("dig in git", cs)...)
		w.mustRun(0, "", "-p", "dig in git", "--permission-mode", "plan")
		if s := secretLeaked(w); s != "" {
			t.Fatalf("a denied secret (%s) reached the model from git", s)
		}
		res := w.lastResults(len(cs))
		if r := res[len(res)-1]; failed(r) || !strings.Contains(r.Content, "readme") {
			t.Errorf("git log -p -- README.md: %q", r.Content)
		}
		// The copies are real: without the rules git prints them.
		os.Remove(filepath.Join(w.cfg, "settings.json"))
		w.srv.Add(calls("no rules", bashCall("git show HEAD:.env"))...)
		w.mustRun(0, "", "-p", "no rules", "--permission-mode", "plan")
		if secretLeaked(w) == "" {
			t.Error("control: without rules git did not print the file, so the test proves nothing")
		}
	})
}
