// Package sessiontool holds the tools that act on the session rather than
// on the system: EnterPlanMode and ExitPlanMode, AskUserQuestion and
// TodoWrite. They change nothing on disk except the plan file (when an
// edited plan comes back with an approval) and the todo list.
package sessiontool

import (
	"context"
	"encoding/json"

	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/tool"
)

// noInput describes a tool that takes an empty object.
func noInput(name, doc string, parallel bool) tool.Meta {
	return tool.Meta{ToolName: name, ToolKind: permission.KindNone, Doc: doc, Parallel: parallel,
		InputSchema: json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`)}
}

// call is a prepared call that touches nothing outside the session.
type call struct {
	run func(ctx context.Context) tool.Result
}

func (call) Access() permission.Access             { return permission.Access{} }
func (c call) Run(ctx context.Context) tool.Result { return c.run(ctx) }
