package agent

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/planmode"
	"github.com/ponder-agent/ponder/internal/tool"
)

// probe is a test tool whose behaviour each test sets.
type probe struct {
	name string
	safe bool
	kind permission.Kind
	run  func(ctx context.Context, input json.RawMessage) tool.Result
}

func (p probe) Name() string            { return p.name }
func (p probe) Kind() permission.Kind   { return p.kind }
func (p probe) Description() string     { return "test tool" }
func (p probe) Schema() json.RawMessage { return json.RawMessage(`{"type":"object"}`) }
func (p probe) ConcurrencySafe() bool   { return p.safe }
func (p probe) Prepare(_ *tool.Env, in json.RawMessage) (tool.Call, error) {
	return probeCall{p, in}, nil
}

type probeCall struct {
	p  probe
	in json.RawMessage
}

func (c probeCall) Access() permission.Access {
	return permission.Access{Paths: []string{"/tmp/x"}}
}
func (c probeCall) Run(ctx context.Context) tool.Result { return c.p.run(ctx, c.in) }

type harness struct {
	prov   *fakemodel.Provider
	agent  *Agent
	events []event.Event
	mu     sync.Mutex
}

func newHarness(t *testing.T, mode permission.Mode, tools []tool.Tool, replies ...fakemodel.Reply) *harness {
	t.Helper()
	h := &harness{prov: fakemodel.NewProvider(fakemodel.Script{Replies: replies})}
	eng, err := permission.NewEngine(permission.Rules{}, t.TempDir(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	plan := planmode.New(planmode.Config{ConfigDir: t.TempDir(), ProjectDir: t.TempDir()}, "s", mode, nil, nil)
	h.agent = New(Config{
		Provider: h.prov,
		Model:    func(permission.Mode) string { return "m" },
		Tools:    tool.NewRegistry(tools...),
		Perm:     eng,
		Plan:     plan,
		Emit: func(e event.Event) {
			h.mu.Lock()
			h.events = append(h.events, e)
			h.mu.Unlock()
		},
	}, nil)
	return h
}

func calls(names ...string) []fakemodel.ToolCall {
	var out []fakemodel.ToolCall
	for i, n := range names {
		out = append(out, fakemodel.ToolCall{Name: n, Input: map[string]any{"i": i}})
	}
	return out
}

func TestSafeCallsOverlapAndResultsKeepCallOrder(t *testing.T) {
	var inFlight, peak atomic.Int32
	barrier := make(chan struct{})
	var once sync.Once
	arrived := atomic.Int32{}
	slow := probe{name: "Look", safe: true, kind: permission.KindRead, run: func(ctx context.Context, in json.RawMessage) tool.Result {
		n := inFlight.Add(1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		if arrived.Add(1) == 3 {
			once.Do(func() { close(barrier) })
		}
		select {
		case <-barrier:
		case <-time.After(10 * time.Second):
			return tool.Errorf("calls did not overlap")
		}
		inFlight.Add(-1)
		return tool.Result{Content: "seen " + string(in)}
	}}
	h := newHarness(t, permission.ModeDefault, []tool.Tool{slow},
		fakemodel.Reply{ToolCalls: calls("Look", "Look", "Look")},
		fakemodel.Reply{Text: "done"})
	res, err := h.agent.Run(context.Background(), "go")
	if err != nil || res.StopReason != StopEndTurn {
		t.Fatalf("Run = %+v, %v", res, err)
	}
	if peak.Load() != 3 {
		t.Fatalf("peak concurrency %d, want 3", peak.Load())
	}
	results := h.prov.Requests()[1].LastUser().ToolResults
	for i, r := range results {
		if !strings.Contains(r.Content, `"i":`+string(rune('0'+i))) {
			t.Fatalf("result %d = %q: out of call order", i, r.Content)
		}
	}
}

func TestUnsafeCallsRunOneAtATime(t *testing.T) {
	var inFlight, peak atomic.Int32
	w := probe{name: "Change", safe: false, kind: permission.KindNone, run: func(ctx context.Context, in json.RawMessage) tool.Result {
		n := inFlight.Add(1)
		if n > peak.Load() {
			peak.Store(n)
		}
		time.Sleep(5 * time.Millisecond)
		inFlight.Add(-1)
		return tool.Result{Content: "ok"}
	}}
	h := newHarness(t, permission.ModeDefault, []tool.Tool{w},
		fakemodel.Reply{ToolCalls: calls("Change", "Change", "Change")},
		fakemodel.Reply{Text: "done"})
	if _, err := h.agent.Run(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	if peak.Load() != 1 {
		t.Fatalf("unsafe calls overlapped (peak %d)", peak.Load())
	}
}

func TestPanicBecomesErrorResult(t *testing.T) {
	boom := probe{name: "Boom", kind: permission.KindNone, run: func(context.Context, json.RawMessage) tool.Result { panic("kaboom") }}
	h := newHarness(t, permission.ModeDefault, []tool.Tool{boom},
		fakemodel.Reply{ToolCalls: calls("Boom")},
		fakemodel.Reply{When: fakemodel.Match{ToolResult: "kaboom"}, Text: "recovered"})
	res, err := h.agent.Run(context.Background(), "go")
	if err != nil || res.Text != "recovered" {
		t.Fatalf("Run = %+v, %v", res, err)
	}
	r := h.prov.Requests()[1].LastUser().ToolResults[0]
	if !r.IsError || !strings.Contains(r.Content, "failed unexpectedly") {
		t.Fatalf("result %+v", r)
	}
}

func TestInterruptStopsRunningToolsAndAnswersEveryCall(t *testing.T) {
	started := make(chan struct{})
	wait := probe{name: "Wait", safe: true, kind: permission.KindRead, run: func(ctx context.Context, _ json.RawMessage) tool.Result {
		close(started)
		<-ctx.Done()
		return tool.Errorf("interrupted")
	}}
	never := probe{name: "Never", kind: permission.KindNone, run: func(context.Context, json.RawMessage) tool.Result {
		t.Error("a call after the interruption ran")
		return tool.Result{}
	}}
	h := newHarness(t, permission.ModeDefault, []tool.Tool{wait, never},
		fakemodel.Reply{ToolCalls: calls("Wait", "Never")})
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-started; cancel() }()
	res, err := h.agent.Run(ctx, "go")
	if err != nil || res.StopReason != StopInterrupted {
		t.Fatalf("Run = %+v, %v", res, err)
	}
	hist := h.agent.History()
	last := hist[len(hist)-1]
	if len(last.Content) != 2 || !strings.Contains(last.Content[1].Content, "interrupted") {
		t.Fatalf("every call must get a result: %+v", last.Content)
	}
}

func TestInterruptDuringModelRequest(t *testing.T) {
	h := newHarness(t, permission.ModeDefault, nil, fakemodel.Reply{Delay: fakemodel.Duration(time.Minute), Text: "late"})
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		h.prov.WaitFor(context.Background(), func(r []fakemodel.Request) bool { return len(r) == 1 })
		cancel()
	}()
	start := time.Now()
	res, err := h.agent.Run(ctx, "go")
	if err != nil || res.StopReason != StopInterrupted || time.Since(start) > 10*time.Second {
		t.Fatalf("Run = %+v, %v after %s", res, err, time.Since(start))
	}
}

func TestPlanModeRefusalIsAnErrorResultWithEvent(t *testing.T) {
	ran := false
	writer := probe{name: "Write", kind: permission.KindWrite, run: func(context.Context, json.RawMessage) tool.Result {
		ran = true
		return tool.Result{}
	}}
	h := newHarness(t, permission.ModeDefault, []tool.Tool{writer},
		fakemodel.Reply{ToolCalls: calls("Write")},
		fakemodel.Reply{When: fakemodel.Match{ToolResult: "plan file"}, Text: "understood"})
	h.agent.cfg.Plan.SetMode(permission.ModePlan, planmode.ViaFlag)
	if _, err := h.agent.Run(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	if ran {
		t.Fatal("a refused call ran")
	}
	var refused *event.ToolRefused
	for _, e := range h.events {
		if r, ok := e.(event.ToolRefused); ok {
			refused = &r
		}
	}
	if refused == nil || refused.Rule != "plan mode" || refused.PlanFile == "" || refused.Mode != "plan" {
		t.Fatalf("tool_refused event %+v", refused)
	}
	// The request carried the plan-mode reminder on the user's message.
	first := h.prov.Requests()[0].LastUser().Text
	if !strings.Contains(first, "<system-reminder>") || !strings.Contains(first, "Plan mode is on") {
		t.Fatalf("no plan-mode reminder in %q", first)
	}
}

func TestMaxTurnsStopsTheLoop(t *testing.T) {
	noop := probe{name: "Noop", kind: permission.KindNone, run: func(context.Context, json.RawMessage) tool.Result { return tool.Result{Content: "ok"} }}
	h := newHarness(t, permission.ModeDefault, []tool.Tool{noop}, fakemodel.Reply{Times: -1, ToolCalls: calls("Noop")})
	h.agent.cfg.MaxTurns = 2
	res, err := h.agent.Run(context.Background(), "go")
	if err != nil || res.StopReason != StopMaxTurns || res.Requests != 2 || len(h.prov.Requests()) != 2 {
		t.Fatalf("Run = %+v, %v, %d requests", res, err, len(h.prov.Requests()))
	}
}

// endings counts, per call id, the events that ended it.
func (h *harness) endings() map[string][]string {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := map[string][]string{}
	for _, e := range h.events {
		switch e := e.(type) {
		case event.ToolRefused:
			out[e.ID] = append(out[e.ID], "refused")
		case event.ToolFinished:
			out[e.ID] = append(out[e.ID], "finished")
		}
	}
	return out
}

// Every call ends in exactly one event: a refusal (by the permission
// engine, for a tool denied, not offered or unknown) is one ToolRefused
// and nothing more; anything else is one ToolFinished, calls that never
// ran included.
func TestEveryCallEndsInOneEvent(t *testing.T) {
	ok := func(context.Context, json.RawMessage) tool.Result { return tool.Result{Content: "ok"} }
	look := probe{name: "Look", kind: permission.KindRead, run: ok}
	write := probe{name: "Write", kind: permission.KindWrite, run: ok}
	hidden := probe{name: "Hidden", kind: permission.KindNone, run: ok}
	h := newHarness(t, permission.ModePlan, []tool.Tool{look, write, hidden},
		fakemodel.Reply{ToolCalls: []fakemodel.ToolCall{
			{Name: "Look", Input: map[string]any{}},
			{Name: "Write", Input: map[string]any{}},
			{Name: "Hidden", Input: map[string]any{}},
			{Name: "Teleport", Input: map[string]any{}},
			{Name: "Look", RawInput: `{"broken`},
		}},
		fakemodel.Reply{Text: "done"})
	h.agent.cfg.Available = func(t tool.Tool, _ permission.Mode) bool { return t.Name() != "Hidden" }
	h.agent.cfg.Plan.SetMode(permission.ModePlan, planmode.ViaFlag)
	if _, err := h.agent.Run(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	if offered := h.prov.Requests()[0].Tools; len(offered) != 2 {
		t.Errorf("offered %v; Hidden is not available", offered)
	}
	ids := h.prov.Requests()[1].LastUser().ToolResults
	want := []string{"finished", "refused", "refused", "refused", "finished"}
	got := h.endings()
	for i, r := range ids {
		if e := got[r.ToolUseID]; len(e) != 1 || e[0] != want[i] {
			t.Errorf("call %d (%q) ended with %v, want one %s", i, r.Content, e, want[i])
		}
	}
}

func TestCallsThatNeverRanFinishToo(t *testing.T) {
	started := make(chan struct{})
	wait := probe{name: "Wait", kind: permission.KindRead, run: func(ctx context.Context, _ json.RawMessage) tool.Result {
		close(started)
		<-ctx.Done()
		return tool.Errorf("interrupted")
	}}
	later := probe{name: "Later", kind: permission.KindNone, run: func(context.Context, json.RawMessage) tool.Result { return tool.Result{} }}
	h := newHarness(t, permission.ModeDefault, []tool.Tool{wait, later}, fakemodel.Reply{ToolCalls: calls("Wait", "Later", "Later")})
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-started; cancel() }()
	if _, err := h.agent.Run(ctx, "go"); err != nil {
		t.Fatal(err)
	}
	endings := h.endings()
	if len(endings) != 3 {
		t.Fatalf("endings %v", endings)
	}
	for id, e := range endings {
		if len(e) != 1 || e[0] != "finished" {
			t.Errorf("call %s ended with %v", id, e)
		}
	}
}
