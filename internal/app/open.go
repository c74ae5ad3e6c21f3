package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"github.com/ponder-agent/ponder/event"

	"github.com/ponder-agent/ponder/internal/agent"
	"github.com/ponder-agent/ponder/internal/llm"
	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/planmode"
	"github.com/ponder-agent/ponder/internal/session"
	"github.com/ponder-agent/ponder/internal/tool"
)

// open starts a new transcript, or loads the one to resume or fork, and
// builds plan mode, the tools, the permission engine and the main agent on
// top of it. The session's lock is taken before its transcript is read or
// written; a fork only reads the original, so it locks just its own new
// session. Nothing is written before every part is built, so a bad rule
// leaves no empty session behind.
func (a *App) open() (err error) {
	defer func() {
		if err != nil {
			a.unlock()
			a.mcp.Close()
		}
	}()
	tr, err := a.loadTranscript()
	if err != nil {
		return err
	}
	resume := tr != nil && !a.opts.Fork
	if resume {
		a.id = tr.Header.SessionID
	} else {
		if a.id, err = newSessionID(a.opts.SessionID); err != nil {
			return err
		}
		if err := a.lock(a.id); err != nil {
			return err
		}
		if _, err := os.Stat(a.store.Path(a.id)); !errors.Is(err, fs.ErrNotExist) {
			return &UsageError{Msg: fmt.Sprintf("session %s already exists; use --resume to continue it", a.id)}
		}
	}

	a.plan = planmode.New(a.planConfig(), a.id, permission.ModeDefault, a.emit, a.persistState)
	a.launcher = newLauncher(a)
	if err := a.startMCP(); err != nil {
		return err
	}
	a.tools = a.buildTools()
	a.launcher.judge(judgeKinds(a.tools))
	if err := a.buildPermissions(); err != nil {
		return err
	}

	if resume {
		if a.log, err = session.Continue(tr); err != nil {
			return err
		}
		a.resumed = true
	} else {
		header := session.Entry{SessionID: a.id, Cwd: a.dir}
		if tr != nil {
			header.ForkedFrom = tr.Header.SessionID
		}
		if a.log, err = session.Create(a.store.Path(a.id), header); err != nil {
			return err
		}
	}
	a.log.OnRestore(a.warnRestored)
	var history []llm.Message
	if tr != nil {
		history = a.restore(tr)
	} else if a.opts.PlanName != "" {
		a.plan.SetSlug(a.opts.PlanName)
	}
	a.checkpoints = a.checkpointStore(tr)
	a.env = &tool.Env{Dir: a.dir, Files: a.fileTracker(tr), Changes: a.checkpoints, Editor: a.opts.Editor, MaxWrite: a.maxWrite()}
	own, problem := systemPrompt(a.dir, a.opts.Now(), a.offeredNames(permission.ModeDefault), a.readsFreely)
	a.ownSystem = own + addDirsPrompt(a.addDirs) + teamPrompt(a.opts.Team)
	a.system = a.composeSystem(a.ownSystem)
	if problem != "" {
		a.warnings = append(a.warnings, problem)
	}
	a.main = a.newMain(history)
	return nil
}

// fileTracker returns the main agent's record of the files it has seen:
// for a resumed or forked session, the states its transcript recorded (a
// file changed on disk since then must be read again); each new state is
// recorded in the transcript.
func (a *App) fileTracker(tr *session.Transcript) *tool.FileTracker {
	files := tool.NewFileTracker()
	if tr != nil {
		for _, s := range tr.FilesSeen() {
			files.Restore(s.Path, s.ModTime, s.Size)
		}
	}
	log := a.log
	files.Observe(func(path string, mod time.Time, size int64) {
		_ = log.Append(session.Entry{Type: session.TypeFileSeen, Seen: &session.FileSeen{Path: path, ModTime: mod, Size: size}})
	})
	return files
}

// loadTranscript finds and reads the session to resume, if any.
func (a *App) loadTranscript() (*session.Transcript, error) {
	if a.opts.Resume == "" && !a.opts.Continue {
		if a.opts.Fork {
			return nil, &UsageError{Msg: "--fork-session needs --resume or --continue"}
		}
		return nil, nil
	}
	var info session.Info
	var err error
	if a.opts.Resume != "" {
		info, err = a.store.Find(a.opts.Resume)
	} else {
		info, err = a.store.Latest()
	}
	if err != nil {
		return nil, &UsageError{Msg: err.Error()}
	}
	if !a.opts.Fork {
		if err := a.lock(info.ID); err != nil {
			return nil, err
		}
	}
	tr, err := session.Load(info.Path)
	if err != nil {
		return nil, err
	}
	a.warnings = append(a.warnings, tr.Warnings...)
	if tr.Header.SessionID == "" {
		tr.Header.SessionID = info.ID
	}
	return tr, nil
}

// restore brings back the conversation and plan-mode state of a loaded
// transcript. A fork copies the entries into its own transcript first.
func (a *App) restore(tr *session.Transcript) []llm.Message {
	if a.opts.Fork {
		for _, e := range tr.Entries {
			_ = a.log.Append(e)
		}
	}
	if raw := tr.LastState(); raw != nil {
		var st planmode.State
		if err := json.Unmarshal(raw, &st); err == nil {
			a.plan.Restore(st)
			a.lastState = raw
			a.modeChanged(event.ModeChanged{To: string(a.plan.Mode())})
		} else {
			a.warnings = append(a.warnings, fmt.Sprintf("%s: the saved plan-mode state is unreadable (%v); starting in default mode", tr.Path, err))
		}
	}
	a.recoverPlan(tr)
	a.recoverTodos(tr)
	a.restoreImplementation(tr)
	if a.opts.Fork {
		a.forkPlan(tr.Header.SessionID)
		a.forkTodos(tr.Header.SessionID)
	}
	a.pending = tr.PendingApproval()
	history, answered, notes := tr.Resumable(a.pending != nil)
	if answered {
		// Calls the stopped process never answered now have results
		// saying so; record them, so the next turn follows them.
		_ = a.log.Append(session.Entry{Type: session.TypeMessage, Message: &history[len(history)-1]})
	}
	a.warnings = append(a.warnings, notes...)
	if len(tr.Warnings) > 0 || len(notes) > 0 {
		// Said once: a later resume of this transcript stays quiet
		// about the same damage.
		_ = a.log.Reported()
	}
	return history
}

// newMain builds the main agent over history.
func (a *App) newMain(history []llm.Message) *agent.Agent {
	return agent.New(agent.Config{
		Provider:   a.provider,
		Model:      a.modelFor,
		Effort:     a.effortFor,
		System:     a.system,
		MaxTurns:   a.opts.MaxTurns,
		Tools:      a.tools,
		Available:  a.available,
		Env:        a.env,
		Perm:       a.perm,
		Plan:       a.plan,
		Ask:        a.asker,
		Emit:       a.emit,
		Log:        a.log,
		ReadOnly:   a.opts.ReadOnly,
		Hooks:      a.hooks,
		Guard:      a.guard,
		Reminders:  a.stepReminders,
		BeforeStop: a.beforeStop,

		AutoCompact: a.autoCompact,
	}, history)
}

// modelFor picks the model of the main conversation's next request.
func (a *App) modelFor(mode permission.Mode) string {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.turnModel != "" {
		return a.turnModel
	}
	return a.models.ForMode(mode)
}

// lock takes the lock of session id for as long as this app runs. A
// session in use elsewhere is a usage error: the user can wait, or fork.
func (a *App) lock(id string) error {
	l, err := a.store.Lock(id)
	var le *session.LockedError
	if errors.As(err, &le) {
		return &UsageError{Msg: le.Error()}
	}
	if err != nil {
		return err
	}
	a.sessionLock = l
	return nil
}

// unlock lets the session's lock go.
func (a *App) unlock() {
	_ = a.sessionLock.Release()
	a.sessionLock = nil
}

// warnRestored tells the user that a transcript had to be put back.
func (a *App) warnRestored(msg string) {
	a.emit(event.Notice{Level: "warning", Text: msg})
}
