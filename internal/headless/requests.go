package headless

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/ponder-agent/ponder/event"
)

// request handles a host's own control request. Every request gets an
// answer: a success with what it asked for, or an error saying why not.
func (c *control) request(n int, id string, raw json.RawMessage) {
	var r struct {
		Subtype      string `json:"subtype"`
		Mode         string `json:"mode"`
		Model        string `json:"model"`
		Instructions string `json:"instructions"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		c.reply(id, fmt.Errorf("invalid request: %v", err))
		return
	}
	switch r.Subtype {
	case "initialize":
		payload, err := c.initialize(raw)
		c.replyWith(id, payload, err)
	case "set_permission_mode":
		mode := r.Mode
		if mode == "dontAsk" || mode == "auto" {
			c.reply(id, fmt.Errorf("ponder has no %s mode (modes: default, acceptEdits, plan, bypassPermissions)", mode))
			return
		}
		if err := c.app.SetMode(mode, "control"); err != nil {
			c.reply(id, err)
			return
		}
		c.replyWith(id, map[string]any{"mode": c.app.Mode()}, nil)
	case "interrupt":
		c.mu.Lock()
		cancel := c.interrupt
		c.mu.Unlock()
		if cancel != nil {
			cancel()
		}
		c.replyWith(id, map[string]any{}, nil)
	case "compact":
		// Queued behind the messages before it, so it never runs while a
		// turn does.
		c.input.push(work{compactID: id, instructions: r.Instructions})
	case "set_model":
		model := strings.TrimSpace(r.Model)
		if model == "" || model == "default" {
			model = c.app.Options().Model
		}
		if model == "" {
			c.replyWith(id, map[string]any{}, nil)
			return
		}
		c.replyWith(id, map[string]any{}, c.app.SetModel(model))
	case "set_max_thinking_tokens":
		// ponder sets no thinking budget; the request changes nothing.
		c.replyWith(id, map[string]any{}, nil)
	case "mcp_status":
		c.replyWith(id, map[string]any{"mcpServers": c.mcpStatus()}, nil)
	case "get_context_usage":
		c.replyWith(id, c.contextUsage(), nil)
	case "mcp_message":
		c.mcpMessage(id, raw)
	default:
		c.reply(id, fmt.Errorf("unsupported control request %q (ponder answers initialize, set_permission_mode, interrupt, compact, set_model, set_max_thinking_tokens, mcp_status, mcp_message and get_context_usage)", r.Subtype))
	}
}

// initRequest is the part of an SDK host's initialize request ponder
// acts on.
type initRequest struct {
	Hooks map[string][]struct {
		Matcher         string   `json:"matcher"`
		HookCallbackIDs []string `json:"hookCallbackIds"`
		Timeout         float64  `json:"timeout"`
		OnFailure       string   `json:"onFailure"`
	} `json:"hooks"`
	SDKMCPServers      []string                   `json:"sdkMcpServers"`
	SDKMCPConfigs      map[string]sdkServerConfig `json:"sdkMcpServerConfigs"`
	SystemPrompt       json.RawMessage            `json:"systemPrompt"`
	AppendSystemPrompt string                     `json:"appendSystemPrompt"`
}

// initialize makes the host one of the SDK's dialect, registers its hooks
// and system prompt, and says what this session offers.
func (c *control) initialize(raw json.RawMessage) (any, error) {
	var r initRequest
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, fmt.Errorf("initialize: %v", err)
	}
	c.out.sdk.Store(true)
	events := make([]string, 0, len(r.Hooks))
	for name := range r.Hooks {
		events = append(events, name)
	}
	sort.Strings(events)
	var skipped []string
	for _, name := range events {
		ev := event.HookEvent(name)
		switch ev {
		case event.HookPreToolUse, event.HookPostToolUse, event.HookPostToolUseFailure, event.HookUserPromptSubmit, event.HookStop,
			event.HookSessionStart, event.HookSessionEnd, event.HookPreCompact, event.HookNotification:
		default:
			skipped = append(skipped, name)
			continue
		}
		for _, m := range r.Hooks[name] {
			for _, cb := range m.HookCallbackIDs {
				hm := event.HookMatcher{Event: ev, Matcher: m.Matcher, Hooks: []event.HookFunc{c.calls.hook(cb, m.OnFailure == "block")},
					Timeout: secondsOf(m.Timeout)}
				if err := c.app.AddHook(hm); err != nil {
					return nil, fmt.Errorf("initialize: %s hook: %v", name, err)
				}
			}
		}
	}
	if len(skipped) > 0 {
		c.app.Emit(event.Notice{Level: "warning", Text: "ponder runs PreToolUse, PostToolUse, PostToolUseFailure, UserPromptSubmit, Stop, SessionStart, SessionEnd, PreCompact and Notification hooks; these are not run: " + strings.Join(skipped, ", ")})
	}
	if len(r.SDKMCPServers) > 0 {
		// Connected in the background: their answers come on the input
		// this request came on. The next turn waits for them.
		c.app.ServeHostMCP(hostServers(r.SDKMCPServers, r.SDKMCPConfigs))
	}
	if replace, ok := promptText(r.SystemPrompt); ok || r.AppendSystemPrompt != "" {
		c.app.SetSystemPrompt(replace, r.AppendSystemPrompt)
	}
	model := c.app.Model()
	return map[string]any{
		"commands": []any{map[string]any{"name": "compact", "description": "Summarise the conversation to free context", "argumentHint": "[instructions]"}},
		"agents": []any{
			map[string]any{"name": "general-purpose", "description": "Works on a task on its own and reports back"},
			map[string]any{"name": "Explore", "description": "Searches the code read-only"},
			map[string]any{"name": "Plan", "description": "Designs an approach read-only"},
		},
		"output_style":              "default",
		"available_output_styles":   []string{"default"},
		"models":                    []any{map[string]any{"value": model, "displayName": model, "description": "The session's model"}},
		"account":                   map[string]any{"apiKeySource": keySource(c.app.APIKeySource())},
		"hooks_applied":             true,
		"hook_on_failure_supported": true,
		"claude_code_version":       c.out.version,
		"pid":                       os.Getpid(),
	}, nil
}

// promptText reads a system prompt given as text or a list of parts; an
// empty one keeps ponder's.
func promptText(raw json.RawMessage) (string, bool) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", false
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, strings.TrimSpace(s) != ""
	}
	var parts []string
	if json.Unmarshal(raw, &parts) == nil {
		s = strings.Join(parts, "\n\n")
		return s, strings.TrimSpace(s) != ""
	}
	return "", false
}

// contextUsage is how full the model's context is.
func (c *control) contextUsage() map[string]any {
	used, window := c.app.ContextUsage()
	free := max(window-used, 0)
	pct := 0.0
	if window > 0 {
		pct = float64(used) * 100 / float64(window)
	}
	return map[string]any{
		"categories": []any{
			map[string]any{"name": "Messages", "tokens": used, "color": "purple", "kind": "used"},
			map[string]any{"name": "Free space", "tokens": free, "color": "gray", "kind": "free"},
		},
		"totalTokens": used, "maxTokens": window, "rawMaxTokens": window, "percentage": pct,
		"gridRows": []any{}, "model": c.app.Model(), "memoryFiles": []any{}, "mcpTools": []any{}, "agents": []any{},
		"isAutoCompactEnabled": true,
	}
}
