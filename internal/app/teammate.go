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
	"github.com/ponder-agent/ponder/internal/planmode"
	"github.com/ponder-agent/ponder/internal/team"
	"github.com/ponder-agent/ponder/internal/team/mailbox"
)

// mateState is what a teammate session keeps of its place in the team.
type mateState struct {
	m *member
	// saveMu orders the writes of rec (saveRecord).
	saveMu sync.Mutex

	mu  sync.Mutex
	rec team.Record
	// stop is set by the lead's shutdown request.
	stop bool
	// ceiling is the freest mode the teammate may enter (see
	// modeCeiling), lowered by the lead's mode_limit messages.
	ceiling permission.Mode
	// key checks the lead's answers (nil: none is accepted).
	key []byte
	// unasked counts the calls refused since the last idle message
	// because they needed a yes and nobody could give it.
	unasked int
}

// teammateAsker answers a teammate's questions; nobody attends a
// teammate. Entering plan mode is its own choice. Leaving it is too,
// unless plan mode is required or the lead plans: then the plan goes to
// the lead and the turn ends with it waiting. Every other question has no answerer, so a
// call that needs a yes is refused, as in a headless run.
type teammateAsker struct{ a *App }

func (t teammateAsker) Ask(ctx context.Context, q permission.Question) (permission.Answer, error) {
	switch q.Kind {
	case permission.AskEnterPlan:
		return permission.Answer{Allow: true}, nil
	case permission.AskPlanExit:
		// While the lead plans, no teammate leaves plan mode on its own:
		// the lead's model may not approve then, only its user.
		if !t.a.opts.Team.PlanModeRequired && !t.a.leadPlans() {
			return permission.Answer{Option: event.OptionApprove}, nil
		}
		return permission.Answer{}, t.a.requestApproval(ctx, q)
	case permission.AskToolUse:
		return t.a.askLead(ctx, q)
	}
	return permission.Answer{}, permission.ErrNoAnswerer
}

// openTeammate joins the team as a teammate and writes its record.
func (a *App) openTeammate() error {
	m, err := a.joinTeam(a.opts.Team)
	if err != nil {
		return err
	}
	rec, found, err := team.LoadRecord(a.cfg.ConfigDir, m.team, m.name)
	if err != nil {
		m.close()
		return err
	}
	if !found || rec.SessionID != a.id {
		rec = team.Record{Team: m.team, Name: m.name, Lead: team.LeadName, State: event.TeammateWorking}
	}
	rec.SessionID, rec.Cwd = a.id, a.dir
	rec.PlanModeRequired = a.opts.Team.PlanModeRequired
	rec.LeadMode = a.opts.Team.LeadMode
	rec.Mode = string(a.plan.Mode())
	rec.Tools = nil
	if a.opts.Tools != nil {
		tools := append([]string{}, a.opts.Tools...)
		rec.Tools = &tools
	}
	if rec.State == event.TeammateAwaitingApproval && (a.pendingPlan() == nil || rec.RequestID == "") {
		// The request was being sent when the teammate stopped, and its
		// ExitPlanMode call never finished: it waits on nothing.
		rec.State, rec.RequestID = event.TeammateIdle, ""
	}
	if err := rec.Save(a.cfg.ConfigDir); err != nil {
		m.close()
		return err
	}
	a.mate = &mateState{m: m, rec: rec, ceiling: permission.Mode(a.opts.Team.LeadMode)}
	if err := a.mateKey(); err != nil {
		// It runs, but takes no answer from anyone: say why.
		a.infos = append(a.infos, "plan approvals from the lead cannot be checked, so none will be accepted: "+err.Error())
	}
	// After the record is written: a lead that starts now either lists
	// this teammate or has published its mode already.
	a.takeLeadMode()
	return nil
}

// mateKey loads the team's key the lead's answers are checked with, once
// it is there. Over the files mailbox lead and teammate share the config
// directory, and whichever starts first makes the key; over another
// mailbox the lead may be on another machine, so a key made here would
// never match its: the teammate waits for a copy of the lead's instead.
func (a *App) mateKey() error {
	s := a.mate
	s.mu.Lock()
	have := s.key != nil
	s.mu.Unlock()
	if have {
		return nil
	}
	load := team.LoadKey
	if s.m.setting == mailbox.SettingFiles {
		load = team.LoadOrCreateKey
	}
	key, err := load(a.cfg.ConfigDir, s.m.team)
	if err != nil {
		return err
	}
	s.mu.Lock()
	s.key = key
	s.mu.Unlock()
	return nil
}

// saveRecord changes the teammate's record and writes it. Writes happen
// in the order of the changes, so an older record never overwrites a
// newer one when two goroutines change it (a lead in the same process
// lowering the teammate's mode while it works, say).
func (a *App) saveRecord(change func(*team.Record)) (team.Record, error) {
	s := a.mate
	s.saveMu.Lock()
	defer s.saveMu.Unlock()
	s.mu.Lock()
	change(&s.rec)
	rec := s.rec
	s.mu.Unlock()
	return rec, rec.Save(a.cfg.ConfigDir)
}

// setMateState records and reports the teammate's state.
func (a *App) setMateState(state, requestID, summary string) error {
	rec, err := a.saveRecord(func(r *team.Record) { r.State, r.RequestID = state, requestID })
	a.logTeam(teamRecord{Event: "state", State: state, RequestID: requestID})
	a.emit(event.TeammateState{Team: rec.Team, Name: rec.Name, State: state, SessionID: a.id, RequestID: requestID, Summary: summary})
	return err
}

// outstanding is the ID of the plan approval request the teammate waits
// on, or "".
func (a *App) outstanding() string {
	if a.pendingPlan() == nil {
		return ""
	}
	a.mate.mu.Lock()
	defer a.mate.mu.Unlock()
	if a.mate.rec.State != event.TeammateAwaitingApproval {
		return ""
	}
	return a.mate.rec.RequestID
}

// requestApproval sends the plan to the lead. The record names the
// request before it is sent, so that an answer is recognised whenever it
// comes, also after a restart.
func (a *App) requestApproval(ctx context.Context, q permission.Question) error {
	s := a.mate
	id := mailbox.NewRequestID("plan_approval")
	msg, err := mailbox.NewPlanApprovalRequest(s.m.team, s.m.name, s.rec.Lead, mailbox.PlanApprovalRequest{RequestID: id, PlanContent: q.Plan, PlanPath: q.PlanFile})
	if err != nil {
		return err
	}
	if err := a.setMateState(event.TeammateAwaitingApproval, id, ""); err != nil {
		return err
	}
	if err := a.sendTeam(ctx, s.m, msg, ""); err != nil {
		_ = a.setMateState(event.TeammateWorking, "", "")
		return err
	}
	return &planmode.LeadPending{Lead: s.rec.Lead, RequestID: id}
}

// errNotTeammate is returned by RunTeammate for a session of no team.
var errNotTeammate = errors.New("this session is not a teammate")

// RunTeammate runs a teammate until ctx ends or its lead asks it to
// stop: a new teammate's task first (prompt), then each message of its
// inbox, read between turns. A teammate that must plan first starts in
// plan mode. A teammate started again while its plan waited keeps
// waiting, and applies an answer that arrived while it was down.
func (a *App) RunTeammate(ctx context.Context, prompt string) error {
	s := a.mate
	if s == nil {
		return errNotTeammate
	}
	if !a.resumed && a.opts.Team.PlanModeRequired && a.plan.Mode() != permission.ModePlan {
		a.plan.SetMode(permission.ModePlan, planmode.ViaTeam)
	}
	if id := a.outstanding(); id != "" {
		_ = a.setMateState(event.TeammateAwaitingApproval, id, "")
	} else if strings.TrimSpace(prompt) != "" && !a.resumed {
		_ = a.setMateState(event.TeammateWorking, "", "")
		res, err := a.Send(ctx, prompt)
		a.afterMateTurn(ctx, res, err)
	} else if s.rec.Held != nil {
		// Messages held while a plan waited, its answer applied before
		// the teammate stopped: they are still to be read.
		a.afterMateTurn(ctx, TurnResult{StopReason: StopEndTurn}, nil)
	}
	for ctx.Err() == nil {
		s.mu.Lock()
		stop := s.stop
		s.mu.Unlock()
		if stop {
			break
		}
		_, err := mailbox.Handle(ctx, s.m.mb, s.m.seen, s.m.name, a.mateApply)
		if err == nil || ctx.Err() != nil {
			continue
		}
		a.emit(event.Notice{Level: "warning", Text: "team inbox: " + err.Error()})
		var bad *mailbox.BadMessageError
		if !errors.As(err, &bad) {
			// A mailbox that failed (a server away) is tried again
			// after a pause, not in a tight loop.
			select {
			case <-ctx.Done():
			case <-time.After(time.Second):
			}
		}
	}
	if a.outstanding() == "" {
		// A teammate stopped while its plan waits stays waiting: started
		// again, it applies the answer.
		_ = a.setMateState(event.TeammateStopped, "", "")
	}
	return nil
}

// mateApply applies one message of the teammate's inbox. Only a failure
// of the mailbox is an error (the message comes again); a turn that
// fails is reported and counts as applied.
func (a *App) mateApply(ctx context.Context, msg mailbox.Message) error {
	s := a.mate
	a.recordMessage("received", msg, "")
	switch msg.Type {
	case mailbox.TypeText:
		text := team.ForModel(msg)
		if a.pendingPlan() != nil {
			// Kept in the record before the message is acknowledged, so
			// a crash loses nothing.
			_, err := a.saveRecord(func(r *team.Record) { r.Held = append(r.Held, text) })
			return err
		}
		_ = a.setMateState(event.TeammateWorking, "", "")
		res, err := a.Send(ctx, text)
		a.afterMateTurn(ctx, res, err)
	case mailbox.TypePlanApprovalResponse:
		kerr := a.mateKey()
		s.mu.Lock()
		key := s.key
		s.mu.Unlock()
		resp, err := team.AcceptResponse(msg, s.rec.Lead, a.outstanding(), key)
		if err != nil && kerr != nil {
			err = fmt.Errorf("%w (%v)", err, kerr)
		}
		if err != nil {
			a.logTeam(teamRecord{Event: "ignored", Type: string(msg.Type), ID: msg.ID, From: msg.From, RequestID: resp.RequestID, Reason: err.Error()})
			a.emit(event.Notice{Level: "warning", Text: err.Error()})
			return nil
		}
		ans := permission.Answer{Option: event.OptionReject, Feedback: resp.Feedback}
		if resp.Approved {
			option, err := team.ApprovalOption(resp.Mode)
			if err != nil {
				// Approved, but not into a mode a lead may give: the
				// teammate implements in its own mode.
				a.emit(event.Notice{Level: "warning", Text: err.Error()})
				option = event.OptionApprove
			}
			ans = permission.Answer{Option: option, Feedback: resp.Feedback}
		}
		_ = a.setMateState(event.TeammateWorking, "", "")
		res, err := a.AnswerPending(ctx, ans)
		a.afterMateTurn(ctx, res, err)
	case mailbox.TypeModeLimit:
		// Whoever sent it, it can only make the teammate stricter.
		a.applyModeLimit(msg)
	case mailbox.TypeShutdownRequest:
		if msg.From != s.rec.Lead {
			a.logTeam(teamRecord{Event: "ignored", Type: string(msg.Type), ID: msg.ID, From: msg.From, Reason: "only the lead asks a teammate to stop"})
			return nil
		}
		var req mailbox.ShutdownRequest
		_ = msg.Decode(mailbox.TypeShutdownRequest, &req)
		reply, err := mailbox.NewMessage(s.m.team, s.m.name, msg.From, mailbox.TypeShutdownResponse, mailbox.ShutdownResponse{RequestID: req.RequestID, Approve: true})
		if err == nil {
			_ = a.sendTeam(ctx, s.m, reply, "")
		}
		s.mu.Lock()
		s.stop = true
		s.mu.Unlock()
	}
	return nil
}

// afterMateTurn reports how a teammate's turn ended: a plan waiting keeps
// it waiting; otherwise the messages held meanwhile are its next input,
// and once there are none it tells the lead it is idle.
func (a *App) afterMateTurn(ctx context.Context, res TurnResult, err error) {
	s := a.mate
	for {
		if err != nil {
			a.emit(event.Notice{Level: "error", Text: "teammate turn failed: " + err.Error()})
		}
		if err == nil && res.StopReason == StopPlanPending {
			return
		}
		if ctx.Err() != nil {
			return
		}
		s.mu.Lock()
		held := s.rec.Held
		s.mu.Unlock()
		if len(held) == 0 {
			break
		}
		res, err = a.Send(ctx, strings.Join(held, "\n\n"))
		// Cleared once the turn has taken them: a crash before
		// delivers them again rather than never.
		_, _ = a.saveRecord(func(r *team.Record) { r.Held = r.Held[len(held):] })
	}
	summary := strings.TrimSpace(res.Text)
	if err != nil {
		summary = "failed: " + err.Error()
	}
	summary = withUnasked(summary, s.takeUnasked())
	if r := []rune(summary); len(r) > 500 {
		summary = string(r[:499]) + "…"
	}
	idle, merr := mailbox.NewMessage(s.m.team, s.m.name, s.rec.Lead, mailbox.TypeIdle, mailbox.Idle{Summary: summary})
	if merr == nil {
		if serr := a.sendTeam(ctx, s.m, idle, ""); serr != nil {
			a.emit(event.Notice{Level: "warning", Text: serr.Error()})
		}
	}
	_ = a.setMateState(event.TeammateIdle, "", summary)
}

// teammateSend sends a teammate's text message.
func (a *App) teammateSend(ctx context.Context, to, text string) (string, error) {
	s := a.mate
	if err := mailbox.ValidateName("recipient", to); err != nil {
		return "", err
	}
	if to == s.m.name {
		return "", fmt.Errorf("%s is you", to)
	}
	if to != s.rec.Lead {
		if err := a.checkRelay(to); err != nil {
			return "", err
		}
	}
	msg, err := mailbox.NewMessage(s.m.team, s.m.name, to, mailbox.TypeText, mailbox.Text{Text: text})
	if err != nil {
		return "", err
	}
	if err := a.sendTeam(ctx, s.m, msg, "model"); err != nil {
		return "", err
	}
	return fmt.Sprintf("Message sent to %s.", to), nil
}
