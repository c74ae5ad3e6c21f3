package app

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/team"
	"github.com/ponder-agent/ponder/internal/team/mailbox"
	"github.com/ponder-agent/ponder/internal/tool/teamtool"
)

// leadState is what a lead session keeps of its team: its inbox reader,
// the book of plan approval requests, the messages waiting for its
// model, what it knows of each teammate, and the teammates it runs.
type leadState struct {
	m *member
	// key signs the lead's answers to plan approval requests.
	key      []byte
	requests *team.Requests
	cancel   context.CancelFunc
	loopDone chan struct{}
	// wake holds a token when messages wait for the model.
	wake chan struct{}

	mu     sync.Mutex
	inbox  []string
	states map[string]event.TeammateState
	// asks are the questions put to the front ends, by request ID.
	asks  map[string]context.CancelFunc
	mates map[string]*mateRun
	procs map[string]*mateProc
	wg    sync.WaitGroup
	// limit is the freest mode the lead's teammates may work in, as its
	// mode last gave it ("" before its first change).
	limit permission.Mode
}

// mateRun is a teammate running in the lead's process.
type mateRun struct {
	app    *App
	cancel context.CancelFunc
}

// teammateOptions are the answers a front end gets for a teammate's plan.
var teammateOptions = []event.Option{
	{ID: event.OptionApprove, Label: "Yes, the teammate implements it in its own mode"},
	{ID: event.OptionAcceptEdits, Label: "Yes, and the teammate may edit files without asking"},
	{ID: event.OptionManual, Label: "Yes, and the teammate asks before each edit"},
	{ID: event.OptionReject, Label: "No, tell it what to change"},
}

// teammateOptions are the answers offered for a teammate's plan now:
// none gives it a freer mode than the lead's. (The answer is held to the
// lead's mode again when it is sent: the mode may change meanwhile.)
func (a *App) teammateOptions() []event.Option {
	limit := leadCeiling(a.plan.Mode())
	var out []event.Option
	for _, o := range teammateOptions {
		if m, ok := team.ModeOfOption(o.ID); ok && m != "" && permission.Mode(m).Freer(limit) {
			continue
		}
		out = append(out, o)
	}
	return out
}

// openLead makes the session the lead of its team and starts reading the
// lead's inbox. Requests that arrived before and are still open are put
// to the front ends again.
func (a *App) openLead() error {
	m, err := a.joinTeam(a.opts.Team)
	if err != nil {
		return err
	}
	reqs, err := team.OpenRequests(a.cfg.ConfigDir, m.team)
	if err != nil {
		m.close()
		return err
	}
	key, err := team.LoadOrCreateKey(a.cfg.ConfigDir, m.team)
	if err != nil {
		m.close()
		return fmt.Errorf("the key the lead signs its answers with: %w", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	l := &leadState{m: m, key: key, requests: reqs, cancel: cancel, loopDone: make(chan struct{}), wake: make(chan struct{}, 1),
		states: map[string]event.TeammateState{}, asks: map[string]context.CancelFunc{}, mates: map[string]*mateRun{}, procs: map[string]*mateProc{}}
	a.lead = l
	a.infos = append(a.infos, fmt.Sprintf("This session leads team %s (mailbox: %s).", m.team, redactSetting(m.setting)))
	for _, r := range reqs.Open() {
		// A lead started again: the requests it has not answered wait
		// for its model and its front ends again.
		l.states[r.From] = event.TeammateState{Team: m.team, Name: r.From, State: event.TeammateAwaitingApproval, RequestID: r.RequestID}
		if msg, err := mailbox.NewPlanApprovalRequest(m.team, r.From, team.LeadName, r.PlanApprovalRequest); err == nil {
			l.queue(team.ForModel(msg))
		}
		a.askFrontEnds(ctx, r.PlanApprovalRequest)
	}
	go a.leadLoop(ctx)
	return nil
}

// redactSetting names a mailbox for a notice without any credential.
func redactSetting(s string) string {
	if i := strings.Index(s, "@"); i >= 0 {
		if j := strings.Index(s, "://"); j >= 0 && j < i {
			return s[:j+3] + "…" + s[i:]
		}
	}
	return s
}

// leadLoop applies the lead's inbox, a message at a time, until ctx ends.
func (a *App) leadLoop(ctx context.Context) {
	l := a.lead
	defer close(l.loopDone)
	for ctx.Err() == nil {
		_, err := mailbox.Handle(ctx, l.m.mb, l.m.seen, team.LeadName, a.leadApply)
		if err == nil || ctx.Err() != nil {
			continue
		}
		a.emit(event.Notice{Level: "warning", Text: "team inbox: " + err.Error()})
		var bad *mailbox.BadMessageError
		if !errors.As(err, &bad) {
			select {
			case <-ctx.Done():
			case <-time.After(time.Second):
			}
		}
	}
}

// leadApply applies one message of the lead's inbox: it is recorded, its
// effect on the teammate's state noted, and it waits for the model's next
// turn. A plan approval request is also put to the front ends.
func (a *App) leadApply(ctx context.Context, msg mailbox.Message) error {
	l := a.lead
	a.recordMessage("received", msg, "")
	switch msg.Type {
	case mailbox.TypePlanApprovalRequest:
		r, err := msg.PlanApprovalRequest()
		if err == nil {
			var added bool
			added, err = l.requests.Add(r, msg.From)
			if err == nil && !added {
				return nil // delivered again: applied already
			}
		}
		if err != nil {
			a.logTeam(teamRecord{Event: "ignored", Type: string(msg.Type), ID: msg.ID, From: msg.From, Reason: err.Error()})
			a.emit(event.Notice{Level: "warning", Text: err.Error()})
			return nil
		}
		a.setTeammate(msg.From, event.TeammateAwaitingApproval, r.RequestID, "")
		l.queue(team.ForModel(msg))
		a.askFrontEnds(ctx, r)
	case mailbox.TypeIdle:
		var i mailbox.Idle
		_ = msg.Decode(mailbox.TypeIdle, &i)
		a.setTeammate(msg.From, event.TeammateIdle, "", i.Summary)
		l.queue(team.ForModel(msg))
	case mailbox.TypeText:
		l.queue(team.ForModel(msg))
	case mailbox.TypeShutdownResponse:
		var r mailbox.ShutdownResponse
		if msg.Decode(mailbox.TypeShutdownResponse, &r) == nil && r.Approve {
			a.setTeammate(msg.From, event.TeammateStopped, "", "")
		}
	}
	return nil
}

// queue keeps a message for the model's next turn and wakes whoever
// starts turns.
func (l *leadState) queue(text string) {
	if text == "" {
		return
	}
	l.mu.Lock()
	l.inbox = append(l.inbox, text)
	l.mu.Unlock()
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// take empties the messages waiting for the model.
func (l *leadState) take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.inbox
	l.inbox = nil
	return out
}

// setTeammate notes and reports what a teammate is doing.
func (a *App) setTeammate(name, state, requestID, summary string) {
	l := a.lead
	st := event.TeammateState{Team: l.m.team, Name: name, State: state, RequestID: requestID, Summary: summary}
	l.mu.Lock()
	st.SessionID = l.states[name].SessionID
	l.states[name] = st
	l.mu.Unlock()
	a.logTeam(teamRecord{Event: "state", From: name, State: state, RequestID: requestID})
	a.emit(st)
}

// askFrontEnds puts a teammate's plan to whoever answers the lead's
// questions (a dialog, a control channel), beside the model: the first
// answer wins. A run nobody attends leaves it to the model.
func (a *App) askFrontEnds(ctx context.Context, r mailbox.PlanApprovalRequest) {
	if !a.opts.Interactive && a.opts.Asker == nil {
		return
	}
	l := a.lead
	ctx, cancel := context.WithCancel(ctx)
	l.mu.Lock()
	l.asks[r.RequestID] = cancel
	l.mu.Unlock()
	l.wg.Add(1)
	go func() {
		defer l.wg.Done()
		defer cancel()
		ans, err := a.asker.Ask(ctx, permission.Question{Kind: permission.AskPlanExit, AgentID: "teammate:" + r.From,
			Plan: r.PlanContent, PlanFile: r.PlanPath, Options: a.teammateOptionsFor(r.From), TeamRequestID: r.RequestID})
		if err != nil {
			return
		}
		resp := teamtool.Response{RequestID: r.RequestID, Approve: ans.Option != event.OptionReject, Feedback: ans.Feedback}
		if resp.Approve {
			mode, ok := team.ModeOfOption(ans.Option)
			if !ok {
				a.emit(event.Notice{Level: "warning", Text: fmt.Sprintf("%q does not answer a teammate's plan; the request stays open", ans.Option)})
				return
			}
			resp.Mode = mode
		} else if strings.TrimSpace(resp.Feedback) == "" {
			resp.Feedback = "The plan was rejected; revise it."
		}
		if _, err := a.answerTeammate(ctx, r.From, resp, "user"); err != nil && !errors.Is(err, team.ErrAnswered) {
			a.emit(event.Notice{Level: "warning", Text: "answering " + r.From + ": " + err.Error()})
		}
	}()
}

// answerTeammate sends the lead's answer to request resp.RequestID of
// teammate to, once: whichever of the model and the front ends answers
// first wins, and the other is told. by names who answered.
func (a *App) answerTeammate(ctx context.Context, to string, resp teamtool.Response, by string) (string, error) {
	l := a.lead
	if resp.Approve {
		if _, err := team.ApprovalOption(resp.Mode); err != nil {
			return "", err
		}
		if by == "model" && a.plan.Mode() == permission.ModePlan {
			return "", errors.New("you are in plan mode: approving a teammate's plan would let it change files before your own plan is approved. Reject it with feedback, or wait until your plan is approved")
		}
	}
	limited := ""
	if lead := a.plan.Mode(); resp.Approve {
		limit := leadCeiling(lead)
		switch m := permission.Mode(resp.Mode).Within(limit); {
		case resp.Mode == "" && limit == permission.ModeDefault:
			// "Its own mode" is default or acceptEdits, whatever the lead
			// gave it before: default is the lesser of it and the lead's.
			resp.Mode = string(permission.ModeDefault)
		case resp.Mode != "" && string(m) != resp.Mode:
			limited = fmt.Sprintf(" It implements in %s mode, not %s as asked: a teammate never works in a freer mode than its lead, and you are in %s mode.", m, resp.Mode, lead)
			resp.Mode = string(m)
		}
	}
	if _, err := l.requests.Claim(resp.RequestID, to, by, resp.Approve); err != nil {
		return "", err
	}
	msg, err := team.NewSignedResponse(l.key, l.m.team, team.LeadName, to, mailbox.PlanApprovalResponse{
		RequestID: resp.RequestID, Approved: resp.Approve, Feedback: resp.Feedback, Mode: resp.Mode})
	if err == nil {
		err = a.sendTeam(ctx, l.m, msg, by)
	}
	if err != nil {
		l.requests.Reopen(resp.RequestID)
		return "", err
	}
	l.mu.Lock()
	cancel := l.asks[resp.RequestID]
	delete(l.asks, resp.RequestID)
	l.mu.Unlock()
	if cancel != nil && by != "user" {
		cancel()
	}
	a.setTeammate(to, event.TeammateWorking, "", "")
	if resp.Approve {
		return fmt.Sprintf("Approved %s's plan (request %s); it leaves plan mode and implements it.%s", to, resp.RequestID, limited), nil
	}
	return fmt.Sprintf("Rejected %s's plan (request %s) with your feedback; it revises the plan and asks again.", to, resp.RequestID), nil
}

// closeLead stops the teammates running in this process, the inbox
// reader and the questions to front ends, and releases the mailbox.
func (a *App) closeLead() {
	l := a.lead
	if l == nil {
		return
	}
	l.mu.Lock()
	for _, r := range l.mates {
		r.cancel()
	}
	for _, p := range l.procs {
		p.stop()
	}
	l.mu.Unlock()
	l.cancel()
	l.wg.Wait()
	<-l.loopDone
	_ = team.ClearLeadMode(a.cfg.ConfigDir, l.m.team)
	l.m.close()
}
