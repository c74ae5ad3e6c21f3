package event

import "time"

// AgentStarted says a subagent began work for a Task call.
type AgentStarted struct {
	// ParentToolID is the Task call that launched the agent.
	ParentToolID string `json:"parent_tool_id"`
	AgentID      string `json:"agent_id"`
	Type         string `json:"agent_type"`
	Description  string `json:"description"`
}

// AgentFinished says a subagent is done.
type AgentFinished struct {
	ParentToolID string        `json:"parent_tool_id"`
	AgentID      string        `json:"agent_id"`
	ToolCalls    int           `json:"tool_calls"`
	Tokens       int           `json:"tokens"`
	Duration     time.Duration `json:"duration_ns"`
	Error        string        `json:"error,omitempty"`
}

func (AgentStarted) Kind() string  { return "agent_started" }
func (AgentFinished) Kind() string { return "agent_finished" }
