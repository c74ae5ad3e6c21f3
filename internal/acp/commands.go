package acp

import (
	"context"
	"strings"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/ponder-agent/ponder/internal/app"
)

// commands are the slash commands an editor may offer in its prompt box.
var commands = []sdk.AvailableCommand{
	{Name: "plan", Description: "Enter plan mode (and plan the description, if given); in plan mode, show the plan",
		Input: &sdk.AvailableCommandInput{Unstructured: &sdk.UnstructuredCommandInput{Hint: "what to plan (optional)"}}},
	{Name: "compact", Description: "Summarise the conversation so far to free the context window; the plan and todos stay",
		Input: &sdk.AvailableCommandInput{Unstructured: &sdk.UnstructuredCommandInput{Hint: "what the summary should keep (optional)"}}},
	{Name: "clear", Description: "Start a fresh conversation in this session; the mode and the plan file stay"},
}

// advertise tells the editor the slash commands.
func (ss *session) advertise() {
	ss.send(sdk.SessionUpdate{AvailableCommandsUpdate: &sdk.SessionAvailableCommandsUpdate{
		AvailableCommands: commands, SessionUpdate: "available_commands_update"}}, nil)
}

// command runs a prompt that is a slash command, and reports whether it
// was one. A turn it starts (/plan with a description) is the prompt's
// turn.
func (ss *session) command(ctx context.Context, text string) (app.TurnResult, bool, error) {
	name, args, _ := strings.Cut(strings.TrimSpace(text), " ")
	say := func(s string) { ss.send(sdk.UpdateAgentMessageText(s), nil) }
	switch name {
	case "/plan":
		out := ss.app.PlanCommand(args, false)
		switch {
		case out.Plan != "":
			say("The plan (" + out.PlanFile + "):\n\n" + out.Plan)
		case out.OpenEditor != "":
			say("The plan is " + out.OpenEditor + ".")
		case out.Message != "":
			say(out.Message)
		}
		if out.Query != "" {
			res, err := ss.app.Send(ctx, out.Query)
			return res, true, err
		}
	case "/compact":
		if err := ss.app.Compact(ctx, strings.TrimSpace(args)); err != nil {
			return app.TurnResult{}, true, err
		}
		say("The conversation is summarised; the plan and the todo list carry over.")
	case "/clear":
		ss.app.Clear()
		say("Started a fresh conversation. The mode and the plan file stay.")
	default:
		return app.TurnResult{}, false, nil
	}
	return app.TurnResult{StopReason: app.StopEndTurn}, true, nil
}
