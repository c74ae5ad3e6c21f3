package cmdhook

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/planbar"
)

// hook returns a command hook running command in a fresh directory.
func hook(t *testing.T, command string) (*Hook, string) {
	t.Helper()
	dir := t.TempDir()
	return New(Options{Command: command, Dir: dir, Env: []string{"PATH=" + os.Getenv("PATH")}}), dir
}

func run(t *testing.T, h *Hook, in event.HookInput) (event.HookOutput, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	return h.Run(ctx, in)
}

func TestInputOnStdinAndProjectVariables(t *testing.T) {
	h, dir := hook(t, `cat > got.json; printf '%s\n%s\n' "$CLAUDE_PROJECT_DIR" "$PONDER_PROJECT_DIR" > env.txt; pwd > pwd.txt`)
	in := event.HookInput{Event: event.HookPreToolUse, SessionID: "s1", Cwd: "/w", Mode: "plan",
		ToolName: "Bash", ToolInput: json.RawMessage(`{"command":"ls"}`)}
	if _, err := run(t, h, in); err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	data, _ := os.ReadFile(filepath.Join(dir, "got.json"))
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatalf("stdin was not JSON: %q", data)
	}
	for k, want := range map[string]any{"hook_event_name": "PreToolUse", "session_id": "s1", "cwd": "/w", "permission_mode": "plan", "tool_name": "Bash"} {
		if got[k] != want {
			t.Errorf("%s = %v, want %v", k, got[k], want)
		}
	}
	if ti, _ := got["tool_input"].(map[string]any); ti["command"] != "ls" {
		t.Errorf("tool_input = %v", got["tool_input"])
	}
	env, _ := os.ReadFile(filepath.Join(dir, "env.txt"))
	if string(env) != dir+"\n"+dir+"\n" {
		t.Errorf("project variables: %q, want %q twice", env, dir)
	}
	if pwd, _ := os.ReadFile(filepath.Join(dir, "pwd.txt")); strings.TrimSpace(string(pwd)) != dir {
		t.Errorf("ran in %q, want %q", pwd, dir)
	}
}

func TestAnswers(t *testing.T) {
	cases := []struct {
		name    string
		ev      event.HookEvent
		command string
		want    event.HookOutput
		err     string
	}{
		{"exit 2 refuses a call", event.HookPreToolUse, `echo "not on main" >&2; exit 2`, event.HookOutput{Decision: event.HookDeny, Reason: "not on main"}, ""},
		{"exit 2 blocks a prompt", event.HookUserPromptSubmit, `echo "no secrets" >&2; exit 2`, event.HookOutput{Decision: event.HookBlock, Reason: "no secrets"}, ""},
		{"exit 2 keeps the turn going", event.HookStop, `echo "run the tests" >&2; exit 2`, event.HookOutput{Decision: event.HookBlock, Reason: "run the tests"}, ""},
		{"exit 2 after a call", event.HookPostToolUse, `echo "lint failed" >&2; exit 2`, event.HookOutput{Decision: event.HookBlock, Reason: "lint failed"}, ""},
		{"exit 2 cannot block a notification", event.HookNotification, `echo "x" >&2; exit 2`, event.HookOutput{}, "cannot block Notification"},
		{"other status is an error", event.HookPreToolUse, `echo one >&2; echo two >&2; exit 3`, event.HookOutput{}, "exit status 3: one\ntwo"},
		{"plain output is context", event.HookUserPromptSubmit, `echo "branch: main"`, event.HookOutput{Context: "branch: main"}, ""},
		{"plain output elsewhere is not", event.HookPreToolUse, `echo "hello"`, event.HookOutput{}, ""},
		{"JSON deny", event.HookPreToolUse, `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"nope"}}'`,
			event.HookOutput{Decision: event.HookDeny, Reason: "nope"}, ""},
		{"JSON allow", event.HookPreToolUse, `echo '{"hookSpecificOutput":{"permissionDecision":"allow"}}'`, event.HookOutput{Decision: event.HookAllow}, ""},
		{"JSON ask", event.HookPreToolUse, `echo '{"hookSpecificOutput":{"permissionDecision":"ask","permissionDecisionReason":"check"}}'`, event.HookOutput{Decision: event.HookAsk, Reason: "check"}, ""},
		{"legacy block before a call", event.HookPreToolUse, `echo '{"decision":"block","reason":"r"}'`, event.HookOutput{Decision: event.HookDeny, Reason: "r"}, ""},
		{"stop", event.HookPostToolUse, `echo '{"continue":false,"stopReason":"enough","systemMessage":"hi"}'`, event.HookOutput{Stop: true, StopReason: "enough", SystemMessage: "hi"}, ""},
		{"context", event.HookSessionStart, `echo '{"hookSpecificOutput":{"additionalContext":"ctx"}}'`, event.HookOutput{Context: "ctx"}, ""},
		{"broken JSON", event.HookPreToolUse, `echo '{"decision":'`, event.HookOutput{}, "not one valid JSON object"},
		{"two objects", event.HookPreToolUse, `echo '{} {}'`, event.HookOutput{}, "not one valid JSON object"},
		{"unknown decision", event.HookStop, `echo '{"decision":"maybe"}'`, event.HookOutput{}, `decision "maybe"`},
		{"permission decision outside PreToolUse", event.HookStop, `echo '{"hookSpecificOutput":{"permissionDecision":"allow"}}'`, event.HookOutput{}, "is for PreToolUse"},
		{"permission request allows with an edited plan", event.HookPermissionRequest,
			`echo '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedInput":{"plan":"# P"},"updatedPermissions":[{"type":"setMode","mode":"acceptEdits","destination":"session"}]}}}'`,
			event.HookOutput{Decision: event.HookAllow, UpdatedInput: json.RawMessage(`{"plan":"# P"}`), Mode: "acceptEdits"}, ""},
		{"permission request denies", event.HookPermissionRequest,
			`echo '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"split step 2"}}}'`,
			event.HookOutput{Decision: event.HookDeny, Reason: "split step 2"}, ""},
		{"permission request exit 2 denies", event.HookPermissionRequest, `echo "not today" >&2; exit 2`, event.HookOutput{Decision: event.HookDeny, Reason: "not today"}, ""},
		{"permission request passes", event.HookPermissionRequest, `echo '{}'`, event.HookOutput{}, ""},
		{"permission request unknown behavior", event.HookPermissionRequest, `echo '{"hookSpecificOutput":{"decision":{"behavior":"maybe"}}}'`, event.HookOutput{}, "not allow or deny"},
		{"permission request input not an object", event.HookPermissionRequest, `echo '{"hookSpecificOutput":{"decision":{"behavior":"allow","updatedInput":"x"}}}'`, event.HookOutput{}, "JSON object"},
		{"decision outside PermissionRequest", event.HookPreToolUse, `echo '{"hookSpecificOutput":{"decision":{"behavior":"allow"}}}'`, event.HookOutput{}, "is for PermissionRequest"},
		{"bad permission decision", event.HookPreToolUse, `echo '{"hookSpecificOutput":{"permissionDecision":"sure"}}'`, event.HookOutput{}, "not allow, deny or ask"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h, _ := hook(t, c.command)
			got, err := run(t, h, event.HookInput{Event: c.ev})
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want one with %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %+v, want %+v", got, c.want)
			}
		})
	}
}

// A hook that runs out of time is killed with everything it started, and
// its run returns without waiting for them.
func TestTimeoutKillsTheProcessGroup(t *testing.T) {
	h, dir := hook(t, `sleep 300 & echo $! > child.pid; setsid sleep 300 & echo $! > other.pid; sleep 300`)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := h.Run(ctx, event.HookInput{Event: event.HookStop})
		done <- err
	}()
	pids := waitPids(t, dir, "child.pid", "other.pid")
	cancel()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "killed") {
			t.Errorf("error %v, want one saying the hook was killed", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("the run did not return once its context ended")
	}
	for _, pid := range pids {
		if alive(pid) {
			t.Errorf("process %d the hook started still runs", pid)
		}
	}
}

// A hook that prints without end cannot fill ponder's memory.
func TestOutputIsBounded(t *testing.T) {
	h, _ := hook(t, `head -c 5000000 /dev/zero | tr '\0' x; head -c 3000000 /dev/zero | tr '\0' y >&2; exit 2`)
	got, err := run(t, h, event.HookInput{Event: event.HookStop})
	if err != nil {
		t.Fatal(err)
	}
	if n := len([]rune(got.Reason)); n > maxText {
		t.Errorf("reason of %d characters, want at most %d", n, maxText)
	}
	c := &capped{max: 4}
	c.Write([]byte("abcdef"))
	c.Write([]byte("gh"))
	if c.buf.String() != "abcd" || !c.cut {
		t.Errorf("capped kept %q (cut %v)", c.buf.String(), c.cut)
	}
}

// A run that must be confined does not start without a sandbox.
func TestConfinedWithoutSandboxDoesNotRun(t *testing.T) {
	dir := t.TempDir()
	h := New(Options{Command: "touch ran", Dir: dir, Confine: func() bool { return true }})
	_, err := run(t, h, event.HookInput{Event: event.HookStop})
	if err == nil || !strings.Contains(err.Error(), "no OS sandbox") {
		t.Errorf("error %v, want the no-sandbox refusal", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "ran")); err == nil {
		t.Error("the hook ran unconfined")
	}
}

func waitPids(t *testing.T, dir string, names ...string) []int {
	t.Helper()
	var out []int
	deadline := time.Now().Add(15 * time.Second)
	for _, n := range names {
		for {
			data, err := os.ReadFile(filepath.Join(dir, n))
			if pid, perr := strconv.Atoi(strings.TrimSpace(string(data))); err == nil && perr == nil && pid > 0 {
				out = append(out, pid)
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s never appeared", n)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	return out
}

// alive reports whether pid runs (a zombie does not count).
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}

// What the model wrote reaches a hook as data on its standard input,
// never as part of the command line: shell syntax in it does not run.
func TestHostileInputIsData(t *testing.T) {
	h, dir := hook(t, `cat > got.json`)
	evil := `$(touch pwned-sub); touch pwned-semi; ` + "`touch pwned-tick`"
	in := event.HookInput{Event: event.HookPreToolUse, ToolName: "Bash; touch pwned-name",
		ToolInput: json.RawMessage(`{"command":` + strconv.Quote(evil) + `}`), Prompt: "'; touch pwned-prompt; '"}
	if _, err := run(t, h, in); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "pwned") {
			t.Errorf("%s exists: the input ran as a command", e.Name())
		}
	}
	data, _ := os.ReadFile(filepath.Join(dir, "got.json"))
	if !strings.Contains(string(data), "touch pwned-semi") {
		t.Errorf("the input did not arrive as data: %s", data)
	}
}

// Plan mode stops a hook running outside the sandbox as it begins, with
// what the hook started; while it is on, hooks start confined (here,
// with no sandbox, not at all).
func TestPlanModeStopsFreeHooks(t *testing.T) {
	free := &planbar.Bar{}
	dir := t.TempDir()
	h := New(Options{Command: `sleep 300 & echo $! > child.pid; wait`, Dir: dir, Free: free})
	done := make(chan error, 1)
	go func() {
		_, err := h.Run(context.Background(), event.HookInput{Event: event.HookNotification})
		done <- err
	}()
	pids := waitPids(t, dir, "child.pid")
	if n := free.Raise(); n != 1 {
		t.Errorf("stopped %d hooks, want 1", n)
	}
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "plan mode began") {
			t.Errorf("error %v, want one saying plan mode stopped the hook", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("the hook went on after plan mode began")
	}
	if alive(pids[0]) {
		t.Error("what the hook started outlived it")
	}
	late := New(Options{Command: "touch late", Dir: dir, Free: free})
	if _, err := late.Run(context.Background(), event.HookInput{Event: event.HookStop}); err == nil || !strings.Contains(err.Error(), "no OS sandbox") {
		t.Errorf("a hook started in plan mode: %v, want it confined (and so refused without a sandbox)", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "late")); err == nil {
		t.Error("a hook ran outside the sandbox in plan mode")
	}
	free.Lower()
	if _, err := late.Run(context.Background(), event.HookInput{Event: event.HookStop}); err != nil {
		t.Errorf("after plan mode: %v", err)
	}
}

// A failed call's result reaches a PostToolUseFailure hook as "error".
func TestFailureInputNamesTheError(t *testing.T) {
	h, dir := hook(t, `cat > got.json`)
	in := event.HookInput{Event: event.HookPostToolUseFailure, ToolName: "Bash", ToolResponse: "exit status 1", ToolFailed: true}
	if _, err := run(t, h, in); err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	data, _ := os.ReadFile(filepath.Join(dir, "got.json"))
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	if got["error"] != "exit status 1" || got["tool_response"] != nil || got["tool_name"] != "Bash" {
		t.Errorf("input %v", got)
	}
}
