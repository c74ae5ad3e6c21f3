package team

import (
	"fmt"
	"strings"

	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/planmode"
	"github.com/ponder-agent/ponder/internal/team/mailbox"
)

// AcceptResponse decides whether a teammate applies msg as the answer to
// its plan approval request. The mailbox does not check who sent a
// message, so the rule is the protocol's: the answer must come from the
// teammate's lead, and carry the ID of the request the teammate is
// waiting on (outstanding, "" when it waits on none). Anything else is
// refused with the reason, and changes nothing. Since anyone who can
// write to the mailbox can claim to be the lead, the answer must also be
// signed with the team's key (see KeyName).
func AcceptResponse(msg mailbox.Message, lead, outstanding string, key []byte) (mailbox.PlanApprovalResponse, error) {
	resp, err := msg.PlanApprovalResponse()
	if err != nil {
		return resp, err
	}
	switch {
	case msg.From != lead:
		return resp, fmt.Errorf("a plan approval response from %q was ignored: only the lead (%s) answers plan approvals", msg.From, lead)
	case outstanding == "":
		return resp, fmt.Errorf("a plan approval response for %s was ignored: no plan is waiting for approval", resp.RequestID)
	case resp.RequestID != outstanding:
		return resp, fmt.Errorf("a plan approval response for %s was ignored: the plan waiting for approval is request %s", resp.RequestID, outstanding)
	}
	if err := verify(key, msg, resp); err != nil {
		return resp, fmt.Errorf("a plan approval response for %s that claims to come from the lead was ignored: %v", resp.RequestID, err)
	}
	return resp, nil
}

// ApprovalOption maps the mode an approval names to a plan approval
// option, by plan mode's table of options (planmode.TeammateOption): ""
// restores the mode the teammate had before planning, acceptEdits and
// default pick those modes. Other modes are refused: a lead never lifts a
// teammate into bypassPermissions.
func ApprovalOption(mode string) (string, error) {
	if o, ok := planmode.TeammateOption(permission.Mode(mode)); ok {
		return o.ID, nil
	}
	return "", fmt.Errorf("mode %q cannot be given with an approval (use acceptEdits, default, or nothing for the teammate's own mode)", mode)
}

// ModeOfOption is ApprovalOption's inverse, for an answer given as a
// plan approval option (a dialog, a control response).
func ModeOfOption(option string) (mode string, ok bool) {
	o, ok := planmode.LookupOption(option)
	if !ok || !o.Teammate {
		return "", false
	}
	return string(o.Mode), true
}

// ForModel renders a message for the model of its recipient, as a
// <teammate-message> block. Text from another member is quoted so that
// it cannot close the block and pose as a second message.
func ForModel(msg mailbox.Message) string {
	attrs := fmt.Sprintf("from=%q type=%q", msg.From, string(msg.Type))
	var body string
	switch msg.Type {
	case mailbox.TypeText:
		var t mailbox.Text
		if err := msg.Decode(mailbox.TypeText, &t); err != nil {
			return ""
		}
		body = t.Text
	case mailbox.TypePlanApprovalRequest:
		r, err := msg.PlanApprovalRequest()
		if err != nil {
			return ""
		}
		attrs += fmt.Sprintf(" request_id=%q", r.RequestID)
		body = fmt.Sprintf("%s asks you to approve its plan (written to %s). It changes nothing until you answer.\n"+
			"Approve: SendMessage with type \"plan_approval_response\", to %q, request_id %q, approve true (and mode \"acceptEdits\" to let it edit files without asking, which only a lead in acceptEdits can give).\n"+
			"Reject: the same with approve false and feedback saying what to change.\n\nThe plan:\n%s",
			msg.From, r.PlanPath, msg.From, r.RequestID, r.PlanContent)
	case mailbox.TypePlanApprovalResponse:
		r, err := msg.PlanApprovalResponse()
		if err != nil {
			return ""
		}
		attrs += fmt.Sprintf(" request_id=%q approved=\"%t\"", r.RequestID, r.Approved)
		body = r.Feedback
	case mailbox.TypeIdle:
		var i mailbox.Idle
		_ = msg.Decode(mailbox.TypeIdle, &i)
		body = msg.From + " finished its work and is idle."
		if i.Summary != "" {
			body += " Its last words: " + i.Summary
		}
	case mailbox.TypeShutdownRequest:
		body = "The lead asks you to finish and stop."
	default:
		return ""
	}
	return "<teammate-message " + attrs + ">\n" + quoteBlock(body) + "\n</teammate-message>"
}

// quoteBlock keeps text from opening or closing a teammate-message block.
func quoteBlock(s string) string {
	r := strings.NewReplacer("<teammate-message", "&lt;teammate-message", "</teammate-message", "&lt;/teammate-message")
	return r.Replace(s)
}
