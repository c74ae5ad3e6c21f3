package app

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/proctree"
	"github.com/ponder-agent/ponder/internal/tool/teamtool"
)

// mateProc is a teammate the lead started as a ponder process.
type mateProc struct {
	cmd  *exec.Cmd
	done chan struct{}
}

// stop asks the teammate to end (SIGTERM: it records how it stopped) and
// kills it if it has not within a few seconds.
func (p *mateProc) stop() {
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(5 * time.Second):
		_ = p.cmd.Process.Kill()
	}
}

// spawnProcess starts a teammate as `ponder teammate`, with the lead's
// project, config directory, mailbox, model and command-line rules. Its
// output (stream-json) goes to <config>/teams/<team>/logs/<name>.jsonl.
// It is registered as started on purpose, so the sweep for what shell
// commands leave behind never takes it; the lead stops it when it closes.
// s.Mode is the mode spawnMode gave it; lead is the lead's mode, which
// the teammate never leaves for a freer one.
func (a *App) spawnProcess(s teamtool.Spawn, lead permission.Mode) (string, error) {
	l := a.lead
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("finding ponder's own program: %w", err)
	}
	args := a.teammateArgs(s, lead)
	logPath := filepath.Join(a.cfg.ConfigDir, "teams", l.m.team, "logs", s.Name+".jsonl")
	if err := os.MkdirAll(filepath.Dir(logPath), 0o700); err != nil {
		return "", err
	}
	logFile, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return "", err
	}
	cmd := exec.Command(exe, args...)
	cmd.Dir = a.dir
	cmd.Env = append(os.Environ(), "PONDER_CONFIG_DIR="+a.cfg.ConfigDir)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	scope := proctree.Default().Begin()
	if err := cmd.Start(); err != nil {
		scope.End()
		logFile.Close()
		return "", fmt.Errorf("starting the teammate: %w", err)
	}
	scope.Keep(cmd.Process.Pid)
	p := &mateProc{cmd: cmd, done: make(chan struct{})}
	l.mu.Lock()
	l.procs[s.Name] = p
	l.mu.Unlock()
	a.setTeammate(s.Name, event.TeammateWorking, "", "")
	go func() {
		err := cmd.Wait()
		close(p.done)
		logFile.Close()
		scope.End()
		l.mu.Lock()
		delete(l.procs, s.Name)
		st := l.states[s.Name].State
		l.mu.Unlock()
		if st != event.TeammateAwaitingApproval {
			// A teammate waiting for an answer keeps its request open;
			// started again, it applies the answer.
			a.setTeammate(s.Name, event.TeammateStopped, "", "")
		}
		if err != nil {
			a.emit(event.Notice{Level: "warning", Text: fmt.Sprintf("teammate %s ended: %v (its output is in %s)", s.Name, err, logPath)})
		}
	}()
	return fmt.Sprintf("Teammate %s started as a process of its own (pid %d) in team %s; its output goes to %s. Its messages, plan approval requests and idle notice arrive in your inbox at the start of your next turn.",
		s.Name, cmd.Process.Pid, l.m.team, logPath), nil
}

// teammateArgs is the command line of a teammate process: the lead's
// project, mailbox, model, command-line rules and --tools, the mode spawnMode gave
// it (never freer than the lead's) and the lead's mode as its ceiling.
func (a *App) teammateArgs(s teamtool.Spawn, lead permission.Mode) []string {
	l := a.lead
	args := []string{"teammate", "--team", l.m.team, "--name", s.Name, "--output-format", "stream-json", "--mailbox", l.m.setting, "--model", a.Model()}
	if a.opts.Provider != "" {
		args = append(args, "--provider", a.opts.Provider)
	}
	if s.PlanModeRequired {
		args = append(args, "--plan-mode-required")
	}
	if s.Mode != "" {
		args = append(args, "--permission-mode", string(permission.Mode(s.Mode).Within(lead)))
	}
	args = append(args, "--lead-mode", string(lead))
	if a.opts.Trust {
		args = append(args, "--trust")
	}
	if len(a.opts.Allowed) > 0 {
		args = append(args, "--allowedTools", strings.Join(a.opts.Allowed, ","))
	}
	if len(a.opts.Disallowed) > 0 {
		args = append(args, "--disallowedTools", strings.Join(a.opts.Disallowed, ","))
	}
	if a.opts.Tools != nil {
		// "--tools=" with nothing after it leaves the teammate no
		// built-in tool, as the lead has none.
		args = append(args, "--tools="+strings.Join(a.opts.Tools, ","))
	}
	// After "--" a prompt that starts with a dash is not read as a flag.
	return append(args, "--", s.Prompt)
}
