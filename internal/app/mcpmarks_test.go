package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteMCPMarkKeepsTheRestOfTheUserSettings(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "settings.json")
	before := `{"model": "m", "permissions": {"allow": ["Bash(go test:*)"]}, "mcpServers": {"own": {"command": "own-mcp", "timeout": 10.5}}}`
	if err := os.WriteFile(path, []byte(before), 0o640); err != nil {
		t.Fatal(err)
	}
	if _, err := writeMCPMark(dir, "own", "get", "readOnly"); err != nil {
		t.Fatal(err)
	}
	if _, err := writeMCPMark(dir, "notes", "search", "readOnly"); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	s := strings.Join(strings.Fields(string(data)), " ")
	for _, want := range []string{`"model": "m"`, `"Bash(go test:*)"`, `"command": "own-mcp"`, `"timeout": 10.5`,
		`"own": { "command": "own-mcp", "timeout": 10.5, "tools": { "get": "readOnly" } }`, `"notes": { "tools": { "search": "readOnly" } }`} {
		if !strings.Contains(s, want) {
			t.Fatalf("settings lack %s:\n%s", want, data)
		}
	}
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o640 {
		t.Fatalf("mode %v", info.Mode())
	}
	// A file that is not an object is not overwritten.
	if err := os.WriteFile(path, []byte(`{"mcpServers": []}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := writeMCPMark(dir, "own", "get", "readOnly"); err == nil {
		t.Fatal("a malformed mcpServers was overwritten")
	}
	if _, err := writeMCPMark(dir, "bad__name", "get", "readOnly"); err == nil {
		t.Fatal("a server name that cannot be was taken")
	}
}
