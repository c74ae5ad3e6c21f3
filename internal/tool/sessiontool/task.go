package sessiontool

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/ponder-agent/ponder/internal/agentdef"
	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/tool"
)

//go:embed task.md
var taskDescription string

// Launcher runs subagents for the Task tool.
type Launcher interface {
	// Definitions lists the agent types that can be launched.
	Definitions() []agentdef.Definition
	// Launch runs an agent to the end of its task.
	Launch(ctx context.Context, req Launch) (Outcome, error)
}

// Launch is what a Task call asks for.
type Launch struct {
	Type        string
	Description string
	Prompt      string
	// ParentCallID is the Task call's id, for progress events.
	ParentCallID string
}

// Outcome is how an agent's work ended.
type Outcome struct {
	AgentID   string
	Text      string
	ToolCalls int
	Tokens    int
	Took      time.Duration
}

// Task launches a subagent.
type Task struct {
	tool.Meta
	Launcher Launcher
}

// NewTask returns the tool. Calls run side by side: several agents work at
// the same time.
func NewTask(l Launcher) Task {
	return Task{Meta: tool.NewMeta[taskInput]("Task", permission.KindAgent, taskDescription, true), Launcher: l}
}

type taskInput struct {
	Description string `json:"description" desc:"A short (3 to 5 words) summary of the task, shown to the user."`
	Prompt      string `json:"prompt" desc:"The task for the agent, with all the context it needs: it sees nothing of this conversation unless its type starts from a copy of it."`
	Type        string `json:"subagent_type" desc:"Which kind of agent to launch."`
}

// Description lists the agent types after the general guidance.
func (t Task) Description() string {
	var b strings.Builder
	b.WriteString(t.Doc)
	b.WriteString("\nAgent types:\n")
	for _, d := range t.Launcher.Definitions() {
		fmt.Fprintf(&b, "- %s: %s", d.Name, d.Description)
		if d.ReadOnly {
			b.WriteString(" (read-only)")
		}
		b.WriteString("\n")
	}
	return b.String()
}

// Prepare checks the agent type; the call is an agent launch, which plan
// mode allows only for read-only types.
func (t Task) Prepare(env *tool.Env, input json.RawMessage) (tool.Call, error) {
	in, err := tool.Decode[taskInput](input)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(in.Prompt) == "" {
		return nil, errors.New("prompt is empty: tell the agent what to do")
	}
	var def agentdef.Definition
	var names []string
	found := false
	for _, d := range t.Launcher.Definitions() {
		names = append(names, d.Name)
		if d.Name == in.Type {
			def, found = d, true
		}
	}
	if !found {
		return nil, fmt.Errorf("unknown subagent_type %q; the types are %s", in.Type, strings.Join(names, ", "))
	}
	return taskCall{t: t, in: in, readOnly: def.ReadOnly}, nil
}

type taskCall struct {
	t        Task
	in       taskInput
	readOnly bool
}

func (c taskCall) Access() permission.Access {
	return permission.Access{Target: c.in.Type, AgentReadOnly: c.readOnly}
}

func (c taskCall) Run(ctx context.Context) tool.Result {
	out, err := c.t.Launcher.Launch(ctx, Launch{Type: c.in.Type, Description: c.in.Description, Prompt: c.in.Prompt, ParentCallID: tool.CallID(ctx)})
	if err != nil {
		if ctx.Err() != nil {
			return tool.Errorf("The %s agent was interrupted before it finished.", c.in.Type)
		}
		return tool.Errorf("The %s agent failed: %v", c.in.Type, err)
	}
	text := strings.TrimSpace(out.Text)
	if text == "" {
		text = "(the agent finished without a report)"
	}
	stats := fmt.Sprintf("%s agent %s: %d tool calls, %d tokens, %s", c.in.Type, out.AgentID, out.ToolCalls, out.Tokens, out.Took.Round(100*time.Millisecond))
	return tool.Result{Content: text + "\n\n(" + stats + ")", Summary: stats}
}
