package config

import "maps"

// This file is the user's marks on MCP tools: how ponder treats a
// server's tools ("readOnly", "write", "deny"), kept in the user's own
// settings. An entry there with only "tools" marks the tools of the
// server of that name, whichever file defines it; only the user's
// settings can mark a tool of a server another file defines.

// marksOnly reports whether a server entry only marks tools: it names no
// way to start a server.
func marksOnly(s MCPServer) bool {
	return s.Command == "" && s.URL == "" && s.Type == ""
}

// applyUserMarks lays the user's marks over the servers defined (see
// WithUserMarks).
func (c *Config) applyUserMarks(byName map[string]MCPSource) {
	for name, src := range byName {
		byName[name] = c.WithUserMarks(src)
	}
}

// WithUserMarks is src with the marks of the user's entries that only
// mark tools (no command, url or type) for a server of its name laid
// over its own, the user's word winning tool by tool. (A full definition
// of the user's marks its own server only.)
func (c *Config) WithUserMarks(src MCPSource) MCPSource {
	for _, l := range c.Layers {
		if l.Scope != ScopeUser {
			continue
		}
		s, ok := l.Settings.MCPServers[src.Name]
		if !ok || !marksOnly(s) || len(s.Tools) == 0 {
			continue
		}
		tools := maps.Clone(src.Server.Tools)
		if tools == nil {
			tools = map[string]string{}
		}
		maps.Copy(tools, s.Tools)
		src.Server.Tools = tools
	}
	return src
}
