package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// Options through which an allowed command writes a file or runs another
// program need their own yes; the evidence is on disk.
func TestAllowRulesDoNotCoverOptionsThatWriteOrRun(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api)
		base := filepath.Dir(w.dir)
		home := filepath.Dir(w.cfg)
		m := func(n string) string { return filepath.Join(base, "escaped-"+n) }
		w.write("a.txt", "one\n")
		w.write("README.md", "readme\n")
		w.write("go.mod", "module ex\n\ngo 1.21\n")
		w.write("x_test.go", "package ex\nimport \"testing\"\nfunc TestX(t *testing.T){}\n")
		w.git("init", "-q")
		w.git("add", ".")
		w.git("commit", "-qm", "start")
		w.write("a.txt", "two\n")
		remote := filepath.Join(base, "remote.git")
		if out, err := exec.Command("git", "init", "-q", "--bare", remote).CombinedOutput(); err != nil {
			t.Fatalf("%v %s", err, out)
		}
		w.git("remote", "add", "origin", remote)
		bashrc := filepath.Join(home, ".bashrc")
		os.WriteFile(bashrc, []byte("# original\n"), 0o644)

		attacks := []string{
			"git diff --output=" + bashrc,
			"git log --output=" + m("log"),
			"git show --output=" + m("show"),
			"git archive -o " + m("archive") + " HEAD",
			"sort -o " + m("sort") + " README.md",
			"find . -maxdepth 0 -fprint " + m("find"),
			"xxd README.md " + m("xxd"),
			`git grep --open-files-in-pager="touch ` + m("grep") + ` #" two`,
			`git fetch --upload-pack="touch ` + m("fetch") + `;git-upload-pack" origin`,
			`git ls-remote --upload-pack="touch ` + m("lsremote") + `;git-upload-pack" origin`,
			`git archive --remote=` + remote + ` --exec="touch ` + m("rarchive") + `;git-upload-archive" HEAD`,
			`go test -exec "sh -c 'touch ` + m("gotest") + `'" ./...`,
			"go test -coverprofile=" + m("cover") + " ./...",
		}
		rules := "Bash(git diff:*),Bash(git log:*),Bash(git show:*),Bash(git archive:*),Bash(sort:*),Bash(find:*)," +
			"Bash(xxd:*),Bash(git grep:*),Bash(git fetch:*),Bash(git ls-remote:*),Bash(go test:*)"
		var cs []fakemodel.ToolCall
		for _, c := range attacks {
			cs = append(cs, bashCall(c))
		}
		cs = append(cs, bashCall("sort -u README.md"), bashCall("git diff --stat"))
		w.srv.Add(callsThenDone("use the tools", cs)...)
		w.mustRun(0, "", "-p", "use the tools", "--allowedTools", rules)
		res := w.lastResults(len(cs))
		for i, c := range attacks {
			if !failed(res[i]) || !strings.Contains(res[i].Content, "nobody can give it") {
				t.Errorf("%q was not refused: %q", c, res[i].Content)
			}
		}
		for _, n := range []string{"log", "show", "archive", "sort", "find", "xxd", "grep", "fetch", "lsremote", "rarchive", "gotest", "cover"} {
			if _, err := os.Stat(m(n)); err == nil {
				t.Errorf("%s: an allowed command's option wrote or ran", n)
			}
		}
		if data, _ := os.ReadFile(bashrc); string(data) != "# original\n" {
			t.Errorf("~/.bashrc was changed: %q", data)
		}
		if r := res[len(attacks)]; failed(r) || !strings.Contains(r.Content, "readme") {
			t.Errorf("sort -u: %q", r.Content)
		}
		if r := res[len(attacks)+1]; failed(r) || !strings.Contains(r.Content, "a.txt") {
			t.Errorf("git diff --stat: %q", r.Content)
		}

		// The attacks are real: where everything is allowed, they write
		// and run.
		controls := []int{1, 4, 7, 8}
		var ctl []fakemodel.ToolCall
		for _, i := range controls {
			ctl = append(ctl, bashCall(attacks[i]))
		}
		w.srv.Add(calls("bypass", ctl...)...)
		w.mustRun(0, "", "-p", "bypass", "--dangerously-skip-permissions", "--permission-mode", "bypassPermissions")
		for _, n := range []string{"log", "sort", "grep", "fetch"} {
			if _, err := os.Stat(m(n)); err != nil {
				t.Errorf("control: %s did not write or run in bypass mode, so the test proves nothing", n)
			}
		}
	})
}
