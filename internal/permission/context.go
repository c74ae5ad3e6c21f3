package permission

// Caller is who makes the calls a Context judges: the main conversation
// (the zero Caller) or an agent.
type Caller struct {
	// Type names the agent type, for messages.
	Type string
	// ReadOnly limits the caller to reading (Explore and Plan agents).
	ReadOnly bool
	// Subagent says the caller is a subagent, not the main conversation.
	Subagent bool
	// DeniedTools are tools the caller may not use at all.
	DeniedTools []string
}

// NewContext is how a Context is made: the caller in mode, with its plan
// file in plan mode. planFile is asked only then (naming the plan file
// may choose its name); nil means the caller has none. The agent loop
// adds what it learns per turn and per call (Offered, Hook).
func NewContext(mode Mode, planFile func() string, caller Caller) Context {
	c := Context{
		Mode:          mode,
		ReadOnlyAgent: caller.ReadOnly,
		AgentType:     caller.Type,
		Subagent:      caller.Subagent,
		DeniedTools:   caller.DeniedTools,
	}
	if mode == ModePlan && planFile != nil {
		c.PlanFile = planFile()
	}
	return c
}
