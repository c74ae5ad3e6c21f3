package anthropic

import (
	"encoding/json"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/ponder-agent/ponder/internal/llm"
)

// buildParams converts a request to the SDK's shape. It marks two prompt
// cache breakpoints: the system prompt (which also covers the tools before
// it) and the last block of the conversation, so that each turn reuses the
// cached prefix of the one before.
func buildParams(req llm.Request) sdk.MessageNewParams {
	maxTokens := req.MaxTokens
	if maxTokens <= 0 {
		maxTokens = defaultMaxTokens
	}
	p := sdk.MessageNewParams{
		Model:     sdk.Model(req.Model),
		MaxTokens: int64(maxTokens),
		Messages:  make([]sdk.MessageParam, 0, len(req.Messages)),
	}
	if req.System != "" {
		p.System = []sdk.TextBlockParam{{Text: req.System, CacheControl: sdk.NewCacheControlEphemeralParam()}}
	}
	for _, t := range req.Tools {
		var schema struct {
			Properties any      `json:"properties"`
			Required   []string `json:"required"`
		}
		_ = json.Unmarshal(t.Schema, &schema)
		tp := sdk.ToolParam{
			Name:        t.Name,
			Description: sdk.String(t.Description),
			InputSchema: sdk.ToolInputSchemaParam{Properties: schema.Properties, Required: schema.Required},
		}
		if schema.Properties == nil {
			tp.InputSchema.Properties = map[string]any{}
		}
		p.Tools = append(p.Tools, sdk.ToolUnionParam{OfTool: &tp})
	}
	for _, m := range req.Messages {
		blocks := convertBlocks(m.Content)
		if len(blocks) == 0 {
			continue
		}
		if m.Role == llm.RoleAssistant {
			p.Messages = append(p.Messages, sdk.NewAssistantMessage(blocks...))
		} else {
			p.Messages = append(p.Messages, sdk.NewUserMessage(blocks...))
		}
	}
	markTail(p.Messages)
	if budget := thinkingBudget(req); budget > 0 {
		// The budget comes out of max_tokens, which must exceed it:
		// the answer keeps the room it had without thinking.
		p.Thinking = sdk.ThinkingConfigParamOfEnabled(int64(budget))
		p.MaxTokens += int64(budget)
	}
	return p
}

// thinkingBudget is the extended-thinking budget to send with req, or 0.
// A model that does not think gets none, and neither does a request that
// continues after tool results: the API then wants the thinking blocks
// of the answer that called the tools sent back, which ponder does not
// keep, so the model thinks at the start of each turn of the user's.
func thinkingBudget(req llm.Request) int {
	if !llm.SupportsThinking(req.Model) || len(req.Messages) == 0 {
		return 0
	}
	for _, b := range req.Messages[len(req.Messages)-1].Content {
		if b.Type == llm.BlockToolResult {
			return 0
		}
	}
	return req.Effort.ThinkingBudget()
}

func convertBlocks(in []llm.Block) []sdk.ContentBlockParamUnion {
	out := make([]sdk.ContentBlockParamUnion, 0, len(in))
	for _, b := range in {
		switch b.Type {
		case llm.BlockText:
			if b.Text != "" {
				out = append(out, sdk.NewTextBlock(b.Text))
			}
		case llm.BlockToolUse:
			out = append(out, sdk.NewToolUseBlock(b.ID, toolInput(b.Input), b.Name))
		case llm.BlockImage:
			out = append(out, sdk.NewImageBlockBase64(b.MediaType, b.Data))
		case llm.BlockToolResult:
			content := b.Content
			if content == "" {
				content = "(no output)"
			}
			out = append(out, sdk.NewToolResultBlock(b.ToolUseID, content, b.IsError))
		}
	}
	return out
}

// toolInput returns the input to send back with a tool_use block. Input the
// model produced as malformed JSON is replaced by an empty object: the API
// refuses to take it back, and the tool result already told the model.
func toolInput(raw json.RawMessage) any {
	if len(raw) == 0 || !json.Valid(raw) {
		return map[string]any{}
	}
	var obj map[string]any
	if json.Unmarshal(raw, &obj) != nil || obj == nil {
		return map[string]any{}
	}
	return json.RawMessage(raw)
}

// markTail puts a cache breakpoint on the last block of the last message.
func markTail(msgs []sdk.MessageParam) {
	if len(msgs) == 0 {
		return
	}
	m := msgs[len(msgs)-1]
	var last []sdk.ContentBlockParamUnion
	switch {
	case m.OfUser != nil:
		last = m.OfUser.Content
	case m.OfAssistant != nil:
		last = m.OfAssistant.Content
	}
	if len(last) == 0 {
		return
	}
	b := &last[len(last)-1]
	cc := sdk.NewCacheControlEphemeralParam()
	switch {
	case b.OfText != nil:
		b.OfText.CacheControl = cc
	case b.OfToolResult != nil:
		b.OfToolResult.CacheControl = cc
	case b.OfToolUse != nil:
		b.OfToolUse.CacheControl = cc
	}
}
