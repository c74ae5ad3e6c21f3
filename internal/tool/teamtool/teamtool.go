// Package teamtool holds the tools of a team: SpawnTeammate, with which
// a lead starts a teammate, and SendMessage, with which members write to
// each other and the lead answers plan approval requests. What they do
// is up to the session (a Team); the tools check their input and never
// let a model choose who a message is from or what ID it carries.
package teamtool

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/tool"
)

// Spawn is what a SpawnTeammate call asks for.
type Spawn struct {
	Name             string
	Prompt           string
	Mode             string
	PlanModeRequired bool
	// Process runs the teammate as a ponder process of its own.
	Process bool
}

// Outgoing is what a SendMessage call asks to send. The sender is the
// session itself; the message ID is made by the mailbox.
type Outgoing struct {
	To   string
	Text string
	// Response is set for a plan approval response.
	Response *Response
	// Shutdown asks the teammate to finish and stop (the lead only).
	Shutdown bool
}

// Response is the lead's answer to a plan approval request.
type Response struct {
	RequestID string
	Approve   bool
	Feedback  string
	Mode      string
}

// Team is the session side of the tools.
type Team interface {
	// SpawnTeammate starts a teammate and returns what to tell the model.
	SpawnTeammate(ctx context.Context, s Spawn) (string, error)
	// SendMessage sends a message and returns what to tell the model.
	SendMessage(ctx context.Context, m Outgoing) (string, error)
}

// SpawnTeammate starts a teammate of the lead's team.
type SpawnTeammate struct {
	tool.Meta
	Team Team
}

type spawnInput struct {
	Name             string `json:"name" desc:"The teammate's name: lower-case letters, digits, - and _. Messages to it use this name."`
	Prompt           string `json:"prompt" desc:"The teammate's task, with all the context it needs: it sees nothing of this conversation."`
	Mode             string `json:"mode,omitempty" desc:"The permission mode the teammate works in: default, acceptEdits or plan, never freer than your own (a freer one gets yours). With plan_mode_required it is the mode it gets once its plan is approved."`
	PlanModeRequired bool   `json:"plan_mode_required,omitempty" desc:"The teammate must plan first: it starts in plan mode and changes nothing until you approve its plan."`
	Process          bool   `json:"process,omitempty" desc:"Run the teammate as a ponder process of its own (its output goes to a log file) instead of inside this session's process."`
}

const spawnDoc = `Starts a teammate: a full agent with its own conversation and transcript, working on its task beside you in this project. It reports back through your inbox: messages it sends, a plan approval request when it must plan first (plan_mode_required), and an idle notice when it has finished. Those arrive as <teammate-message> blocks at the start of your next turn. Answer plan approval requests with SendMessage.`

// NewSpawnTeammate returns the tool. A teammate can change files, so
// plan mode refuses the call like any agent that is not read-only, unless
// the teammate must plan first.
func NewSpawnTeammate(t Team) SpawnTeammate {
	return SpawnTeammate{Meta: tool.NewMeta[spawnInput]("SpawnTeammate", permission.KindAgent, spawnDoc, false), Team: t}
}

// Prepare checks the input.
func (t SpawnTeammate) Prepare(env *tool.Env, input json.RawMessage) (tool.Call, error) {
	in, err := tool.Decode[spawnInput](input)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(in.Prompt) == "" {
		return nil, errors.New("prompt is empty: tell the teammate what to do")
	}
	switch in.Mode {
	case "", "default", "acceptEdits", "plan":
	default:
		return nil, fmt.Errorf("mode %q: a teammate works in default, acceptEdits or plan", in.Mode)
	}
	return spawnCall{t: t, in: in}, nil
}

type spawnCall struct {
	t  SpawnTeammate
	in spawnInput
}

// Access declares a teammate that must plan first as a read-only agent:
// it starts in plan mode and changes nothing until its plan is approved,
// so a lead in plan mode may start it. Any other teammate can change
// files at once.
func (c spawnCall) Access() permission.Access {
	return permission.Access{Target: "teammate", AgentReadOnly: c.in.PlanModeRequired}
}

func (c spawnCall) Run(ctx context.Context) tool.Result {
	out, err := c.t.Team.SpawnTeammate(ctx, Spawn{Name: c.in.Name, Prompt: c.in.Prompt, Mode: c.in.Mode, PlanModeRequired: c.in.PlanModeRequired, Process: c.in.Process})
	if err != nil {
		return tool.Errorf("The teammate was not started: %v", err)
	}
	return tool.Result{Content: out, Summary: "started " + c.in.Name}
}

// SendMessage sends a message to another member of the team.
type SendMessage struct {
	tool.Meta
	Team Team
}

type sendInput struct {
	To        string `json:"to" desc:"The recipient's name (the lead is \"lead\")."`
	Type      string `json:"type,omitempty" desc:"\"message\" (the default) or, for the lead only, \"plan_approval_response\" or \"shutdown_request\" (the teammate stops once its turn is done; message says why)."`
	Message   string `json:"message,omitempty" desc:"The text of a message."`
	RequestID string `json:"request_id,omitempty" desc:"plan_approval_response: the request_id of the request answered."`
	Approve   *bool  `json:"approve,omitempty" desc:"plan_approval_response: true to approve the plan, false to reject it."`
	Feedback  string `json:"feedback,omitempty" desc:"plan_approval_response: what to change (rejecting) or notes (approving)."`
	Mode      string `json:"mode,omitempty" desc:"plan_approval_response: acceptEdits or default, the mode the teammate implements in (never freer than your own); empty keeps its own."`
}

const sendDoc = `Sends a message to a member of your team, read at the start of its next turn. With type "plan_approval_response" the lead answers a teammate's plan approval request: approve true lets it leave plan mode and implement; approve false with feedback sends it back to revise its plan.`

// NewSendMessage returns the tool. It touches nothing but the team's
// mailboxes.
func NewSendMessage(t Team) SendMessage {
	return SendMessage{Meta: tool.NewMeta[sendInput]("SendMessage", permission.KindNone, sendDoc, false), Team: t}
}

// Prepare checks the input.
func (t SendMessage) Prepare(env *tool.Env, input json.RawMessage) (tool.Call, error) {
	in, err := tool.Decode[sendInput](input)
	if err != nil {
		return nil, err
	}
	out := Outgoing{To: in.To}
	switch in.Type {
	case "", "message":
		if strings.TrimSpace(in.Message) == "" {
			return nil, errors.New("message is empty")
		}
		if in.RequestID != "" || in.Approve != nil || in.Mode != "" || in.Feedback != "" {
			return nil, errors.New(`request_id, approve, feedback and mode belong to type "plan_approval_response"`)
		}
		out.Text = in.Message
	case "plan_approval_response":
		if in.RequestID == "" || in.Approve == nil {
			return nil, errors.New("a plan_approval_response needs request_id and approve")
		}
		if !*in.Approve && strings.TrimSpace(in.Feedback) == "" {
			return nil, errors.New("rejecting a plan needs feedback saying what to change")
		}
		out.Response = &Response{RequestID: in.RequestID, Approve: *in.Approve, Feedback: strings.TrimSpace(in.Feedback + "\n" + in.Message), Mode: in.Mode}
	case "shutdown_request":
		if in.RequestID != "" || in.Approve != nil || in.Mode != "" || in.Feedback != "" {
			return nil, errors.New(`request_id, approve, feedback and mode belong to type "plan_approval_response"`)
		}
		out.Shutdown, out.Text = true, in.Message
	default:
		return nil, fmt.Errorf("type %q: want \"message\", \"plan_approval_response\" or \"shutdown_request\"", in.Type)
	}
	return sendCall{t: t, out: out}, nil
}

type sendCall struct {
	t   SendMessage
	out Outgoing
}

func (c sendCall) Access() permission.Access { return permission.Access{} }

func (c sendCall) Run(ctx context.Context) tool.Result {
	res, err := c.t.Team.SendMessage(ctx, c.out)
	if err != nil {
		return tool.Errorf("Not sent: %v", err)
	}
	return tool.Result{Content: res, Summary: "to " + c.out.To}
}
