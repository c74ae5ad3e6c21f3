package agent

import (
	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/tool"
)

// Offered returns the tools to offer the caller of context pc: those of
// reg the session has in pc's mode (available, nil for all) that the
// permission engine offers. The same list goes to the model with each
// request and to Decide as Context.Offered, so the model is offered
// exactly the tools it may call.
func Offered(reg *tool.Registry, available func(tool.Tool, permission.Mode) bool, perm *permission.Engine, pc permission.Context) []tool.Tool {
	var out []tool.Tool
	for _, t := range reg.All() {
		if (available == nil || available(t, pc.Mode)) && perm.Offers(pc, t.Name(), t.Kind()) {
			out = append(out, t)
		}
	}
	return out
}

// Names lists the names of tools, in order.
func Names(tools []tool.Tool) []string {
	out := make([]string, len(tools))
	for i, t := range tools {
		out[i] = t.Name()
	}
	return out
}
