package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// capSysPtrace is CAP_SYS_PTRACE's bit.
const capSysPtrace = 19

// boundingHasPtrace reads a CapBnd line of /proc/PID/status.
func boundingHasPtrace(t *testing.T, line string) bool {
	t.Helper()
	hex := strings.TrimSpace(strings.TrimPrefix(line, "CapBnd:"))
	v, err := strconv.ParseUint(hex, 16, 64)
	if err != nil {
		t.Fatalf("CapBnd %q: %v", line, err)
	}
	return v&(1<<capSysPtrace) != 0
}

// An MCP server ponder starts, which starts outside the sandbox and not
// through ponder's command runner, holds no CAP_SYS_PTRACE even when
// ponder runs as root, in the build the tests made (with cgo wherever a
// C compiler exists) as in a build without cgo.
func TestMCPServerStartsWithoutPtrace(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("only a process running as root holds CAP_SYS_PTRACE to lose")
	}
	// The first process of the system (or container) shows what ponder
	// would have to lose.
	if out, _ := exec.Command("grep", "CapBnd", "/proc/1/status").Output(); len(out) == 0 || !boundingHasPtrace(t, string(out)) {
		t.Skip("processes here have no CAP_SYS_PTRACE in their bounding set to lose")
	}
	info, _ := exec.Command("go", "version", "-m", ponderBin).Output()
	t.Logf("ponder build: cgo=%v", strings.Contains(string(info), "CGO_ENABLED=1"))
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api)
		caps := filepath.Join(t.TempDir(), "caps")
		server := map[string]any{"command": "sh", "args": []string{"-c", "grep CapBnd /proc/self/status > " + caps}}
		w.srv.Add(calls("hello")...)
		w.run("", "-p", "hello", "--mcp-config", mcpConfig(map[string]any{"probe": server}))
		data, err := os.ReadFile(caps)
		if err != nil {
			t.Fatalf("the MCP server did not run: %v", err)
		}
		if boundingHasPtrace(t, string(data)) {
			t.Errorf("the MCP server holds CAP_SYS_PTRACE: %s", data)
		}
	})
}
