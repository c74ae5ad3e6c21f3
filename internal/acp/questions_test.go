package acp

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

func TestEnterPlanModeAsksTheEditor(t *testing.T) {
	for _, tc := range []struct {
		pick string
		want []string
	}{{"allow", []string{"plan"}}, {"reject", nil}} {
		t.Run(tc.pick, func(t *testing.T) {
			r := newRig(t, "", []fakemodel.Reply{
				{Name: "enter", When: fakemodel.Match{LastUser: "plan it"},
					ToolCalls: []fakemodel.ToolCall{{ID: "e1", Name: "EnterPlanMode", Input: map[string]any{}}}},
				{Name: "after", When: fakemodel.Match{HasTool: "ExitPlanMode"}, Text: "ok", Times: -1},
			})
			r.client.answer = pick(tc.pick)
			_, sess := r.start()
			r.prompt(sess.SessionId, "plan it")
			c := r.client
			c.mu.Lock()
			defer c.mu.Unlock()
			if len(c.perms) != 1 || c.perms[0].ToolCall.ToolCallId != "e1" || *c.perms[0].ToolCall.Kind != sdk.ToolKindSwitchMode {
				t.Fatalf("permission requests %+v", c.perms)
			}
			if got := c.modeUpdates(); !slices.Equal(got, tc.want) {
				t.Errorf("mode updates %v, want %v", got, tc.want)
			}
		})
	}
}

func TestAskUserQuestionThroughPermissionRequests(t *testing.T) {
	r := newRig(t, "", []fakemodel.Reply{
		{Name: "ask", When: fakemodel.Match{LastUser: "which"},
			ToolCalls: []fakemodel.ToolCall{{ID: "q1", Name: "AskUserQuestion", Input: map[string]any{"questions": []map[string]any{{
				"question": "Which database?", "header": "Database", "multiSelect": false,
				"options": []map[string]any{{"label": "Postgres", "description": "relational"}, {"label": "SQLite", "description": "a file"}},
			}}}}}},
		{Name: "answered", When: fakemodel.Match{ToolResult: "SQLite"}, Text: "SQLite it is."},
	})
	r.client.answer = pick("1")
	_, sess := r.start()
	r.prompt(sess.SessionId, "which database?")
	c := r.client
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.perms) != 1 {
		t.Fatalf("%d requests", len(c.perms))
	}
	p := c.perms[0]
	if *p.ToolCall.Title != "Database: Which database?" || !slices.Equal(optionIDs(p), []string{"0", "1", "reject"}) || p.Options[1].Name != "SQLite" {
		t.Errorf("question as a request: %+v %+v", p.ToolCall, p.Options)
	}
	if !strings.Contains(c.agentText(), "SQLite it is.") {
		t.Errorf("agent text %q", c.agentText())
	}
}

func TestClearContextApprovalStartsFresh(t *testing.T) {
	base := t.TempDir()
	plan := filepath.Join(base, "config", "plans", "acp-plan.md")
	r := newRig(t, base, []fakemodel.Reply{
		{Name: "plan", When: fakemodel.Match{LastUser: "go"},
			ToolCalls: []fakemodel.ToolCall{{ID: "p1", Name: "Write", Input: map[string]any{"file_path": plan, "content": "# Plan\n\nSay hi.\n"}}}},
		{Name: "exit", When: fakemodel.Match{ToolResult: "acp-plan.md"},
			ToolCalls: []fakemodel.ToolCall{{ID: "x1", Name: "ExitPlanMode", Input: map[string]any{}}}},
		{Name: "fresh", When: fakemodel.Match{FirstUser: "Say hi."}, Text: "Hi."},
	}, func(o *Options) { o.App.Mode = "plan" })
	r.client.answer = pick("clear-context")
	_, sess := r.start()
	if resp := r.prompt(sess.SessionId, "go"); resp.StopReason != sdk.StopReasonEndTurn {
		t.Errorf("stop reason %s", resp.StopReason)
	}
	reqs := r.model.Requests()
	if last := reqs[len(reqs)-1]; last.Reply != "fresh" || len(last.Messages) != 1 {
		t.Errorf("the implementation did not start from the plan alone: %+v", last.Messages)
	}
	c := r.client
	c.mu.Lock()
	defer c.mu.Unlock()
	if got := c.modeUpdates(); !slices.Equal(got, []string{"default"}) {
		t.Errorf("mode updates %v", got)
	}
	if !strings.Contains(c.agentText(), "Starting a fresh conversation from the approved plan") || !strings.Contains(c.agentText(), "Hi.") {
		t.Errorf("agent text %q", c.agentText())
	}
}

func TestCloseAndUnknownSessions(t *testing.T) {
	r := newRig(t, "", []fakemodel.Reply{{Name: "any", Text: "ok", Times: -1}})
	_, sess := r.start()
	if _, err := r.conn.Prompt(r.ctx(), sdk.PromptRequest{SessionId: "nope", Prompt: []sdk.ContentBlock{sdk.TextBlock("hi")}}); err == nil {
		t.Error("a prompt to an unknown session: no error")
	}
	if _, err := r.conn.Prompt(r.ctx(), sdk.PromptRequest{SessionId: sess.SessionId, Prompt: []sdk.ContentBlock{sdk.TextBlock("  ")}}); err == nil {
		t.Error("an empty prompt: no error")
	}
	if _, err := r.conn.CloseSession(r.ctx(), sdk.CloseSessionRequest{SessionId: sess.SessionId}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.conn.Prompt(r.ctx(), sdk.PromptRequest{SessionId: sess.SessionId, Prompt: []sdk.ContentBlock{sdk.TextBlock("hi")}}); err == nil {
		t.Error("a prompt to a closed session: no error")
	}
	// The closed session's transcript is free: it loads again.
	if _, err := r.conn.LoadSession(r.ctx(), sdk.LoadSessionRequest{SessionId: sess.SessionId, Cwd: r.dir, McpServers: []sdk.McpServer{}}); err != nil {
		t.Errorf("loading a closed session: %v", err)
	}
}

// The editor going away in the middle of an approval approves nothing:
// plan mode stays, as the transcript records.
func TestEditorGoneDuringApproval(t *testing.T) {
	base := t.TempDir()
	plan := filepath.Join(base, "config", "plans", "acp-plan.md")
	main := filepath.Join(base, "project", "main.go")
	r := newRig(t, base, []fakemodel.Reply{
		{Name: "plan", When: fakemodel.Match{LastUser: "go"},
			ToolCalls: []fakemodel.ToolCall{{ID: "p1", Name: "Write", Input: map[string]any{"file_path": plan, "content": "# Plan\n"}}}},
		{Name: "exit", When: fakemodel.Match{ToolResult: "acp-plan.md"},
			ToolCalls: []fakemodel.ToolCall{{ID: "x1", Name: "ExitPlanMode", Input: map[string]any{}}}},
		{Name: "write", When: fakemodel.Match{ToolResult: "approv"},
			ToolCalls: []fakemodel.ToolCall{{ID: "w1", Name: "Write", Input: map[string]any{"file_path": main, "content": "x"}}}},
	}, func(o *Options) { o.App.Mode = "plan" })
	asked := make(chan struct{})
	r.client.answer = func(ctx context.Context, _ sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
		close(asked)
		<-ctx.Done()
		return sdk.RequestPermissionResponse{}, ctx.Err()
	}
	_, sess := r.start()
	go func() {
		_, _ = r.conn.Prompt(context.Background(), sdk.PromptRequest{SessionId: sess.SessionId, Prompt: []sdk.ContentBlock{sdk.TextBlock("go")}})
	}()
	<-asked
	r.close()
	if _, err := os.Stat(main); !os.IsNotExist(err) {
		t.Errorf("main.go written after the editor left: %v", err)
	}
	r2 := newRig(t, base, nil)
	if _, err := r2.conn.Initialize(r2.ctx(), sdk.InitializeRequest{ProtocolVersion: sdk.ProtocolVersionNumber}); err != nil {
		t.Fatal(err)
	}
	resp, err := r2.conn.LoadSession(r2.ctx(), sdk.LoadSessionRequest{SessionId: sess.SessionId, Cwd: r2.dir, McpServers: []sdk.McpServer{}})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Modes.CurrentModeId != "plan" {
		t.Errorf("after the editor left mid-approval the session is in %s", resp.Modes.CurrentModeId)
	}
}

// A subagent's calls show on the Task call that launched it.
func TestSubagentStepsShowOnTheTaskCall(t *testing.T) {
	r := newRig(t, "", []fakemodel.Reply{
		{Name: "task", When: fakemodel.Match{FirstUser: "look around"},
			ToolCalls: []fakemodel.ToolCall{{ID: "t1", Name: "Task", Input: map[string]any{"subagent_type": "Explore", "description": "find notes", "prompt": "find the notes file"}}}},
		{Name: "sub-read", When: fakemodel.Match{FirstUser: "find the notes file", LastUser: "find the notes file"},
			ToolCalls: []fakemodel.ToolCall{{ID: "s1", Name: "LS", Input: map[string]any{"path": "."}}}},
		{Name: "sub-done", When: fakemodel.Match{FirstUser: "find the notes file"}, Text: "No notes here."},
		{Name: "done", When: fakemodel.Match{FirstUser: "look around"}, Text: "Nothing found."},
	})
	_, sess := r.start()
	r.prompt(sess.SessionId, "look around")
	c := r.client
	c.mu.Lock()
	defer c.mu.Unlock()
	task := c.toolCall("Agent (Explore): find notes")
	if task == nil || task.Kind != sdk.ToolKindThink {
		t.Fatalf("task call %+v", task)
	}
	steps := false
	for _, u := range c.updates {
		if tu := u.Update.ToolCallUpdate; tu != nil && tu.ToolCallId == "t1" && strings.Contains(contentText(tu.Content), "List .") {
			steps = true
		}
	}
	if !steps {
		t.Error("the subagent's LS never showed on the Task call")
	}
	if c.toolCall("List .") != nil {
		t.Error("the subagent's call was shown as one of the main conversation")
	}
	if st := c.lastStatus("t1"); st != sdk.ToolCallStatusCompleted {
		t.Errorf("task status %q", st)
	}
}
