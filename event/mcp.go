package event

// MCPServer is what a session knows of one MCP server it was configured
// with: its state ("connected", "failed", "disabled", "closed", or
// "pending" for a server of the SDK host not connected yet), why it
// failed, and its tools as the model may be offered them.
type MCPServer struct {
	Name   string `json:"name"`
	Status string `json:"status"`
	Error  string `json:"error,omitempty"`
	// From is where the server was configured (a settings file,
	// .mcp.json, --mcp-config, the SDK host); Transport is "stdio",
	// "http" or "sdk" (served by the program driving ponder).
	From      string    `json:"from,omitempty"`
	Transport string    `json:"transport,omitempty"`
	Tools     []MCPTool `json:"tools,omitempty"`
}

// MCPTool is one tool of an MCP server.
type MCPTool struct {
	// Name is the name the model calls it by (mcp__server__tool); Remote
	// is its name on the server.
	Name   string `json:"name,omitempty"`
	Remote string `json:"remote"`
	// ReadOnly says it counts as read-only, so plan mode and read-only
	// agents may use it.
	ReadOnly bool `json:"read_only"`
	// Annotated says the server claims it only reads (readOnlyHint):
	// shown to the user, never trusted by ponder.
	Annotated bool `json:"annotated_read_only,omitempty"`
	// Skipped says why it is not offered at all, or is empty.
	Skipped string `json:"skipped,omitempty"`
}
