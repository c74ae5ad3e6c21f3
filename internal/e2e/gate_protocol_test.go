package e2e

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// A tool denied outright is withheld the same way wherever the rule was
// written (--disallowedTools, the user's settings, an untrusted project's
// settings): the model is not offered it, nor any tool of its kind, and a
// call of it anyway is refused by the permission engine with one
// tool_refused event and nothing else, and nothing runs.
func TestDeniedToolIsWithheldAlikeFromEverySource(t *testing.T) {
	for _, tc := range []struct {
		rule     string
		withheld []string // tools of the rule's kind, none offered
		call     fakemodel.ToolCall
	}{
		{"Task", []string{"Task"}, fakemodel.ToolCall{Name: "Task", Input: map[string]any{
			"description": "look", "prompt": "look around", "subagent_type": "Explore"}}},
		{"Write", []string{"Write", "Edit"}, fakemodel.ToolCall{Name: "Edit", Input: map[string]any{
			"file_path": "notes.txt", "old_string": "old", "new_string": "new"}}},
		{"Bash(*)", []string{"Bash"}, fakemodel.ToolCall{Name: "Bash", Input: map[string]any{"command": "touch ran.txt"}}},
	} {
		t.Run(tc.rule, func(t *testing.T) {
			forAPIs(t, func(t *testing.T, api string) {
				offered := map[string][]string{}
				for _, source := range []string{"flag", "user settings", "project settings"} {
					w := newWorld(t, api, calls("go", tc.call)...)
					w.write("notes.txt", "old\n")
					args := []string{"-p", "go", "--output-format", "stream-json", "--permission-mode", "bypassPermissions"}
					rules := fmt.Sprintf(`{"permissions":{"deny":[%q]}}`, tc.rule)
					switch source {
					case "flag":
						args = append(args, "--disallowedTools", tc.rule)
					case "user settings":
						os.MkdirAll(w.cfg, 0o755)
						os.WriteFile(filepath.Join(w.cfg, "settings.json"), []byte(rules), 0o644)
					case "project settings":
						w.write(".ponder/settings.json", rules)
					}
					o := w.mustRun(0, "", args...)
					reqs := w.srv.Requests()
					first := reqs[0].Tools
					for _, name := range tc.withheld {
						if contains(first, name) {
							t.Errorf("%s: %s is offered: %v", source, name, first)
						}
					}
					offered[source] = first
					res := toolResults(reqs[len(reqs)-1])
					if len(res) != 1 || !failed(res[0]) || !strings.Contains(res[0].Content, "Denied by the permission rule "+tc.rule) {
						t.Errorf("%s: the call's result %+v", source, res)
					}
					refusals, finishes := 0, 0
					for _, l := range lines(t, o.stdout) {
						switch l["event"] {
						case "tool_refused":
							refusals++
							if l["rule"] != "deny rule "+tc.rule || l["tool"] != tc.call.Name {
								t.Errorf("%s: refusal %v", source, l)
							}
						case "tool_finished":
							finishes++
						}
					}
					if refusals != 1 || finishes != 0 {
						t.Errorf("%s: %d tool_refused and %d tool_finished events for one refused call", source, refusals, finishes)
					}
					if w.read("notes.txt") != "old\n" || w.read("ran.txt") != "<missing>" {
						t.Errorf("%s: the refused call ran", source)
					}
					if len(w.srv.Requests()) != 2 {
						t.Errorf("%s: %d requests; a refused Task must launch no agent", source, len(w.srv.Requests()))
					}
				}
				if !slices.Equal(offered["flag"], offered["user settings"]) || !slices.Equal(offered["flag"], offered["project settings"]) {
					t.Errorf("the offered tools differ by where the rule was written: %v", offered)
				}
			})
		})
	}
}

// A tool with a narrower deny rule stays offered; only the calls the rule
// covers are refused.
func TestNarrowDenyRuleKeepsTheToolOffered(t *testing.T) {
	w := newWorld(t, "anthropic", calls("go", fakemodel.ToolCall{Name: "Bash", Input: map[string]any{"command": "echo fine"}})...)
	w.mustRun(0, "", "-p", "go", "--disallowedTools", "Bash(rm:*)", "--allowedTools", "Bash(echo:*)")
	if tools := w.srv.Requests()[0].Tools; !contains(tools, "Bash") {
		t.Fatalf("Bash withheld by a rule about rm only: %v", tools)
	}
	if res := lastResults(t, w, 1); failed(res[0]) || !strings.Contains(res[0].Content, "fine") {
		t.Fatalf("result %+v", res)
	}
}

// The starting mode goes through the one transition like every change,
// and says where it came from: the flag, or a settings file. A settings
// file never turns bypass on, even with the command line's permission and
// the folder trusted.
func TestStartingModeSaysWhereItCameFrom(t *testing.T) {
	w := newWorld(t, "openai", fakemodel.Reply{Times: -1, Text: "ok"})
	w.write(".ponder/settings.json", `{"permissions":{"defaultMode":"plan"}}`)
	o := w.mustRun(0, "", "-p", "hello", "--output-format", "stream-json")
	if via := modeChangeVia(t, o.stdout); via != "settings" {
		t.Fatalf("mode_changed via %q, want settings", via)
	}
	o = w.mustRun(0, "", "-p", "hello", "--output-format", "stream-json", "--permission-mode", "acceptEdits")
	if via := modeChangeVia(t, o.stdout); via != "flag" {
		t.Fatalf("mode_changed via %q, want flag", via)
	}
	w.write(".ponder/settings.json", `{"permissions":{"defaultMode":"bypassPermissions"}}`)
	o = w.mustRun(0, "", "-p", "hello", "--output-format", "json", "--trust", "--dangerously-skip-permissions")
	if m := lastResult(t, o.stdout)["permission_mode"]; m != "default" {
		t.Fatalf("a settings file turned on %v", m)
	}
}

func modeChangeVia(t *testing.T, out string) any {
	t.Helper()
	for _, l := range lines(t, out) {
		if l["event"] == "mode_changed" {
			return l["via"]
		}
	}
	return nil
}

// A signal ends a stream-json run at once and as a failure, though the
// host keeps standard input open and no turn runs: within a second, exit
// status 1, and a result that says it was interrupted. The same while a
// turn waits on a question.
func TestSignalEndsAnIdleStreamJSONRunAtOnce(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		for _, waiting := range []bool{false, true} {
			name := sig.String() + map[bool]string{false: " idle", true: " asking"}[waiting]
			t.Run(name, func(t *testing.T) {
				forAPIs(t, func(t *testing.T, api string) {
					w := newWorld(t, api,
						fakemodel.Reply{Name: "hi", When: fakemodel.Match{LastUser: "hello"}, Text: "hi"},
						fakemodel.Reply{Name: "ask", When: fakemodel.Match{LastUser: "touch it"},
							ToolCalls: tools(call{Name: "Bash", Input: map[string]any{"command": "touch touched.txt"}})})
					s := w.start()
					s.say("hello")
					s.result()
					if waiting {
						s.say("touch it")
						s.control("can_use_tool")
					}
					signalled := time.Now()
					s.cmd.Process.Signal(sig)
					res := s.result()
					if res["subtype"] != "error" || !strings.Contains(fmt.Sprint(res["error"]), "interrupted") {
						t.Errorf("result %v", res)
					}
					code := s.waitExit(time.Second)
					if took := time.Since(signalled); code != 1 {
						t.Fatalf("exit %d after %s, want 1", code, took)
					}
					if w.read("touched.txt") != "<missing>" {
						t.Error("the command nobody approved ran")
					}
				})
			})
		}
	}
}

// killAfter bounds the session: a ponder still running after d is
// killed, so a test that waits on it fails instead of hanging.
func (s *session) killAfter(d time.Duration) {
	timer := time.AfterFunc(d, func() {
		s.t.Errorf("ponder still ran after %s; killed it", d)
		s.cmd.Process.Kill()
	})
	s.t.Cleanup(func() { timer.Stop() })
}

// waitExit waits up to limit for ponder to exit with standard input still
// open, and returns its exit status; a signal's death fails the test.
func (s *session) waitExit(limit time.Duration) int {
	s.t.Helper()
	done := make(chan error, 1)
	go func() {
		io.Copy(io.Discard, s.out)
		done <- s.cmd.Wait()
	}()
	select {
	case <-done:
	case <-time.After(limit):
		s.t.Fatalf("ponder did not exit within %s; stderr:\n%s", limit, s.stderr.String())
	}
	st := s.cmd.ProcessState.Sys().(syscall.WaitStatus)
	if st.Signaled() {
		s.t.Fatalf("ponder was killed by %v", st.Signal())
	}
	return st.ExitStatus()
}

// Answers never wait behind queued messages: with 40 user lines queued
// while a turn waits on a question, the answer after them is read and
// the turn goes on; then every queued message gets its turn, in order.
func TestAnswerBehindManyQueuedMessages(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api,
			fakemodel.Reply{Name: "ask", When: fakemodel.Match{LastUser: "touch it"},
				ToolCalls: tools(call{Name: "Bash", Input: map[string]any{"command": "touch touched.txt"}})},
			fakemodel.Reply{Name: "touched", When: fakemodel.Match{ToolResult: ""}, Text: "touched"},
			fakemodel.Reply{Name: "queued", Times: -1, When: fakemodel.Match{LastUser: "queued"}, Text: "noted"})
		s := w.start()
		s.killAfter(30 * time.Second)
		s.say("touch it")
		req := s.control("can_use_tool")
		for i := range 40 {
			s.say(fmt.Sprint("queued ", i))
		}
		s.answer(req, map[string]any{"behavior": "allow"})
		first := s.result()
		if first["result"] != "touched" || w.read("touched.txt") == "<missing>" {
			t.Fatalf("the answer behind the queue was not acted on: %v", first)
		}
		for i := range 40 {
			if r := s.result(); r["result"] != "noted" {
				t.Fatalf("queued message %d: %v", i, r)
			}
		}
		if code := s.close(); code != 0 {
			t.Fatalf("exit %d", code)
		}
		reqs := w.srv.Requests()
		for i := range 40 {
			if got := reqs[len(reqs)-40+i].LastUser().Text; !strings.HasPrefix(got, fmt.Sprint("queued ", i)) {
				t.Fatalf("turn %d was %q: out of order", i, got)
			}
		}
	})
}

// Every question a host is asked on stream-json is closed there too, with
// how it ended: answered, or cancelled when the host interrupts the turn.
func TestQuestionClosedReachesTheHost(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api,
			fakemodel.Reply{Name: "ask", Times: 2, When: fakemodel.Match{LastUser: "touch it"},
				ToolCalls: tools(call{Name: "Bash", Input: map[string]any{"command": "touch touched.txt"}})},
			fakemodel.Reply{Name: "after", Times: -1, When: fakemodel.Match{ToolResult: ""}, Text: "after"})
		s := w.start()
		s.killAfter(30 * time.Second)
		s.say("touch it")
		req := s.control("can_use_tool")
		s.answer(req, map[string]any{"behavior": "deny", "message": "not now"})
		closed := s.next("question_closed", func(m map[string]any) bool { return m["event"] == "question_closed" })
		if closed["request_id"] != req["request_id"] || closed["how"] != "answered" {
			t.Fatalf("closed %v for %v", closed, req["request_id"])
		}
		s.result()
		s.say("touch it again")
		req = s.control("can_use_tool")
		s.send(map[string]any{"type": "control_request", "request_id": "i1", "request": map[string]any{"subtype": "interrupt"}})
		closed = s.next("question_closed", func(m map[string]any) bool { return m["event"] == "question_closed" })
		if closed["request_id"] != req["request_id"] || closed["how"] != "cancelled" {
			t.Fatalf("closed %v for %v", closed, req["request_id"])
		}
		s.result()
		s.close()
		if w.read("touched.txt") != "<missing>" {
			t.Fatal("a refused command ran")
		}
	})
}
