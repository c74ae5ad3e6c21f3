package app

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/team"
	"github.com/ponder-agent/ponder/internal/team/mailbox"
	"github.com/ponder-agent/ponder/internal/tool/teamtool"
)

// teamTools is the session side of SpawnTeammate and SendMessage.
type teamTools struct{ a *App }

// SendMessage sends a text, or (the lead) answers a plan approval.
func (t teamTools) SendMessage(ctx context.Context, m teamtool.Outgoing) (string, error) {
	a := t.a
	switch {
	case a.lead != nil && m.Response != nil:
		return a.answerTeammate(ctx, m.To, *m.Response, "model")
	case m.Response != nil:
		return "", errors.New("only the team's lead answers plan approval requests")
	case a.lead != nil && m.Shutdown:
		return a.leadShutdown(ctx, m.To, m.Text)
	case m.Shutdown:
		return "", errors.New("only the team's lead asks teammates to stop")
	case a.lead != nil:
		return a.leadSend(ctx, m.To, m.Text, "model")
	case a.mate != nil:
		return a.teammateSend(ctx, m.To, m.Text)
	}
	return "", errors.New("this session is in no team")
}

// leadSend sends the lead's text message to a teammate; by names who
// wrote it (its model, or the user).
func (a *App) leadSend(ctx context.Context, to, text, by string) (string, error) {
	l := a.lead
	if to == team.LeadName {
		return "", errors.New("you are the lead")
	}
	if by == "model" {
		if err := a.checkPlanningSend(to); err != nil {
			return "", err
		}
	}
	msg, err := mailbox.NewMessage(l.m.team, team.LeadName, to, mailbox.TypeText, mailbox.Text{Text: text})
	if err != nil {
		return "", err
	}
	if err := a.sendTeam(ctx, l.m, msg, by); err != nil {
		return "", err
	}
	l.mu.Lock()
	st, known := l.states[to]
	l.mu.Unlock()
	if known && st.State == event.TeammateIdle {
		// It works again once it reads the message; a lead that
		// waits for its team waits for it too.
		a.setTeammate(to, event.TeammateWorking, "", "")
	}
	return fmt.Sprintf("Message sent to %s.", to), nil
}

// SpawnTeammate starts a teammate in this process, as a session of its
// own over the same mailbox.
func (t teamTools) SpawnTeammate(ctx context.Context, s teamtool.Spawn) (string, error) {
	a := t.a
	l := a.lead
	if l == nil {
		return "", errors.New("only a team's lead starts teammates")
	}
	if err := mailbox.ValidateName("teammate", s.Name); err != nil {
		return "", err
	}
	if s.Name == team.LeadName {
		return "", fmt.Errorf("%q is the lead's name", s.Name)
	}
	l.mu.Lock()
	_, running := l.mates[s.Name]
	_, proc := l.procs[s.Name]
	running = running || proc
	l.mu.Unlock()
	if running {
		return "", fmt.Errorf("teammate %s is running already; send it a message instead", s.Name)
	}
	lead := a.plan.Mode()
	mode, note := spawnMode(s.Mode, lead, s.PlanModeRequired)
	s.Mode = mode
	if s.Process {
		out, err := a.spawnProcess(s, lead)
		if err != nil {
			return "", err
		}
		return out + note, nil
	}
	o := a.opts
	topts := Options{Dir: a.dir, ConfigDir: a.cfg.ConfigDir, Getenv: o.Getenv, Provider: o.Provider, Model: o.Model,
		ExploreModel: o.ExploreModel, PlanModel: o.PlanModel, Mode: s.Mode, Trust: o.Trust, RememberedTrust: o.RememberedTrust,
		Allowed: o.Allowed, Disallowed: o.Disallowed, Tools: o.Tools, HTTPClient: o.HTTPClient, LLM: o.LLM, Now: o.Now, Sandbox: a.sandbox,
		Team: &TeamOptions{Team: l.m.team, Name: s.Name, PlanModeRequired: s.PlanModeRequired, Mailbox: l.m.setting,
			LeadMode: string(lead), leadMode: a.plan.Mode, leadAsk: a.teammateAnswerer()}}
	mate, err := New(topts)
	if err != nil {
		return "", err
	}
	if err := mate.Start(); err != nil {
		mate.Close()
		return "", err
	}
	rctx, cancel := context.WithCancel(context.Background())
	l.mu.Lock()
	l.mates[s.Name] = &mateRun{app: mate, cancel: cancel}
	l.states[s.Name] = event.TeammateState{Team: l.m.team, Name: s.Name, State: event.TeammateWorking, SessionID: mate.ID()}
	l.wg.Add(1)
	l.mu.Unlock()
	a.setTeammate(s.Name, event.TeammateWorking, "", "")
	go func() {
		defer l.wg.Done()
		defer cancel()
		_ = mate.RunTeammate(rctx, s.Prompt)
		_ = mate.Close()
		l.mu.Lock()
		delete(l.mates, s.Name)
		st := l.states[s.Name].State
		l.mu.Unlock()
		if rctx.Err() == nil || st == event.TeammateWorking {
			a.setTeammate(s.Name, event.TeammateStopped, "", "")
		}
	}()
	how := ""
	if s.PlanModeRequired {
		how = " It plans first and changes nothing until you approve its plan."
	}
	return fmt.Sprintf("Teammate %s started in team %s (session %s).%s%s Its messages, plan approval requests and idle notice arrive in your inbox at the start of your next turn.",
		s.Name, l.m.team, mate.ID(), how, note), nil
}

// Team is the team this session belongs to, or "".
func (a *App) Team() string {
	switch {
	case a.lead != nil:
		return a.lead.m.team
	case a.mate != nil:
		return a.mate.m.team
	}
	return ""
}

// Teammates lists what the lead knows of each teammate, by name.
func (a *App) Teammates() []event.TeammateState {
	l := a.lead
	if l == nil {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]event.TeammateState, 0, len(l.states))
	for _, s := range l.states {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// TeamWake returns a channel that receives when messages of the team
// wait for the lead's model (nil for a session that leads no team).
// Front ends then call SendTeam.
func (a *App) TeamWake() <-chan struct{} {
	if a.lead == nil {
		return nil
	}
	return a.lead.wake
}

// TeamBusy says the lead has reason to wait for its team: messages wait
// for its model, or a teammate is working or awaiting an answer.
func (a *App) TeamBusy() bool {
	l := a.lead
	if l == nil {
		return false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.inbox) > 0 {
		return true
	}
	for _, s := range l.states {
		if s.State == event.TeammateWorking || s.State == event.TeammateAwaitingApproval {
			return true
		}
	}
	return false
}

// SendTeam runs a turn of the lead whose input is the messages of its
// team that wait; ran is false when none waited.
func (a *App) SendTeam(ctx context.Context) (res TurnResult, ran bool, err error) {
	if a.lead == nil {
		return TurnResult{}, false, nil
	}
	msgs := a.lead.take()
	if len(msgs) == 0 {
		return TurnResult{}, false, nil
	}
	res, err = a.Send(ctx, strings.Join(msgs, "\n\n"))
	return res, true, err
}

// withTeamMessages puts the messages waiting for the lead's model before
// the user's input: the model reads its inbox at turn boundaries.
func (a *App) withTeamMessages(text string) string {
	if a.lead == nil {
		return text
	}
	msgs := a.lead.take()
	if len(msgs) == 0 {
		return text
	}
	return strings.Join(msgs, "\n\n") + "\n\n" + text
}

// HasTeamMessages says messages of the team wait for the lead's model
// (SendTeam would run a turn). It only looks at memory.
func (a *App) HasTeamMessages() bool {
	l := a.lead
	if l == nil {
		return false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.inbox) > 0
}

// leadShutdown asks a teammate to finish its turn and stop.
func (a *App) leadShutdown(ctx context.Context, to, reason string) (string, error) {
	l := a.lead
	if to == team.LeadName {
		return "", errors.New("you are the lead")
	}
	msg, err := mailbox.NewMessage(l.m.team, team.LeadName, to, mailbox.TypeShutdownRequest,
		mailbox.ShutdownRequest{RequestID: mailbox.NewRequestID("shutdown"), Reason: reason})
	if err != nil {
		return "", err
	}
	if err := a.sendTeam(ctx, l.m, msg, "model"); err != nil {
		return "", err
	}
	return fmt.Sprintf("Asked %s to stop; it does once its current turn is done.", to), nil
}
