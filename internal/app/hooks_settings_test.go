package app

import (
	"testing"
	"time"

	"github.com/ponder-agent/ponder/event"
)

// Close lets observing hooks finish, and does not wait for ever for one
// that hangs.
func TestWaitObservers(t *testing.T) {
	a := &App{}
	a.waitObservers(time.Hour) // none running: returns at once
	a.observing.add()
	released := make(chan struct{})
	go func() {
		<-released
		a.observing.done()
	}()
	waited := make(chan struct{})
	go func() {
		a.waitObservers(time.Hour)
		close(waited)
	}()
	select {
	case <-waited:
		t.Fatal("returned while a hook still ran")
	default:
	}
	close(released)
	<-waited

	a.observing.add()
	start := time.Now()
	a.waitObservers(10 * time.Millisecond)
	if time.Since(start) > 5*time.Second {
		t.Error("waited past the limit")
	}
	a.observing.done()
}

func TestNotificationText(t *testing.T) {
	for kind, want := range map[event.QuestionKind]string{
		event.AskToolUse:   "ponder needs your permission to use Bash",
		event.AskEnterPlan: "ponder asks to enter plan mode",
		event.AskPlanExit:  "ponder asks you to approve its plan",
		event.AskUser:      "ponder has a question for you",
	} {
		if got := notificationText(event.Question{Kind: kind, Tool: "Bash"}); got != want {
			t.Errorf("%s: %q, want %q", kind, got, want)
		}
	}
}
