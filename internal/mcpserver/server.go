// Package mcpserver is the front end that makes ponder an MCP server
// (ponder mcp serve, on standard input and output), so that other agents
// can hand it work: plan a task in plan mode and get the plan back, carry
// out a plan once they approve it, or ask a question about the code.
// Each call runs a headless session through package app, which holds it
// to the same rules as any other front end: planning and asking change no
// project file, and an approval comes only from the implement call. What a
// session does on the way is sent to the client as log notifications (and
// progress notifications when the call asked for them).
package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/app"
	"github.com/ponder-agent/ponder/internal/jsonrpcline"
)

// Options configure the server.
type Options struct {
	// App are the options every session served starts from; the tools
	// set the mode, the approval policy and what to resume.
	App     app.Options
	Version string
	// Stdin and Stdout carry the protocol (default: the process's).
	Stdin  io.Reader
	Stdout io.Writer
	// Log receives notes on the messages refused (default: standard
	// error).
	Log io.Writer
}

// MaxMessage is the longest message ponder mcp serve reads, in bytes: the
// MCP SDK's limit for one message (16 MiB), less a margin. Longer ones,
// lines that are not JSON and messages that are not JSON-RPC are answered
// with the JSON-RPC error and the server goes on; so are batches, which
// MCP no longer has (ponder takes one message per line).
const MaxMessage = 16<<20 - 1<<10

// Serve answers MCP requests on o.Stdin and o.Stdout until the client
// goes away or ctx ends.
func Serve(ctx context.Context, o Options) error {
	if o.Stdin == nil {
		o.Stdin = os.Stdin
	}
	if o.Stdout == nil {
		o.Stdout = os.Stdout
	}
	if o.Log == nil {
		o.Log = os.Stderr
	}
	s := &server{base: o.App}
	srv := mcp.NewServer(&mcp.Implementation{Name: "ponder", Title: "ponder", Version: o.Version}, &mcp.ServerOptions{
		Instructions: instructions,
	})
	notTrue, yes := false, true
	mcp.AddTool(srv, &mcp.Tool{
		Name:        "plan",
		Title:       "Plan a task (nothing changes)",
		Description: planDoc,
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: &notTrue},
	}, s.plan)
	mcp.AddTool(srv, &mcp.Tool{
		Name:        "implement",
		Title:       "Carry out an approved plan",
		Description: implementDoc,
		Annotations: &mcp.ToolAnnotations{DestructiveHint: &yes, OpenWorldHint: &notTrue},
	}, s.implement)
	mcp.AddTool(srv, &mcp.Tool{
		Name:        "ask",
		Title:       "Ask about the code (read-only)",
		Description: askDoc,
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: &notTrue},
	}, s.ask)
	out := jsonrpcline.NewWriter(o.Stdout)
	in := jsonrpcline.NewFilter(o.Stdin, out, o.Log, MaxMessage)
	err := run(ctx, srv, &mcp.IOTransport{Reader: io.NopCloser(in), Writer: nopWriteCloser{out}})
	if err != nil && (ctx.Err() != nil || errors.Is(err, io.EOF) || errors.Is(err, mcp.ErrConnectionClosed)) {
		return nil
	}
	return err
}

const instructions = `ponder is a coding agent with an enforced plan mode. Call plan with a task to
get a plan without any project file changing; read the plan, then call
implement with its session_id to carry it out (or with option "reject" and
feedback to have it revised). Call ask for questions about the code; it only
reads.`

const planDoc = `Plan a task in ponder's plan mode: ponder explores the project read-only and
writes a plan. No project file changes. Returns the plan, the plan file and
the session_id to pass to implement.`

const implementDoc = `Carry out the plan a plan call left waiting, identified by session_id. option
says how: "accept-edits" (default: file edits in the project go ahead),
"approve" or "manual" (edits that need a yes are refused, as nobody is
there to give it), "clear-context" (start from the plan alone), or "reject"
with feedback to send the plan back for revision (a new plan is returned).`

const askDoc = `Ask ponder a question about the code in this project. ponder only reads: no
file changes and only read-only commands run. Returns the answer.`

// server holds what every call shares.
type server struct {
	base app.Options
}

// PlanInput is the plan tool's input.
type PlanInput struct {
	Task string `json:"task" jsonschema:"what to plan, as you would tell a colleague"`
}

// ImplementInput is the implement tool's input.
type ImplementInput struct {
	SessionID string `json:"session_id" jsonschema:"the session_id a plan call returned"`
	Option    string `json:"option,omitempty" jsonschema:"accept-edits (default), approve, manual, clear-context, or reject"`
	Feedback  string `json:"feedback,omitempty" jsonschema:"with reject: what to change in the plan"`
}

// AskInput is the ask tool's input.
type AskInput struct {
	Question string `json:"question" jsonschema:"the question about the code"`
}

// Output is what every tool returns as structured content.
type Output struct {
	SessionID string `json:"session_id"`
	// Status is "plan_pending" (a plan waits for implement), "done",
	// "max_turns" or "interrupted".
	Status   string `json:"status"`
	Plan     string `json:"plan,omitempty"`
	PlanFile string `json:"plan_file,omitempty"`
	Result   string `json:"result,omitempty"`
	// Mode is the session's permission mode at the end.
	Mode string `json:"permission_mode"`
}

func (s *server) plan(ctx context.Context, req *mcp.CallToolRequest, in PlanInput) (*mcp.CallToolResult, Output, error) {
	if strings.TrimSpace(in.Task) == "" {
		return nil, Output{}, errors.New("task is empty: say what to plan")
	}
	opts := s.base
	opts.Mode = event.ModePlan
	opts.PlanApproval = app.PlanPending
	return s.run(ctx, req, opts, func(a *app.App) (app.TurnResult, error) {
		a.SetTaskHint(in.Task)
		return a.Send(ctx, in.Task)
	})
}

func (s *server) implement(ctx context.Context, req *mcp.CallToolRequest, in ImplementInput) (*mcp.CallToolResult, Output, error) {
	if strings.TrimSpace(in.SessionID) == "" {
		return nil, Output{}, errors.New("session_id is empty: pass the session_id a plan call returned")
	}
	option := in.Option
	if option == "" {
		option = event.OptionAcceptEdits
	}
	ans := event.Answer{Option: option}
	if option == event.OptionReject {
		if strings.TrimSpace(in.Feedback) == "" {
			return nil, Output{}, errors.New("reject needs feedback: say what to change in the plan")
		}
		ans.Feedback = in.Feedback
	} else if err := app.CheckApprovalOption(option); err != nil {
		return nil, Output{}, fmt.Errorf("option: %v", err)
	}
	opts := s.base
	opts.Resume = in.SessionID
	opts.PlanApproval = app.PlanPending
	return s.run(ctx, req, opts, func(a *app.App) (app.TurnResult, error) {
		if !a.HasPendingPlan() {
			return app.TurnResult{}, fmt.Errorf("session %s has no plan waiting for approval; call plan first", in.SessionID)
		}
		return a.AnswerPending(ctx, ans)
	})
}

func (s *server) ask(ctx context.Context, req *mcp.CallToolRequest, in AskInput) (*mcp.CallToolResult, Output, error) {
	if strings.TrimSpace(in.Question) == "" {
		return nil, Output{}, errors.New("question is empty")
	}
	opts := s.base
	opts.ReadOnly = true
	opts.Mode = event.ModeDefault
	return s.run(ctx, req, opts, func(a *app.App) (app.TurnResult, error) {
		return a.Send(ctx, in.Question)
	})
}

// run opens a session with opts, runs do on it and reports the outcome,
// relaying the session's events to the client as they happen.
func (s *server) run(ctx context.Context, req *mcp.CallToolRequest, opts app.Options, do func(*app.App) (app.TurnResult, error)) (*mcp.CallToolResult, Output, error) {
	relay := newRelay(ctx, req)
	defer relay.close()
	opts.Interactive = false
	opts.Sink = relay.send
	a, err := app.New(opts)
	if err != nil {
		return nil, Output{}, err
	}
	defer a.Close()
	if err := a.Start(); err != nil {
		return nil, Output{}, err
	}
	res, err := do(a)
	if err != nil {
		return nil, Output{}, err
	}
	out := Output{SessionID: a.ID(), Status: "done", Result: res.Text, Mode: a.Mode()}
	switch res.StopReason {
	case app.StopPlanPending:
		out.Status, out.Plan, out.PlanFile = "plan_pending", res.Plan, res.PlanFile
	case app.StopMaxTurns:
		out.Status = "max_turns"
	case app.StopInterrupted:
		out.Status = "interrupted"
	}
	if out.PlanFile == "" {
		if plan, ok := a.PlanText(); ok && opts.Mode == event.ModePlan {
			out.Plan, out.PlanFile = plan, a.PlanFile()
		}
	}
	relay.close() // every event goes out before the result
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: describe(out)}}, IsError: out.Status == "max_turns" || out.Status == "interrupted"}, out, nil
}

// describe is the result in words, for clients that read only text.
func describe(o Output) string {
	var b strings.Builder
	switch o.Status {
	case "plan_pending":
		fmt.Fprintf(&b, "The plan (%s) is waiting for approval. To carry it out, call implement with session_id %q; to have it revised, call implement with option \"reject\" and feedback.\n\n%s", o.PlanFile, o.SessionID, o.Plan)
	case "max_turns":
		fmt.Fprintf(&b, "Stopped after the maximum number of model requests (session %s).\n\n%s", o.SessionID, o.Result)
	case "interrupted":
		fmt.Fprintf(&b, "Interrupted (session %s).", o.SessionID)
	default:
		b.WriteString(o.Result)
		if o.Plan != "" {
			fmt.Fprintf(&b, "\n\nPlan so far (%s, session %s):\n\n%s", o.PlanFile, o.SessionID, o.Plan)
		}
	}
	return b.String()
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
