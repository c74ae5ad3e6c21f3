package mailbox_test

import (
	"context"
	"fmt"
	"os"

	"github.com/ponder-agent/ponder/internal/team/mailbox"
)

// A teammate asks the lead to approve its plan; the lead applies the
// request exactly once and answers into the teammate's inbox.
func Example() {
	configDir, err := os.MkdirTemp("", "mailbox-example-")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(configDir)
	ctx := context.Background()

	mb, err := mailbox.Open("files", configDir, "core")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer mb.Close()

	// The teammate, leaving plan mode.
	req, _ := mailbox.NewPlanApprovalRequest("core", "researcher", "lead", mailbox.PlanApprovalRequest{
		RequestID:   "plan_approval-1",
		PlanContent: "1. Add a token bucket\n2. Test it",
		PlanPath:    "/home/me/.ponder/plans/quiet-otter.md",
	})
	if err := mb.Send(ctx, req); err != nil {
		fmt.Println(err)
		return
	}

	// The lead.
	seen, _ := mailbox.OpenSeen(configDir, "core", "lead")
	defer seen.Close()
	_, err = mailbox.Handle(ctx, mb, seen, "lead", func(ctx context.Context, m mailbox.Message) error {
		r, err := m.PlanApprovalRequest()
		if err != nil {
			return err
		}
		fmt.Printf("%s asks to approve %s\n", r.From, r.RequestID)
		answer, err := mailbox.NewPlanApprovalResponse("core", "lead", r.From, mailbox.PlanApprovalResponse{
			RequestID: r.RequestID, Approved: true, Mode: "acceptEdits",
		})
		if err != nil {
			return err
		}
		return mb.Send(ctx, answer)
	})
	if err != nil {
		fmt.Println(err)
		return
	}

	// The teammate, waiting in its inbox.
	d, err := mb.Receive(ctx, "researcher")
	if err != nil {
		fmt.Println(err)
		return
	}
	resp, _ := d.Message().PlanApprovalResponse()
	fmt.Printf("approved=%v mode=%s\n", resp.Approved, resp.Mode)
	if err := d.Ack(ctx); err != nil {
		fmt.Println(err)
	}
	// Output:
	// researcher asks to approve plan_approval-1
	// approved=true mode=acceptEdits
}
