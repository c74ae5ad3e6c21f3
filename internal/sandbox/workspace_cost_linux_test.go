//go:build linux && (amd64 || arm64)

package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// TestWorkspaceCost measures what confinement adds to one command, with
// ponder's own binary as the helper (PONDER_BENCH_BIN names it): the
// median time from start to exit of /bin/true unconfined, confined to
// reading, confined to a workspace without read-only paths, and confined
// to a workspace with a project's read-only paths, in interleaved runs.
func TestWorkspaceCost(t *testing.T) {
	bin := os.Getenv("PONDER_BENCH_BIN")
	if bin == "" {
		t.Skip("set PONDER_BENCH_BIN to a ponder binary to measure the cost of confinement")
	}
	s := workspaceBox(t)
	old := helperPath
	helperPath = bin
	defer func() { helperPath = old }()
	proj := t.TempDir()
	var ro []string
	for _, d := range []string{".git/hooks", ".husky", ".vscode", ".github/workflows", ".devcontainer", ".idea", ".claude"} {
		os.MkdirAll(filepath.Join(proj, d), 0o755)
		ro = append(ro, filepath.Join(proj, d))
	}
	for _, f := range []string{".git/config", "Makefile", "package.json", ".envrc", ".mcp.json", ".npmrc", "CLAUDE.md", "AGENTS.md"} {
		os.WriteFile(filepath.Join(proj, f), []byte("x\n"), 0o644)
		ro = append(ro, filepath.Join(proj, f))
	}
	kinds := []struct {
		name string
		c    *Confinement
	}{
		{"unconfined", nil},
		{"read-only policy", &Confinement{}},
		{"workspace, no read-only paths", &Confinement{Workspace: &Workspace{Writable: []string{proj}}}},
		{"workspace, 15 read-only paths", &Confinement{Workspace: &Workspace{Writable: []string{proj}, ReadOnly: ro}}},
	}
	rounds := 60
	times := make([][]time.Duration, len(kinds))
	for i := 0; i < rounds; i++ {
		for k, kind := range kinds {
			cmd := exec.Command("/bin/true")
			cmd.Dir = proj
			start := time.Now()
			p, err := s.Start(cmd, kind.c)
			if err != nil {
				t.Fatal(err)
			}
			if err := p.Wait(); err != nil {
				t.Fatalf("%s: %v", kind.name, err)
			}
			times[k] = append(times[k], time.Since(start))
			p.Cleanup()
		}
	}
	for k, kind := range kinds {
		slices.Sort(times[k])
		t.Logf("%-32s median %6.2f ms  p90 %6.2f ms", kind.name, ms(times[k][len(times[k])/2]), ms(times[k][len(times[k])*9/10]))
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
