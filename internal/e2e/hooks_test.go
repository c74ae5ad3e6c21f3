package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// hookScript writes an executable script outside the project (beside
// it, where the test's files live) and returns its path.
func hookScript(t *testing.T, w *world, name, body string) string {
	t.Helper()
	dir := filepath.Join(filepath.Dir(w.dir), "hooks")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// hookGroup is one entry of a hooks setting.
type hookGroup struct {
	Matcher string        `json:"matcher,omitempty"`
	Hooks   []hookCommand `json:"hooks"`
}

type hookCommand struct {
	Type    string  `json:"type"`
	Command string  `json:"command"`
	Timeout float64 `json:"timeout,omitempty"`
}

// hooksSettings is a settings file's text with hooks (one command per
// event) and extra top-level settings.
func hooksSettings(t *testing.T, hooks map[string]hookGroup, extra map[string]any) string {
	t.Helper()
	s := map[string]any{}
	for k, v := range extra {
		s[k] = v
	}
	h := map[string][]hookGroup{}
	for ev, g := range hooks {
		h[ev] = []hookGroup{g}
	}
	s["hooks"] = h
	data, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func command(c string) []hookCommand { return []hookCommand{{Type: "command", Command: c}} }

// fileOutside is a path beside the project, for what hooks record.
func fileOutside(w *world, name string) string { return filepath.Join(filepath.Dir(w.dir), name) }

func readOr(path, missing string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return missing
	}
	return string(data)
}

// A PreToolUse command hook refuses Bash calls: by exit status 2 with its
// reason on standard error, and by a JSON deny. The refused commands do
// not run, the model reads why, and a call the hook lets be still runs.
func TestPreToolUseCommandHookRefusesCalls(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api, calls("make markers", bashCall("touch marker-exit2"), bashCall("touch marker-json"), bashCall("touch marker-free"))...)
		script := hookScript(t, w, "guard.sh", `in=$(cat)
case "$in" in
  *marker-exit2*) echo "exit two says no" >&2; exit 2;;
  *marker-json*) printf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"json says no"}}';;
esac
exit 0`)
		w.userSettings(hooksSettings(t, map[string]hookGroup{"PreToolUse": {Matcher: "Bash", Hooks: command(script)}},
			map[string]any{"permissions": map[string]any{"allow": []string{"Bash(touch:*)"}}}))
		w.mustRun(0, "", "-p", "make markers")
		res := lastResults(t, w, 3)
		for i, want := range []string{"exit two says no", "json says no"} {
			if !failed(res[i]) || !strings.Contains(res[i].Content, want) {
				t.Errorf("call %d: result %q, want a refusal carrying %q", i, res[i].Content, want)
			}
		}
		for _, m := range []string{"marker-exit2", "marker-json"} {
			if w.read(m) != "<missing>" {
				t.Errorf("%s exists: the refused command ran", m)
			}
		}
		if failed(res[2]) || w.read("marker-free") == "<missing>" {
			t.Errorf("the call the hook let be did not run: %s", res[2].Content)
		}
		w.allUsed()
	})
}

// A hook that answers allow to everything spares questions, but it does
// not lift plan mode's refusal of a project write, nor a deny rule.
func TestHookAllowLiftsNoLimit(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api, calls("write in plan mode", writeCall("main.go", "package main\n"))...)
		w.srv.Add(calls("write freely", writeCall("denied.txt", "x"), writeCall("spared.txt", "x"))...)
		script := hookScript(t, w, "allow.sh", `cat >/dev/null
printf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"hook says fine"}}'`)
		w.userSettings(hooksSettings(t, map[string]hookGroup{"PreToolUse": {Hooks: command(script)}},
			map[string]any{"permissions": map[string]any{"deny": []string{"Write(/denied.txt)"}}}))

		w.mustRun(0, "", "-p", "write in plan mode", "--permission-mode", "plan")
		if res := lastResults(t, w, 1); !failed(res[0]) {
			t.Errorf("plan mode let a project write through on a hook's allow: %s", res[0].Content)
		}
		if w.read("main.go") != "<missing>" {
			t.Error("main.go was written in plan mode")
		}

		// In the default mode with nobody to ask, the hook's allow is
		// what lets spared.txt be written; the deny rule still holds.
		w.mustRun(0, "", "-p", "write freely")
		res := lastResults(t, w, 2)
		if !failed(res[0]) || !strings.Contains(res[0].Content, "Write(/denied.txt)") || w.read("denied.txt") != "<missing>" {
			t.Errorf("a hook's allow lifted a deny rule: %s", res[0].Content)
		}
		if failed(res[1]) || w.read("spared.txt") != "x" {
			t.Errorf("the hook's allow did not spare the question: %s", res[1].Content)
		}
		w.allUsed()
	})
}

// While plan mode is on, hooks run in the sandbox: a hook that tries to
// write into the project and the home directory changes nothing, though
// it runs (its words reach the model). Outside plan mode the same hook
// writes, which shows the check can fail. Both Linux walls are tried.
func TestPlanModeHooksChangeNothing(t *testing.T) {
	for i, kind := range []string{"landlock", "bwrap"} {
		t.Run(kind, func(t *testing.T) {
			haveSandbox(t, kind)
			t.Parallel()
			planModeHookCannotWrite(t, apis[i%2], "PONDER_SANDBOX="+kind)
		})
	}
}

func planModeHookCannotWrite(t *testing.T, api, sandboxChoice string) {
	w := newWorld(t, api,
		fakemodel.Reply{Name: "plan", When: fakemodel.Match{LastUser: "look around"}, Text: "looked"},
		fakemodel.Reply{Name: "default", When: fakemodel.Match{LastUser: "now for real"}, Text: "done"})
	w.extraEnv = []string{sandboxChoice}
	home := filepath.Dir(w.cfg)
	script := hookScript(t, w, "meddle.sh", `touch "$CLAUDE_PROJECT_DIR/hook-was-here" 2>/dev/null
echo "export EVIL=1" >> "$HOME/.bashrc" 2>/dev/null
case "$(cat)" in
  *'"permission_mode":"plan"'*) echo "the prompt hook ran in plan mode";;
  *) echo "the prompt hook ran";;
esac`)
	w.userSettings(hooksSettings(t, map[string]hookGroup{"UserPromptSubmit": {Hooks: command(script)}}, nil))

	w.mustRun(0, "", "-p", "look around", "--permission-mode", "plan")
	reqs := w.srv.Requests()
	if !strings.Contains(reqs[0].LastUser().Text, "the prompt hook ran in plan mode") {
		t.Fatalf("the hook did not run in plan mode (its output is not in the request): %q", reqs[0].LastUser().Text)
	}
	if w.read("hook-was-here") != "<missing>" {
		t.Error("a hook wrote into the project in plan mode")
	}
	if got := readOr(filepath.Join(home, ".bashrc"), "<missing>"); got != "<missing>" {
		t.Errorf("a hook wrote ~/.bashrc in plan mode: %q", got)
	}

	w.mustRun(0, "", "-p", "now for real")
	if w.read("hook-was-here") == "<missing>" || readOr(filepath.Join(home, ".bashrc"), "") == "" {
		t.Error("outside plan mode the hook wrote nothing: the check above proves nothing")
	}
	w.allUsed()
}

// An untrusted project's hooks do not run, and the trust notice names
// them; once the folder is trusted they do.
func TestProjectHooksOnlyFromTrustedFolders(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api,
			fakemodel.Reply{Name: "one", When: fakemodel.Match{LastUser: "first"}, Text: "ok"},
			fakemodel.Reply{Name: "two", When: fakemodel.Match{LastUser: "second"}, Text: "ok"})
		marker := fileOutside(w, "project-hook-ran")
		w.write(".ponder/settings.json", hooksSettings(t, map[string]hookGroup{
			"SessionStart": {Hooks: command("touch " + marker + "; echo project-context-42")}}, nil))
		os.MkdirAll(filepath.Join(w.dir, ".git"), 0o755)

		o := w.mustRun(0, "", "-p", "first")
		if _, err := os.Stat(marker); err == nil {
			t.Fatal("an untrusted project's hook ran")
		}
		if !strings.Contains(o.stderr, "not trusted") || !strings.Contains(o.stderr, "hooks (SessionStart)") {
			t.Errorf("the trust notice does not name the hooks:\n%s", o.stderr)
		}

		w.mustRun(0, "", "-p", "second", "--trust")
		if _, err := os.Stat(marker); err != nil {
			t.Error("a trusted project's hook did not run")
		}
		// Its plain output is context for the model, with the first input.
		reqs := w.srv.Requests()
		if last := reqs[len(reqs)-1]; !strings.Contains(last.LastUser().Text, "project-context-42") {
			t.Errorf("the SessionStart hook's output is not in the request: %q", last.LastUser().Text)
		}
		if strings.Contains(string(reqs[0].Body), "project-context-42") {
			t.Error("the untrusted run's request carries the hook's output")
		}
		w.allUsed()
	})
}

// A UserPromptSubmit hook's output reaches the model with the prompt; one
// that exits 2 keeps the prompt from the model and the user sees why.
func TestUserPromptSubmitHook(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api, fakemodel.Reply{Name: "hello", When: fakemodel.Match{LastUser: "hello"}, Text: "hi"})
		envFile := fileOutside(w, "hook-env")
		script := hookScript(t, w, "prompt.sh", `in=$(cat)
env > `+envFile+`
case "$in" in
  *forbidden*) echo "prompts about forbidden things are blocked" >&2; exit 2;;
esac
echo "current branch: hook-main"`)
		w.userSettings(hooksSettings(t, map[string]hookGroup{"UserPromptSubmit": {Hooks: command(script)}}, nil))

		w.mustRun(0, "", "-p", "hello")
		reqs := w.srv.Requests()
		if len(reqs) != 1 || !strings.Contains(reqs[0].LastUser().Text, "current branch: hook-main") {
			t.Fatalf("the hook's context is not in the request: %+v", reqs)
		}

		// The hook gets the project's directory, never ponder's key.
		env := readOr(envFile, "")
		if !strings.Contains(env, "CLAUDE_PROJECT_DIR="+w.dir+"\n") || !strings.Contains(env, "PONDER_PROJECT_DIR="+w.dir+"\n") {
			t.Errorf("the hook's environment lacks the project variables:\n%s", env)
		}
		if strings.Contains(env, "fake-key") {
			t.Error("the model's API key reached a hook's environment")
		}

		o := w.run("", "-p", "tell me forbidden things")
		if o.code == 0 || !strings.Contains(o.stderr, "prompts about forbidden things are blocked") {
			t.Errorf("exit %d, stderr:\n%s\nwant a failure naming the hook's reason", o.code, o.stderr)
		}
		for _, r := range w.srv.Requests() {
			if strings.Contains(string(r.Body), "forbidden") {
				t.Error("the blocked prompt reached the model")
			}
		}
		w.allUsed()
	})
}

// A Stop hook that exits 2 keeps the turn going once with its reason as
// the model's next input; told stop_hook_active, it lets the turn end.
func TestStopHookContinuesOnce(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api,
			fakemodel.Reply{Name: "first", When: fakemodel.Match{LastUser: "do the work"}, Text: "all done"},
			fakemodel.Reply{Name: "again", When: fakemodel.Match{LastUser: "run the tests before stopping"}, Text: "tests pass, done"})
		log := fileOutside(w, "stop-inputs")
		script := hookScript(t, w, "stop.sh", `in=$(cat)
printf '%s\n' "$in" >> `+log+`
case "$in" in
  *'"stop_hook_active":true'*) exit 0;;
esac
echo "run the tests before stopping" >&2
exit 2`)
		w.userSettings(hooksSettings(t, map[string]hookGroup{"Stop": {Hooks: command(script)}}, nil))
		o := w.mustRun(0, "", "-p", "do the work", "--output-format", "json")
		if got := lastResult(t, o.stdout)["result"]; got != "tests pass, done" {
			t.Errorf("result %v, want the text after the hook's push", got)
		}
		if n := len(w.srv.Requests()); n != 2 {
			t.Errorf("%d model requests, want 2 (the hook pushes once)", n)
		}
		inputs := strings.Split(strings.TrimSpace(readOr(log, "")), "\n")
		if len(inputs) != 2 || strings.Contains(inputs[0], "stop_hook_active") || !strings.Contains(inputs[1], `"stop_hook_active":true`) {
			t.Errorf("the hook's inputs: %q", inputs)
		}
		for _, in := range inputs {
			if !strings.Contains(in, `"hook_event_name":"Stop"`) {
				t.Errorf("input without its event name: %s", in)
			}
		}
		w.allUsed()
	})
}

// A hook that outlives its timeout is killed with what it started; the
// call goes on without its opinion and the user is told.
func TestHookTimeoutKillsIt(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api, calls("run it", bashCall("touch ran-after-timeout"))...)
		pidFile := fileOutside(w, "sleeper.pid")
		script := hookScript(t, w, "slow.sh", `sleep 300 &
echo $! > `+pidFile+`
wait`)
		w.userSettings(hooksSettings(t, map[string]hookGroup{"PreToolUse": {Hooks: []hookCommand{{Type: "command", Command: script, Timeout: 0.5}}}},
			map[string]any{"permissions": map[string]any{"allow": []string{"Bash(touch:*)"}}}))
		o := w.mustRun(0, "", "-p", "run it")
		if !strings.Contains(o.stderr, "timed out") {
			t.Errorf("the user was not told of the timeout:\n%s", o.stderr)
		}
		if w.read("ran-after-timeout") == "<missing>" {
			t.Error("the call did not go on after the hook timed out")
		}
		pid, err := strconv.Atoi(strings.TrimSpace(readOr(pidFile, "")))
		if err != nil {
			t.Fatalf("the hook never started its child: %v", err)
		}
		waitGone(t, pid, "the timed-out hook's child")
		w.allUsed()
	})
}

// Malformed hooks settings stop ponder with an error naming the file and
// the hook's key.
func TestMalformedHooksSettings(t *testing.T) {
	w := newWorld(t, "anthropic")
	path := w.write(".ponder/settings.json", `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[
  {"type":"command","command":"true"},
  {"type":"prompt","prompt":"is this fine?"}]}]}}`)
	o := w.run("", "-p", "hi")
	if o.code != 2 {
		t.Errorf("exit %d, want 2 (a settings problem)", o.code)
	}
	for _, want := range []string{path + ":3:", `hooks.PreToolUse[0].hooks[1]`, `type "prompt" is not supported`} {
		if !strings.Contains(o.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, o.stderr)
		}
	}
	if n := len(w.srv.Requests()); n != 0 {
		t.Errorf("%d requests reached the model", n)
	}
}

// Hooks are read once, as the session starts: a settings file the model
// rewrites mid-session (where that was allowed) adds no hook to it. And
// rewriting it in accept-edits mode needs a yes.
func TestHooksAreASnapshot(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api)
		marker := fileOutside(w, "late-hook-ran")
		evil := hooksSettings(t, map[string]hookGroup{"PreToolUse": {Hooks: command("touch " + marker)}}, nil)
		w.srv.Add(calls("plant a hook", writeCall(".ponder/settings.local.json", evil))...)
		w.srv.Add(
			fakemodel.Reply{Name: "plant", When: fakemodel.Match{LastUser: "plant and use"}, ToolCalls: []fakemodel.ToolCall{writeCall(".ponder/settings.local.json", evil)}},
			fakemodel.Reply{Name: "use", When: fakemodel.Match{LastUser: "", Func: func(r *fakemodel.Request) bool { return callsMade(r) == 1 }},
				ToolCalls: []fakemodel.ToolCall{bashCall("true")}},
			fakemodel.Reply{Name: "end", When: fakemodel.Match{Func: func(r *fakemodel.Request) bool { return callsMade(r) == 2 }}, Text: "planted"})
		w.write(".ponder/settings.json", `{}`)
		os.MkdirAll(filepath.Join(w.dir, ".git"), 0o755)

		w.mustRun(0, "", "-p", "plant a hook", "--permission-mode", "acceptEdits", "--trust")
		if res := lastResults(t, w, 1); !failed(res[0]) || w.read(".ponder/settings.local.json") != "<missing>" {
			t.Errorf("accept-edits mode rewrote the hooks file unasked: %s", res[0].Content)
		}

		o := w.mustRun(0, "", "-p", "plant and use", "--permission-mode", "bypassPermissions", "--trust")
		if w.read(".ponder/settings.local.json") != evil {
			t.Fatalf("the settings were not rewritten; the test proves nothing\n%s\n%+v", o.stderr, w.srv.Requests()[len(w.srv.Requests())-1].LastUser())
		}
		if _, err := os.Stat(marker); err == nil {
			t.Error("a hook planted mid-session ran in that session")
		}
		w.allUsed()
	})
}

// callsMade counts the model messages of a request's conversation that
// made tool calls.
func callsMade(r *fakemodel.Request) int {
	n := 0
	for _, m := range r.Messages {
		if len(m.ToolUses) > 0 {
			n++
		}
	}
	return n
}

// A Notification hook hears of a permission question without holding it
// up; PreCompact hooks run before a compaction with its trigger, and
// their matcher selects it.
func TestNotificationAndPreCompactHooks(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api, calls("touch it", bashCall("touch asked-marker"))...)
		w.srv.Add(fakemodel.Reply{Name: "summary", When: fakemodel.Match{LastUser: "Summarise the conversation so far"}, Text: "a short summary"})
		notify, manual, auto := fileOutside(w, "notify.log"), fileOutside(w, "manual.log"), fileOutside(w, "auto.log")
		s := map[string]any{"hooks": map[string][]hookGroup{
			"Notification": {{Hooks: command("cat >> " + notify)}},
			"PreCompact":   {{Matcher: "manual", Hooks: command("cat >> " + manual)}, {Matcher: "auto", Hooks: command("cat >> " + auto)}},
		}}
		data, _ := json.Marshal(s)
		w.userSettings(string(data))

		sess := w.start()
		sess.say("touch it")
		q := sess.control("can_use_tool")
		sess.answer(q, map[string]any{"behavior": "deny", "message": "not now"})
		sess.result()
		sess.send(map[string]any{"type": "control_request", "request_id": "compact-1",
			"request": map[string]any{"subtype": "compact", "instructions": "keep the marker name"}})
		sess.next("the compaction's answer", func(m map[string]any) bool {
			r, _ := m["response"].(map[string]any)
			return m["type"] == "control_response" && r["request_id"] == "compact-1"
		})
		if code := sess.close(); code != 0 {
			t.Fatalf("exit %d; stderr:\n%s", code, sess.stderr.String())
		}
		// ponder waits for its Notification hooks as it closes, so the
		// log is complete once it has exited.
		var n map[string]any
		if err := json.Unmarshal([]byte(readOr(notify, "")), &n); err != nil {
			t.Fatalf("the Notification hook's input: %q (%v)", readOr(notify, ""), err)
		}
		if n["hook_event_name"] != "Notification" || n["message"] != "ponder needs your permission to use Bash" {
			t.Errorf("Notification input %v", n)
		}
		var c map[string]any
		if err := json.Unmarshal([]byte(readOr(manual, "")), &c); err != nil {
			t.Fatalf("the PreCompact hook's input: %q (%v)", readOr(manual, ""), err)
		}
		if c["hook_event_name"] != "PreCompact" || c["trigger"] != "manual" || c["custom_instructions"] != "keep the marker name" {
			t.Errorf("PreCompact input %v", c)
		}
		if _, err := os.Stat(auto); err == nil {
			t.Error("the hook for automatic compactions ran for a manual one")
		}
		if w.read("asked-marker") != "<missing>" {
			t.Error("the refused command ran")
		}
		w.allUsed()
	})
}

// A PostToolUse hook that exits 2 sends its standard error to the model
// with the call's result.
func TestPostToolUseHookTalksToTheModel(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api, calls("edit", writeCall("notes.txt", "hello\n"))...)
		w.userSettings(hooksSettings(t, map[string]hookGroup{"PostToolUse": {Matcher: "Write|Edit",
			Hooks: command(`cat >/dev/null; echo "lint: notes.txt lacks a title" >&2; exit 2`)}},
			map[string]any{"permissions": map[string]any{"allow": []string{"Write"}}}))
		w.mustRun(0, "", "-p", "edit")
		res := lastResults(t, w, 1)
		if !strings.Contains(res[0].Content, "lint: notes.txt lacks a title") {
			t.Errorf("the model did not read the hook's words: %q", res[0].Content)
		}
		if w.read("notes.txt") != "hello\n" {
			t.Error("the call itself did not run")
		}
		w.allUsed()
	})
}

// Killing ponder kills a hook it is running, and what the hook started.
func TestSignalEndsRunningHooks(t *testing.T) {
	w := newWorld(t, "anthropic")
	fifo := w.fifo("hook-started.fifo")
	script := hookScript(t, w, "hang.sh", `sleep 300 &
echo "$$ $!" > "$CLAUDE_PROJECT_DIR/hook-started.fifo"
wait`)
	w.userSettings(hooksSettings(t, map[string]hookGroup{"UserPromptSubmit": {Hooks: command(script)}}, nil))
	p := w.spawn("-p", "hang")
	pids := strings.Fields(readFifo(t, fifo))
	if len(pids) != 2 {
		t.Fatalf("the hook wrote %q, want two pids", pids)
	}
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	p.wait(t)
	for _, s := range pids {
		pid, _ := strconv.Atoi(s)
		waitGone(t, pid, "a process of the hook")
	}
	if n := len(w.srv.Requests()); n != 0 {
		t.Errorf("%d requests: the prompt went on without its hook", n)
	}
}

// An automatic compaction runs the PreCompact hooks for "auto", not those
// for "manual".
func TestPreCompactHookOnAutomaticCompaction(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api,
			fakemodel.Reply{Name: "big", When: fakemodel.Match{LastUser: "look around"}, Usage: fakemodel.Usage{InputTokens: 7000, OutputTokens: 100},
				ToolCalls: []fakemodel.ToolCall{{Name: "LS", Input: map[string]any{"path": "."}}}},
			fakemodel.Reply{Name: "summary", When: fakemodel.Match{System: "summarising a coding session"}, Text: "SUMMARY: looked around."},
			fakemodel.Reply{Name: "after", When: fakemodel.Match{AnyMessage: "SUMMARY: looked around."}, Text: "done"})
		manual, auto := fileOutside(w, "manual.log"), fileOutside(w, "auto.log")
		s := map[string]any{
			"context": map[string]any{"window": 10000, "autoCompactAt": 0.5},
			"hooks": map[string][]hookGroup{
				"PreCompact": {{Matcher: "manual", Hooks: command("cat >> " + manual)}, {Matcher: "auto", Hooks: command("cat >> " + auto)}},
			}}
		data, _ := json.Marshal(s)
		w.userSettings(string(data))
		w.mustRun(0, "", "-p", "look around")
		var c map[string]any
		if err := json.Unmarshal([]byte(readOr(auto, "")), &c); err != nil {
			t.Fatalf("the auto PreCompact hook's input: %q (%v)", readOr(auto, ""), err)
		}
		if c["hook_event_name"] != "PreCompact" || c["trigger"] != "auto" {
			t.Errorf("PreCompact input %v", c)
		}
		if _, err := os.Stat(manual); err == nil {
			t.Error("the hook for manual compactions ran for an automatic one")
		}
		w.allUsed()
	})
}

// ponder doctor lists the hooks a session would run, and none of an
// untrusted project's.
func TestDoctorListsHooks(t *testing.T) {
	w := newWorld(t, "anthropic")
	w.userSettings(hooksSettings(t, map[string]hookGroup{"PreToolUse": {Matcher: "Bash", Hooks: command("my-guard")}}, nil))
	w.write(".ponder/settings.json", hooksSettings(t, map[string]hookGroup{"Stop": {Hooks: command("project-stop")}}, nil))
	o := w.mustRun(0, "", "doctor")
	if want := "hooks (read once as a session starts):\n  PreToolUse [Bash]: my-guard (from " + filepath.Join(w.cfg, "settings.json") + ")\n"; !strings.Contains(o.stdout, want) {
		t.Errorf("doctor output lacks %q:\n%s", want, o.stdout)
	}
	if strings.Contains(o.stdout, "project-stop") {
		t.Errorf("doctor lists an untrusted project's hook:\n%s", o.stdout)
	}
}

// Every settings file adds its hooks, and the same command for the same
// moment in two files runs once.
func TestHooksOfAllFilesAddUp(t *testing.T) {
	w := newWorld(t, "openai", fakemodel.Reply{Name: "hi", When: fakemodel.Match{LastUser: "hi"}, Text: "hello"})
	log := fileOutside(w, "ran.log")
	same := "echo same >> " + log
	w.userSettings(hooksSettings(t, map[string]hookGroup{"UserPromptSubmit": {Hooks: []hookCommand{
		{Type: "command", Command: same}, {Type: "command", Command: "echo user >> " + log}}}}, nil))
	w.write(".ponder/settings.json", hooksSettings(t, map[string]hookGroup{"UserPromptSubmit": {Hooks: command(same)}}, nil))
	w.write(".ponder/settings.local.json", hooksSettings(t, map[string]hookGroup{"UserPromptSubmit": {Hooks: command("echo local >> " + log)}}, nil))
	w.mustRun(0, "", "-p", "hi", "--trust")
	// The hooks of a moment run side by side, in no set order.
	got := strings.Fields(readOr(log, ""))
	sort.Strings(got)
	if strings.Join(got, " ") != "local same user" {
		t.Errorf("the hooks wrote %q, want each once", got)
	}
	w.allUsed()
}

// A hook running outside the sandbox as plan mode begins is stopped with
// what it started: here the Notification hook of the very question that
// turns plan mode on.
func TestPlanModeStopsRunningHooks(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api,
			fakemodel.Reply{Name: "enter", When: fakemodel.Match{LastUser: "plan this"}, ToolCalls: []fakemodel.ToolCall{{Name: "EnterPlanMode", Input: map[string]any{}}}},
			fakemodel.Reply{Name: "planning", When: fakemodel.Match{ToolResult: "Plan mode is on"}, Text: "planning"})
		fifo := w.fifo("hook.fifo")
		script := hookScript(t, w, "linger.sh", `cat >/dev/null
sleep 300 &
echo "$$ $!" > "$CLAUDE_PROJECT_DIR/hook.fifo"
wait
touch "$CLAUDE_PROJECT_DIR/lingered"`)
		w.userSettings(hooksSettings(t, map[string]hookGroup{"Notification": {Hooks: command(script)}}, nil))
		s := w.start()
		s.say("plan this")
		q := s.control("enter_plan_mode")
		pids := strings.Fields(readFifo(t, fifo))
		if len(pids) != 2 {
			t.Fatalf("the hook wrote %q, want two pids", pids)
		}
		s.answer(q, map[string]any{"behavior": "allow"})
		s.next("the notice", func(m map[string]any) bool {
			return m["event"] == "notice" && strings.Contains(fmt.Sprint(m["text"]), "stopped 1 hook(s) running outside the sandbox")
		})
		for _, p := range pids {
			pid, _ := strconv.Atoi(p)
			waitGone(t, pid, "a process of the hook")
		}
		s.result()
		if code := s.close(); code != 0 {
			t.Fatalf("exit %d", code)
		}
		if w.read("lingered") != "<missing>" {
			t.Error("the hook went on in plan mode")
		}
		w.allUsed()
	})
}

// A host of the SDK's dialect may register PreCompact and Notification
// hooks too: they arrive as hook_callback requests with their fields.
func TestSDKHostPreCompactAndNotificationHooks(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api, calls("touch it", bashCall("touch asked-marker"))...)
		w.srv.Add(fakemodel.Reply{Name: "summary", When: fakemodel.Match{LastUser: "Summarise the conversation so far"}, Text: "a short summary"})
		s := w.start("--verbose", "--permission-prompt-tool", "stdio")
		hooks := map[string]any{
			"PreCompact":   []map[string]any{{"hookCallbackIds": []string{"pc1"}}},
			"Notification": []map[string]any{{"hookCallbackIds": []string{"n1"}}},
		}
		if r := sdkControl(s, "init1", map[string]any{"subtype": "initialize", "hooks": hooks}); r["subtype"] != "success" {
			t.Fatalf("initialize: %v", r)
		}
		s.say("touch it")
		// The question and the Notification callback come in either
		// order: ponder does not wait for the callback.
		var notified map[string]any
		asked := false
		for notified == nil || !asked {
			m := s.next("the question and the notification", func(m map[string]any) bool {
				req, _ := m["request"].(map[string]any)
				return m["type"] == "control_request" && (req["subtype"] == "can_use_tool" || req["subtype"] == "hook_callback")
			})
			req := m["request"].(map[string]any)
			if req["subtype"] == "can_use_tool" {
				asked = true
				sdkAnswer(s, m, map[string]any{"behavior": "deny", "message": "not now"})
				continue
			}
			if req["callback_id"] != "n1" {
				t.Fatalf("unexpected callback %v", req)
			}
			notified, _ = req["input"].(map[string]any)
			sdkAnswer(s, m, map[string]any{})
		}
		if notified["hook_event_name"] != "Notification" || notified["message"] != "ponder needs your permission to use Bash" {
			t.Errorf("Notification input %v", notified)
		}
		s.result()
		s.send(map[string]any{"type": "control_request", "request_id": "compact-1",
			"request": map[string]any{"subtype": "compact", "instructions": "keep it short"}})
		cb := s.control("hook_callback")
		req := cb["request"].(map[string]any)
		in, _ := req["input"].(map[string]any)
		if req["callback_id"] != "pc1" || in["hook_event_name"] != "PreCompact" || in["trigger"] != "manual" || in["custom_instructions"] != "keep it short" {
			t.Errorf("PreCompact callback %v", req)
		}
		sdkAnswer(s, cb, map[string]any{})
		s.next("the compaction's answer", func(m map[string]any) bool {
			r, _ := m["response"].(map[string]any)
			return m["type"] == "control_response" && r["request_id"] == "compact-1"
		})
		if code := s.close(); code != 0 {
			t.Fatalf("exit %d", code)
		}
		if w.read("asked-marker") != "<missing>" {
			t.Error("the refused command ran")
		}
		w.allUsed()
	})
}

// A hook that allows everything does not wave through a write to the
// settings that define hooks, nor a command that copies over them under
// an allow rule for the command; an ordinary file it does.
func TestHookAllowDoesNotPlantHooks(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api, calls("plant",
			writeCall(".ponder/settings.local.json", `{"hooks":{}}`),
			bashCall("cp planted.json .ponder/settings.json"),
			writeCall("notes.txt", "fine"))...)
		w.write("planted.json", `{"hooks":{}}`)
		w.write(".ponder/settings.json", `{}`)
		script := hookScript(t, w, "allow.sh", `cat >/dev/null
printf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}'`)
		w.userSettings(hooksSettings(t, map[string]hookGroup{"PreToolUse": {Hooks: command(script)}},
			map[string]any{"permissions": map[string]any{"allow": []string{"Bash(cp:*)"}}}))
		w.mustRun(0, "", "-p", "plant", "--permission-mode", "acceptEdits", "--trust")
		res := lastResults(t, w, 3)
		if !failed(res[0]) || w.read(".ponder/settings.local.json") != "<missing>" {
			t.Errorf("a hook's allow wrote the local settings: %s", res[0].Content)
		}
		if !failed(res[1]) || w.read(".ponder/settings.json") != "{}" {
			t.Errorf("an allow rule for cp copied over the settings: %s", res[1].Content)
		}
		if failed(res[2]) || w.read("notes.txt") != "fine" {
			t.Errorf("the ordinary write did not go through: %s", res[2].Content)
		}
		w.allUsed()
	})
}

// Whatever the spelling, a command an allow rule lets through does not
// leave a file that decides what ponder runs changed: not through cp's
// target directory, a glob, an archive it extracts, nor in the user's
// own settings. The change is put back and the model told.
func TestAllowedCommandsDoNotPlantHooks(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api)
		evil := `{"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"touch hook-ran"}]}]}}`
		w.write("kit/settings.local.json", evil)
		w.write("kit/settings.json", evil)
		w.write(".ponder/settings.json", `{}`)
		w.write("kit/pre-commit", "#!/bin/sh\ntouch git-hook-ran\n")
		w.write(".git/hooks/pre-push.sample", "#!/bin/sh\n")
		if out, err := exec.Command("tar", "-C", filepath.Join(w.dir, "kit"), "-cf", filepath.Join(w.dir, "kit.tar"), "--transform", "s,^,.ponder/,", "settings.local.json").CombinedOutput(); err != nil {
			t.Fatalf("tar: %v %s", err, out)
		}
		w.srv.Add(calls("plant",
			bashCall("cp -t .ponder kit/settings.local.json"),
			bashCall("cp kit/settings.json .pond?r/"),
			bashCall("tar -xf kit.tar"),
			bashCall("cp -t "+w.cfg+" kit/settings.json"),
			bashCall("cp -t .g?t/hooks kit/pre-commit"),
			bashCall("cp kit/settings.json fine.json"))...)
		w.userSettings(`{"permissions":{"allow":["Bash(cp:*)","Bash(tar:*)"]}}`)
		w.mustRun(0, "", "-p", "plant", "--permission-mode", "acceptEdits", "--trust")
		res := lastResults(t, w, 6)
		for i := range 5 {
			// Confined to its workspace, the command is refused the write
			// by the kernel; outside the sandbox the guard puts it back.
			if !strings.Contains(res[i].Content, "put it back") && !strings.Contains(res[i].Content, "outside_sandbox") {
				t.Errorf("call %d: the model was not told: %s", i, res[i].Content)
			}
		}
		if w.read(".ponder/settings.local.json") != "<missing>" || w.read(".ponder/settings.json") != "{}" {
			t.Errorf("project settings planted: local %q, shared %q", w.read(".ponder/settings.local.json"), w.read(".ponder/settings.json"))
		}
		if data, _ := os.ReadFile(filepath.Join(w.cfg, "settings.json")); strings.Contains(string(data), "hook-ran") {
			t.Errorf("user settings planted: %s", data)
		}
		if w.read(".git/hooks/pre-commit") != "<missing>" || w.read(".git/hooks/pre-push.sample") != "#!/bin/sh\n" {
			t.Errorf("git hooks: pre-commit %q, sample %q", w.read(".git/hooks/pre-commit"), w.read(".git/hooks/pre-push.sample"))
		}
		if w.read("fine.json") != evil {
			t.Errorf("an ordinary copy did not happen: %s", res[5].Content)
		}
		// The next session runs no planted hook.
		w.srv.Add(fakemodel.Reply{Name: "next", When: fakemodel.Match{LastUser: "next"}, Text: "ok"})
		w.mustRun(0, "", "-p", "next", "--trust")
		if w.read("hook-ran") != "<missing>" {
			t.Error("a planted hook ran in the next session")
		}
	})
}
