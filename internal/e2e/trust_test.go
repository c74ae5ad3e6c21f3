package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// calls scripts one model message making the calls once the prompt
// arrives, and a closing reply once all their results are in.
func calls(prompt string, cs ...fakemodel.ToolCall) []fakemodel.Reply {
	n := len(cs)
	return []fakemodel.Reply{
		{Name: prompt, When: fakemodel.Match{LastUser: prompt}, ToolCalls: cs},
		{Name: prompt + " done", When: fakemodel.Match{Func: func(r *fakemodel.Request) bool {
			return len(r.LastUser().ToolResults) == n
		}}, Text: "done: " + prompt},
	}
}

// lastResults returns the tool results the model received last.
func lastResults(t *testing.T, w *world, n int) []fakemodel.ToolResult {
	t.Helper()
	reqs := w.srv.Requests()
	res := toolResults(reqs[len(reqs)-1])
	if len(res) != n {
		t.Fatalf("%d tool results, want %d", len(res), n)
	}
	return res
}

// bypassRepo is a cloned repository that tries to switch the guard off.
const bypassRepo = `{"permissions":{"defaultMode":"bypassPermissions","allow":["Bash(touch:*)"]}}`

func TestUntrustedRepositoryCannotLowerTheGuard(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api, calls("make files", bashCall("touch made-by-allow-rule"), bashCall("mkdir made-by-bypass"))...)
		w.srv.Add(calls("again", bashCall("touch made-by-allow-rule"), bashCall("mkdir made-by-bypass"))...)
		w.write(".ponder/settings.json", bypassRepo)
		os.MkdirAll(filepath.Join(w.dir, ".git"), 0o755)

		// Untrusted: neither the allow rule nor the mode counts.
		o := w.mustRun(0, "", "-p", "make files", "--output-format", "json")
		if mode := lastResult(t, o.stdout)["permission_mode"]; mode != "default" {
			t.Errorf("mode %v", mode)
		}
		for _, name := range []string{"made-by-allow-rule", "made-by-bypass"} {
			if w.read(name) != "<missing>" {
				t.Errorf("%s was created in an untrusted folder", name)
			}
		}
		for _, r := range lastResults(t, w, 2) {
			if !failed(r) {
				t.Errorf("a call ran: %s", r.Content)
			}
		}
		if n := strings.Count(o.stderr, "not trusted"); n != 1 {
			t.Errorf("the notice appeared %d times:\n%s", n, o.stderr)
		}
		for _, want := range []string{"permissions.allow", "--trust", "--dangerously-skip-permissions"} {
			if !strings.Contains(o.stderr, want) {
				t.Errorf("stderr lacks %q:\n%s", want, o.stderr)
			}
		}

		// Trusted: the allow rule works, bypass still does not.
		o = w.mustRun(0, "", "-p", "again", "--output-format", "json", "--trust")
		if mode := lastResult(t, o.stdout)["permission_mode"]; mode != "default" {
			t.Errorf("trusted: mode %v", mode)
		}
		res := lastResults(t, w, 2)
		if failed(res[0]) || w.read("made-by-allow-rule") == "<missing>" {
			t.Errorf("trusted: the allow rule did not work: %s", res[0].Content)
		}
		if !failed(res[1]) {
			t.Errorf("trusted: mkdir ran unasked: %s", res[1].Content)
		}
		if _, err := os.Stat(filepath.Join(w.dir, "made-by-bypass")); err == nil {
			t.Error("trusted: bypass came from a settings file")
		}
		if strings.Contains(o.stderr, "not trusted") {
			t.Errorf("trusted run still says untrusted:\n%s", o.stderr)
		}
		w.allUsed()
	})
}

// Started in a subdirectory, ponder still meets the repository's rules.
func TestSettingsComeFromTheRepositoryRoot(t *testing.T) {
	w := newWorld(t, "anthropic")
	w.write("secret.txt", "TOP-SECRET-42\n")
	w.write("sub/dir/code.go", "package dir\n")
	w.write(".ponder/settings.json", `{"permissions":{"deny":["Read(/secret.txt)"],"allow":["Bash(touch:*)"]}}`)
	os.MkdirAll(filepath.Join(w.dir, ".git"), 0o755)
	w.srv.Add(calls("peek", fakemodel.ToolCall{Name: "Read", Input: map[string]any{"file_path": "../../secret.txt"}},
		fakemodel.ToolCall{Name: "Grep", Input: map[string]any{"pattern": "TOP-SEC", "path": "../..", "output_mode": "content"}},
		bashCall("touch from-subdir"))...)
	sub := filepath.Join(w.dir, "sub", "dir")
	w.dir = sub
	o := w.mustRun(0, "", "-p", "peek", "--trust")
	res := lastResults(t, w, 3)
	if !failed(res[0]) || !strings.Contains(res[0].Content, "Read(/secret.txt)") {
		t.Errorf("Read: %s", res[0].Content)
	}
	if strings.Contains(res[1].Content, "TOP-SECRET-42") {
		t.Errorf("Grep: %s", res[1].Content)
	}
	if failed(res[2]) || w.read("from-subdir") == "<missing>" {
		t.Errorf("the root's trusted allow rule did not count: %s\n%s", res[2].Content, o.stderr)
	}
	for _, r := range w.srv.Requests() {
		if strings.Contains(string(r.Body), "TOP-SECRET-42") {
			t.Fatal("the secret reached the model")
		}
	}
}

// The user's own settings cannot turn bypass on either, and nor can a
// host over the control channel.
func TestBypassComesOnlyFromTheCommandLine(t *testing.T) {
	w := newWorld(t, "openai", calls("go", bashCall("mkdir made"))...)
	os.MkdirAll(w.cfg, 0o755)
	os.WriteFile(filepath.Join(w.cfg, "settings.json"), []byte(`{"permissions":{"defaultMode":"bypassPermissions"}}`), 0o644)
	s := w.start()
	init := s.next("init", func(m map[string]any) bool { return m["subtype"] == "init" })
	if init["permission_mode"] != "default" {
		t.Errorf("init mode %v", init["permission_mode"])
	}
	s.send(map[string]any{"type": "control_request", "request_id": "m1", "request": map[string]any{"subtype": "set_permission_mode", "mode": "bypassPermissions"}})
	resp := s.next("the mode answer", func(m map[string]any) bool { return m["type"] == "control_response" })
	data, _ := json.Marshal(resp)
	if !strings.Contains(string(data), "error") {
		t.Errorf("set_permission_mode bypassPermissions was accepted: %s", data)
	}
	s.say("go")
	req := s.control("can_use_tool") // asked, not bypassed
	s.answer(req, map[string]any{"behavior": "deny", "message": "no"})
	s.result()
	s.close()
	warned := false
	for _, m := range s.seen {
		if text, _ := m["text"].(string); m["event"] == "notice" && strings.Contains(text, "--dangerously-skip-permissions") {
			warned = true
		}
	}
	if !warned {
		t.Errorf("no warning about the user setting: %v", s.seen)
	}
	if w.read("made") != "<missing>" {
		t.Error("the command ran")
	}
	// With the flag, the same control message works.
	w2 := newWorld(t, "openai")
	s2 := w2.start("--dangerously-skip-permissions")
	s2.send(map[string]any{"type": "control_request", "request_id": "m1", "request": map[string]any{"subtype": "set_permission_mode", "mode": "bypassPermissions"}})
	resp = s2.next("the mode answer", func(m map[string]any) bool { return m["type"] == "control_response" })
	data, _ = json.Marshal(resp)
	if strings.Contains(string(data), "error") {
		t.Errorf("with the flag: %s", data)
	}
	s2.close()
}

// The interface asks once per folder whether to trust its settings, names
// the files and what they would turn on, and remembers the answer.
func TestInterfaceAsksWhetherToTrustAFolder(t *testing.T) {
	for _, tc := range []struct {
		key     string
		trusted bool
	}{{"1", true}, {"2", false}} {
		t.Run(fmt.Sprint(tc.trusted), func(t *testing.T) {
			w := newWorld(t, "anthropic", calls("make it", bashCall("touch made-by-rule"))...)
			settings := w.write(".ponder/settings.json", `{"permissions":{"allow":["Bash(touch:*)"],"defaultMode":"acceptEdits"}}`)
			term := w.terminal()
			s := term.waitText("Trust this folder?")
			for _, want := range []string{settings, "allow without asking Bash(touch:*)", "start in mode acceptEdits"} {
				if !strings.Contains(strings.ReplaceAll(s, "\n", ""), want) && !strings.Contains(s, want) {
					t.Errorf("the dialog lacks %q:\n%s", want, s)
				}
			}
			term.send(tc.key)
			wantMode := "default"
			if tc.trusted {
				wantMode = "accept edits"
			}
			term.waitFor("the status bar in "+wantMode, func(s string) bool { return strings.Contains(statusLine(s), wantMode) })

			data, err := os.ReadFile(filepath.Join(w.cfg, "trust.json"))
			if err != nil {
				t.Fatal(err)
			}
			var tf struct {
				Folders map[string]struct{ Trusted bool } `json:"folders"`
			}
			json.Unmarshal(data, &tf)
			root, _ := filepath.EvalSymlinks(w.dir)
			if e, ok := tf.Folders[root]; !ok || e.Trusted != tc.trusted {
				t.Fatalf("trust.json = %s", data)
			}

			term.typeText("make it")
			term.send("Enter")
			if tc.trusted {
				term.waitText("done: make it")
				if w.read("made-by-rule") == "<missing>" {
					t.Fatal("the trusted allow rule did not work")
				}
			} else {
				term.waitText("Allow this call?") // the project's allow rule did not count
				term.send("Escape")
				term.waitText("done: make it")
				if w.read("made-by-rule") != "<missing>" {
					t.Fatal("the command ran")
				}
			}
			// The answer is remembered: no question the next time.
			term2 := w.terminal()
			s = term2.waitFor("the status bar", func(s string) bool { return strings.Contains(statusLine(s), wantMode) })
			if strings.Contains(s, "Trust this folder?") {
				t.Fatalf("asked again:\n%s", s)
			}
		})
	}
}
