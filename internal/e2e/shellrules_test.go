package e2e

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
	"github.com/ponder-agent/ponder/internal/testenv"
)

// These tests run shell lines through the real binary against permission
// rules and check what happened on disk, in a git remote and on a local
// web server.

// callsThenDone scripts the model to make all calls in one message when
// it sees prompt, and to finish once their results come back.
func callsThenDone(prompt string, calls []fakemodel.ToolCall) []fakemodel.Reply {
	n := len(calls)
	return []fakemodel.Reply{
		{Name: prompt, When: fakemodel.Match{LastUser: prompt}, ToolCalls: calls},
		{Name: prompt + " done", When: fakemodel.Match{Func: func(r *fakemodel.Request) bool {
			return len(r.LastUser().ToolResults) == n
		}}, Text: "done"},
	}
}

// lastResults returns the tool results of the last request the fake saw.
func (w *world) lastResults(n int) []fakemodel.ToolResult {
	w.t.Helper()
	reqs := w.srv.Requests()
	res := toolResults(reqs[len(reqs)-1])
	if len(res) != n {
		w.t.Fatalf("%d results for %d calls", len(res), n)
	}
	return res
}

// git runs git in the project.
func (w *world) git(args ...string) {
	w.t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
	cmd.Dir = w.dir
	cmd.Env = append(os.Environ(), "HOME="+filepath.Dir(w.cfg))
	if out, err := cmd.CombinedOutput(); err != nil {
		w.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// exists reports whether a project file exists.
func (w *world) exists(rel string) bool {
	_, err := os.Lstat(filepath.Join(w.dir, rel))
	return err == nil
}

// diffRepo makes the project a git repository with an uncommitted change,
// an external diff program and a fake git in ./bin, each of which leaves a
// marker file when it runs.
func diffRepo(w *world) {
	w.write("main.go", "package main\n")
	w.git("init", "-q")
	w.git("add", ".")
	w.git("commit", "-qm", "start")
	w.write("main.go", "package main // changed\n")
	w.write("ext.sh", "#!/bin/sh\ntouch ext-ran\n")
	w.write("bin/git", "#!/bin/sh\ntouch path-ran\n")
	os.Chmod(filepath.Join(w.dir, "ext.sh"), 0o755)
	os.Chmod(filepath.Join(w.dir, "bin/git"), 0o755)
}

func TestAllowRuleCoversTheCommandNotTheRestOfTheLine(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		attacks := []string{
			"git diff > diff.out",
			"git diff 2> err.out",
			"git diff &> all.out",
			"git diff >> HOME_BASHRC",
			"GIT_EXTERNAL_DIFF=./ext.sh git diff",
			"PATH=./bin:$PATH git diff",
			"export GIT_EXTERNAL_DIFF=./ext.sh; git diff",
		}
		controls := []string{"git diff", "touch made-by-rule", "git diff > /dev/null && touch after-null"}
		w := newWorld(t, api)
		home := filepath.Dir(w.cfg)
		var calls []fakemodel.ToolCall
		for _, c := range append(attacks, controls...) {
			calls = append(calls, bashCall(strings.ReplaceAll(c, "HOME_BASHRC", filepath.Join(home, ".bashrc"))))
		}
		w.srv.Add(callsThenDone("review the diff", calls)...)
		diffRepo(w)
		w.mustRun(0, "", "-p", "review the diff", "--allowedTools", "Bash(git diff:*),Bash(touch:*)")
		res := w.lastResults(len(calls))
		for i := range attacks {
			if !failed(res[i]) || !strings.Contains(res[i].Content, "nobody can give it") {
				t.Errorf("%q was not refused: %q", attacks[i], res[i].Content)
			}
		}
		for _, f := range []string{"diff.out", "err.out", "all.out", "ext-ran", "path-ran"} {
			if w.exists(f) {
				t.Errorf("%s was created", f)
			}
		}
		if _, err := os.Stat(filepath.Join(home, ".bashrc")); err == nil {
			t.Error("~/.bashrc was written")
		}
		// The rules still allow what they name.
		for i, c := range controls {
			if r := res[len(attacks)+i]; failed(r) {
				t.Errorf("%q was refused: %q", c, r.Content)
			}
		}
		if !strings.Contains(res[len(attacks)].Content, "changed") {
			t.Errorf("git diff printed %q", res[len(attacks)].Content)
		}
		if !w.exists("made-by-rule") || !w.exists("after-null") {
			t.Error("the commands the rules allow did not run")
		}

		// The attacks are real: where the user has said yes to
		// everything, the same lines write.
		w.srv.Add(callsThenDone("bypass", []fakemodel.ToolCall{bashCall(attacks[0]), bashCall(attacks[4]), bashCall(attacks[5])})...)
		w.mustRun(0, "", "-p", "bypass", "--dangerously-skip-permissions", "--permission-mode", "bypassPermissions")
		for _, f := range []string{"diff.out", "ext-ran", "path-ran"} {
			if !w.exists(f) {
				t.Errorf("control: %s was not created, so the test proves nothing", f)
			}
		}
	})
}

func TestDenyRuleHoldsHoweverTheProgramIsNamed(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api)
		attacks := []string{
			"/usr/bin/rm victim1", "\\rm victim2", "command rm victim3", "env rm victim4",
			"timeout 5 rm victim5", "$(echo rm) victim6", "a=rm; $a victim7", "sh -c 'rm victim8'",
			"find . -name victim9 -exec rm {} +", "alias r=rm; r victim10", "{rm,victim11}",
			"git -C . push origin HEAD:refs/heads/main", "git --no-pager push origin HEAD:refs/heads/main",
			"git -c push.default=current push origin HEAD:refs/heads/main",
		}
		var calls []fakemodel.ToolCall
		for _, c := range attacks {
			calls = append(calls, bashCall(c))
		}
		calls = append(calls, bashCall("touch control-made"))
		w.srv.Add(callsThenDone("clean up", calls)...)
		for i := 1; i <= 11; i++ {
			w.write(fmt.Sprintf("victim%d", i), "keep\n")
		}
		w.write("README", "x\n")
		w.git("init", "-q")
		w.git("add", "README")
		w.git("commit", "-qm", "start")
		remote := filepath.Join(filepath.Dir(w.dir), "remote.git")
		if out, err := exec.Command("git", "init", "-q", "--bare", remote).CombinedOutput(); err != nil {
			t.Fatalf("%v %s", err, out)
		}
		w.git("remote", "add", "origin", remote)

		w.mustRun(0, "", "-p", "clean up", "--dangerously-skip-permissions", "--permission-mode", "bypassPermissions",
			"--disallowedTools", "Bash(rm:*),Bash(git push:*)")
		res := w.lastResults(len(calls))
		for i, c := range attacks {
			if !failed(res[i]) {
				t.Errorf("%q was not refused: %q", c, res[i].Content)
			}
		}
		for i := 1; i <= 11; i++ {
			if !w.exists(fmt.Sprintf("victim%d", i)) {
				t.Errorf("victim%d was deleted", i)
			}
		}
		if refs, _ := os.ReadDir(filepath.Join(remote, "refs", "heads")); len(refs) > 0 {
			t.Errorf("the push reached the remote: %v", refs)
		}
		if failed(res[len(attacks)]) || !w.exists("control-made") {
			t.Errorf("bypass mode should run other commands: %q", res[len(attacks)].Content)
		}
		if !strings.Contains(res[0].Content, "Bash(rm:*)") {
			t.Errorf("the refusal does not name the rule: %q", res[0].Content)
		}
	})
}

// hitServer is a local web server that counts requests by path.
type hitServer struct {
	*httptest.Server
	mu   sync.Mutex
	hits map[string]int
}

func newHitServer(t *testing.T) *hitServer {
	h := &hitServer{hits: map[string]int{}}
	h.Server = httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		h.mu.Lock()
		h.hits[r.URL.Path]++
		h.mu.Unlock()
		fmt.Fprintf(rw, "served %s\n", r.URL.Path)
	}))
	t.Cleanup(h.Close)
	return h
}

func (h *hitServer) count(path string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.hits[path]
}

// host returns a URL of the server under the given host name.
func (h *hitServer) url(host, path string) string {
	port := h.Listener.Addr().String()
	port = port[strings.LastIndex(port, ":")+1:]
	return "http://" + host + ":" + port + path
}

func TestShellFetchesObeyWebFetchRules(t *testing.T) {
	testenv.Programs(t, "the fetches are theirs", "curl", "wget")
	forAPIs(t, func(t *testing.T, api string) {
		h := newHitServer(t)
		w := newWorld(t, api)
		// Every loopback name is one host to the rules, so a rule for
		// 127.0.0.1 also holds for localhost.
		denied := []string{
			"curl -s " + h.url("127.0.0.1", "/denied-curl"),
			"wget -qO- " + h.url("127.0.0.1", "/denied-wget"),
			"sh -c 'curl -s " + h.url("127.0.0.1", "/denied-sh") + "'",
			"curl -s " + h.url("localhost", "/denied-localhost"),
			// The unspecified address reaches the local host on Linux.
			"curl -s " + h.url("0.0.0.0", "/denied-any"),
			"curl -s " + h.url("0", "/denied-zero"),
			"curl -s " + h.url("[::]", "/denied-any6"),
		}
		var calls []fakemodel.ToolCall
		for _, c := range denied {
			calls = append(calls, bashCall(c))
		}
		w.srv.Add(callsThenDone("fetch things", calls)...)
		w.mustRun(0, "", "-p", "fetch things", "--disallowedTools", "WebFetch(domain:127.0.0.1)",
			"--allowedTools", "WebFetch("+h.url("localhost", "/denied-localhost")+")")
		res := w.lastResults(len(calls))
		for i, c := range denied {
			if !failed(res[i]) {
				t.Errorf("%q was not refused: %q", c, res[i].Content)
			}
		}
		for _, p := range []string{"/denied-curl", "/denied-wget", "/denied-sh", "/denied-localhost", "/denied-any", "/denied-zero"} {
			if h.count(p) != 0 {
				t.Errorf("%s was fetched", p)
			}
		}
		if !strings.Contains(res[0].Content, "WebFetch(domain:127.0.0.1)") {
			t.Errorf("the refusal does not name the rule: %q", res[0].Content)
		}

		// Without a deny rule: an address no rule allows needs a yes
		// nobody can give; the allowed one is fetched.
		calls = []fakemodel.ToolCall{
			bashCall("curl -s " + h.url("localhost", "/not-allowed")),
			bashCall("curl -s " + h.url("localhost", "/allowed")),
		}
		w.srv.Add(callsThenDone("fetch more", calls)...)
		w.mustRun(0, "", "-p", "fetch more", "--allowedTools", "WebFetch("+h.url("localhost", "/allowed")+")")
		res = w.lastResults(len(calls))
		if h.count("/not-allowed") != 0 || !strings.Contains(res[0].Content, "nobody can give it") {
			t.Errorf("a fetch no rule allows: %d hits, %q", h.count("/not-allowed"), res[0].Content)
		}
		if failed(res[1]) || h.count("/allowed") != 1 || !strings.Contains(res[1].Content, "served /allowed") {
			t.Errorf("allowed fetch: %d hits, %q", h.count("/allowed"), res[1].Content)
		}
	})
}

func TestExploreAgentShellLimits(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		h := newHitServer(t)
		attacks := []string{
			"curl -s " + h.url("127.0.0.1", "/from-explore"),
			"sleep 5 & touch bg-made",
			"jobs -x touch jobs-made",
			"declare -a 'a=([$(touch decl-made)]=1)'",
			"echo $(cat <<EOF\nhi\nEOF)\ntouch heredoc-made\nEOF\n)",
			"sh -c '((touch dash-made))'",
			"GIT_PAGER='touch pager-made' git log",
		}
		var calls []fakemodel.ToolCall
		for _, c := range attacks {
			calls = append(calls, bashCall(c))
		}
		calls = append(calls, bashCall("cat notes.txt"))
		n := len(calls)
		w := newWorld(t, api,
			fakemodel.Reply{Name: "launch", When: fakemodel.Match{LastUser: "look around"}, ToolCalls: []fakemodel.ToolCall{taskCall("Explore", "probe the shell")}},
			agentReply("probe the shell", fakemodel.Reply{ToolCalls: calls}),
			fakemodel.Reply{Name: "agent done", When: fakemodel.Match{FirstUser: "probe the shell", Func: func(r *fakemodel.Request) bool {
				return len(r.LastUser().ToolResults) == n
			}}, Text: "probed"},
			fakemodel.Reply{Name: "main done", When: fakemodel.Match{ToolResult: "probed"}, Text: "The agent reported."},
		)
		w.write("notes.txt", "original notes\n")
		w.git("init", "-q")
		before := snapshot(t, w.dir)
		w.mustRun(0, "", "-p", "look around", "--disallowedTools", "WebFetch(domain:127.0.0.1)")
		var res []fakemodel.ToolResult
		for _, r := range w.srv.Requests() {
			if strings.Contains(r.FirstUser().Text, "probe the shell") && len(r.LastUser().ToolResults) == n {
				res = r.LastUser().ToolResults
			}
		}
		if len(res) != n {
			t.Fatal("no results of the agent's calls")
		}
		for i, c := range attacks {
			if !failed(res[i]) {
				t.Errorf("%q was not refused inside the Explore agent: %q", c, res[i].Content)
			}
		}
		if failed(res[n-1]) || !strings.Contains(res[n-1].Content, "original notes") {
			t.Errorf("reading failed: %q", res[n-1].Content)
		}
		if h.count("/from-explore") != 0 {
			t.Error("the Explore agent fetched from a denied domain")
		}
		if diff := diffSnapshots(before, snapshot(t, w.dir)); len(diff) > 0 {
			t.Fatalf("the Explore agent changed files:\n%s", strings.Join(diff, "\n"))
		}
		w.allUsed()
	})
}

// planAttack is a line that creates marker when bash runs it; needs names
// a program beyond the shell's that it relies on.
type planAttack struct{ cmd, marker, needs string }

// planAttacks are lines from the classes of break in plan mode; each
// creates a marker file when bash runs it.
var planAttacks = []planAttack{
	{"echo $(cat <<EOF\nhi\nEOF)\ntouch m-heredoc\nEOF\n)", "m-heredoc", ""},
	{"cat <<EOF\nhi\nEO\\\nF\ntouch m-continued\nEOF", "m-continued", ""},
	{"echo x # note \\\ntouch m-comment", "m-comment", ""},
	{"!(touch m-extglob)", "m-extglob", ""},
	{"sh -c '((touch m-dash))'", "m-dash", ""},
	{"jobs -x touch m-jobs", "m-jobs", ""},
	{"declare -a 'a=([$(touch m-declare)]=1)'", "m-declare", ""},
	{"a=(); declare a='(x $(touch m-array))'", "m-array", ""},
	{"sleep 0 & wait -n -p 'a[$(touch m-wait)]'", "m-wait", ""},
	{"GIT_EXTERNAL_DIFF=./ext.sh git diff; mv ext-ran m-extdiff 2>/dev/null", "m-extdiff", ""},
	{"git diff --output=m-output", "m-output", ""},
	{"git rev-list --output=m-revlist HEAD", "m-revlist", ""},
	{"git blame --output=m-blame main.go", "m-blame", ""},
	{"sort -om-sort main.go", "m-sort", ""},
	{"export LESSOPEN='|touch m-less %s'; less main.go", "m-less", "less"},
	{"(sleep 0.2; touch m-bg) & sleep 0.5", "m-bg", ""},
	{"shopt -s expand_aliases\nalias ls='touch m-alias'\nls", "m-alias", ""},
}

func TestPlanModeShellClassesOfBreak(t *testing.T) {
	var attacks []planAttack
	for _, a := range planAttacks {
		if a.needs == "" || testenv.Has(t, a.needs, "for the attack "+a.marker) {
			attacks = append(attacks, a)
		}
	}
	// Each attack is real: bash, run directly, creates its marker.
	for _, a := range attacks {
		dir := t.TempDir()
		w := &world{t: t, dir: dir}
		diffRepo(w)
		cmd := exec.Command("bash", "-c", a.cmd)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "PAGER=cat", "HOME="+dir)
		cmd.Run()
		if !w.exists(a.marker) {
			t.Errorf("control: bash did not create %s for %q, so the test proves nothing", a.marker, a.cmd)
		}
	}
	forAPIs(t, func(t *testing.T, api string) {
		var calls []fakemodel.ToolCall
		for _, a := range planAttacks {
			calls = append(calls, bashCall(a.cmd))
		}
		w := newWorld(t, api, callsThenDone("plan the change", calls)...)
		diffRepo(w)
		before := snapshot(t, w.dir)
		w.mustRun(0, "", "-p", "plan the change", "--permission-mode", "plan")
		res := w.lastResults(len(calls))
		for i, a := range planAttacks {
			if !failed(res[i]) || !strings.Contains(res[i].Content, "Plan mode") {
				t.Errorf("%q was not refused by plan mode: %q", a.cmd, res[i].Content)
			}
		}
		if diff := diffSnapshots(before, snapshot(t, w.dir)); len(diff) > 0 {
			t.Fatalf("plan mode let changes through:\n%s", strings.Join(diff, "\n"))
		}
	})
}
