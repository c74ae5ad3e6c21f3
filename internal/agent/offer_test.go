package agent

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/planmode"
	"github.com/ponder-agent/ponder/internal/tool"
)

// The tools offered are worked out once per model request, and the calls
// of its answer are judged against that list, not each against a list of
// its own; only a change of mode while they run makes a new one.
func TestOfferedToolsAreWorkedOutOncePerRequest(t *testing.T) {
	ok := func(context.Context, json.RawMessage) tool.Result { return tool.Result{Content: "ok"} }
	tools := []tool.Tool{
		probe{name: "Look", safe: true, kind: permission.KindRead, run: ok},
		probe{name: "Other", safe: true, kind: permission.KindRead, run: ok},
		probe{name: "Third", safe: true, kind: permission.KindRead, run: ok},
	}
	h := newHarness(t, permission.ModeDefault, tools,
		fakemodel.Reply{ToolCalls: calls("Look", "Look", "Other", "Third")},
		fakemodel.Reply{Text: "done"})
	var asked atomic.Int32
	h.agent.cfg.Available = func(tool.Tool, permission.Mode) bool { asked.Add(1); return true }
	if _, err := h.agent.Run(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	// Two requests, each asking once per tool.
	if n := asked.Load(); n != 2*int32(len(tools)) {
		t.Errorf("availability was asked %d times for 2 requests of %d tools and 4 calls; want %d", n, len(tools), 2*len(tools))
	}

	// A change of mode between a request and its calls makes the calls
	// judged against what the new mode offers.
	write := probe{name: "Change", kind: permission.KindWrite, run: ok}
	h = newHarness(t, permission.ModeDefault, []tool.Tool{write})
	pc := h.agent.callerContext()
	if got := Names(h.agent.offeredIn(pc, true)); len(got) != 1 {
		t.Fatalf("offered %v", got)
	}
	h.agent.cfg.Plan.SetMode(permission.ModePlan, planmode.ViaFlag)
	h.agent.cfg.Available = func(t tool.Tool, m permission.Mode) bool { return m != permission.ModePlan }
	if got := h.agent.permContext().Offered; len(got) != 0 {
		t.Errorf("after the mode changed, the calls are judged against %v", got)
	}
}
