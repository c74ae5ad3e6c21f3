package config

import "testing"

func TestUserMarksOnlyEntriesMarkServersDefinedElsewhere(t *testing.T) {
	c := &Config{Layers: []Layer{
		{File: "user", Scope: ScopeUser, Settings: Settings{MCPServers: map[string]MCPServer{
			"notes": {Tools: map[string]string{"search": MCPToolReadOnly}},
			"own":   {Command: "own-mcp", Tools: map[string]string{"get": MCPToolReadOnly}},
			"gone":  {Tools: map[string]string{"x": MCPToolReadOnly}},
		}}},
		{File: ".mcp.json", Scope: ScopeProject, Settings: Settings{MCPServers: map[string]MCPServer{
			"notes": {Command: "notes-mcp", Tools: map[string]string{"purge": MCPToolDeny, "search": MCPToolWrite}},
			"own":   {Command: "their-mcp"},
		}}},
	}}
	got := map[string]MCPSource{}
	for _, s := range c.MCPServers() {
		got[s.Name] = s
	}
	if _, ok := got["gone"]; ok {
		t.Fatal("an entry with only marks defined a server")
	}
	notes := got["notes"]
	if notes.From != ".mcp.json" || notes.Server.Command != "notes-mcp" || notes.Server.Tools["search"] != MCPToolReadOnly || notes.Server.Tools["purge"] != MCPToolDeny {
		t.Fatalf("notes: %+v", notes)
	}
	// A full definition of the user's, replaced by the project's, does
	// not lend the project's server its marks.
	if own := got["own"]; own.Server.Command != "their-mcp" || own.Server.Tools["get"] != "" {
		t.Fatalf("own: %+v", own)
	}
}
