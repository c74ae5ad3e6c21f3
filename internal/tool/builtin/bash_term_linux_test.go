//go:build linux

package builtin

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/ponder-agent/ponder/internal/sandbox"
	"github.com/ponder-agent/ponder/internal/tool"
)

// A confined command whose shell is the first process of a PID namespace
// (which drops a SIGTERM it has no handler for) still ends at once when
// its call is interrupted, not after the grace period, and one that
// handles SIGTERM gets it.
func TestConfinedCancelEndsTheShell(t *testing.T) {
	sb, err := sandbox.New(sandbox.Options{})
	if err != nil || !sb.Available() {
		t.Skip("no sandbox on this machine")
	}
	for _, tc := range []struct{ name, script, want string }{
		{"no handler", "sleep 60.%s", ""},
		{"handler", "trap 'echo got TERM; exit 3' TERM; sleep 60.%s & wait", "got TERM"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := newEnv(t)
			marker := fmt.Sprintf("%d%d", os.Getpid()%10000, time.Now().UnixNano()%1000)
			call := prepare(t, NewBash(BashOptions{Sandbox: sb}), env, map[string]any{"command": fmt.Sprintf(tc.script, marker)})
			ctx, cancel := context.WithCancel(tool.WithConfinement(context.Background(), tool.Confinement{Sandbox: true}))
			done := make(chan tool.Result, 1)
			go func() { done <- call.Run(ctx) }()
			// Wait, a bounded time, until the sleep runs.
			for i := 0; !sleepRuns(marker); i++ {
				if i > 1000 {
					t.Fatal("the command did not start")
				}
				time.Sleep(5 * time.Millisecond)
			}
			start := time.Now()
			cancel()
			select {
			case res := <-done:
				if d := time.Since(start); d > bashKillGrace/2 {
					t.Errorf("took %v after cancel: %s", d, res.Content)
				}
				if !strings.Contains(res.Content, tc.want) {
					t.Errorf("result %q lacks %q", res.Content, tc.want)
				}
			case <-time.After(15 * time.Second):
				t.Fatal("Run did not return after cancel")
			}
		})
	}
}

// sleepRuns reports whether a sleep with marker in its arguments runs.
func sleepRuns(marker string) bool {
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		data, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err == nil && strings.Contains(string(data), "sleep\x0060."+marker) {
			return true
		}
	}
	return false
}
