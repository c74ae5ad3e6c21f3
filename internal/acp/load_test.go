package acp

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/ponder-agent/ponder/internal/app"
	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

func TestLoadReplaysTheConversation(t *testing.T) {
	base := t.TempDir()
	r := newRig(t, base, []fakemodel.Reply{
		{Name: "read", When: fakemodel.Match{LastUser: "what is in notes"},
			ToolCalls: []fakemodel.ToolCall{{ID: "r1", Name: "Read", Input: map[string]any{"file_path": "notes.txt"}}}},
		{Name: "answer", When: fakemodel.Match{ToolResult: "remember the milk"}, Text: "It says to remember the milk."},
		{Name: "todos", When: fakemodel.Match{LastUser: "make a list"},
			ToolCalls: []fakemodel.ToolCall{{ID: "t1", Name: "TodoWrite", Input: map[string]any{"todos": []map[string]any{
				{"content": "Buy milk", "status": "in_progress", "activeForm": "Buying milk"},
				{"content": "Drink it", "status": "pending", "activeForm": "Drinking it"}}}}}},
		{Name: "listed", When: fakemodel.Match{LastUser: "todo"}, Text: "Listed."},
	})
	if err := os.WriteFile(filepath.Join(r.dir, "notes.txt"), []byte("remember the milk\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, sess := r.start()
	r.prompt(sess.SessionId, "what is in notes.txt?")
	r.prompt(sess.SessionId, "make a list")
	r.client.mu.Lock()
	var live []sdk.PlanEntry
	for _, u := range r.client.updates {
		if p := u.Update.Plan; p != nil {
			live = p.Entries
		}
	}
	r.client.mu.Unlock()
	if len(live) != 2 || live[0].Status != sdk.PlanEntryStatusInProgress || live[1].Content != "Drink it" {
		t.Errorf("todo list as a plan: %+v", live)
	}

	// The editor quits; a new ponder acp lists the project's sessions
	// and loads this one.
	r.close()
	r2 := newRig(t, base, nil)
	init, err := r2.conn.Initialize(r2.ctx(), sdk.InitializeRequest{ProtocolVersion: sdk.ProtocolVersionNumber})
	if err != nil || init.AgentCapabilities.SessionCapabilities.List == nil {
		t.Fatalf("initialize: %v, list offered: %v", err, init.AgentCapabilities.SessionCapabilities.List != nil)
	}
	listed, err := r2.conn.ListSessions(r2.ctx(), sdk.ListSessionsRequest{Cwd: sdk.Ptr(r2.dir)})
	if err != nil || len(listed.Sessions) != 1 || listed.Sessions[0].SessionId != sess.SessionId ||
		listed.Sessions[0].Title == nil || *listed.Sessions[0].Title != "what is in notes.txt?" || listed.NextCursor != nil {
		t.Errorf("session/list: %+v %v", listed, err)
	}
	if _, err := r2.conn.ListSessions(r2.ctx(), sdk.ListSessionsRequest{}); err == nil {
		t.Error("session/list without cwd: no error")
	}
	resp, err := r2.conn.LoadSession(r2.ctx(), sdk.LoadSessionRequest{SessionId: sess.SessionId, Cwd: r2.dir, McpServers: []sdk.McpServer{}})
	if err != nil {
		t.Fatalf("session/load: %v", err)
	}
	if resp.Modes == nil || resp.Modes.CurrentModeId != "default" {
		t.Errorf("modes %+v", resp.Modes)
	}
	c := r2.client
	c.mu.Lock()
	defer c.mu.Unlock()
	var kinds []string
	var user strings.Builder
	for _, u := range c.updates {
		switch {
		case u.Update.UserMessageChunk != nil:
			kinds = append(kinds, "user")
			user.WriteString(u.Update.UserMessageChunk.Content.Text.Text)
		case u.Update.AgentMessageChunk != nil:
			kinds = append(kinds, "agent")
		case u.Update.ToolCall != nil:
			kinds = append(kinds, "tool:"+string(u.Update.ToolCall.Status))
		case u.Update.Plan != nil:
			kinds = append(kinds, "plan")
		}
	}
	want := []string{"user", "tool:completed", "agent", "user", "tool:completed", "agent", "plan"}
	if !slices.Equal(kinds, want) {
		t.Errorf("replayed %v, want %v", kinds, want)
	}
	if got := user.String(); strings.Contains(got, "system-reminder") || !strings.Contains(got, "what is in notes.txt?") {
		t.Errorf("replayed user text %q", got)
	}
	if !strings.Contains(c.agentText(), "remember the milk") {
		t.Errorf("replayed agent text %q", c.agentText())
	}
	rd := c.toolCall("Read notes.txt")
	if rd == nil || rd.Kind != sdk.ToolKindRead || !strings.Contains(contentText(rd.Content), "remember the milk") {
		t.Errorf("replayed read %+v", rd)
	}
}

func TestLoadUnknownSessionIsAnError(t *testing.T) {
	r := newRig(t, "", nil)
	r.start()
	for _, id := range []string{"0b0e8a2e-8f43-4f7e-9d7a-3c1f1b7e9a11", "../../etc/passwd", ""} {
		if _, err := r.conn.LoadSession(r.ctx(), sdk.LoadSessionRequest{SessionId: sdk.SessionId(id), Cwd: r.dir, McpServers: []sdk.McpServer{}}); err == nil {
			t.Errorf("session/load %q: no error", id)
		}
	}
	if _, err := r.conn.NewSession(r.ctx(), sdk.NewSessionRequest{Cwd: "relative/dir", McpServers: []sdk.McpServer{}}); err == nil || !strings.Contains(err.Error(), "absolute") {
		t.Errorf("session/new with a relative cwd: %v", err)
	}
}

// A plan a headless run left waiting is asked again when an editor loads
// the session; approving it carries on the turn.
func TestLoadAsksAPendingPlanAgain(t *testing.T) {
	base := t.TempDir()
	dir, cfg := filepath.Join(base, "project"), filepath.Join(base, "config")
	t.Setenv("HOME", base)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	plan := filepath.Join(cfg, "plans", "acp-plan.md")
	main := filepath.Join(dir, "main.go")
	script := []fakemodel.Reply{
		{Name: "plan", When: fakemodel.Match{LastUser: "add a main"},
			ToolCalls: []fakemodel.ToolCall{{ID: "p1", Name: "Write", Input: map[string]any{"file_path": plan, "content": "# Plan\n\nWrite main.go\n"}}}},
		{Name: "exit", When: fakemodel.Match{ToolResult: "acp-plan.md"},
			ToolCalls: []fakemodel.ToolCall{{ID: "x1", Name: "ExitPlanMode", Input: map[string]any{}}}},
	}
	headless, err := app.New(app.Options{Dir: dir, ConfigDir: cfg, LLM: fakemodel.NewProvider(fakemodel.Script{Replies: script}),
		Getenv: func(string) string { return "" }, PlanName: "acp-plan", Mode: "plan", PlanApproval: app.PlanPending})
	if err != nil {
		t.Fatal(err)
	}
	if err := headless.Start(); err != nil {
		t.Fatal(err)
	}
	res, err := headless.Send(context.Background(), "add a main")
	if err != nil || res.StopReason != app.StopPlanPending {
		t.Fatalf("headless run: %+v %v", res, err)
	}
	id := headless.ID()
	if err := headless.Close(); err != nil {
		t.Fatal(err)
	}

	r := newRig(t, base, []fakemodel.Reply{
		{Name: "implement", When: fakemodel.Match{ToolResult: "approved"},
			ToolCalls: []fakemodel.ToolCall{{ID: "w1", Name: "Write", Input: map[string]any{"file_path": main, "content": "package main\n"}}}},
		{Name: "done", When: fakemodel.Match{ToolResult: "main.go"}, Text: "Done."},
	})
	r.client.answer = pick("accept-edits")
	if _, err := r.conn.Initialize(r.ctx(), sdk.InitializeRequest{ProtocolVersion: sdk.ProtocolVersionNumber}); err != nil {
		t.Fatal(err)
	}
	resp, err := r.conn.LoadSession(r.ctx(), sdk.LoadSessionRequest{SessionId: sdk.SessionId(id), Cwd: dir, McpServers: []sdk.McpServer{}})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Modes.CurrentModeId != "plan" {
		t.Errorf("loaded in mode %s", resp.Modes.CurrentModeId)
	}
	r.client.waitFor(t, "the approval and the write", func() bool {
		return len(r.client.perms) == 1 && slices.Contains(r.client.modeUpdates(), "acceptEdits") && strings.Contains(r.client.agentText(), "Done.")
	})
	r.client.mu.Lock()
	p := r.client.perms[0]
	r.client.mu.Unlock()
	if !strings.Contains(contentText(p.ToolCall.Content), "Write main.go") || !slices.Contains(optionIDs(p), "accept-edits") {
		t.Errorf("the pending plan as asked again: %+v", p)
	}
	if data, err := os.ReadFile(main); err != nil || string(data) != "package main\n" {
		t.Errorf("main.go: %q %v", data, err)
	}
}
