package app

import (
	"fmt"
	"testing"

	"github.com/ponder-agent/ponder/event"
)

// A teammate that is not in the lead's process has nobody to answer its
// questions, so the lead is not offered an approval that would leave it
// implementing in default mode, where every edit would be refused.
func TestTeammateNobodyCanAskIsNotOfferedDefaultMode(t *testing.T) {
	for _, c := range []struct {
		mode string
		want string
	}{
		{"default", "[reject]"},
		{"acceptEdits", "[approve accept-edits reject]"},
	} {
		t.Run(c.mode, func(t *testing.T) {
			a, _ := newTestApp(t, Options{Team: &TeamOptions{Team: "core"}, Interactive: true, Mode: c.mode})
			events, stop := a.Subscribe(64)
			defer stop()
			if err := a.Start(); err != nil {
				t.Fatal(err)
			}
			askLead(t, a, events)
			var q event.Question
			for q.ID == "" {
				if e, ok := (<-events).(event.QuestionAsked); ok {
					q = e.Question
				}
			}
			var ids []string
			for _, o := range q.Options {
				ids = append(ids, o.ID)
			}
			if got := fmt.Sprint(ids); got != c.want {
				t.Fatalf("options for alice: %s, want %s", got, c.want)
			}
		})
	}
}
