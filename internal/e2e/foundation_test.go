package e2e

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

type call = fakemodel.ToolCall

func tools(calls ...call) []fakemodel.ToolCall { return calls }

func TestReadBashWriteEditChain(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api,
			fakemodel.Reply{Name: "read", When: fakemodel.Match{LastUser: "tidy up"},
				ToolCalls: tools(call{Name: "Read", Input: map[string]any{"file_path": "notes.txt"}})},
			fakemodel.Reply{Name: "bash", When: fakemodel.Match{ToolResult: "first line"},
				ToolCalls: tools(call{Name: "Bash", Input: map[string]any{"command": "wc -l notes.txt"}})},
			fakemodel.Reply{Name: "write+edit", When: fakemodel.Match{ToolResult: "2 notes.txt"},
				ToolCalls: tools(
					call{Name: "Write", Input: map[string]any{"file_path": "summary.md", "content": "# Summary\n2 lines\n"}},
					call{Name: "Edit", Input: map[string]any{"file_path": "notes.txt", "old_string": "first line", "new_string": "first line (edited)"}},
				)},
			fakemodel.Reply{Name: "done", When: fakemodel.Match{ToolResult: "summary.md"}, Text: "Wrote the summary and fixed the notes."},
		)
		w.write("notes.txt", "first line\nsecond line\n")
		o := w.mustRun(0, "", "-p", "tidy up", "--permission-mode", "acceptEdits", "--allowedTools", "Bash(wc:*)")
		if !strings.Contains(o.stdout, "Wrote the summary and fixed the notes.") {
			t.Fatalf("stdout = %q", o.stdout)
		}
		if got := w.read("summary.md"); got != "# Summary\n2 lines\n" {
			t.Fatalf("summary.md = %q", got)
		}
		if got := w.read("notes.txt"); got != "first line (edited)\nsecond line\n" {
			t.Fatalf("notes.txt = %q", got)
		}
		w.allUsed()
		// The model saw numbered lines from Read and the exit status of wc.
		reqs := w.srv.Requests()
		if !strings.Contains(toolResults(reqs[1])[0].Content, "first line") {
			t.Fatalf("Read result = %+v", toolResults(reqs[1]))
		}
	})
}

// A barrier on a local web server proves that the three WebFetch calls of
// one message run at the same time: each request is held until all three
// have arrived, so calls made one after another would never complete.
func TestReadOnlyCallsRunInParallel(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		var mu sync.Mutex
		arrived := 0
		all := make(chan struct{})
		web := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
			mu.Lock()
			arrived++
			if arrived == 3 {
				close(all)
			}
			mu.Unlock()
			select {
			case <-all:
				fmt.Fprintf(rw, "page %s served", r.URL.Path)
			case <-time.After(20 * time.Second):
				http.Error(rw, "the calls did not overlap", http.StatusServiceUnavailable)
			}
		}))
		defer web.Close()
		fetch := func(p string) call {
			return call{Name: "WebFetch", Input: map[string]any{"url": web.URL + p, "prompt": "read it"}}
		}
		w := newWorld(t, api,
			fakemodel.Reply{Name: "fetch3", When: fakemodel.Match{LastUser: "fetch"}, ToolCalls: tools(fetch("/a"), fetch("/b"), fetch("/c"))},
			fakemodel.Reply{Name: "done", When: fakemodel.Match{ToolResult: "served"}, Text: "fetched"},
		)
		w.mustRun(0, "", "-p", "fetch them", "--allowedTools", "WebFetch")
		reqs := w.srv.Requests()
		res := toolResults(reqs[len(reqs)-1])
		if len(res) != 3 {
			t.Fatalf("results = %+v", res)
		}
		for i, p := range []string{"/a", "/b", "/c"} {
			if !strings.Contains(res[i].Content, "page "+p+" served") || failed(res[i]) {
				t.Errorf("result %d (in call order) = %q", i, res[i].Content)
			}
		}
	})
}

func TestUnknownToolAndMalformedInputGoBackToTheModel(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api,
			fakemodel.Reply{Name: "bad calls", When: fakemodel.Match{LastUser: "go"}, ToolCalls: tools(
				call{Name: "Teleport", Input: map[string]any{"to": "mars"}},
				call{Name: "Read", RawInput: `{"file_path": "x.txt"`},
				call{Name: "Read", Input: map[string]any{"file_path": 42}},
				call{Name: "Read", Input: map[string]any{"file_path": "x.txt", "colour": "red"}},
			)},
			fakemodel.Reply{Name: "recover", When: fakemodel.Match{ToolResult: "Teleport"}, Text: "I will use real tools."},
		)
		o := w.mustRun(0, "", "-p", "go")
		if !strings.Contains(o.stdout, "I will use real tools.") {
			t.Fatalf("stdout %q", o.stdout)
		}
		res := toolResults(w.srv.Requests()[1])
		if len(res) != 4 {
			t.Fatalf("results %+v", res)
		}
		want := []string{`no tool named "Teleport"`, "not valid JSON", `"file_path" must be a string`, `unknown field "colour"`}
		for i, wnt := range want {
			if !failed(res[i]) || !strings.Contains(res[i].Content, wnt) {
				t.Errorf("result %d = %q (error %v), want it to mention %q", i, res[i].Content, failed(res[i]), wnt)
			}
		}
	})
}

func TestServerErrorIsRetried(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api,
			fakemodel.Reply{Name: "500", Status: 500, ErrorMessage: "internal trouble", RetryAfterMS: "10"},
			fakemodel.Reply{Name: "429", Status: 429, ErrorMessage: "slow down", RetryAfter: "0"},
			fakemodel.Reply{Name: "ok", Text: "recovered"},
		)
		o := w.mustRun(0, "", "-p", "hello")
		if strings.TrimSpace(o.stdout) != "recovered" {
			t.Fatalf("stdout %q", o.stdout)
		}
		if n := len(w.srv.Requests()); n != 3 {
			t.Fatalf("%d requests, want 3", n)
		}
		if !strings.Contains(o.stderr, "retrying") {
			t.Fatalf("the user is not told about retries: %q", o.stderr)
		}
	})
}

func TestStreamCutInTheMiddleIsRetried(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api,
			fakemodel.Reply{Name: "cut", Text: "this answer will be cut off in the middle of the stream", CutAfter: 3},
			fakemodel.Reply{Name: "whole", Text: "complete answer"},
		)
		o := w.mustRun(0, "", "-p", "hello", "--output-format", "json")
		res := lastResult(t, o.stdout)
		if res["result"] != "complete answer" || res["subtype"] != "success" {
			t.Fatalf("result %v", res)
		}
		w.allUsed()
	})
}

func TestUnauthorizedEndsWithClearMessage(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api, fakemodel.Reply{Name: "401", Status: 401, ErrorMessage: "invalid api key", Times: -1})
		o := w.mustRun(1, "", "-p", "hello", "--model", "test-model-7")
		for _, want := range []string{api, "401", "invalid api key", "test-model-7", w.srv.URL()} {
			if !strings.Contains(o.stderr, want) {
				t.Errorf("stderr %q does not mention %q", o.stderr, want)
			}
		}
		if n := len(w.srv.Requests()); n != 1 {
			t.Errorf("401 was retried: %d requests", n)
		}
	})
}

func TestBashTimeoutKillsTheProcessGroup(t *testing.T) {
	w := newWorld(t, "anthropic",
		fakemodel.Reply{Name: "slow", When: fakemodel.Match{LastUser: "run"}, ToolCalls: tools(call{Name: "Bash",
			Input: map[string]any{"command": "sleep 300 & echo $! > grandchild.pid; wait", "timeout": 1000}})},
		fakemodel.Reply{Name: "after", When: fakemodel.Match{ToolResult: "timed out"}, Text: "it timed out"},
	)
	start := time.Now()
	w.mustRun(0, "", "-p", "run it", "--allowedTools", "Bash")
	if d := time.Since(start); d > 30*time.Second {
		t.Fatalf("took %s", d)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(w.read("grandchild.pid")))
	if err != nil {
		t.Fatalf("grandchild pid: %v", err)
	}
	if pid < 300 {
		// Its own PID namespace's pid (a command confined to its
		// workspace): the namespace ended with the command, and a low
		// pid here would be another process.
		return
	}
	// The kill happened before the tool returned; allow the kernel a
	// moment to reap it.
	deadline := time.Now().Add(5 * time.Second)
	for syscall.Kill(pid, 0) == nil {
		if time.Now().After(deadline) {
			t.Fatalf("grandchild sleep %d still alive", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
	w.allUsed()
}

func TestHeadlessAskBecomesRefusalTheModelIsToldAbout(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api,
			fakemodel.Reply{Name: "try", When: fakemodel.Match{LastUser: "change"}, ToolCalls: tools(
				call{Name: "Write", Input: map[string]any{"file_path": "new.txt", "content": "x"}},
				call{Name: "Bash", Input: map[string]any{"command": "touch made-by-bash"}},
			)},
			fakemodel.Reply{Name: "told", When: fakemodel.Match{ToolResult: "nobody can give it"}, Text: "I could not make changes."},
		)
		o := w.mustRun(0, "", "-p", "change things", "--output-format", "stream-json")
		if w.read("new.txt") != "<missing>" || w.read("made-by-bash") != "<missing>" {
			t.Fatal("a call that needed approval ran without one")
		}
		refused := 0
		for _, e := range events(t, o.stdout) {
			if e == "tool_refused" {
				refused++
			}
		}
		if refused != 2 {
			t.Fatalf("tool_refused events: %d", refused)
		}
		w.allUsed()
	})
}

func TestDisallowedToolsAndReadOnlyBashWithoutAsking(t *testing.T) {
	w := newWorld(t, "anthropic",
		fakemodel.Reply{Name: "calls", When: fakemodel.Match{LastUser: "look"}, ToolCalls: tools(
			call{Name: "Bash", Input: map[string]any{"command": "ls -1 | head -3"}},
			call{Name: "Bash", Input: map[string]any{"command": "git status"}},
		)},
		fakemodel.Reply{Name: "end", When: fakemodel.Match{ToolResult: "Bash(git:*)"}, Text: "done"},
	)
	w.write("a.txt", "a")
	w.mustRun(0, "", "-p", "look around", "--disallowedTools", "Bash(git:*),WebFetch")
	req := w.srv.Requests()[1]
	res := toolResults(req)
	if failed(res[0]) || !strings.Contains(res[0].Content, "a.txt") {
		t.Fatalf("read-only ls should run: %+v", res[0])
	}
	if !failed(res[1]) || !strings.Contains(res[1].Content, "Bash(git:*)") {
		t.Fatalf("git should be denied by rule: %+v", res[1])
	}
	for _, name := range w.srv.Requests()[0].Tools {
		if name == "WebFetch" {
			t.Fatal("a tool disallowed by name is still offered")
		}
	}
}

func TestPromptFromStdinAndOutputFormats(t *testing.T) {
	w := newWorld(t, "openai", fakemodel.Reply{Name: "hi", When: fakemodel.Match{LastUser: "from stdin"}, Text: "hello there", Times: -1})
	o := w.mustRun(0, "question from stdin\n", "-p")
	if strings.TrimSpace(o.stdout) != "hello there" {
		t.Fatalf("text output %q", o.stdout)
	}
	o = w.mustRun(0, "from stdin", "-p", "--output-format", "json")
	res := lastResult(t, o.stdout)
	if res["result"] != "hello there" || res["session_id"] == "" || res["num_turns"] != float64(1) || res["permission_mode"] != "default" {
		t.Fatalf("json result %v", res)
	}
	if len(lines(t, o.stdout)) != 1 {
		t.Fatalf("json output must be one object: %q", o.stdout)
	}
	o = w.mustRun(0, "from stdin", "-p", "--output-format", "stream-json")
	ls := lines(t, o.stdout)
	if ls[0]["type"] != "system" || ls[0]["subtype"] != "init" || ls[len(ls)-1]["type"] != "result" {
		t.Fatalf("stream-json lines %v", ls)
	}
	sawAssistant := false
	for _, l := range ls {
		if l["type"] == "assistant" {
			sawAssistant = true
		}
	}
	if !sawAssistant {
		t.Fatal("no assistant line")
	}
}

func TestUsageErrorsExitTwo(t *testing.T) {
	w := newWorld(t, "anthropic")
	for _, args := range [][]string{
		{"-p", "x", "--permission-mode", "yolo"},
		{"-p", "x", "--output-format", "xml"},
		{"-p", "x", "--approve-plan", "accept-edits"},
		{"-p", "x", "--resume", "no-such-session"},
		{"-p", "x", "--session-id", "not-a-uuid"},
		{"-p", "x", "--plan-approval", "maybe"},
	} {
		o := w.run("", args...)
		if o.code != 2 || !strings.Contains(o.stderr, "ponder:") {
			t.Errorf("%v: exit %d, stderr %q", args, o.code, o.stderr)
		}
	}
	o := w.run("", "-p")
	if o.code != 2 || !strings.Contains(o.stderr, "no prompt") {
		t.Errorf("empty prompt: exit %d %q", o.code, o.stderr)
	}
}

func TestBrokenSettingsNameFileAndLine(t *testing.T) {
	w := newWorld(t, "anthropic")
	path := w.write(".ponder/settings.json", "{\n  \"permissions\": {\n    \"allow\": [\"Read\",]\n  }\n}\n")
	o := w.run("", "-p", "hello")
	if o.code != 2 || !strings.Contains(o.stderr, path+":3:") {
		t.Fatalf("exit %d stderr %q", o.code, o.stderr)
	}
	w.write(".ponder/settings.json", `{"modle": "typo"}`)
	w.srv.Add(fakemodel.Reply{Text: "fine"})
	o = w.mustRun(0, "", "-p", "hello")
	if !strings.Contains(o.stderr, `unknown setting "modle"`) {
		t.Fatalf("no warning about the unknown key: %q", o.stderr)
	}
}

func TestMaxTurns(t *testing.T) {
	w := newWorld(t, "anthropic", fakemodel.Reply{Name: "loop", Times: -1,
		ToolCalls: tools(call{Name: "LS", Input: map[string]any{"path": "."}})})
	o := w.mustRun(1, "", "-p", "loop forever", "--max-turns", "3", "--output-format", "json")
	res := lastResult(t, o.stdout)
	if res["subtype"] != "error_max_turns" || res["num_turns"] != float64(3) {
		t.Fatalf("result %v", res)
	}
	if n := len(w.srv.Requests()); n != 3 {
		t.Fatalf("%d requests", n)
	}
}

func TestSessionsContinueResumeAndSessionID(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api,
			fakemodel.Reply{Name: "one", When: fakemodel.Match{LastUser: "remember 42"}, Text: "noted"},
			fakemodel.Reply{Name: "two", When: fakemodel.Match{AnyMessage: "remember 42", LastUser: "what number"}, Text: "42", Times: 2},
		)
		id := "6f1b9a54-3a4c-4d8e-9a55-0a2f3c4d5e6f"
		w.mustRun(0, "", "-p", "remember 42", "--session-id", id)
		o := w.mustRun(0, "", "-p", "what number?", "--continue", "--output-format", "json")
		if res := lastResult(t, o.stdout); res["session_id"] != id || res["result"] != "42" {
			t.Fatalf("continue: %v", res)
		}
		o = w.mustRun(0, "", "-p", "what number now?", "--resume", id[:8], "--output-format", "json")
		if res := lastResult(t, o.stdout); res["session_id"] != id {
			t.Fatalf("resume by prefix: %v", res)
		}
		transcript := filepath.Join(w.cfg, "projects")
		found := false
		filepath.Walk(transcript, func(p string, info os.FileInfo, err error) error {
			if strings.HasSuffix(p, id+".jsonl") {
				found = true
			}
			return nil
		})
		if !found {
			t.Fatal("no transcript file named after the session")
		}
		w.allUsed()
	})
}

func TestTranscriptWithCutLastLineStillResumes(t *testing.T) {
	w := newWorld(t, "anthropic",
		fakemodel.Reply{Name: "one", When: fakemodel.Match{LastUser: "first"}, Text: "ok"},
		fakemodel.Reply{Name: "two", When: fakemodel.Match{LastUser: "second", AnyMessage: "first"}, Text: "still here"},
	)
	id := "0d6c2b9e-6f66-4c1b-8a3e-5c7d9e1f2a3b"
	w.mustRun(0, "", "-p", "first", "--session-id", id)
	var path string
	filepath.Walk(w.cfg, func(p string, info os.FileInfo, err error) error {
		if strings.HasSuffix(p, id+".jsonl") {
			path = p
		}
		return nil
	})
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"type":"message","message":{"role":"user","con`)
	f.Close()
	o := w.mustRun(0, "", "-p", "second", "--resume", id)
	if strings.TrimSpace(o.stdout) != "still here" || !strings.Contains(o.stderr, "cut off") {
		t.Fatalf("stdout %q stderr %q", o.stdout, o.stderr)
	}
}

func TestVersion(t *testing.T) {
	w := newWorld(t, "anthropic")
	o := w.mustRun(0, "", "version")
	if !strings.HasPrefix(o.stdout, "ponder ") {
		t.Fatalf("version %q", o.stdout)
	}
}

func TestPromptCachingMarkers(t *testing.T) {
	w := newWorld(t, "anthropic", fakemodel.Reply{Text: "ok"})
	w.write("AGENTS.md", "Always answer in haiku.")
	w.mustRun(0, "", "-p", "hi")
	req := w.srv.Requests()[0]
	if n := req.CacheControlCount(); n != 2 {
		t.Fatalf("cache_control markers: %d, want 2 (system prompt and conversation tail)", n)
	}
	if !strings.Contains(req.System, "Always answer in haiku.") || !strings.Contains(req.System, w.dir) {
		t.Fatalf("system prompt lacks the project instructions or the directory:\n%s", req.System)
	}
}

func TestInterruptCancelsTheRequestAtOnce(t *testing.T) {
	w := newWorld(t, "anthropic", fakemodel.Reply{Name: "slow", Delay: fakemodel.Duration(time.Minute), Text: "too late"})
	cmd := exec.Command(ponderBin, "-p", "hello")
	cmd.Dir, cmd.Env = w.dir, w.env()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := w.srv.WaitFor(ctx, func(r []fakemodel.Request) bool { return len(r) == 1 }); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	cmd.Process.Signal(os.Interrupt)
	err := cmd.Wait()
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("took %s to stop after Ctrl-C", d)
	}
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || !strings.Contains(stderr.String(), "interrupted") {
		t.Fatalf("exit %v, stderr %q", err, stderr.String())
	}
	// The fake saw the client go away.
	if err := w.srv.WaitFor(ctx, func(r []fakemodel.Request) bool { return r[0].Outcome == fakemodel.OutcomeCanceled }); err != nil {
		t.Fatalf("the request was not cancelled: %+v", w.srv.Requests()[0])
	}
}
