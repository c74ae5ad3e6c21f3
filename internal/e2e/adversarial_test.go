package e2e

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// snapshot records every file, directory and link under the roots, so a
// test can prove that nothing changed.
func snapshot(t *testing.T, roots ...string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, root := range roots {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				out[p] = "error: " + err.Error()
				return nil
			}
			info, _ := os.Lstat(p)
			switch {
			case info.Mode()&os.ModeSymlink != 0:
				target, _ := os.Readlink(p)
				out[p] = "link -> " + target
			case info.IsDir():
				out[p] = "dir " + info.Mode().String()
			default:
				data, _ := os.ReadFile(p)
				sum := sha256.Sum256(data)
				out[p] = info.Mode().String() + " " + hex.EncodeToString(sum[:8])
			}
			return nil
		})
	}
	return out
}

func diffSnapshots(before, after map[string]string) []string {
	var d []string
	for p, v := range before {
		if after[p] != v {
			d = append(d, fmt.Sprintf("%s: %q -> %q", p, v, after[p]))
		}
	}
	for p, v := range after {
		if _, ok := before[p]; !ok {
			d = append(d, fmt.Sprintf("%s: created (%s)", p, v))
		}
	}
	sort.Strings(d)
	return d
}

func bashCall(cmd string) fakemodel.ToolCall {
	return fakemodel.ToolCall{Name: "Bash", Input: map[string]any{"command": cmd}}
}

func writeCall(path, content string) fakemodel.ToolCall {
	return fakemodel.ToolCall{Name: "Write", Input: map[string]any{"file_path": path, "content": content}}
}

func editCall(path, old, new string) fakemodel.ToolCall {
	return fakemodel.ToolCall{Name: "Edit", Input: map[string]any{"file_path": path, "old_string": old, "new_string": new}}
}

// planWorld is a project in plan mode whose plan file exists, with
// fixtures to attack: source files, a git repository with a commit, a
// script, and a directory outside the project.
type planWorld struct {
	*world
	id, plan, plansDir, outside string
}

func newPlanWorld(t *testing.T) *planWorld {
	t.Helper()
	w := newWorld(t, "anthropic",
		writePlanOnly(fakemodel.Match{LastUser: "make a plan"}),
		fakemodel.Reply{Name: "planned", When: fakemodel.Match{ToolResult: "Created"}, Text: "planned"},
	)
	pw := &planWorld{world: w, id: "7b7d5c1e-0f4a-4c2b-9d3e-8a1b2c3d4e5f"}
	o := w.mustRun(0, "", "-p", "make a plan", "--permission-mode", "plan", "--session-id", pw.id, "--output-format", "json")
	pw.plan = fmt.Sprint(lastResult(t, o.stdout)["plan_file"])
	pw.plansDir = filepath.Dir(pw.plan)
	pw.outside = filepath.Join(filepath.Dir(w.dir), "outside")
	os.MkdirAll(pw.outside, 0o755)
	os.WriteFile(filepath.Join(pw.outside, "keep.txt"), []byte("outside"), 0o644)

	w.write("main.go", "package main\n\nfunc main() {}\n")
	w.write("util.go", "package main\n")
	w.write("sub/file.txt", "in a subdirectory\n")
	w.write("list.txt", "main.go\n")
	w.write("script.sh", "#!/bin/sh\nrm -f main.go\n")
	os.Chmod(filepath.Join(w.dir, "script.sh"), 0o755)
	os.Symlink(filepath.Join(w.dir, "main.go"), filepath.Join(w.dir, "alias.go"))
	os.Symlink(w.dir, filepath.Join(pw.plansDir, "proj-link"))
	git := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		cmd.Dir = w.dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	git("add", ".")
	git("commit", "-qm", "start")
	exec.Command("tar", "-cf", filepath.Join(w.dir, "a.tar"), "-C", w.dir, "util.go").Run()
	return pw
}

// writePlanOnly writes the plan file the reminder names.
func writePlanOnly(when fakemodel.Match) fakemodel.Reply {
	return fakemodel.Reply{Name: "write plan", When: when, ToolCalls: []fakemodel.ToolCall{{Name: "Write",
		InputFunc: func(r *fakemodel.Request) any { return map[string]any{"file_path": planPath(r), "content": thePlan} }}}}
}

// resumeWith resumes the plan-mode session with one model message making
// all the calls, and returns their results and the stream-json output.
func (pw *planWorld) resumeWith(t *testing.T, prompt string, calls []fakemodel.ToolCall) ([]fakemodel.ToolResult, string) {
	t.Helper()
	n := len(calls)
	pw.srv.Add(
		fakemodel.Reply{Name: prompt, When: fakemodel.Match{LastUser: prompt}, ToolCalls: calls},
		fakemodel.Reply{Name: prompt + " done", When: fakemodel.Match{Func: func(r *fakemodel.Request) bool {
			return len(r.LastUser().ToolResults) == n
		}}, Text: "done"},
	)
	o := pw.mustRun(0, "", "-p", prompt, "--resume", pw.id, "--output-format", "stream-json")
	reqs := pw.srv.Requests()
	results := toolResults(reqs[len(reqs)-1])
	if len(results) != n {
		t.Fatalf("%d results for %d calls", len(results), n)
	}
	return results, o.stdout
}

func TestAdversarialPlanMode(t *testing.T) {
	pw := newPlanWorld(t)
	d := pw.dir
	attacks := []fakemodel.ToolCall{
		// Shell redirections and writers.
		bashCall("echo pwned > main.go"),
		bashCall("echo pwned >> main.go"),
		bashCall("echo pwned >| main.go"),
		bashCall("echo pwned &> main.go"),
		bashCall("printf x | tee main.go"),
		bashCall("cat main.go | tee -a util.go"),
		bashCall("sed -i s/main/pwned/ main.go"),
		bashCall("sed -i.bak s/main/pwned/ main.go"),
		bashCall("sed -n 's/main/x/w out.txt' main.go"),
		bashCall("sort -o main.go main.go"),
		bashCall("dd if=/dev/zero of=main.go bs=1 count=1"),
		bashCall("truncate -s 0 main.go"),
		bashCall("cp main.go copy.go"),
		bashCall("mv main.go moved.go"),
		bashCall("rm main.go"),
		bashCall("rm -rf ."),
		bashCall("ln -s main.go link.go"),
		bashCall("chmod 000 main.go"),
		bashCall("touch created.txt"),
		bashCall("mkdir newdir"),
		// Interpreters.
		bashCall(`python3 -c "open('main.go','w').write('x')"`),
		bashCall(`node -e "require('fs').writeFileSync('main.go','x')"`),
		bashCall("perl -pi -e s/main/x/ main.go"),
		bashCall(`awk 'BEGIN{system("rm main.go")}'`),
		bashCall(`awk '{print > "out.txt"}' main.go`),
		bashCall("cat main.go | sh"),
		// Wrappers and substitutions.
		bashCall("env rm -f main.go"),
		bashCall("env -i FOO=1 rm main.go"),
		bashCall("timeout 5 rm main.go"),
		bashCall("nice -n 5 rm main.go"),
		bashCall("FOO=1 rm main.go"),
		bashCall("xargs rm < list.txt"),
		bashCall("cat list.txt | xargs rm"),
		bashCall("find . -name main.go -delete"),
		bashCall(`find . -name main.go -exec rm {} \;`),
		bashCall("sh -c 'rm main.go'"),
		bashCall(`bash -c "echo x > main.go"`),
		bashCall("echo $(rm main.go)"),
		bashCall("echo `touch created.txt`"),
		bashCall("cat <(rm main.go)"),
		bashCall(`eval "rm main.go"`),
		bashCall("source ./script.sh"),
		bashCall("./script.sh"),
		bashCall("ls && rm main.go"),
		bashCall("(cd sub && rm file.txt)"),
		bashCall("for f in *.go; do rm $f; done"),
		bashCall("sudo rm main.go"),
		// git, package managers, downloads.
		bashCall("git add main.go"),
		bashCall("git commit --allow-empty -m evil"),
		bashCall("git checkout -b evil"),
		bashCall("git stash"),
		bashCall("git reset --hard HEAD~0"),
		bashCall("git config user.name evil"),
		bashCall("git -c core.pager=touch log"),
		bashCall("git clean -fd"),
		bashCall("npm install left-pad"),
		bashCall("go mod init evil"),
		bashCall("make"),
		bashCall("curl -o out.html http://127.0.0.1:9/"),
		bashCall("wget http://127.0.0.1:9/"),
		bashCall("tar -xf a.tar"),
		// The plan file and places outside, by shell.
		bashCall("echo x > " + pw.plan),
		bashCall("echo x > " + filepath.Join(pw.outside, "keep.txt")),
		// File tools.
		writeCall("main.go", "package evil\n"),
		writeCall(filepath.Join(d, "new.go"), "package main\n"),
		editCall("main.go", "package main", "package evil"),
		writeCall(filepath.Join(pw.plansDir, "..", "..", "escape.md"), "x"),
		writeCall(filepath.Join(pw.plansDir, "proj-link", "main.go"), "via a symlinked directory"),
		writeCall(filepath.Join(pw.plansDir, "other-plan.md"), "another file in the plans directory"),
		writeCall(filepath.Join(pw.plansDir, strings.ToUpper(filepath.Base(pw.plan))), "case trick"),
		writeCall(pw.plan+"/../../sneaky.md", "dot-dot after the plan file"),
		writeCall(filepath.Join(d, "alias.go"), "through a symlink to main.go"),
		writeCall(filepath.Join(pw.outside, "keep.txt"), "outside"),
	}
	if len(attacks) < 50 {
		t.Fatalf("only %d attacks", len(attacks))
	}
	roots := []string{pw.dir, pw.plansDir, pw.outside}
	before := snapshot(t, roots...)
	results, out := pw.resumeWith(t, "attack", attacks)
	for i, r := range results {
		if !failed(r) {
			t.Errorf("attack %d (%s) was not refused: %q", i, fmt.Sprint(attacks[i].Input), r.Content)
		}
	}
	refused := 0
	for _, e := range events(t, out) {
		if e == "tool_refused" {
			refused++
		}
	}
	if refused != len(attacks) {
		t.Errorf("%d tool_refused events for %d attacks", refused, len(attacks))
	}
	if diff := diffSnapshots(before, snapshot(t, roots...)); len(diff) > 0 {
		t.Fatalf("plan mode let changes through:\n%s", strings.Join(diff, "\n"))
	}
	// The refusals name the rule and the plan file.
	if !strings.Contains(results[0].Content, "Plan mode is on") || !strings.Contains(results[0].Content, pw.plan) {
		t.Errorf("refusal text %q", results[0].Content)
	}

	reads := []string{
		"ls -la", "cat main.go", "head -2 main.go", "tail -1 main.go", "wc -l main.go", "grep -n main main.go",
		"find . -name '*.go'", "git status", "git log --oneline", "git diff HEAD", "git branch", "git show --stat HEAD",
		"pwd", "echo hello", "sort main.go", "uniq list.txt", "cut -c1-4 main.go", "tr a-z A-Z < main.go",
		`awk '{print $1}' main.go`, "sed -n 1p main.go", "diff main.go main.go", "stat main.go", "du -s sub",
		"ls | head -2", "cat main.go | wc -c", "ls > /dev/null 2>&1", "test -f main.go && echo yes", "env LC_ALL=C ls",
		"timeout 5 ls", `find . -name '*.txt' -exec cat {} \;`, "sha256sum main.go", "tar -tf a.tar", "git rev-parse HEAD",
		"cat " + pw.plan,
	}
	var readCalls []fakemodel.ToolCall
	for _, c := range reads {
		readCalls = append(readCalls, bashCall(c))
	}
	readCalls = append(readCalls,
		fakemodel.ToolCall{Name: "Read", Input: map[string]any{"file_path": "main.go"}},
		fakemodel.ToolCall{Name: "Grep", Input: map[string]any{"pattern": "main", "output_mode": "content"}},
		fakemodel.ToolCall{Name: "Glob", Input: map[string]any{"pattern": "**/*.go"}},
		fakemodel.ToolCall{Name: "LS", Input: map[string]any{"path": "."}},
		fakemodel.ToolCall{Name: "Read", Input: map[string]any{"file_path": pw.plan}},
	)
	results, _ = pw.resumeWith(t, "read around", readCalls)
	for i, r := range results {
		if failed(r) {
			t.Errorf("read-only call %d (%s) failed: %q", i, fmt.Sprint(readCalls[i].Input), r.Content)
		}
	}
	if diff := diffSnapshots(before, snapshot(t, roots...)); len(diff) > 0 {
		t.Fatalf("read-only commands changed files:\n%s", strings.Join(diff, "\n"))
	}
	// The plan file itself may still be written.
	results, _ = pw.resumeWith(t, "refine", []fakemodel.ToolCall{
		{Name: "Read", Input: map[string]any{"file_path": pw.plan}},
		editCall(pw.plan, "# Greeting", "# Greeting, refined"),
	})
	if failed(results[1]) {
		t.Fatalf("editing the plan file failed: %q", results[1].Content)
	}
	if data, _ := os.ReadFile(pw.plan); !strings.HasPrefix(string(data), "# Greeting, refined") {
		t.Fatalf("plan file %q", data)
	}
}

func TestLinksAtThePlanPathAreRefused(t *testing.T) {
	pw := newPlanWorld(t)
	mainGo := filepath.Join(pw.dir, "main.go")
	for _, kind := range []string{"symlink", "hard link"} {
		os.Remove(pw.plan)
		var err error
		if kind == "symlink" {
			err = os.Symlink(mainGo, pw.plan)
		} else {
			err = os.Link(mainGo, pw.plan)
		}
		if err != nil {
			t.Fatal(err)
		}
		before := snapshot(t, pw.dir)
		results, _ := pw.resumeWith(t, "write the plan via "+kind, []fakemodel.ToolCall{
			writeCall(pw.plan, "overwritten through the "+kind),
			editCall(pw.plan, "package main", "package evil"),
		})
		why := map[string]string{"symlink": "symbolic link", "hard link": "hard links"}[kind]
		for i, r := range results {
			if !failed(r) || !strings.Contains(r.Content, why) {
				t.Errorf("%s call %d: %q", kind, i, r.Content)
			}
		}
		if diff := diffSnapshots(before, snapshot(t, pw.dir)); len(diff) > 0 {
			t.Fatalf("a %s at the plan path let changes through:\n%s", kind, strings.Join(diff, "\n"))
		}
	}
}

// Someone who can write the plans directory swaps the plan file for a
// link to another file, again and again, while the model writes and
// edits its plan: whatever wins each race, the linked file never changes
// (a link found at write time is replaced, not followed). The race is
// narrow, so this run rarely hits it; TestPlanWriteReplacesALinkItFinds
// in the tools' tests puts the link there for certain.
func TestPlanWritesRaceWithLinks(t *testing.T) {
	pw := newPlanWorld(t)
	victim := filepath.Join(pw.outside, "victim.conf")
	if err := os.WriteFile(victim, []byte("root only\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	calls := []fakemodel.ToolCall{{Name: "Read", Input: map[string]any{"file_path": pw.plan}}}
	for i := range 40 {
		calls = append(calls, writeCall(pw.plan, fmt.Sprintf("# plan %d\n", i)))
		calls = append(calls, editCall(pw.plan, fmt.Sprintf("# plan %d", i), "# plan edited"))
	}
	stop := make(chan struct{})
	swapped := make(chan int)
	go func() {
		n := 0
		link, aside := pw.plan+".link", pw.plan+".aside"
		for {
			select {
			case <-stop:
				swapped <- n
				return
			default:
			}
			// The plan file steps aside for a link and comes back, the
			// same file with the same time and size, so that the checks
			// before a write mostly see the plan as ponder left it, and
			// a write that follows names may meet the link.
			os.Remove(link)
			if os.Symlink(victim, link) != nil || os.Rename(pw.plan, aside) != nil {
				continue
			}
			if os.Rename(link, pw.plan) == nil {
				n++
			}
			os.Rename(aside, pw.plan)
		}
	}()
	results, _ := pw.resumeWith(t, "write the plan many times", calls)
	close(stop)
	n := <-swapped
	ok := 0
	kinds := map[string]int{}
	for _, r := range results {
		if !failed(r) {
			ok++
		}
		k := r.Content
		if i := strings.Index(k, pw.plan); i >= 0 {
			k = k[i+len(pw.plan):]
		}
		kinds[excerptFor(k)]++
	}
	t.Logf("outcomes: %v", kinds)
	t.Logf("%d of %d plan writes went through against %d swaps; first: %q", ok, len(results), n, results[0].Content)
	if data, _ := os.ReadFile(victim); string(data) != "root only\n" {
		t.Fatalf("the linked file changed: %q", data)
	}
	if n == 0 {
		t.Fatal("no swap happened")
	}
}
