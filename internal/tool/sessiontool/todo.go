package sessiontool

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"

	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/todo"
	"github.com/ponder-agent/ponder/internal/tool"
)

//go:embed todo.md
var todoDescription string

// TodoWrite records the agent's todo list.
type TodoWrite struct {
	tool.Meta
	// Path returns where the list of an agent is stored.
	Path func(agentID string) string
	// Saved is told about every list written (for the transcript).
	Saved func(agentID string, items []todo.Item)
}

type todoInput struct {
	Todos []struct {
		Content    string `json:"content" desc:"What to do, in the imperative: \"Run the tests\"."`
		Status     string `json:"status" enum:"pending,in_progress,completed"`
		ActiveForm string `json:"activeForm" desc:"The same step while it happens: \"Running the tests\"."`
	} `json:"todos" desc:"The whole updated list."`
}

// NewTodoWrite returns the tool; it runs alone, as lists replace each
// other.
func NewTodoWrite(path func(agentID string) string, saved func(agentID string, items []todo.Item)) TodoWrite {
	return TodoWrite{Meta: tool.NewMeta[todoInput]("TodoWrite", permission.KindNone, todoDescription, false), Path: path, Saved: saved}
}

// Prepare validates the list.
func (t TodoWrite) Prepare(env *tool.Env, input json.RawMessage) (tool.Call, error) {
	in, err := tool.Decode[todoInput](input)
	if err != nil {
		return nil, err
	}
	items := make([]todo.Item, len(in.Todos))
	for i, it := range in.Todos {
		items[i] = todo.Item{Content: it.Content, Status: todo.Status(it.Status), ActiveForm: it.ActiveForm}
	}
	if err := todo.Validate(items); err != nil {
		return nil, err
	}
	return call{run: func(context.Context) tool.Result {
		if err := todo.Save(t.Path(env.AgentID), items); err != nil {
			return tool.Errorf("Could not save the todo list: %v", err)
		}
		if t.Saved != nil {
			t.Saved(env.AgentID, items)
		}
		done := 0
		for _, it := range items {
			if it.Status == todo.Completed {
				done++
			}
		}
		return tool.Result{
			Content: "The todo list is updated. Keep it current: mark a step in_progress when you start it and completed as soon as it is done.",
			Summary: fmt.Sprintf("%d/%d done", done, len(items)),
			Todos:   items,
		}
	}}, nil
}
