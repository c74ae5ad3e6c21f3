package tool

import (
	"sort"
	"sync"

	"github.com/ponder-agent/ponder/internal/llm"
	"github.com/ponder-agent/ponder/internal/permission"
)

// Registry is the set of tools one agent may be offered. It is safe for
// concurrent use: tools may join it while a session runs (the tools of an
// MCP server that connected late).
type Registry struct {
	mu     sync.RWMutex
	tools  []Tool
	byName map[string]Tool
}

// NewRegistry returns a registry of the given tools, in that order. A later
// tool replaces an earlier one of the same name.
func NewRegistry(tools ...Tool) *Registry {
	r := &Registry{byName: map[string]Tool{}}
	for _, t := range tools {
		r.Add(t)
	}
	return r
}

// Add puts t into the registry, replacing a tool of the same name.
func (r *Registry) Add(t Tool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.byName[t.Name()]; dup {
		for i, old := range r.tools {
			if old.Name() == t.Name() {
				r.tools[i] = t
			}
		}
	} else {
		r.tools = append(r.tools, t)
	}
	r.byName[t.Name()] = t
}

// Get finds a tool by name.
func (r *Registry) Get(name string) (Tool, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	t, ok := r.byName[name]
	return t, ok
}

// All returns the tools in registration order.
func (r *Registry) All() []Tool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return append([]Tool(nil), r.tools...)
}

// Kinds returns the kind each tool declares, by name, as the permission
// engine takes them (permission.Rules.Tools).
func (r *Registry) Kinds() map[string]permission.Kind {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make(map[string]permission.Kind, len(r.tools))
	for _, t := range r.tools {
		out[t.Name()] = t.Kind()
	}
	return out
}

// Names returns the tool names, sorted.
func (r *Registry) Names() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]string, 0, len(r.tools))
	for _, t := range r.tools {
		out = append(out, t.Name())
	}
	sort.Strings(out)
	return out
}

// Specs returns the specifications of the tools keep accepts (all when
// keep is nil), in registration order.
func (r *Registry) Specs(keep func(Tool) bool) []llm.ToolSpec {
	tools := r.All()
	out := make([]llm.ToolSpec, 0, len(tools))
	for _, t := range tools {
		if keep != nil && !keep(t) {
			continue
		}
		out = append(out, llm.ToolSpec{Name: t.Name(), Description: t.Description(), Schema: t.Schema()})
	}
	return out
}
