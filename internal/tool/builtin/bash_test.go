//go:build unix

package builtin

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/sandbox"
	"github.com/ponder-agent/ponder/internal/tool"
)

func TestBashRuns(t *testing.T) {
	env := newEnv(t)
	bash := NewBash(BashOptions{Env: []string{"PONDER_TEST_VAR=from-options"}})
	tests := []struct {
		name    string
		command string
		want    string
		isErr   bool
	}{
		{"output in order", "echo one; echo two >&2; echo three", "one\ntwo\nthree", false},
		{"no output", "true", "(no output)", false},
		{"exit code", "echo failing; exit 3", "failing\n\nExit code 3", true},
		{"runs in project dir", "pwd", env.Dir, false},
		{"extra env", "echo $PONDER_TEST_VAR", "from-options", false},
		{"stdin is empty", "cat; echo done", "done", false},
		{"pipes and quoting", `printf '%s\n' "a b" c | wc -l | tr -d ' '`, "2", false},
		{"killed by signal", "kill -9 $$", "killed", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := run(t, bash, env, map[string]any{"command": tc.command})
			if res.IsError != tc.isErr {
				t.Errorf("IsError = %v: %s", res.IsError, res.Content)
			}
			if tc.name == "killed by signal" {
				wantContains(t, res.Content, tc.want)
				return
			}
			if res.Content != tc.want {
				t.Errorf("got %q, want %q", res.Content, tc.want)
			}
		})
	}
}

func TestBashTruncatesOutput(t *testing.T) {
	env := newEnv(t)
	cmd := `printf START; head -c 100000 /dev/zero | tr '\0' x; printf END`
	res := run(t, NewBash(BashOptions{}), env, map[string]any{"command": cmd})
	if res.IsError {
		t.Fatal(res.Content)
	}
	c := res.Content
	if !strings.HasPrefix(c, "START") || !strings.HasSuffix(c, "END") {
		t.Errorf("head or tail lost: %.40q … %q", c, c[len(c)-40:])
	}
	wantContains(t, c, "[… 70008 characters of output left out …]")
	if n := len([]rune(c)); n > bashMaxOutput+100 {
		t.Errorf("output has %d characters", n)
	}
}

func TestCappedOutputMultibyte(t *testing.T) {
	o := newCappedOutput(10)
	o.Write([]byte(strings.Repeat("é", 8)))
	if got := o.String(); got != strings.Repeat("é", 8) {
		t.Errorf("short output changed: %q", got)
	}
	o.Write([]byte(strings.Repeat("ü", 20)))
	got := o.String()
	if !strings.HasPrefix(got, "ééééé\n\n[… 18 characters") || !strings.HasSuffix(got, "\n\nüüüüü") {
		t.Errorf("got %q", got)
	}
}

func TestBashTimeoutKillsProcessGroup(t *testing.T) {
	env := newEnv(t)
	pidfile := filepath.Join(env.Dir, "pid")
	start := time.Now()
	res := run(t, NewBash(BashOptions{}), env, map[string]any{
		"command": "sleep 60 & echo $! > " + pidfile + "; wait",
		"timeout": 1000,
	})
	if elapsed := time.Since(start); elapsed > 10*time.Second {
		t.Errorf("Run took %v", elapsed)
	}
	if !res.IsError || !strings.Contains(res.Content, "timed out after 1s") {
		t.Errorf("result: %+v", res)
	}
	pid := readPID(t, pidfile)
	waitGone(t, pid)
}

func TestBashTimeoutIgnoringSIGTERM(t *testing.T) {
	env := newEnv(t)
	pidfile := filepath.Join(env.Dir, "pid")
	start := time.Now()
	res := run(t, NewBash(BashOptions{}), env, map[string]any{
		"command": "trap '' TERM; sleep 60 & echo $! > " + pidfile + "; wait",
		"timeout": 300,
	})
	if elapsed := time.Since(start); elapsed > bashKillGrace+5*time.Second {
		t.Errorf("Run took %v", elapsed)
	}
	wantContains(t, res.Content, "timed out after 300ms")
	waitGone(t, readPID(t, pidfile))
}

func TestBashCancelReturnsPromptly(t *testing.T) {
	env := newEnv(t)
	fifo := filepath.Join(env.Dir, "started")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	call := prepare(t, NewBash(BashOptions{}), env, map[string]any{"command": "echo go > " + fifo + "; sleep 60"})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan tool.Result, 1)
	go func() { done <- call.Run(ctx) }()
	// Opening the FIFO for reading blocks until the command opens it for
	// writing: after this the command is surely running.
	if _, err := os.ReadFile(fifo); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	cancel()
	select {
	case res := <-done:
		if !res.IsError || !strings.Contains(res.Content, "interrupted") {
			t.Errorf("result: %+v", res)
		}
		if d := time.Since(start); d > bashKillGrace+time.Second {
			t.Errorf("took %v after cancel", d)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("Run did not return after cancel")
	}
}

// A process the command leaves behind, holding the output pipe or not, is
// killed when the command returns, and the call does not wait for it.
func TestBashLeavesNothingBehind(t *testing.T) {
	env := newEnv(t)
	pidfile := filepath.Join(env.Dir, "pid")
	start := time.Now()
	res := run(t, NewBash(BashOptions{}), env, map[string]any{"command": "sleep 30 & echo $! > " + pidfile + "; echo hi"})
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("Run waited %v for a background process", d)
	}
	if res.IsError || res.Content != "hi" {
		t.Errorf("result: %+v", res)
	}
	waitGone(t, readPID(t, pidfile))
}

func TestBashPrepare(t *testing.T) {
	env := newEnv(t)
	bash := NewBash(BashOptions{})
	for _, tc := range []struct {
		timeout int
		want    time.Duration
	}{
		{0, 2 * time.Minute},
		{-5, 2 * time.Minute},
		{1500, 1500 * time.Millisecond},
		{99_000_000, 10 * time.Minute},
	} {
		c := prepare(t, bash, env, map[string]any{"command": "true", "timeout": tc.timeout}).(*bashCall)
		if c.timeout != tc.want {
			t.Errorf("timeout %d → %v, want %v", tc.timeout, c.timeout, tc.want)
		}
	}
	custom := NewBash(BashOptions{DefaultTimeout: time.Second, MaxTimeout: 3 * time.Second})
	if c := prepare(t, custom, env, map[string]any{"command": "true", "timeout": 60000}).(*bashCall); c.timeout != 3*time.Second {
		t.Errorf("custom cap: %v", c.timeout)
	}
	wantContains(t, prepareErr(t, bash, env, map[string]any{"command": "  "}), "command is required")
	wantContains(t, prepareErr(t, bash, env, map[string]any{"command": "x", "timeout": "soon"}), "timeout")

	a := prepare(t, bash, env, map[string]any{"command": "go test ./...", "description": "Run tests"}).Access()
	if NewBash(BashOptions{}).Kind() != permission.KindExec || a.Command != "go test ./..." {
		t.Errorf("Access = %+v", a)
	}
	res := run(t, NewBash(BashOptions{Shell: "/nonexistent/shell"}), env, map[string]any{"command": "true"})
	if !res.IsError || !strings.Contains(res.Content, "Could not start") {
		t.Errorf("missing shell: %+v", res)
	}
	if res := run(t, bash, env, map[string]any{"command": "true", "description": "Check things"}); res.Summary != "Check things" {
		t.Errorf("summary %q", res.Summary)
	}
}

func readPID(t *testing.T, path string) int {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

// waitGone checks that pid no longer runs. It polls for a bounded time,
// because the kernel may take a moment to deliver the kill; a zombie
// waiting for its new parent to reap it counts as gone.
func waitGone(t *testing.T, pid int) {
	t.Helper()
	for range 250 {
		if !running(pid) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	syscall.Kill(pid, syscall.SIGKILL)
	t.Errorf("process %d still runs", pid)
}

func running(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	// The state follows the command name in parentheses.
	s := string(stat)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2] != 'Z'
	}
	return true
}

// With the engine's ruling in the context, the command runs confined: it
// cannot write the project, but can write its scratch $TMPDIR.
func TestBashConfined(t *testing.T) {
	sb, err := sandbox.New(sandbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !sb.Available() {
		t.Skip("no sandbox on this machine")
	}
	env := newEnv(t)
	bash := NewBash(BashOptions{Sandbox: sb})
	call := prepare(t, bash, env, map[string]any{"command": "echo x > inside.txt; echo scratch > $TMPDIR/s && cat $TMPDIR/s"})
	res := call.Run(tool.WithConfinement(context.Background(), tool.Confinement{Sandbox: true}))
	wantContains(t, res.Content, "scratch")
	if _, err := os.Stat(filepath.Join(env.Dir, "inside.txt")); err == nil {
		t.Fatalf("a confined command wrote the project: %s", res.Content)
	}
	// The same call unconfined writes.
	call = prepare(t, bash, env, map[string]any{"command": "echo x > inside.txt"})
	if res := call.Run(context.Background()); res.IsError {
		t.Fatal(res.Content)
	}
	if _, err := os.Stat(filepath.Join(env.Dir, "inside.txt")); err != nil {
		t.Fatal("an unconfined command could not write")
	}
}

// A call that must be confined never runs unconfined.
func TestBashConfinedWithoutSandboxRefused(t *testing.T) {
	env := newEnv(t)
	none, _ := sandbox.New(sandbox.Options{Choice: "none"})
	for _, sb := range []*sandbox.Sandbox{nil, none} {
		call := prepare(t, NewBash(BashOptions{Sandbox: sb}), env, map[string]any{"command": "touch ran"})
		res := call.Run(tool.WithConfinement(context.Background(), tool.Confinement{Sandbox: true}))
		if !res.IsError || !strings.Contains(res.Content, "sandbox") {
			t.Errorf("result %+v", res)
		}
		if _, err := os.Stat(filepath.Join(env.Dir, "ran")); err == nil {
			t.Fatal("the command ran")
		}
	}
}

func TestBackgroundShells(t *testing.T) {
	env := newEnv(t)
	shells := NewShells()
	bash := NewBash(BashOptions{Shells: shells})
	fifo := filepath.Join(env.Dir, "go")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	res := runOK(t, bash, env, map[string]any{"command": "echo first; cat " + fifo + "; echo match-1; echo other; echo match-2; sleep 60", "run_in_background": true})
	wantContains(t, res, "bash_1")
	list := shells.List()
	if len(list) != 1 || list[0].ID != "bash_1" || list[0].Status != "running" {
		t.Fatalf("List = %+v", list)
	}
	// Let the shell go on only once "first" has been read.
	out := NewBashOutput(shells)
	eventually(t, "the first line", func() bool {
		return strings.Contains(runOK(t, out, env, map[string]any{"bash_id": "bash_1"}), "first")
	})
	os.WriteFile(fifo, []byte("x\n"), 0o600)
	var got string
	eventually(t, "the filtered lines", func() bool {
		got += runOK(t, out, env, map[string]any{"bash_id": "bash_1", "filter": "^match"})
		return strings.Contains(got, "match-2")
	})
	if strings.Contains(got, "other") || !strings.Contains(got, "match-1") || !strings.Contains(got, "Status: running") {
		t.Errorf("filtered output %q", got)
	}
	wantContains(t, prepareErr(t, out, env, map[string]any{"bash_id": "bash_1", "filter": "("}), "regular expression")
	unknown := run(t, out, env, map[string]any{"bash_id": "bash_9"})
	if !unknown.IsError || !strings.Contains(unknown.Content, "bash_1 (running)") {
		t.Errorf("unknown id: %q", unknown.Content)
	}

	pid := shellPid(t, shells, "bash_1")
	kill := NewKillShell(shells)
	wantContains(t, runOK(t, kill, env, map[string]any{"shell_id": "bash_1"}), "Stopped bash_1")
	waitGone(t, pid)
	if s := shells.List()[0].Status; s != "killed" {
		t.Errorf("status after KillShell: %s", s)
	}
	wantContains(t, runOK(t, kill, env, map[string]any{"shell_id": "bash_1"}), "already ended")
	wantContains(t, runOK(t, out, env, map[string]any{"bash_id": "bash_1"}), "Status: killed")

	// KillAll ends the rest, as ponder does on the way out.
	runOK(t, bash, env, map[string]any{"command": "sleep 60", "run_in_background": true})
	pid = shellPid(t, shells, "bash_2")
	shells.KillAll()
	waitGone(t, pid)

	// Without Shells, background commands are refused.
	res2 := run(t, NewBash(BashOptions{}), env, map[string]any{"command": "sleep 1", "run_in_background": true})
	if !res2.IsError {
		t.Errorf("background without shells: %+v", res2)
	}
}

func shellPid(t *testing.T, s *Shells, id string) int {
	t.Helper()
	sh, ok := s.get(id)
	if !ok {
		t.Fatalf("no shell %s", id)
	}
	return sh.r.pid
}

// eventually polls cond, a bounded number of times, for output that a
// running process writes when it gets to it.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for range 1000 {
		if cond() {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("no %s after 10s", what)
}
