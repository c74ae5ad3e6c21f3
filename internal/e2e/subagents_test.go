package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

func taskCall(typ, prompt string) fakemodel.ToolCall {
	return fakemodel.ToolCall{Name: "Task", Input: map[string]any{"description": "look around", "prompt": prompt, "subagent_type": typ}}
}

// agentReply answers the agent whose task contains prompt.
func agentReply(prompt string, r fakemodel.Reply) fakemodel.Reply {
	r.When.FirstUser = prompt
	if r.Name == "" {
		r.Name = "agent: " + prompt
	}
	return r
}

func TestThreeAgentsRunInParallel(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api,
			fakemodel.Reply{Name: "launch", When: fakemodel.Match{LastUser: "survey"}, ToolCalls: []fakemodel.ToolCall{
				taskCall("Explore", "area alpha"), taskCall("Explore", "area beta"), taskCall("Explore", "area gamma"),
			}},
			agentReply("area alpha", fakemodel.Reply{Delay: fakemodel.Duration(2 * time.Second), Text: "alpha report"}),
			agentReply("area beta", fakemodel.Reply{Delay: fakemodel.Duration(2 * time.Second), Text: "beta report"}),
			agentReply("area gamma", fakemodel.Reply{Delay: fakemodel.Duration(2 * time.Second), Text: "gamma report"}),
			fakemodel.Reply{Name: "summary", When: fakemodel.Match{ToolResult: "gamma report"}, Text: "All three areas surveyed."},
		)
		start := time.Now()
		o := w.mustRun(0, "", "-p", "survey the code", "--output-format", "stream-json", "--explore-model", "quick-model")
		took := time.Since(start)
		if took >= 4500*time.Millisecond {
			t.Fatalf("three 2-second agents took %s together: they did not run in parallel", took)
		}
		if res := lastResult(t, o.stdout); res["result"] != "All three areas surveyed." {
			t.Fatalf("result %v", res)
		}
		reqs := w.srv.Requests()
		results := toolResults(reqs[len(reqs)-1])
		for i, want := range []string{"alpha report", "beta report", "gamma report"} {
			if !strings.Contains(results[i].Content, want) || !strings.Contains(results[i].Content, "Explore agent") {
				t.Errorf("result %d out of order or without stats: %q", i, results[i].Content)
			}
		}
		for _, r := range reqs {
			if strings.Contains(r.FirstUser().Text, "area ") && r.Model != "quick-model" {
				t.Errorf("an Explore agent used %q, not the explore model", r.Model)
			}
			if strings.Contains(r.FirstUser().Text, "area ") && (strings.Contains(strings.Join(r.Tools, ","), "Write") || strings.Contains(strings.Join(r.Tools, ","), "Task")) {
				t.Errorf("an Explore agent was offered %v", r.Tools)
			}
		}
		started, finished := 0, 0
		for _, e := range events(t, o.stdout) {
			switch e {
			case "agent_started":
				started++
			case "agent_finished":
				finished++
			}
		}
		if started != 3 || finished != 3 {
			t.Fatalf("agent events: %d started, %d finished", started, finished)
		}
		// Each agent keeps its own transcript beside the session's.
		var agentFiles []string
		filepath.Walk(w.cfg, func(p string, _ os.FileInfo, _ error) error {
			if strings.Contains(filepath.Base(p), "agent-a") && strings.HasSuffix(p, ".jsonl") {
				agentFiles = append(agentFiles, p)
			}
			return nil
		})
		if len(agentFiles) != 3 {
			t.Fatalf("agent transcripts %v", agentFiles)
		}
	})
}

func TestExploreAgentCannotWriteEvenWithBypass(t *testing.T) {
	w := newWorld(t, "anthropic",
		fakemodel.Reply{Name: "launch", When: fakemodel.Match{LastUser: "look"}, ToolCalls: []fakemodel.ToolCall{taskCall("Explore", "inspect the notes")}},
		agentReply("inspect the notes", fakemodel.Reply{ToolCalls: []fakemodel.ToolCall{
			{Name: "Write", Input: map[string]any{"file_path": "agent-wrote.txt", "content": "x"}},
			{Name: "Bash", Input: map[string]any{"command": "touch agent-touched.txt"}},
			{Name: "Bash", Input: map[string]any{"command": "echo x > notes.txt"}},
			{Name: "Read", Input: map[string]any{"file_path": "notes.txt"}},
		}}),
		fakemodel.Reply{Name: "agent done", When: fakemodel.Match{FirstUser: "inspect the notes", ToolResult: "original notes"}, Text: "I could only read."},
		fakemodel.Reply{Name: "main done", When: fakemodel.Match{ToolResult: "I could only read."}, Text: "The agent reported."},
	)
	w.write("notes.txt", "original notes\n")
	w.mustRun(0, "", "-p", "look at the notes", "--dangerously-skip-permissions", "--permission-mode", "bypassPermissions")
	if w.read("agent-wrote.txt") != "<missing>" || w.read("agent-touched.txt") != "<missing>" || w.read("notes.txt") != "original notes\n" {
		t.Fatal("the Explore agent changed files")
	}
	var agentResults []fakemodel.ToolResult
	for _, r := range w.srv.Requests() {
		if strings.Contains(r.FirstUser().Text, "inspect the notes") && len(r.LastUser().ToolResults) == 4 {
			agentResults = r.LastUser().ToolResults
		}
	}
	if len(agentResults) != 4 {
		t.Fatal("no results of the agent's calls")
	}
	for i, want := range []string{"may not use Write", "may only read", "may only read"} {
		if !agentResults[i].IsError || !strings.Contains(agentResults[i].Content, want) {
			t.Errorf("call %d: %q", i, agentResults[i].Content)
		}
	}
	if agentResults[3].IsError {
		t.Errorf("reading must still work: %q", agentResults[3].Content)
	}
	w.allUsed()
}

func TestGeneralPurposeAgentRefusedInPlanMode(t *testing.T) {
	w := newWorld(t, "openai",
		fakemodel.Reply{Name: "launch", When: fakemodel.Match{LastUser: "plan it"}, ToolCalls: []fakemodel.ToolCall{taskCall("general-purpose", "change everything")}},
		fakemodel.Reply{Name: "refused", When: fakemodel.Match{ToolResult: "only read-only agent types"}, Text: "Understood."},
	)
	o := w.mustRun(0, "", "-p", "plan it", "--permission-mode", "plan", "--output-format", "stream-json")
	for _, r := range w.srv.Requests() {
		if strings.Contains(r.FirstUser().Text, "change everything") {
			t.Fatal("a general-purpose agent reached the model in plan mode")
		}
	}
	if !strings.Contains(strings.Join(events(t, o.stdout), " "), "tool_refused") {
		t.Fatal("no tool_refused event")
	}
	w.allUsed()
}

func TestEnterPlanModeRefusedInsideAnAgent(t *testing.T) {
	w := newWorld(t, "anthropic",
		fakemodel.Reply{Name: "launch", When: fakemodel.Match{LastUser: "delegate"}, ToolCalls: []fakemodel.ToolCall{taskCall("general-purpose", "do the chore")}},
		agentReply("do the chore", fakemodel.Reply{ToolCalls: []fakemodel.ToolCall{{Name: "EnterPlanMode", Input: map[string]any{}}}}),
		fakemodel.Reply{Name: "agent told", When: fakemodel.Match{FirstUser: "do the chore", ToolResult: "EnterPlanMode"}, Text: "I stay as I am."},
		fakemodel.Reply{Name: "main done", When: fakemodel.Match{ToolResult: "I stay as I am."}, Text: "ok"},
	)
	s := w.start()
	s.say("delegate the chore")
	res := s.result()
	s.close()
	if res["permission_mode"] != "default" {
		t.Fatalf("the agent changed the mode: %v", res)
	}
	for _, r := range w.srv.Requests() {
		if strings.Contains(r.FirstUser().Text, "do the chore") {
			if contains(r.Tools, "EnterPlanMode") || contains(r.Tools, "Task") {
				t.Fatalf("the agent was offered %v", r.Tools)
			}
			if tr := r.LastUser().ToolResults; len(tr) == 1 && (!tr[0].IsError || !strings.Contains(tr[0].Content, "may not use EnterPlanMode")) {
				t.Fatalf("EnterPlanMode in the agent: %q", tr[0].Content)
			}
		}
	}
	for _, e := range s.eventNames() {
		if e == "plan_mode_entered" {
			t.Fatal("plan mode was entered from inside an agent")
		}
	}
	w.allUsed()
}

func TestCancellingTheParentStopsItsAgents(t *testing.T) {
	w := newWorld(t, "anthropic",
		fakemodel.Reply{Name: "launch", When: fakemodel.Match{LastUser: "survey"}, ToolCalls: []fakemodel.ToolCall{
			taskCall("Explore", "slow area one"), taskCall("Explore", "slow area two"),
		}},
		// Were the agents not stopped, each would come back for a second
		// request after its listing.
		agentReply("slow area one", fakemodel.Reply{Times: -1, Delay: fakemodel.Duration(5 * time.Second), ToolCalls: []fakemodel.ToolCall{{Name: "LS", Input: map[string]any{"path": "."}}}}),
		agentReply("slow area two", fakemodel.Reply{Times: -1, Delay: fakemodel.Duration(5 * time.Second), ToolCalls: []fakemodel.ToolCall{{Name: "LS", Input: map[string]any{"path": "."}}}}),
		fakemodel.Reply{Name: "after", When: fakemodel.Match{LastUser: "still there?"}, Text: "yes"},
	)
	s := w.start()
	s.say("survey the code")
	s.next("both agents started", func(m map[string]any) bool { return m["event"] == "agent_started" })
	s.next("both agents started", func(m map[string]any) bool { return m["event"] == "agent_started" })
	agentRequestsIn := func(reqs []fakemodel.Request) int {
		n := 0
		for _, r := range reqs {
			if strings.Contains(r.FirstUser().Text, "slow area") {
				n++
			}
		}
		return n
	}
	agentRequests := func() int { return agentRequestsIn(w.srv.Requests()) }
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := w.srv.WaitFor(ctx, func(r []fakemodel.Request) bool { return agentRequestsIn(r) >= 2 }); err != nil {
		t.Fatal("the agents' requests never arrived")
	}
	s.send(map[string]any{"type": "control_request", "request_id": "stop", "request": map[string]any{"subtype": "interrupt"}})
	if res := s.result(); res["subtype"] != "error" {
		t.Fatalf("interrupted turn: %v", res)
	}
	// Another turn completes; by then any agent still running would have
	// asked the model again.
	s.say("still there?")
	s.result()
	s.close()
	if n := agentRequests(); n != 2 {
		t.Fatalf("%d agent requests: agents went on after the parent was cancelled", n)
	}
	err := w.srv.WaitFor(ctx, func(reqs []fakemodel.Request) bool {
		for _, r := range reqs {
			if strings.Contains(r.FirstUser().Text, "slow area") && r.Outcome != fakemodel.OutcomeCanceled {
				return false
			}
		}
		return true
	})
	if err != nil {
		t.Fatalf("the agents' requests were not cancelled: %+v", w.srv.Requests())
	}
}

func TestUserDefinedAgents(t *testing.T) {
	w := newWorld(t, "anthropic",
		fakemodel.Reply{Name: "use reviewer", When: fakemodel.Match{LastUser: "review"}, ToolCalls: []fakemodel.ToolCall{
			taskCall("reviewer", "review main.go"), taskCall("fixer", "fix main.go"),
		}},
		agentReply("review main.go", fakemodel.Reply{Text: "Looks fine."}),
		fakemodel.Reply{Name: "done", When: fakemodel.Match{ToolResult: "Looks fine."}, Text: "Reviewed."},
	)
	w.write(".ponder/agents/reviewer.md", "---\nname: reviewer\ndescription: Reviews code for bugs\ntools: Read, Grep, Glob\n---\nYou are a careful reviewer.\n")
	w.write(".ponder/agents/fixer.md", "---\nname: fixer\ndescription: Fixes bugs\ntools: [Read, Edit, Bash]\n---\nFix what you are told.\n")
	broken := w.write(".ponder/agents/broken.md", "---\nname: broken\n---\n")
	o := w.mustRun(0, "", "-p", "review the code", "--permission-mode", "plan", "--output-format", "stream-json")
	reported := false
	for _, l := range lines(t, o.stdout) {
		if l["event"] == "notice" && strings.Contains(fmt.Sprint(l["text"]), broken) {
			reported = true
		}
	}
	if !reported {
		t.Fatalf("the broken agent file is not reported with its path:\n%s", o.stdout)
	}
	reqs := w.srv.Requests()
	results := toolResults(reqs[len(reqs)-1])
	if len(results) != 2 || !strings.Contains(results[0].Content, "Looks fine.") {
		t.Fatalf("results %+v", results)
	}
	// The fixer can edit and run commands, so plan mode refuses it.
	if !failed(results[1]) || !strings.Contains(results[1].Content, "only read-only agent types") {
		t.Fatalf("the writing agent in plan mode: %q", results[1].Content)
	}
	for _, r := range reqs {
		if strings.Contains(r.FirstUser().Text, "review main.go") && !strings.Contains(r.System, "careful reviewer") {
			t.Fatal("the user agent's prompt was not used")
		}
	}
	if strings.Contains(fmt.Sprint(reqs[0].Tools), "broken") {
		t.Fatal("a broken agent was offered")
	}
	w.allUsed()
}
