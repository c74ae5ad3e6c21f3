// Package agentdef describes the kinds of subagent the Task tool can
// launch: the built-in Explore, Plan and general-purpose agents, and
// agents users define in markdown files with YAML front matter. A
// definition is data: a prompt, the tools the agent may use, its model.
package agentdef

import (
	"slices"
	"sort"
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
	// read-only agents may be launched.
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

// writerTools are tools that can change the system. A user-defined agent
// allowed any of them is not read-only.
var writerTools = []string{"Write", "Edit", "NotebookEdit", "Bash", "Task"}

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

// onlyReads reports whether the agent's tools leave it no way to change
// anything. Without a tool list an agent gets every tool, writers
// included, unless it disallows them all.
func (d Definition) onlyReads() bool {
	candidates := d.Tools
	if candidates == nil {
		candidates = writerTools
	}
	for _, t := range candidates {
		if slices.Contains(writerTools, t) && !slices.Contains(d.DisallowedTools, t) {
			return false
		}
	}
	return true
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
