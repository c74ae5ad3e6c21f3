package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"time"

	"github.com/ponder-agent/ponder/internal/sandbox"
	"github.com/ponder-agent/ponder/internal/tool"
	"github.com/ponder-agent/ponder/internal/tool/builtin"
)

// SandboxRows are the costs of running `bash -c true` in the ways ponder
// can, measured interleaved in one invocation so that they share the
// machine's state: plainly with os/exec (the baseline), through the
// sandbox's Start (the confining thread, Landlock, seccomp, capabilities,
// the scratch directory and its removal), and through the whole Bash tool,
// confined and not (which adds the session, the output pipe and the sweep
// for leftover processes).
type SandboxRows struct {
	Kind                                  sandbox.Kind
	Plain, Start, ToolConfined, ToolPlain Stats
	Bwrap                                 Stats
}

// SandboxCost measures SandboxRows with n runs of each.
func SandboxCost(n int) (SandboxRows, error) {
	sb, err := sandbox.New(sandbox.Options{})
	if err != nil {
		return SandboxRows{}, err
	}
	if !sb.Available() {
		return SandboxRows{}, fmt.Errorf("no sandbox on this machine")
	}
	rows := SandboxRows{Kind: sb.Kind()}
	var bw *sandbox.Sandbox
	if b, err := sandbox.New(sandbox.Options{Choice: "bwrap"}); err == nil {
		bw = b
	}
	dir, err := os.MkdirTemp("", "ponder-bench-sandbox-")
	if err != nil {
		return rows, err
	}
	defer os.RemoveAll(dir)
	env := &tool.Env{Dir: dir, Files: tool.NewFileTracker()}
	bash := builtin.NewBash(builtin.BashOptions{Sandbox: sb})
	input, _ := json.Marshal(map[string]any{"command": "true"})
	toolRun := func(confined bool) error {
		call, err := bash.Prepare(env, input)
		if err != nil {
			return err
		}
		if res := call.Run(tool.WithConfinement(context.Background(), tool.Confinement{Sandbox: confined})); res.IsError {
			return fmt.Errorf("bash -c true failed: %s", res.Content)
		}
		return nil
	}
	start := func(s *sandbox.Sandbox) error {
		p, err := s.Start(exec.Command("bash", "-c", "true"), &sandbox.Confinement{})
		if err != nil {
			return err
		}
		if err := p.Wait(); err != nil {
			return err
		}
		return p.Cleanup()
	}
	var plain, st, tc, tp, bwt []time.Duration
	timeIt := func(into *[]time.Duration, f func() error) error {
		t0 := time.Now()
		err := f()
		*into = append(*into, time.Since(t0))
		return err
	}
	for range n {
		if err := timeIt(&plain, func() error { return exec.Command("bash", "-c", "true").Run() }); err != nil {
			return rows, err
		}
		if err := timeIt(&st, func() error { return start(sb) }); err != nil {
			return rows, err
		}
		if err := timeIt(&tc, func() error { return toolRun(true) }); err != nil {
			return rows, err
		}
		if err := timeIt(&tp, func() error { return toolRun(false) }); err != nil {
			return rows, err
		}
		if bw != nil {
			if err := timeIt(&bwt, func() error { return start(bw) }); err != nil {
				return rows, err
			}
		}
	}
	rows.Plain, rows.Start, rows.ToolConfined, rows.ToolPlain = summarise(plain), summarise(st), summarise(tc), summarise(tp)
	if bw != nil {
		rows.Bwrap = summarise(bwt)
	}
	return rows, nil
}
