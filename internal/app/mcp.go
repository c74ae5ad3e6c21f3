package app

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/config"
	"github.com/ponder-agent/ponder/internal/mcpclient"
	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/shellenv"
	"github.com/ponder-agent/ponder/internal/tool"
)

// MCPVersion is the version ponder gives MCP servers and clients; the
// command line sets it.
var MCPVersion = "dev"

// mcpSources are the MCP servers a session starts: those of the settings
// (the user's; a trusted project's settings files and .mcp.json), unless
// StrictMCPConfig, and those of --mcp-config, which win by name. A
// broken --mcp-config is a usage error.
func mcpSources(opts Options, cfg *config.Config) ([]config.MCPSource, error) {
	var out []config.MCPSource
	if !opts.StrictMCPConfig {
		out = cfg.MCPServers()
	}
	for _, arg := range opts.MCPConfig {
		servers, err := config.MCPConfigArg(arg)
		if err != nil {
			return nil, &UsageError{Msg: err.Error()}
		}
		from := "--mcp-config"
		if len(arg) > 0 && arg[0] != '{' {
			from = arg
		}
		for name, s := range servers {
			out = replaceSource(out, cfg.WithUserMarks(config.MCPSource{Name: name, Server: s, From: from}))
		}
	}
	return out, nil
}

// replaceSource puts src in list, in place of a server of the same name.
func replaceSource(list []config.MCPSource, src config.MCPSource) []config.MCPSource {
	for i, s := range list {
		if s.Name == src.Name {
			list[i] = src
			return list
		}
	}
	return append(list, src)
}

// mcpOptions are what every server of the session shares: the project
// root to start in, an environment without ponder's own credentials, and
// the timeouts of start-up ($PONDER_MCP_TIMEOUT) and of one tool call
// ($PONDER_MCP_TOOL_TIMEOUT), in milliseconds.
func mcpOptions(opts Options, cfg *config.Config) mcpclient.Options {
	o := mcpclient.Options{
		Dir:        cfg.ProjectDir,
		Environ:    shellenv.Build(os.Environ(), shellenv.Policy{Inherit: "all", Include: []string{"*"}}),
		Getenv:     opts.Getenv,
		Credential: shellenv.IsCredential,
		Version:    MCPVersion,
	}
	if ms, err := strconv.Atoi(opts.Getenv("PONDER_MCP_TIMEOUT")); err == nil && ms > 0 {
		o.Timeout = time.Duration(ms) * time.Millisecond
	}
	if ms, err := strconv.Atoi(opts.Getenv("PONDER_MCP_TOOL_TIMEOUT")); err == nil && ms > 0 {
		o.ToolTimeout = time.Duration(ms) * time.Millisecond
	}
	return o
}

// startMCP starts the session's MCP servers (before its tools are built)
// and notes each that failed.
func (a *App) startMCP() error {
	srcs, err := mcpSources(a.opts, a.cfg)
	if err != nil {
		return err
	}
	if len(srcs) == 0 && !a.opts.HostMCP {
		return nil
	}
	o := mcpOptions(a.opts, a.cfg)
	o.Hosted = a.opts.HostMCP
	o.Logf = func(format string, args ...any) {
		a.emit(event.Notice{Level: "warning", Text: fmt.Sprintf(format, args...)})
	}
	a.mcp = mcpclient.Start(context.Background(), srcs, o)
	for _, s := range a.mcp.Status() {
		if s.State == mcpclient.StateFailed {
			a.warnings = append(a.warnings, fmt.Sprintf("MCP server %s (%s) failed and is skipped: %s", s.Name, s.From, s.Error))
		}
	}
	return nil
}

// MCPServers reports the session's MCP servers, their state and tools.
func (a *App) MCPServers() []event.MCPServer { return mcpStatus(a.mcp) }

func mcpStatus(m *mcpclient.Manager) []event.MCPServer {
	var out []event.MCPServer
	for _, s := range m.Status() {
		e := event.MCPServer{Name: s.Name, Status: s.State, Error: s.Error, From: s.From, Transport: s.Transport}
		for _, t := range s.Tools {
			e.Tools = append(e.Tools, event.MCPTool{Name: t.Name, Remote: t.Remote, ReadOnly: t.ReadOnly, Annotated: t.Annotated, Skipped: t.Skipped})
		}
		out = append(out, e)
	}
	return out
}

// ListMCP starts the MCP servers a session with opts would start, reports
// them and stops them, without opening a session (ponder mcp list). The
// notice says what an untrusted folder's settings would have added, or is
// empty.
func ListMCP(opts Options) (servers []event.MCPServer, notice string, err error) {
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	dir, err := workDir(opts)
	if err != nil {
		return nil, "", err
	}
	cfg, err := loadConfig(opts, dir)
	if err != nil {
		return nil, "", err
	}
	srcs, err := mcpSources(opts, cfg)
	if err != nil {
		return nil, "", err
	}
	m := mcpclient.Start(context.Background(), srcs, mcpOptions(opts, cfg))
	defer m.Close()
	return mcpStatus(m), trustNotice(cfg), nil
}

// judgeKinds are the kinds agent types are judged read-only by: each
// tool's own, except that an external tool marked read-only (an MCP tool
// annotated so, or marked by the user's settings) counts as a reader, so
// that an agent whose tools only read, MCP tools included, is a read-only
// agent. The engine still sees the tool as external and holds it to its
// mark.
func judgeKinds(reg *tool.Registry) map[string]permission.Kind {
	kinds := reg.Kinds()
	for _, t := range reg.All() {
		if t.Kind() == permission.KindExternal && tool.MarkedReadOnly(t) {
			kinds[t.Name()] = permission.KindRead
		}
	}
	return kinds
}
