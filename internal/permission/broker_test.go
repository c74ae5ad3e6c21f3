package permission

import (
	"context"
	"errors"
	"testing"
)

func TestBrokerFirstAnswerWins(t *testing.T) {
	asked := make(chan Question, 1)
	b := NewBroker(func(q Question) { asked <- q }, nil)
	done := make(chan Answer, 1)
	go func() {
		a, err := b.Ask(context.Background(), Question{Kind: AskToolUse, Tool: "Bash"})
		if err != nil {
			t.Error(err)
		}
		done <- a
	}()
	q := <-asked
	if len(b.Pending()) != 1 {
		t.Fatalf("pending = %v", b.Pending())
	}
	if !b.Answer(q.ID, Answer{Allow: true}) {
		t.Fatal("first answer refused")
	}
	if b.Answer(q.ID, Answer{Allow: false}) {
		t.Fatal("second answer accepted")
	}
	if a := <-done; !a.Allow {
		t.Fatal("got the second answer")
	}
}

func TestBrokerContextAndDismissAndClose(t *testing.T) {
	asked := make(chan Question, 3)
	b := NewBroker(func(q Question) { asked <- q }, nil)

	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 3)
	go func() { _, err := b.Ask(ctx, Question{}); errc <- err }()
	<-asked
	cancel()
	if err := <-errc; !errors.Is(err, ErrInterrupted) || !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled ask: %v", err)
	}

	go func() { _, err := b.Ask(context.Background(), Question{}); errc <- err }()
	q := <-asked
	b.Dismiss(q.ID)
	if err := <-errc; !errors.Is(err, ErrInterrupted) {
		t.Fatalf("dismissed ask: %v", err)
	}

	go func() { _, err := b.Ask(context.Background(), Question{}); errc <- err }()
	<-asked
	b.Close()
	if err := <-errc; !errors.Is(err, ErrInterrupted) {
		t.Fatalf("closed broker: %v", err)
	}
	if _, err := b.Ask(context.Background(), Question{}); !errors.Is(err, ErrInterrupted) {
		t.Fatalf("ask after close: %v", err)
	}
}

// However a question ends, the broker says so once, and how.
func TestBrokerTellsHowEveryQuestionEnded(t *testing.T) {
	asked := make(chan Question, 4)
	ended := make(chan string, 8)
	b := NewBroker(func(q Question) { asked <- q }, func(id, how string) { ended <- id + " " + how })
	errc := make(chan error, 4)
	ask := func(ctx context.Context) Question {
		go func() { _, err := b.Ask(ctx, Question{}); errc <- err }()
		return <-asked
	}
	q := ask(context.Background())
	b.Answer(q.ID, Answer{Allow: true})
	b.Answer(q.ID, Answer{Allow: true}) // a second answer ends nothing
	<-errc
	if got := <-ended; got != q.ID+" answered" {
		t.Fatalf("answered: %q", got)
	}
	q = ask(context.Background())
	b.Dismiss(q.ID)
	<-errc
	if got := <-ended; got != q.ID+" dismissed" {
		t.Fatalf("dismissed: %q", got)
	}
	ctx, cancel := context.WithCancel(context.Background())
	q = ask(ctx)
	cancel()
	<-errc
	if got := <-ended; got != q.ID+" cancelled" {
		t.Fatalf("cancelled: %q", got)
	}
	q = ask(context.Background())
	b.Close()
	<-errc
	if got := <-ended; got != q.ID+" closed" {
		t.Fatalf("closed: %q", got)
	}
	select {
	case extra := <-ended:
		t.Fatalf("a question ended twice: %q", extra)
	default:
	}
}
