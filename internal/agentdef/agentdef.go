// Package agentdef describes the kinds of subagent the Task tool can
// launch: the built-in Explore, Plan and general-purpose agents, and
// agents users define in markdown files with YAML front matter. A
// definition is data: a prompt, the tools the agent may use, its model.
package agentdef

import (
	"slices"
	"sort"

	"github.com/ponder-agent/ponder/internal/permission"
)

// Model roles a definition can ask for instead of a model name.
const (
	// ModelInherit uses the main conversation's model.
	ModelInherit = "inherit"
	// ModelFast uses the fast model configured for exploring.
	ModelFast = "fast"
)

// Definition is one kind of subagent.
type Definition struct {
	// Name is what the model passes as subagent_type.
	Name string
	// Description tells the model when to use this agent.
	Description string
	// Prompt is the agent's system prompt.
	Prompt string
	// Tools lists the tools the agent may use; nil means every tool of
	// the current mode (except those no subagent gets).
	Tools []string
	// DisallowedTools are taken away even when Tools would allow them.
	DisallowedTools []string
	// Model is ModelInherit, ModelFast, or a model name.
	Model string
	// ReadOnly agents may only read: the permission engine holds them to
	// it (read-only shell commands only, no writes), and in plan mode only
	// read-only agents may be launched. Built-in agents declare it; for
	// the others Judge decides it from their tools.
	ReadOnly bool
	// ForkContext starts the agent from a copy of the parent's
	// conversation instead of the prompt alone.
	ForkContext bool
	// Source is "built-in" or the file the definition came from.
	Source string
}

// neverForSubagents are tools no subagent gets: agents do not launch
// agents, and only the main conversation enters plan mode.
var neverForSubagents = []string{"Task", "EnterPlanMode"}

// ToolSet returns the tools an agent of this kind gets, from the tools
// available in the current mode.
func (d Definition) ToolSet(available []string) []string {
	var out []string
	for _, t := range available {
		if slices.Contains(neverForSubagents, t) || slices.Contains(d.DisallowedTools, t) {
			continue
		}
		if d.Tools != nil && !slices.Contains(d.Tools, t) {
			continue
		}
		out = append(out, t)
	}
	return out
}

// Denied returns the tools of all that the agent must not use: everything
// outside its tool set. The permission engine refuses them even if the
// model calls them anyway.
func (d Definition) Denied(all []string) []string {
	set := d.ToolSet(all)
	var out []string
	for _, t := range all {
		if !slices.Contains(set, t) {
			out = append(out, t)
		}
	}
	return out
}

// onlyReads reports whether the tools the agent gets from those of the
// session (by name, with the kind each declares) leave it no way to change
// anything: each only reads, fetches, or acts on the session itself. An
// agent with a shell is not read-only, since read-only would hold its
// commands to reading. Without a tool list an agent gets every tool,
// writers included, unless it disallows them.
func (d Definition) onlyReads(tools map[string]permission.Kind) bool {
	names := make([]string, 0, len(tools))
	for name := range tools {
		names = append(names, name)
	}
	for _, t := range d.ToolSet(names) {
		switch tools[t] {
		case permission.KindNone, permission.KindRead, permission.KindNetwork:
		default:
			return false
		}
	}
	return true
}

// Judge returns the definitions with ReadOnly set for every agent whose
// tools can only read, judged by the kinds the session's tools declare. A
// built-in agent that declares ReadOnly keeps it.
func Judge(defs []Definition, tools map[string]permission.Kind) []Definition {
	out := make([]Definition, len(defs))
	for i, d := range defs {
		d.ReadOnly = d.ReadOnly || d.onlyReads(tools)
		out[i] = d
	}
	return out
}

// Set is the definitions available in a session, by name.
type Set struct {
	defs map[string]Definition
}

// NewSet builds a set; later definitions replace earlier ones of the same
// name, so project agents override user agents, which override built-ins.
func NewSet(defs ...Definition) *Set {
	s := &Set{defs: map[string]Definition{}}
	for _, d := range defs {
		s.defs[d.Name] = d
	}
	return s
}

// Get finds a definition.
func (s *Set) Get(name string) (Definition, bool) {
	d, ok := s.defs[name]
	return d, ok
}

// All returns the definitions sorted by name.
func (s *Set) All() []Definition {
	out := make([]Definition, 0, len(s.defs))
	for _, d := range s.defs {
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
