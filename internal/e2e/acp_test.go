package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// acpReport is what the ACP TypeScript client saw (testdata/acp/client.mjs).
type acpReport struct {
	Initialize struct {
		AgentCapabilities struct {
			LoadSession bool `json:"loadSession"`
		} `json:"agentCapabilities"`
	} `json:"initialize"`
	Session struct {
		Modes struct {
			CurrentModeID  string `json:"currentModeId"`
			AvailableModes []struct {
				ID string `json:"id"`
			} `json:"availableModes"`
		} `json:"modes"`
	} `json:"session"`
	Load struct {
		Modes struct {
			CurrentModeID string `json:"currentModeId"`
		} `json:"modes"`
	} `json:"load"`
	SessionID   string            `json:"sessionId"`
	StopReason  string            `json:"stopReason"`
	CancelMS    int64             `json:"cancelMs"`
	InitMS      int64             `json:"initializeMs"`
	NewMS       int64             `json:"newSessionMs"`
	Updates     []acpNotification `json:"updates"`
	Permissions []struct {
		ToolCall struct {
			ToolCallID string `json:"toolCallId"`
			Title      string `json:"title"`
			Kind       string `json:"kind"`
			Content    []struct {
				Content struct {
					Text string `json:"text"`
				} `json:"content"`
			} `json:"content"`
			Locations []struct {
				Path string `json:"path"`
			} `json:"locations"`
		} `json:"toolCall"`
		Options []struct {
			OptionID string `json:"optionId"`
			Kind     string `json:"kind"`
		} `json:"options"`
	} `json:"permissions"`
	FsRequests []struct {
		Method  string `json:"method"`
		Path    string `json:"path"`
		Content string `json:"content"`
	} `json:"fsRequests"`
	Errors []string `json:"errors"`
	Exit   struct {
		Code *int `json:"code"`
	} `json:"exit"`
}

type acpNotification struct {
	SessionID string `json:"sessionId"`
	Update    struct {
		SessionUpdate string `json:"sessionUpdate"`
		CurrentModeID string `json:"currentModeId"`
		ToolCallID    string `json:"toolCallId"`
		Title         string `json:"title"`
		Kind          string `json:"kind"`
		Status        string `json:"status"`
		// Content is a content block for message chunks, a list for
		// tool calls.
		Content json.RawMessage `json:"content"`
	} `json:"update"`
}

// text is a message chunk's text.
func (n acpNotification) text() string {
	var b struct {
		Text string `json:"text"`
	}
	_ = json.Unmarshal(n.Update.Content, &b)
	return b.Text
}

// cut shortens output for a failure message.
func cut(s string) string {
	if len(s) > 4000 {
		return s[:2000] + "\n…\n" + s[len(s)-2000:]
	}
	return s
}

// modes lists the current_mode_update modes, in order.
func (r acpReport) modes() []string {
	var out []string
	for _, u := range r.Updates {
		if u.Update.SessionUpdate == "current_mode_update" {
			out = append(out, u.Update.CurrentModeID)
		}
	}
	return out
}

// kinds lists the kinds of update, in order.
func (r acpReport) count(kind string) int {
	n := 0
	for _, u := range r.Updates {
		if u.Update.SessionUpdate == kind {
			n++
		}
	}
	return n
}

// runACPClient runs the TypeScript client's scenario against ponder acp
// in w and returns its report.
func runACPClient(t *testing.T, w *world, scenario, answer, sessionID string, args ...string) acpReport {
	t.Helper()
	nm := nodeModules(t, "@agentclientprotocol/sdk")
	driver, err := filepath.Abs(filepath.Join("testdata", "acp", "client.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	saved := w.extraEnv
	w.extraEnv = append(append([]string(nil), saved...),
		"PONDER_BIN="+ponderBin, "ACP_SDK_ENTRY="+filepath.Join(nm, "@agentclientprotocol", "sdk", "dist", "v1", "stable", "acp.js"),
		"SCENARIO="+scenario, "ANSWER="+answer, "SESSION_ID="+sessionID, "PROJECT="+w.dir, "PONDER_ARGS="+strings.Join(args, " "))
	defer func() { w.extraEnv = saved }()
	o := w.runProgram("node", driver)
	var rep acpReport
	if err := json.Unmarshal([]byte(o.stdout), &rep); err != nil {
		t.Fatalf("the client's report: %v\nstdout:\n%s\nstderr:\n%s", err, cut(o.stdout), cut(o.stderr))
	}
	if len(rep.Errors) > 0 || o.code != 0 {
		t.Fatalf("the client failed (exit %d): %v\nstderr:\n%s", o.code, rep.Errors, cut(o.stderr))
	}
	if rep.Exit.Code == nil || *rep.Exit.Code != 0 {
		t.Errorf("ponder acp exited with %v after the client closed its input\nstderr:\n%s", rep.Exit.Code, cut(o.stderr))
	}
	return rep
}

// A plan session driven by the real ACP client: plan mode set by the
// client, a project write refused, the plan presented as a permission
// request, approved, the mode update, and the file written. Then a new
// ponder acp loads the session and replays it.
func TestACPPlanSessionWithTheRealClient(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api,
			writePlan(fakemodel.Match{LastUser: "add a greeting"}),
			exitPlan,
			implement("approved your plan"),
			finished,
		)
		rep := runACPClient(t, w, "plan", "accept-edits", "")
		if !rep.Initialize.AgentCapabilities.LoadSession {
			t.Error("loadSession not advertised")
		}
		if rep.StopReason != "end_turn" {
			t.Errorf("stop reason %q", rep.StopReason)
		}
		if got := w.read("hello.txt"); got != "hello\n" {
			t.Errorf("hello.txt = %q after approval", got)
		}
		if got := rep.modes(); !slices.Equal(got, []string{"plan", "acceptEdits"}) {
			t.Errorf("mode updates %v", got)
		}
		if len(rep.Permissions) != 1 {
			t.Fatalf("%d permission requests, want the plan approval only", len(rep.Permissions))
		}
		p := rep.Permissions[0]
		if len(p.ToolCall.Content) == 0 || p.ToolCall.Content[0].Content.Text != thePlan || len(p.ToolCall.Locations) != 1 ||
			!strings.HasSuffix(p.ToolCall.Locations[0].Path, ".md") {
			t.Errorf("the approval's call does not carry the plan: %+v", p.ToolCall)
		}
		var ids []string
		for _, o := range p.Options {
			ids = append(ids, o.OptionID)
		}
		if !slices.Equal(ids, []string{"accept-edits", "manual", "clear-context", "reject"}) {
			t.Errorf("approval options %v", ids)
		}
		// The early write was refused: the fake model got the refusal,
		// and the client saw the call fail.
		reqs := w.srv.Requests()
		refused := false
		for _, r := range toolResults(reqs[1]) {
			refused = refused || (failed(r) && strings.Contains(r.Content, "Plan mode is on"))
		}
		if !refused {
			t.Errorf("the early write was not refused: %+v", toolResults(reqs[1]))
		}
		failedCalls := 0
		for _, u := range rep.Updates {
			if u.Update.SessionUpdate == "tool_call_update" && u.Update.Status == "failed" {
				failedCalls++
			}
		}
		if failedCalls == 0 {
			t.Error("no tool call was reported failed")
		}
		w.allUsed()

		// A new ponder acp loads the session: the conversation comes back.
		load := runACPClient(t, w, "load", "", rep.SessionID)
		if load.Load.Modes.CurrentModeID != "acceptEdits" {
			t.Errorf("loaded in mode %q", load.Load.Modes.CurrentModeID)
		}
		if load.count("user_message_chunk") == 0 || load.count("agent_message_chunk") == 0 || load.count("tool_call") < 4 {
			t.Errorf("replay: %d user, %d agent chunks, %d calls", load.count("user_message_chunk"), load.count("agent_message_chunk"), load.count("tool_call"))
		}
		var said string
		for _, u := range load.Updates {
			if u.Update.SessionUpdate == "user_message_chunk" {
				said += u.text()
			}
		}
		if !strings.Contains(said, "add a greeting") || strings.Contains(said, "system-reminder") {
			t.Errorf("replayed user words %q", said)
		}
	})
}

// A command that needs a yes is asked as a permission request with allow
// once, always allow and reject; only a yes runs it.
func TestACPPermissionAskWithTheRealClient(t *testing.T) {
	for i, answer := range []string{"allow", "reject"} {
		api := apis[i%2]
		t.Run(answer+"/"+api, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t, api,
				fakemodel.Reply{Name: "touch", When: fakemodel.Match{LastUser: "make a file"},
					ToolCalls: []fakemodel.ToolCall{{Name: "Bash", Input: map[string]any{"command": "touch made.txt"}}}},
				fakemodel.Reply{Name: "done", Text: "ok"})
			rep := runACPClient(t, w, "ask", answer, "")
			if len(rep.Permissions) != 1 {
				t.Fatalf("%d permission requests", len(rep.Permissions))
			}
			p := rep.Permissions[0]
			var kinds []string
			for _, o := range p.Options {
				kinds = append(kinds, o.Kind)
			}
			if p.ToolCall.Kind != "execute" || !strings.Contains(p.ToolCall.Title, "touch made.txt") ||
				!slices.Equal(kinds, []string{"allow_once", "allow_always", "reject_once"}) {
				t.Errorf("request %+v, option kinds %v", p.ToolCall, kinds)
			}
			_, err := os.Stat(filepath.Join(w.dir, "made.txt"))
			if made := err == nil; made != (answer == "allow") {
				t.Errorf("answer %s: made.txt created = %v", answer, made)
			}
			w.allUsed()
		})
	}
}

// With an editor that offers its buffers, Read sees the unsaved buffer and
// Edit writes through the editor; the disk gets the same text.
func TestACPEditorBuffersWithTheRealClient(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api,
			fakemodel.Reply{Name: "read", When: fakemodel.Match{LastUser: "fix the notes"},
				ToolCalls: []fakemodel.ToolCall{{Name: "Read", Input: map[string]any{"file_path": "notes.txt"}}}},
			fakemodel.Reply{Name: "edit", When: fakemodel.Match{ToolResult: "draft in the buffer"},
				ToolCalls: []fakemodel.ToolCall{{Name: "Edit", Input: map[string]any{"file_path": "notes.txt", "old_string": "draft", "new_string": "final"}}}},
			fakemodel.Reply{Name: "done", When: fakemodel.Match{ToolResult: "Edited"}, Text: "Fixed."})
		notes := w.write("notes.txt", "saved on disk\n")
		buffers, _ := json.Marshal(map[string]string{notes: "draft in the buffer\n"})
		w.extraEnv = append(w.extraEnv, "PROMPT=fix the notes", "BUFFERS="+string(buffers))
		rep := runACPClient(t, w, "ask", "", "", "--permission-mode", "acceptEdits")
		var writes []string
		for _, f := range rep.FsRequests {
			if f.Method == "write" && f.Path == notes {
				writes = append(writes, f.Content)
			}
		}
		if !slices.Equal(writes, []string{"final in the buffer\n"}) {
			t.Errorf("writes through the editor: %q (requests %+v)", writes, rep.FsRequests)
		}
		if got := w.read("notes.txt"); got != "final in the buffer\n" {
			t.Errorf("notes.txt on disk: %q", got)
		}
		w.allUsed()
	})
}

// A plan sent back keeps plan mode: no mode update, nothing written.
func TestACPRejectedPlanWithTheRealClient(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api,
			writePlan(fakemodel.Match{LastUser: "add a greeting"}),
			exitPlan,
			fakemodel.Reply{Name: "ask", When: fakemodel.Match{ToolResult: "did not approve the plan"}, Text: "What should change?"},
		)
		rep := runACPClient(t, w, "plan", "reject", "")
		if rep.StopReason != "end_turn" {
			t.Errorf("stop reason %q", rep.StopReason)
		}
		if got := rep.modes(); !slices.Equal(got, []string{"plan"}) {
			t.Errorf("mode updates %v, want plan alone", got)
		}
		if got := w.read("hello.txt"); got != "<missing>" {
			t.Errorf("hello.txt = %q after a rejected plan", got)
		}
		last := w.srv.Requests()[2].LastUser()
		if len(last.ToolResults) != 1 || !strings.Contains(last.ToolResults[0].Content, "their next message is the feedback") {
			t.Errorf("the model was not told to wait for the user's feedback: %+v", last.ToolResults)
		}
		w.allUsed()
	})
}

// session/cancel during a slow reply ends the prompt at once with
// stopReason cancelled.
func TestACPCancelWithTheRealClient(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api,
			fakemodel.Reply{Name: "look", When: fakemodel.Match{LastUser: "take your time"},
				ToolCalls: []fakemodel.ToolCall{{Name: "LS", Input: map[string]any{"path": "."}}}},
			fakemodel.Reply{Name: "slow", Delay: fakemodel.Duration(60e9), Text: "late"})
		rep := runACPClient(t, w, "cancel", "", "")
		if rep.StopReason != "cancelled" {
			t.Errorf("stop reason %q, want cancelled", rep.StopReason)
		}
		if rep.CancelMS > 5000 {
			t.Errorf("the prompt ended %d ms after session/cancel", rep.CancelMS)
		}
		t.Logf("start to initialize answered %d ms, session/new %d ms, session/cancel to stopReason %d ms", rep.InitMS, rep.NewMS, rep.CancelMS)
		// The slow request was made, and abandoned.
		if reqs := w.srv.Requests(); len(reqs) != 2 || reqs[1].Reply != "slow" {
			t.Errorf("requests: %d", len(reqs))
		}
	})
}
