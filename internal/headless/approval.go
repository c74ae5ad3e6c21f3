package headless

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/ponder-agent/ponder/event"
)

// This file is what hosts see of an approval besides its question, and
// what they may say back beyond yes or no: the diff of an edit, the
// permissions a plan asks for, what changed in a revised plan, the models
// to choose from; and comments on lines of a plan, the implementing model
// and the rules to grant.

// addApprovalContent puts what a question shows the user into a
// control_request: for a tool call the file and the diff of its change,
// for a plan the permissions it asks for, what changed since the user
// sent it back, and the models an approval may pick.
func addApprovalContent(req map[string]any, q event.Question) {
	switch q.Kind {
	case event.AskToolUse:
		if q.Path != "" {
			req["path"] = q.Path
		}
		if q.Diff != "" {
			req["diff"] = q.Diff
		}
	case event.AskPlanExit:
		if len(q.Permissions) > 0 {
			req["permissions"] = q.Permissions
		}
		if q.PreviousPlan != "" {
			req["previous_plan"] = q.PreviousPlan
			req["changed_lines"] = q.ChangedLines
		}
		if len(q.Models) > 0 {
			req["models"] = q.Models
		}
	}
}

// planExitExtras are the fields of a plan_exit answer beyond the option
// and feedback.
type planExitExtras struct {
	Annotations []event.Annotation `json:"annotations"`
	Model       string             `json:"model"`
	Grant       []string           `json:"grant"`
}

// planExitAnswer completes the answer to a plan approval with the
// comments, model and grants of the host's response, and checks the whole
// against the question. Comments without an option send the plan back.
func (c *control) planExitAnswer(q event.Question, raw json.RawMessage, ans event.Answer) (event.Answer, error) {
	var x planExitExtras
	if err := json.Unmarshal(raw, &x); err != nil {
		return ans, err
	}
	ans.Annotations, ans.Model, ans.Grant = x.Annotations, x.Model, x.Grant
	if len(x.Annotations) > 0 && ans.Option == "" {
		ans.Option = event.OptionReject
	}
	return ans, c.app.CheckPlanAnswer(q, ans)
}

// printPermissions tells a person what approving a pending plan grants.
func printPermissions(w io.Writer, perms []event.PlanPermission) {
	if len(perms) == 0 {
		return
	}
	fmt.Fprintln(w, "The plan asks for these permissions; approving grants for this session those that need no yes of their own:")
	for _, p := range perms {
		line := "  " + p.Rule
		if p.Reason != "" {
			line += " (" + p.Reason + ")"
		}
		if p.Outside {
			line += " — needs its own yes (" + p.Why + "), not granted"
		}
		fmt.Fprintln(w, strings.ReplaceAll(line, "\n", " "))
	}
}
