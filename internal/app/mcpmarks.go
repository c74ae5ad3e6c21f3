package app

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/ponder-agent/ponder/internal/atomicfile"
	"github.com/ponder-agent/ponder/internal/config"
)

// This file is the user's marks on MCP tools written from a front end
// (/mcp): into the user's own settings, which alone may mark a tool of a
// server another file defines (config.MCPServers), and applied to the
// running session at once.

// writeMCPMark records in the user's settings file (settings.json in
// configDir) how ponder treats tool of server: how is MCPToolReadOnly,
// MCPToolWrite or MCPToolDeny. The server's entry there gets the mark,
// or, when the user's settings do not define the server, an entry with
// only marks is made. Everything else in the file is kept; the file is
// replaced atomically. It returns the file's path.
func writeMCPMark(configDir, server, tool, how string) (string, error) {
	path := filepath.Join(configDir, "settings.json")
	switch how {
	case config.MCPToolReadOnly, config.MCPToolWrite, config.MCPToolDeny:
	default:
		return path, fmt.Errorf("a tool's mark is %s, %s or %s, not %q", config.MCPToolReadOnly, config.MCPToolWrite, config.MCPToolDeny, how)
	}
	if err := config.CheckMCPName(server); err != nil {
		return path, err
	}
	if tool == "" {
		return path, errors.New("no tool to mark")
	}
	doc := map[string]any{}
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return path, err
	case len(bytes.TrimSpace(data)) > 0:
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		if err := dec.Decode(&doc); err != nil {
			return path, fmt.Errorf("%s is not a JSON object (%v); fix it first", path, err)
		}
	}
	servers, err := object(doc, "mcpServers", path)
	if err != nil {
		return path, err
	}
	entry, err := object(servers, server, path+": mcpServers")
	if err != nil {
		return path, err
	}
	tools, err := object(entry, "tools", path+": mcpServers."+server)
	if err != nil {
		return path, err
	}
	tools[tool] = how
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return path, err
	}
	if err := os.MkdirAll(configDir, 0o700); err != nil {
		return path, err
	}
	perm := fs.FileMode(0o600)
	if info, err := os.Stat(path); err == nil {
		perm = info.Mode().Perm()
	}
	return path, atomicfile.Write(path, append(out, '\n'), perm)
}

// object returns m[key] as a JSON object, making it when missing; a
// value of another type is an error naming where.
func object(m map[string]any, key, where string) (map[string]any, error) {
	v, ok := m[key]
	if !ok || v == nil {
		o := map[string]any{}
		m[key] = o
		return o, nil
	}
	o, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s: %q is not an object", where, key)
	}
	return o, nil
}

// MarkMCPToolReadOnly counts the MCP tool named name (mcp__server__tool)
// as read-only: the mark is written to the user's settings (the server's
// entry there, or an entry with only marks) and holds in this session at
// once. It returns the settings file written.
func (a *App) MarkMCPToolReadOnly(name string) (string, error) {
	for _, s := range a.MCPServers() {
		for _, t := range s.Tools {
			if t.Name != name || t.Skipped != "" {
				continue
			}
			path, err := writeMCPMark(a.cfg.ConfigDir, s.Name, t.Remote, config.MCPToolReadOnly)
			if err != nil {
				return path, err
			}
			a.mcp.MarkReadOnly(name)
			return path, nil
		}
	}
	return "", fmt.Errorf("this session has no MCP tool %s to mark", name)
}
