package openai

import (
	"encoding/json"
	"strings"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/shared"

	"github.com/ponder-agent/ponder/internal/llm"
)

// buildParams converts a request to the Chat Completions shape: the system
// prompt becomes a system message, tool results become "tool" messages
// (which must directly follow the assistant message that called them), and
// any text beside tool results (such as attached reminders) follows them in
// a user message.
func buildParams(req llm.Request) sdk.ChatCompletionNewParams {
	p := sdk.ChatCompletionNewParams{
		Model:         shared.ChatModel(req.Model),
		StreamOptions: sdk.ChatCompletionStreamOptionsParam{IncludeUsage: sdk.Bool(true)},
	}
	if req.MaxTokens > 0 {
		p.MaxCompletionTokens = sdk.Int(int64(req.MaxTokens))
	}
	if req.Effort != "" && llm.SupportsReasoningEffort(req.Model) {
		p.ReasoningEffort = shared.ReasoningEffort(req.Effort)
	}
	if req.System != "" {
		p.Messages = append(p.Messages, sdk.SystemMessage(req.System))
	}
	for _, m := range req.Messages {
		p.Messages = append(p.Messages, convertMessage(m)...)
	}
	for _, t := range req.Tools {
		var params shared.FunctionParameters
		if json.Unmarshal(t.Schema, &params) != nil || params == nil {
			params = shared.FunctionParameters{"type": "object", "properties": map[string]any{}}
		}
		p.Tools = append(p.Tools, sdk.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{
			Name:        t.Name,
			Description: sdk.String(t.Description),
			Parameters:  params,
		}))
	}
	return p
}

func convertMessage(m llm.Message) []sdk.ChatCompletionMessageParamUnion {
	var texts []string
	for _, b := range m.Content {
		if b.Type == llm.BlockText && b.Text != "" {
			texts = append(texts, b.Text)
		}
	}
	text := strings.Join(texts, "\n\n")
	if m.Role == llm.RoleAssistant {
		a := sdk.ChatCompletionAssistantMessageParam{}
		if text != "" {
			a.Content.OfString = sdk.String(text)
		}
		for _, b := range m.ToolUses() {
			args := string(b.Input)
			if !json.Valid(b.Input) {
				args = "{}"
			}
			a.ToolCalls = append(a.ToolCalls, sdk.ChatCompletionMessageToolCallUnionParam{
				OfFunction: &sdk.ChatCompletionMessageFunctionToolCallParam{
					ID:       b.ID,
					Function: sdk.ChatCompletionMessageFunctionToolCallFunctionParam{Name: b.Name, Arguments: args},
				},
			})
		}
		return []sdk.ChatCompletionMessageParamUnion{{OfAssistant: &a}}
	}
	var out []sdk.ChatCompletionMessageParamUnion
	for _, b := range m.Content {
		if b.Type != llm.BlockToolResult {
			continue
		}
		content := b.Content
		if b.IsError {
			content = "Error: " + content
		}
		if content == "" {
			content = "(no output)"
		}
		out = append(out, sdk.ToolMessage(content, b.ToolUseID))
	}
	if parts := imageParts(m, texts); parts != nil {
		return append(out, sdk.UserMessage(parts))
	}
	if text != "" {
		out = append(out, sdk.UserMessage(text))
	}
	return out
}

// imageParts returns the content parts of a user message that carries
// images (its texts, then its images as data URLs), or nil when it
// carries none.
func imageParts(m llm.Message, texts []string) []sdk.ChatCompletionContentPartUnionParam {
	var parts []sdk.ChatCompletionContentPartUnionParam
	for _, b := range m.Content {
		if b.Type == llm.BlockImage {
			parts = append(parts, sdk.ImageContentPart(sdk.ChatCompletionContentPartImageImageURLParam{
				URL: "data:" + b.MediaType + ";base64," + b.Data}))
		}
	}
	if parts == nil {
		return nil
	}
	texty := make([]sdk.ChatCompletionContentPartUnionParam, 0, len(texts)+len(parts))
	for _, t := range texts {
		texty = append(texty, sdk.TextContentPart(t))
	}
	return append(texty, parts...)
}
