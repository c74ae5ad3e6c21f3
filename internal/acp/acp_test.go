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

func TestInitializeIsHonest(t *testing.T) {
	r := newRig(t, "", nil)
	init, sess := r.start()
	caps := init.AgentCapabilities
	if !caps.LoadSession || !caps.PromptCapabilities.EmbeddedContext || caps.PromptCapabilities.Image || caps.PromptCapabilities.Audio {
		t.Errorf("capabilities: %+v", caps)
	}
	if caps.McpCapabilities.Http || caps.McpCapabilities.Sse {
		t.Errorf("MCP transports advertised without MCP: %+v", caps.McpCapabilities)
	}
	if len(init.AuthMethods) != 0 || init.AgentInfo == nil || init.AgentInfo.Name != "ponder" {
		t.Errorf("auth methods %v, agent %+v", init.AuthMethods, init.AgentInfo)
	}
	_, err := r.conn.Authenticate(r.ctx(), sdk.AuthenticateRequest{MethodId: "anything"})
	if err == nil || !strings.Contains(err.Error(), "ANTHROPIC_API_KEY") {
		t.Errorf("authenticate: %v, want an error naming the environment", err)
	}
	var modes []string
	for _, m := range sess.Modes.AvailableModes {
		modes = append(modes, string(m.Id))
	}
	if !slices.Equal(modes, []string{"default", "acceptEdits", "plan"}) || sess.Modes.CurrentModeId != "default" {
		t.Errorf("modes %v (current %s): bypassPermissions needs the command line's leave", modes, sess.Modes.CurrentModeId)
	}
	if len(sess.ConfigOptions) != 1 || sess.ConfigOptions[0].Select == nil || sess.ConfigOptions[0].Select.CurrentValue != "default" {
		t.Errorf("config options: %+v", sess.ConfigOptions)
	}
}

func TestBypassOfferedOnlyWhenAllowed(t *testing.T) {
	r := newRig(t, "", nil, func(o *Options) { o.App.BypassAllowed = true })
	_, sess := r.start()
	if n := len(sess.Modes.AvailableModes); n != 4 || sess.Modes.AvailableModes[3].Id != "bypassPermissions" {
		t.Errorf("modes: %+v", sess.Modes.AvailableModes)
	}
	if _, err := r.conn.SetSessionMode(r.ctx(), sdk.SetSessionModeRequest{SessionId: sess.SessionId, ModeId: "bypassPermissions"}); err != nil {
		t.Fatal(err)
	}
	r.client.waitFor(t, "the bypass mode update", func() bool { return slices.Contains(r.client.modeUpdates(), "bypassPermissions") })
}

// Started with bypass allowed, the approval offers it, and taking it
// lands in bypassPermissions.
func TestBypassApprovalWhenAllowed(t *testing.T) {
	base := t.TempDir()
	plan := filepath.Join(base, "config", "plans", "acp-plan.md")
	r := newRig(t, base, []fakemodel.Reply{
		{Name: "plan", When: fakemodel.Match{LastUser: "go"},
			ToolCalls: []fakemodel.ToolCall{{ID: "p1", Name: "Write", Input: map[string]any{"file_path": plan, "content": "# Plan\n"}}}},
		{Name: "exit", When: fakemodel.Match{ToolResult: "acp-plan.md"},
			ToolCalls: []fakemodel.ToolCall{{ID: "x1", Name: "ExitPlanMode", Input: map[string]any{}}}},
		{Name: "done", When: fakemodel.Match{ToolResult: "approved"}, Text: "ok"},
	}, func(o *Options) { o.App.Mode, o.App.BypassAllowed = "plan", true })
	r.client.answer = pick("bypass")
	_, sess := r.start()
	r.prompt(sess.SessionId, "go")
	r.client.mu.Lock()
	defer r.client.mu.Unlock()
	if ids := optionIDs(r.client.perms[0]); !slices.Equal(ids, []string{"accept-edits", "manual", "clear-context", "bypass", "reject"}) {
		t.Errorf("options %v", ids)
	}
	if got := r.client.modeUpdates(); !slices.Equal(got, []string{"bypassPermissions"}) {
		t.Errorf("mode updates %v", got)
	}
}

func TestHostileModeChangesAreRefused(t *testing.T) {
	r := newRig(t, "", nil)
	_, sess := r.start()
	for _, mode := range []string{"bypassPermissions", "yolo", "", "Plan"} {
		if _, err := r.conn.SetSessionMode(r.ctx(), sdk.SetSessionModeRequest{SessionId: sess.SessionId, ModeId: sdk.SessionModeId(mode)}); err == nil {
			t.Errorf("set_mode %q: no error", mode)
		}
	}
	_, err := r.conn.SetSessionConfigOption(r.ctx(), sdk.SetSessionConfigOptionRequest{ValueId: &sdk.SetSessionConfigOptionValueId{
		SessionId: sess.SessionId, ConfigId: "mode", Value: "bypassPermissions"}})
	if err == nil {
		t.Error("set_config_option mode=bypassPermissions: no error")
	}
	if _, err := r.conn.SetSessionMode(r.ctx(), sdk.SetSessionModeRequest{SessionId: "not-a-session", ModeId: "plan"}); err == nil {
		t.Error("set_mode on an unknown session: no error")
	}
	if got := r.client.modeUpdates(); len(got) != 0 {
		t.Errorf("mode updates after refusals: %v", got)
	}
	// The config-option form changes the mode like the mode form.
	resp, err := r.conn.SetSessionConfigOption(r.ctx(), sdk.SetSessionConfigOptionRequest{ValueId: &sdk.SetSessionConfigOptionValueId{
		SessionId: sess.SessionId, ConfigId: "mode", Value: "plan"}})
	if err != nil || resp.ConfigOptions[0].Select.CurrentValue != "plan" {
		t.Fatalf("set_config_option mode=plan: %v %+v", err, resp)
	}
	r.client.waitFor(t, "the plan mode update", func() bool { return slices.Contains(r.client.modeUpdates(), "plan") })
}

func TestPlanSessionEndToEnd(t *testing.T) {
	base := t.TempDir()
	plan := filepath.Join(base, "config", "plans", "acp-plan.md")
	main := filepath.Join(base, "project", "main.go")
	r := newRig(t, base, []fakemodel.Reply{
		{Name: "write-early", When: fakemodel.Match{LastUser: "add a main"}, Text: "Let me try.",
			ToolCalls: []fakemodel.ToolCall{{ID: "w1", Name: "Write", Input: map[string]any{"file_path": main, "content": "package main\n"}}}},
		{Name: "plan", When: fakemodel.Match{ToolResult: "is not the plan file"},
			ToolCalls: []fakemodel.ToolCall{{ID: "p1", Name: "Write", Input: map[string]any{"file_path": plan, "content": "# Plan\n\nAdd main.go.\n"}}}},
		{Name: "exit", When: fakemodel.Match{ToolResult: "acp-plan.md"},
			ToolCalls: []fakemodel.ToolCall{{ID: "x1", Name: "ExitPlanMode", Input: map[string]any{}}}},
		{Name: "implement", When: fakemodel.Match{ToolResult: "approved"},
			ToolCalls: []fakemodel.ToolCall{{ID: "w2", Name: "Write", Input: map[string]any{"file_path": main, "content": "package main\n"}}}},
		{Name: "done", When: fakemodel.Match{LastUser: "main.go"}, Text: "Done."},
	})
	r.client.answer = pick("accept-edits")
	_, sess := r.start()
	if _, err := r.conn.SetSessionMode(r.ctx(), sdk.SetSessionModeRequest{SessionId: sess.SessionId, ModeId: "plan"}); err != nil {
		t.Fatal(err)
	}
	resp := r.prompt(sess.SessionId, "add a main")
	if resp.StopReason != sdk.StopReasonEndTurn {
		t.Errorf("stop reason %s", resp.StopReason)
	}
	if data, err := os.ReadFile(main); err != nil || string(data) != "package main\n" {
		t.Errorf("main.go after approval: %q %v", data, err)
	}
	c := r.client
	c.mu.Lock()
	defer c.mu.Unlock()
	if got := c.modeUpdates(); !slices.Equal(got, []string{"plan", "acceptEdits"}) {
		t.Errorf("mode updates %v, want plan then acceptEdits", got)
	}
	if st := c.lastStatus("w1"); st != sdk.ToolCallStatusFailed {
		t.Errorf("the write in plan mode: status %q, want failed", st)
	}
	w := c.toolCall("Write main.go")
	if w == nil || w.Kind != sdk.ToolKindEdit || len(w.Locations) != 1 || w.Locations[0].Path != main || len(w.Content) != 1 || w.Content[0].Diff == nil || w.Content[0].Diff.NewText != "package main\n" {
		t.Errorf("the write's announcement: %+v", w)
	}
	if len(c.perms) != 1 {
		t.Fatalf("%d permission requests, want the plan approval only", len(c.perms))
	}
	p := c.perms[0]
	if p.ToolCall.ToolCallId != "x1" || !strings.Contains(contentText(p.ToolCall.Content), "Add main.go.") || p.ToolCall.Locations[0].Path != plan {
		t.Errorf("plan approval call: %+v", p.ToolCall)
	}
	if ids := optionIDs(p); !slices.Equal(ids, []string{"accept-edits", "manual", "clear-context", "reject"}) {
		t.Errorf("approval options %v", ids)
	}
	if st := c.lastStatus("w2"); st != sdk.ToolCallStatusCompleted {
		t.Errorf("the write after approval: status %q", st)
	}
	if !strings.Contains(c.agentText(), "Done.") {
		t.Errorf("agent text %q", c.agentText())
	}
	var events []string
	for _, u := range c.updates {
		if m, ok := u.Meta["ponder"].(map[string]any); ok {
			events = append(events, m["event"].(string))
		}
	}
	for _, want := range []string{"mode_changed", "plan_mode_entered", "tool_refused", "plan_exit_requested", "plan_approved"} {
		if !slices.Contains(events, want) {
			t.Errorf("no %s event reached the client (got %v)", want, events)
		}
	}
}

func TestRejectedPlanStaysInPlanMode(t *testing.T) {
	base := t.TempDir()
	plan := filepath.Join(base, "config", "plans", "acp-plan.md")
	main := filepath.Join(base, "project", "main.go")
	r := newRig(t, base, []fakemodel.Reply{
		{Name: "plan", When: fakemodel.Match{LastUser: "add a main"},
			ToolCalls: []fakemodel.ToolCall{{ID: "p1", Name: "Write", Input: map[string]any{"file_path": plan, "content": "# Plan\n"}}}},
		{Name: "exit", When: fakemodel.Match{ToolResult: "acp-plan.md"},
			ToolCalls: []fakemodel.ToolCall{{ID: "x1", Name: "ExitPlanMode", Input: map[string]any{}}}},
		{Name: "ask", When: fakemodel.Match{ToolResult: "did not approve"}, Text: "What should change?",
			ToolCalls: []fakemodel.ToolCall{{ID: "w1", Name: "Write", Input: map[string]any{"file_path": main, "content": "x"}}}},
		{Name: "stop", When: fakemodel.Match{ToolResult: "is not the plan file"}, Text: "Waiting."},
	}, func(o *Options) { o.App.Mode = "plan" })
	r.client.answer = pick("reject")
	_, sess := r.start()
	if sess.Modes.CurrentModeId != "plan" {
		t.Fatalf("start mode %s", sess.Modes.CurrentModeId)
	}
	r.prompt(sess.SessionId, "add a main")
	if _, err := os.Stat(main); !os.IsNotExist(err) {
		t.Errorf("main.go exists after a rejected plan: %v", err)
	}
	reqs := r.model.Requests()
	last := reqs[2].LastUser()
	if len(last.ToolResults) != 1 || !strings.Contains(last.ToolResults[0].Content, "their next message is the feedback") {
		t.Errorf("the model was not told to wait for feedback: %+v", last.ToolResults)
	}
	r.client.mu.Lock()
	modes := r.client.modeUpdates()
	r.client.mu.Unlock()
	if len(modes) != 0 {
		t.Errorf("mode updates after a rejection: %v", modes)
	}
	if u := r.model.Unused(); len(u) > 0 {
		t.Errorf("unused replies %v", u)
	}
}

func TestUnofferedApprovalIsNo(t *testing.T) {
	// A hostile editor answers with options it was not offered: bypass
	// (not allowed at start), approve (not shown), a tool-call answer, or
	// nothing. Each is no: plan mode stays, nothing but the plan changes.
	for _, id := range []string{"bypass", "approve", "allow", ""} {
		t.Run("option="+id, func(t *testing.T) {
			base := t.TempDir()
			plan := filepath.Join(base, "config", "plans", "acp-plan.md")
			r := newRig(t, base, []fakemodel.Reply{
				{Name: "plan", When: fakemodel.Match{LastUser: "go"},
					ToolCalls: []fakemodel.ToolCall{{ID: "p1", Name: "Write", Input: map[string]any{"file_path": plan, "content": "# Plan\n"}}}},
				{Name: "exit", When: fakemodel.Match{ToolResult: "acp-plan.md"},
					ToolCalls: []fakemodel.ToolCall{{ID: "x1", Name: "ExitPlanMode", Input: map[string]any{}}}},
				{Name: "stop", When: fakemodel.Match{ToolResult: "Plan mode is still on"}, Text: "Waiting."},
			}, func(o *Options) { o.App.Mode = "plan" })
			r.client.answer = pick(id)
			_, sess := r.start()
			r.prompt(sess.SessionId, "go")
			r.client.mu.Lock()
			modes := r.client.modeUpdates()
			r.client.mu.Unlock()
			if len(modes) != 0 {
				t.Errorf("mode changed after an option that was not offered: %v", modes)
			}
			if u := r.model.Unused(); len(u) > 0 {
				t.Errorf("unused replies %v", u)
			}
		})
	}
}

func TestPermissionAskAllowOnceAlwaysReject(t *testing.T) {
	for _, tc := range []struct {
		pick    string
		created bool
	}{{"allow", true}, {"allow_always", true}, {"reject", false}} {
		t.Run(tc.pick, func(t *testing.T) {
			r := newRig(t, "", []fakemodel.Reply{
				{Name: "run", When: fakemodel.Match{LastUser: "touch"},
					ToolCalls: []fakemodel.ToolCall{{ID: "b1", Name: "Bash", Input: map[string]any{"command": "touch made.txt"}}}},
				{Name: "done", When: fakemodel.Match{LastUser: ""}, Text: "ok"},
			})
			r.client.answer = pick(tc.pick)
			_, sess := r.start()
			r.prompt(sess.SessionId, "touch a file")
			_, err := os.Stat(filepath.Join(r.dir, "made.txt"))
			if created := err == nil; created != tc.created {
				t.Errorf("made.txt created: %v, want %v", created, tc.created)
			}
			c := r.client
			if len(c.perms) != 1 {
				t.Fatalf("%d permission requests", len(c.perms))
			}
			p := c.perms[0]
			if ids := optionIDs(p); !slices.Equal(ids, []string{"allow", "allow_always", "reject"}) {
				t.Errorf("options %v", ids)
			}
			if p.ToolCall.ToolCallId != "b1" || *p.ToolCall.Kind != sdk.ToolKindExecute || !strings.Contains(*p.ToolCall.Title, "touch made.txt") {
				t.Errorf("call %+v", p.ToolCall)
			}
		})
	}
}

func TestPromptContentKinds(t *testing.T) {
	r := newRig(t, "", []fakemodel.Reply{{Name: "any", Text: "ok"}})
	_, sess := r.start()
	blocks := []sdk.ContentBlock{
		sdk.TextBlock("look at"),
		sdk.ResourceLinkBlock("main.go", "file:///project/main.go"),
		sdk.ResourceBlock(sdk.EmbeddedResourceResource{TextResourceContents: &sdk.TextResourceContents{Uri: "file:///project/notes.md", Text: "unsaved notes"}}),
	}
	if _, err := r.conn.Prompt(r.ctx(), sdk.PromptRequest{SessionId: sess.SessionId, Prompt: blocks}); err != nil {
		t.Fatal(err)
	}
	got := r.model.Requests()[0].LastUser().Text
	for _, want := range []string{"look at", "@/project/main.go", "unsaved notes", "/project/notes.md"} {
		if !strings.Contains(got, want) {
			t.Errorf("prompt sent %q, missing %q", got, want)
		}
	}
	_, err := r.conn.Prompt(r.ctx(), sdk.PromptRequest{SessionId: sess.SessionId, Prompt: []sdk.ContentBlock{sdk.ImageBlock("AAAA", "image/png")}})
	if err == nil || !strings.Contains(err.Error(), "images") {
		t.Errorf("an image prompt: %v", err)
	}
}

func TestCancelDuringSlowReply(t *testing.T) {
	r := newRig(t, "", []fakemodel.Reply{{Name: "slow", Delay: fakemodel.Duration(60e9), Text: "late"}}, func(o *Options) { o.App.Mode = "plan" })
	_, sess := r.start()
	done := make(chan sdk.PromptResponse, 1)
	go func() { done <- r.prompt(sess.SessionId, "take your time") }()
	if err := r.model.WaitFor(r.ctx(), func(rs []fakemodel.Request) bool { return len(rs) == 1 }); err != nil {
		t.Fatal(err)
	}
	if err := r.conn.Cancel(r.ctx(), sdk.CancelNotification{SessionId: sess.SessionId}); err != nil {
		t.Fatal(err)
	}
	select {
	case resp := <-done:
		if resp.StopReason != sdk.StopReasonCancelled {
			t.Errorf("stop reason %s", resp.StopReason)
		}
	case <-r.ctx().Done():
		t.Fatal("the prompt did not end after session/cancel")
	}
}

func TestCancelAnswersPendingPermission(t *testing.T) {
	base := t.TempDir()
	plan := filepath.Join(base, "config", "plans", "acp-plan.md")
	r := newRig(t, base, []fakemodel.Reply{
		{Name: "plan", When: fakemodel.Match{LastUser: "go"},
			ToolCalls: []fakemodel.ToolCall{{ID: "p1", Name: "Write", Input: map[string]any{"file_path": plan, "content": "# Plan\n"}}}},
		{Name: "exit", When: fakemodel.Match{ToolResult: "acp-plan.md"},
			ToolCalls: []fakemodel.ToolCall{{ID: "x1", Name: "ExitPlanMode", Input: map[string]any{}}}},
	}, func(o *Options) { o.App.Mode = "plan" })
	asked := make(chan struct{})
	r.client.answer = func(ctx context.Context, _ sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
		close(asked)
		<-ctx.Done() // the agent withdraws the request when the turn is cancelled
		return sdk.RequestPermissionResponse{Outcome: sdk.NewRequestPermissionOutcomeCancelled()}, nil
	}
	_, sess := r.start()
	done := make(chan sdk.PromptResponse, 1)
	go func() { done <- r.prompt(sess.SessionId, "go") }()
	select {
	case <-asked:
	case <-r.ctx().Done():
		t.Fatal("no plan approval was asked")
	}
	if err := r.conn.Cancel(r.ctx(), sdk.CancelNotification{SessionId: sess.SessionId}); err != nil {
		t.Fatal(err)
	}
	if resp := <-done; resp.StopReason != sdk.StopReasonCancelled {
		t.Errorf("stop reason %s", resp.StopReason)
	}
	// Still in plan mode: a write to the project is refused.
	if _, err := r.conn.SetSessionMode(r.ctx(), sdk.SetSessionModeRequest{SessionId: sess.SessionId, ModeId: "plan"}); err != nil {
		t.Fatal(err)
	}
	r.client.mu.Lock()
	defer r.client.mu.Unlock()
	if got := r.client.modeUpdates(); !slices.Equal(got, []string{}) && !slices.Equal(got, []string(nil)) && !slices.Equal(got, []string{"plan"}) {
		t.Errorf("mode updates %v: the cancelled approval changed the mode", got)
	}
}
