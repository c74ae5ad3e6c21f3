//go:build unix

package builtin

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/ponder-agent/ponder/internal/tool"
)

// Plan mode stops a foreground command running outside the sandbox, and
// no such command starts until plan mode ends.
func TestPlanModeStopsAndBarsUnconfinedCommands(t *testing.T) {
	env := newEnv(t)
	shells := NewShells()
	bash := NewBash(BashOptions{Shells: shells})
	fifo := filepath.Join(env.Dir, "started")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	call := prepare(t, bash, env, map[string]any{"command": "echo go > " + fifo + "; sleep 60; touch late"})
	done := make(chan tool.Result, 1)
	go func() { done <- call.Run(context.Background()) }()
	if _, err := os.ReadFile(fifo); err != nil { // the command runs
		t.Fatal(err)
	}
	if n := shells.EnterPlanMode(); n != 1 {
		t.Errorf("stopped %d commands, want 1", n)
	}
	res := <-done
	if !res.IsError || !strings.Contains(res.Content, "plan mode began") {
		t.Errorf("result: %+v", res)
	}
	if _, err := os.Stat(filepath.Join(env.Dir, "late")); err == nil {
		t.Error("the command ran on")
	}

	res = run(t, bash, env, map[string]any{"command": "touch barred"})
	if !res.IsError || !strings.Contains(res.Content, "did not run") {
		t.Errorf("a command outside the sandbox started in plan mode: %+v", res)
	}
	if _, err := os.Stat(filepath.Join(env.Dir, "barred")); err == nil {
		t.Error("the barred command ran")
	}
	res = run(t, bash, env, map[string]any{"command": "touch bg", "run_in_background": true})
	if !res.IsError {
		t.Errorf("a background command outside the sandbox started in plan mode: %+v", res)
	}

	shells.LeavePlanMode()
	if out := runOK(t, bash, env, map[string]any{"command": "echo again"}); out != "again" {
		t.Errorf("after plan mode: %q", out)
	}
}
