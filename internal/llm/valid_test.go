package llm

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
)

func call(id string) Block {
	return Block{Type: BlockToolUse, ID: id, Name: "Read", Input: []byte("{}")}
}
func result(id string) Block {
	return Block{Type: BlockToolResult, ToolUseID: id, Content: "ok " + id}
}
func user(bs ...Block) Message      { return Message{Role: RoleUser, Content: bs} }
func assistant(bs ...Block) Message { return Message{Role: RoleAssistant, Content: bs} }

func TestCheckConversation(t *testing.T) {
	good := []Message{
		UserText("hi"),
		assistant(TextBlock("let me look"), call("a"), call("b")),
		user(result("a"), result("b"), TextBlock("reminder")),
		assistant(TextBlock("done")),
		UserText("next"),
		UserText("and again"), // consecutive user turns are merged by the APIs
	}
	if err := CheckConversation(good); err != nil {
		t.Fatalf("a valid conversation: %v", err)
	}
	bad := map[string][]Message{
		"missing result":     {UserText("hi"), assistant(call("a"), call("b")), user(result("a"))},
		"results reordered":  {UserText("hi"), assistant(call("a"), call("b")), user(result("b"), result("a"))},
		"text before result": {UserText("hi"), assistant(call("a")), user(TextBlock("x"), result("a"))},
		"dangling result":    {UserText("hi"), assistant(TextBlock("x")), user(result("z"))},
		"unanswered tail":    {UserText("hi"), assistant(call("a"))},
		"assistant first":    {assistant(TextBlock("x")), UserText("hi")},
		"call then call":     {UserText("hi"), assistant(call("a")), assistant(TextBlock("x"))},
		"duplicate id":       {UserText("hi"), assistant(call("a")), user(result("a")), assistant(call("a")), user(result("a"))},
		"result two away":    {UserText("hi"), assistant(call("a")), UserText("x"), user(result("a"))},
	}
	for name, msgs := range bad {
		if err := CheckConversation(msgs); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestRepairConversation(t *testing.T) {
	msgs := []Message{
		UserText("hi"),
		assistant(call("a"), call("b")),
		user(result("b"), result("x")), // a's result lost, x dangling
		assistant(call("c")),
		// c's result line lost entirely
		assistant(TextBlock("answer")),
		user(result("y")), // dangling, and nothing else: dropped
		UserText("next"),
		assistant(call("d")), // the process stopped here
	}
	got, repairs := RepairConversation(msgs, false)
	if err := CheckConversation(got); err != nil {
		t.Fatalf("repaired conversation is not valid: %v\n%+v", err, got)
	}
	want := []Repair{
		{Kind: RepairDanglingResult, Index: 2, ToolID: "x"},
		{Kind: RepairLostResult, Index: 1, ToolID: "a", Tool: "Read"},
		{Kind: RepairLostResult, Index: 3, ToolID: "c", Tool: "Read"},
		{Kind: RepairDanglingResult, Index: 5, ToolID: "y"},
		{Kind: RepairUnanswered, Index: 7, ToolID: "d", Tool: "Read"},
	}
	if !reflect.DeepEqual(repairs, want) {
		t.Errorf("repairs\n got %+v\nwant %+v", repairs, want)
	}
	if got[2].Content[0].ToolUseID != "a" || got[2].Content[0].Content != LostResultText || got[2].Content[1].Content != "ok b" {
		t.Errorf("results of the first calls: %+v", got[2].Content)
	}
	if last := got[len(got)-1]; last.Content[0].Content != UnansweredText {
		t.Errorf("last message %+v", last)
	}
	// The input is untouched.
	if len(msgs[2].Content) != 2 || msgs[2].Content[0].ToolUseID != "b" {
		t.Error("the input was modified")
	}
	// A valid conversation comes back as it was.
	again, none := RepairConversation(got, false)
	if len(none) != 0 || !reflect.DeepEqual(again, got) {
		t.Errorf("repairing a valid conversation changed it: %+v", none)
	}
	// Left open, the last calls wait for their answer.
	open, _ := RepairConversation(msgs, true)
	if last := open[len(open)-1]; last.Role != RoleAssistant {
		t.Errorf("leaveOpen answered the last calls: %+v", last)
	}
}

func TestRepairConversationMissingStart(t *testing.T) {
	got, repairs := RepairConversation([]Message{assistant(call("a")), user(result("a"))}, false)
	if err := CheckConversation(got); err != nil || len(repairs) != 1 || repairs[0].Kind != RepairMissingStart {
		t.Fatalf("%v %+v %+v", err, repairs, got)
	}
}

// Any conversation the agent could have written, with any messages lost
// and any blocks dropped, repairs into a valid one.
func TestRepairAnyDamage(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for round := range 3000 {
		var msgs []Message
		n := 0
		for turn := range 1 + rng.IntN(5) {
			msgs = append(msgs, UserText(fmt.Sprint("turn ", turn)))
			for range rng.IntN(4) {
				var calls, results []Block
				for range 1 + rng.IntN(3) {
					id := fmt.Sprint("t", n)
					n++
					calls = append(calls, call(id))
					results = append(results, result(id))
				}
				msgs = append(msgs, assistant(append([]Block{TextBlock("x")}, calls...)...), user(results...))
			}
			msgs = append(msgs, assistant(TextBlock("done")))
		}
		// Damage: lose messages, lose blocks, duplicate, reorder.
		var damaged []Message
		for _, m := range msgs {
			switch rng.IntN(10) {
			case 0:
				continue
			case 1:
				if len(m.Content) > 0 {
					k := rng.IntN(len(m.Content))
					m.Content = append(append([]Block(nil), m.Content[:k]...), m.Content[k+1:]...)
				}
			case 2:
				damaged = append(damaged, m)
			case 3:
				m.Content = append([]Block(nil), m.Content...)
				rng.Shuffle(len(m.Content), func(i, j int) { m.Content[i], m.Content[j] = m.Content[j], m.Content[i] })
			}
			damaged = append(damaged, m)
		}
		got, _ := RepairConversation(damaged, false)
		if err := CheckConversation(got); err != nil {
			t.Fatalf("round %d: %v\ninput %+v\nrepaired %+v", round, err, damaged, got)
		}
	}
}
