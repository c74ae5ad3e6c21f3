package tool

import (
	"context"

	"github.com/ponder-agent/ponder/internal/permission"
)

// Gate lets a running call put the accesses it makes on its own account
// to the permission engine: each redirect a fetch would follow, each file
// a search comes across. The engine answers in the call's own context
// (mode, agent), so a call can do through its side doors exactly what it
// could do when asked for directly, and no more.
type Gate struct {
	Engine  *permission.Engine
	Context permission.Context
	// Tool and Kind are the calling tool's name and kind; the accesses a
	// call makes on its own account are its tool's.
	Tool string
	Kind permission.Kind
}

// Decide asks the engine about an access made on the call's behalf.
func (g *Gate) Decide(a permission.Access) permission.Decision {
	if g.Tool != "" {
		a.Tool, a.Kind = g.Tool, g.Kind
	}
	return g.Engine.Decide(g.Context, a)
}

// ReadFilter returns the engine's filter for a walk by tool below root.
func (g *Gate) ReadFilter(tool, root string) *permission.ReadFilter {
	if g.Tool != "" {
		tool = g.Tool
	}
	return g.Engine.ReadFilter(g.Context, tool, root)
}

type gateKey struct{}

// WithGate records in ctx the gate of the call being run. The agent loop
// does this for every call it runs.
func WithGate(ctx context.Context, g *Gate) context.Context {
	return context.WithValue(ctx, gateKey{}, g)
}

// GateFrom returns the gate recorded by WithGate, or nil when the call
// runs outside an agent (a tool's own tests, a benchmark), where nothing
// is gated at all.
func GateFrom(ctx context.Context) *Gate {
	g, _ := ctx.Value(gateKey{}).(*Gate)
	return g
}
