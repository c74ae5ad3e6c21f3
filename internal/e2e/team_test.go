package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// requestIDRE finds the request id of a plan approval request shown to
// the lead's model.
var requestIDRE = regexp.MustCompile(`request_id="(plan_approval[^"]+)"`)

// lastRequestID returns the newest request id in the lead's last input.
func lastRequestID(r *fakemodel.Request) string {
	ids := requestIDRE.FindAllStringSubmatch(r.LastUser().Text, -1)
	if len(ids) == 0 {
		return "no-request-id"
	}
	return ids[len(ids)-1][1]
}

// teamRecords returns the team entries of the transcripts under cfg whose
// session ran with the given first prompt, as JSON objects.
func teamRecords(t *testing.T, cfg, firstPrompt string) []map[string]any {
	t.Helper()
	var out []map[string]any
	files, _ := filepath.Glob(filepath.Join(cfg, "projects", "*", "*.jsonl"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		var recs []map[string]any
		first := ""
		for _, line := range strings.Split(string(data), "\n") {
			var e struct {
				Type    string          `json:"type"`
				Team    map[string]any  `json:"team"`
				Message json.RawMessage `json:"message"`
			}
			if json.Unmarshal([]byte(line), &e) != nil {
				continue
			}
			if e.Type == "message" && first == "" {
				first = string(e.Message)
			}
			if e.Type == "team" {
				recs = append(recs, e.Team)
			}
		}
		if strings.Contains(first, firstPrompt) {
			out = append(out, recs...)
		}
	}
	return out
}

// countRecords counts the records with these field values.
func countRecords(recs []map[string]any, want map[string]any) int {
	n := 0
	for _, r := range recs {
		ok := true
		for k, v := range want {
			if r[k] != v {
				ok = false
			}
		}
		if ok {
			n++
		}
	}
	return n
}

const (
	heldNote  = "Mind the tests as well."
	aliceTask = "ALICE TASK: create alice.txt"
	bobTask   = "BOB TASK: create bob.txt"
	leadTask  = "LEAD TASK: get the greetings written by a team"
)

// aliceReplies script a teammate that must plan first: it tries to leave
// plan mode without a plan, writes one (and tries to jump ahead), asks,
// revises after the rejection, and implements once approved.
func aliceReplies() []fakemodel.Reply {
	planWrite := func(content string) fakemodel.ToolCall {
		return fakemodel.ToolCall{Name: "Write", InputFunc: func(r *fakemodel.Request) any {
			return map[string]any{"file_path": planPath(r), "content": content}
		}}
	}
	me := func(m fakemodel.Match) fakemodel.Match { m.FirstUser = aliceTask; return m }
	return []fakemodel.Reply{
		{Name: "alice exits without a plan", When: me(fakemodel.Match{LastUser: aliceTask}),
			ToolCalls: tools(call{Name: "ExitPlanMode", Input: map[string]any{}})},
		{Name: "alice writes plan v1", When: me(fakemodel.Match{ToolResult: "There is no plan to approve"}),
			ToolCalls: []fakemodel.ToolCall{planWrite("# alice plan v1\n\nWrite alice.txt.\n"), writeCall("alice.txt", "too early")}},
		{Name: "alice asks", When: me(fakemodel.Match{ToolResult: "nothing but the plan file may change"}),
			ToolCalls: tools(call{Name: "ExitPlanMode", Input: map[string]any{}})},
		{Name: "alice revises", When: me(fakemodel.Match{ToolResult: "add a README line"}),
			// A teammate started again has read nothing yet: the plan
			// file is read before it is written.
			ToolCalls: []fakemodel.ToolCall{{Name: "Read", InputFunc: func(r *fakemodel.Request) any {
				return map[string]any{"file_path": planPath(r)}
			}}, planWrite("# alice plan v2\n\nWrite alice.txt, and a README line.\n"), {Name: "ExitPlanMode", Input: map[string]any{}}}},
		{Name: "alice implements", When: me(fakemodel.Match{ToolResult: "approved your plan"}),
			ToolCalls: []fakemodel.ToolCall{writeCall("alice.txt", "hello from alice\n")}},
		{Name: "alice done", When: me(fakemodel.Match{ToolResult: "alice.txt ("}), Text: "alice wrote alice.txt"},
		{Name: "alice reads a held message", When: me(fakemodel.Match{LastUser: heldNote}), Text: "noted", Times: -1},
	}
}

// bobReplies script a teammate that enters plan mode on its own and
// leaves it without the lead.
func bobReplies() []fakemodel.Reply {
	me := func(m fakemodel.Match) fakemodel.Match { m.FirstUser = bobTask; return m }
	return []fakemodel.Reply{
		{Name: "bob enters plan mode", When: me(fakemodel.Match{LastUser: bobTask}),
			ToolCalls: tools(call{Name: "EnterPlanMode", Input: map[string]any{}})},
		{Name: "bob plans and exits", When: me(fakemodel.Match{ToolResult: "Plan mode is on. Explore"}),
			ToolCalls: []fakemodel.ToolCall{{Name: "Write", InputFunc: func(r *fakemodel.Request) any {
				return map[string]any{"file_path": planPath(r), "content": "# bob plan\n\nWrite bob.txt.\n"}
			}}, {Name: "ExitPlanMode", Input: map[string]any{}}}},
		{Name: "bob implements", When: me(fakemodel.Match{ToolResult: "approved your plan"}),
			ToolCalls: []fakemodel.ToolCall{writeCall("bob.txt", "hello from bob\n")}},
		{Name: "bob done", When: me(fakemodel.Match{ToolResult: "bob.txt ("}), Text: "bob wrote bob.txt"},
	}
}

// leadAnswers script a lead's model that rejects the first plan of alice
// with feedback and approves the revised one. seen records whether
// alice.txt existed when each plan reached the lead.
func leadAnswers(w *atomic.Pointer[world], seen *sync.Map) []fakemodel.Reply {
	me := func(m fakemodel.Match) fakemodel.Match { m.FirstUser = leadTask; return m }
	noteFile := func(key string) func(*fakemodel.Request) bool {
		return func(*fakemodel.Request) bool {
			seen.LoadOrStore(key, w.Load().read("alice.txt"))
			return true
		}
	}
	return []fakemodel.Reply{
		{Name: "lead rejects v1", When: me(fakemodel.Match{LastUser: "alice plan v1", Func: noteFile("v1")}),
			ToolCalls: []fakemodel.ToolCall{{Name: "SendMessage", InputFunc: func(r *fakemodel.Request) any {
				return map[string]any{"type": "plan_approval_response", "to": "alice", "request_id": lastRequestID(r), "approve": false, "feedback": "Please add a README line too."}
			}}}},
		{Name: "lead approves v2", When: me(fakemodel.Match{LastUser: "alice plan v2", Func: noteFile("v2")}),
			ToolCalls: []fakemodel.ToolCall{{Name: "SendMessage", InputFunc: func(r *fakemodel.Request) any {
				return map[string]any{"type": "plan_approval_response", "to": "alice", "request_id": lastRequestID(r), "approve": true, "mode": "acceptEdits"}
			}}}},
		{Name: "lead notes its answer", When: me(fakemodel.Match{ToolResult: "alice's plan"}), Text: "Answered alice.", Times: -1},
		{Name: "lead notes idle teammates", When: me(fakemodel.Match{LastUser: "is idle"}), Text: "Noted.", Times: -1},
	}
}

// TestTeamInProcessPlanApproval: a lead with two teammates in its own
// process. The one that must plan first cannot leave plan mode without a
// plan, sends its plan to the lead, is sent back with feedback by the
// lead's model, and writes its file only after the revised plan is
// approved; the one that planned on its own leaves plan mode by itself.
func TestTeamInProcessPlanApproval(t *testing.T) {
	for _, process := range []bool{false, true} {
		t.Run(map[bool]string{false: "in-process", true: "processes"}[process], func(t *testing.T) {
			teamPlanApproval(t, process)
		})
	}
}

func teamPlanApproval(t *testing.T, process bool) {
	forAPIs(t, func(t *testing.T, api string) {
		var seen sync.Map
		// The model server reads the world while the test sets it up.
		var current atomic.Pointer[world]
		replies := []fakemodel.Reply{
			{Name: "lead starts the team", When: fakemodel.Match{FirstUser: leadTask, LastUser: leadTask},
				ToolCalls: tools(
					call{Name: "SpawnTeammate", Input: map[string]any{"name": "alice", "prompt": aliceTask, "plan_mode_required": true, "mode": "acceptEdits", "process": process}},
					call{Name: "SpawnTeammate", Input: map[string]any{"name": "bob", "prompt": bobTask, "mode": "acceptEdits", "process": process}})},
			{Name: "lead waits", When: fakemodel.Match{FirstUser: leadTask, ToolResult: "Teammate bob started"}, Text: "The team is at work."},
		}
		replies = append(replies, leadAnswers(&current, &seen)...)
		replies = append(replies, aliceReplies()...)
		replies = append(replies, bobReplies()...)
		w := newWorld(t, api, replies...)
		current.Store(w)
		// Its teammates write unasked, so the lead works in acceptEdits:
		// a teammate never works in a freer mode than its lead.
		out := w.mustRun(0, "", "-p", "--team", "core", "--permission-mode", "acceptEdits", "--output-format", "stream-json", leadTask)

		if got := w.read("alice.txt"); got != "hello from alice\n" {
			t.Errorf("alice.txt = %q; want alice's implementation\nstdout:\n%s\nstderr:\n%s", got, out.stdout, out.stderr)
		}
		if got := w.read("bob.txt"); got != "hello from bob\n" {
			t.Errorf("bob.txt = %q; want bob's implementation", got)
		}
		for _, k := range []string{"v1", "v2"} {
			if v, _ := seen.Load(k); v != "<missing>" {
				t.Errorf("when plan %s reached the lead, alice.txt was %v; nothing may be written before approval", k, v)
			}
		}
		// The first ExitPlanMode, without a plan, was refused and said
		// where to write it.
		var refusedNoPlan bool
		for _, r := range w.srv.Requests() {
			if !strings.Contains(r.FirstUser().Text, aliceTask) {
				continue
			}
			for _, tr := range toolResults(r) {
				refusedNoPlan = refusedNoPlan || strings.Contains(tr.Content, "There is no plan to approve")
			}
		}
		if !refusedNoPlan {
			t.Error("alice's ExitPlanMode without a plan was not refused")
		}

		alice := teamRecords(t, w.cfg, aliceTask)
		if n := countRecords(alice, map[string]any{"event": "sent", "type": "plan_approval_request"}); n != 2 {
			t.Errorf("alice's transcript records %d plan approval requests sent; want 2: %v", n, alice)
		}
		if n := countRecords(alice, map[string]any{"event": "received", "type": "plan_approval_response"}); n != 2 {
			t.Errorf("alice's transcript records %d answers received; want 2", n)
		}
		if n := countRecords(alice, map[string]any{"event": "state", "state": "awaiting_approval"}); n != 2 {
			t.Errorf("alice's transcript records %d waits for approval; want 2", n)
		}
		bob := teamRecords(t, w.cfg, bobTask)
		if n := countRecords(bob, map[string]any{"type": "plan_approval_request"}); n != 0 {
			t.Errorf("bob planned on its own but sent %d plan approval requests", n)
		}
		lead := teamRecords(t, w.cfg, leadTask)
		if n := countRecords(lead, map[string]any{"event": "sent", "type": "plan_approval_response", "by": "model"}); n != 2 {
			t.Errorf("the lead's transcript records %d answers by its model; want 2: %v", n, lead)
		}
		if n := countRecords(lead, map[string]any{"event": "received", "type": "idle"}); n < 2 {
			t.Errorf("the lead heard %d idle notices; want one from each teammate", n)
		}
		if !strings.Contains(out.stdout, `"teammate_state"`) {
			t.Error("the lead's stream-json output shows no teammate state")
		}
		if process {
			// Each teammate ran as a process of its own, logged its
			// output, and is gone once the lead has ended.
			pids := 0
			for _, r := range w.srv.Requests() {
				for _, tr := range toolResults(r) {
					m := pidRE.FindStringSubmatch(tr.Content)
					if m == nil {
						continue
					}
					pids++
					pid, _ := strconv.Atoi(m[1])
					if syscall.Kill(pid, 0) == nil {
						t.Errorf("teammate process %d outlived the lead", pid)
					}
				}
			}
			if pids < 2 {
				t.Errorf("the lead's model saw %d teammate processes start; want 2", pids)
			}
			for _, name := range []string{"alice", "bob"} {
				data, err := os.ReadFile(filepath.Join(w.cfg, "teams", "core", "logs", name+".jsonl"))
				if err != nil || !strings.Contains(string(data), `"subtype":"init"`) {
					t.Errorf("no log of teammate %s: %v", name, err)
				}
			}
		}
	})
}

// pidRE finds the pid SpawnTeammate reports for a teammate process.
var pidRE = regexp.MustCompile(`process of its own \(pid (\d+)\)`)
