package anthropic

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/ponder-agent/ponder/internal/llm"
)

// event decodes one event's data as the SDK does.
func event(t testing.TB, data string) sdk.MessageStreamEventUnion {
	t.Helper()
	var ev sdk.MessageStreamEventUnion
	if err := json.Unmarshal([]byte(data), &ev); err != nil {
		t.Fatalf("decoding %s: %v", data, err)
	}
	return ev
}

const (
	startText = `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`
	stopMsg   = `{"type":"message_stop"}`
)

func textDelta(s string) string {
	b, _ := json.Marshal(s)
	return `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":` + string(b) + `}}`
}

// feed folds the events in and returns the first error.
func feed(t testing.TB, a *accumulator, data ...string) error {
	t.Helper()
	for _, d := range data {
		if _, _, err := a.add(event(t, d)); err != nil {
			return err
		}
	}
	return nil
}

func TestTextIsAssembled(t *testing.T) {
	a := newAccumulator("http://model.test", 0)
	if err := feed(t, a, startText, textDelta("hello, "), textDelta("world"), stopMsg); err != nil {
		t.Fatal(err)
	}
	resp := a.response()
	if len(resp.Message.Content) != 1 || resp.Message.Content[0].Text != "hello, world" {
		t.Fatalf("content %+v", resp.Message.Content)
	}
}

// A delta whose text is not a string is an error that names the event
// and what is wrong, and is retried like a broken stream.
func TestUndecodableDeltas(t *testing.T) {
	cases := map[string]string{
		"text array":   `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":["a","b"]}}`,
		"text number":  `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":12}}`,
		"text missing": `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta"}}`,
		"delta array":  `{"type":"content_block_delta","index":0,"delta":[1,2]}`,
		"data array":   `[{"type":"content_block_delta"}]`,
		"no block":     `{"type":"content_block_delta","index":7,"delta":{"type":"text_delta","text":"x"}}`,
	}
	for name, data := range cases {
		t.Run(name, func(t *testing.T) {
			a := newAccumulator("http://model.test", 0)
			err := feed(t, a, startText, data)
			var bad *llm.BadEventError
			if !errors.As(err, &bad) {
				t.Fatalf("error %v, want a BadEventError", err)
			}
			if !llm.IsTransient(err) || !strings.Contains(err.Error(), "http://model.test") {
				t.Errorf("error %q: not retried, or does not say where", err)
			}
		})
	}
}

// An endless text stops at the bound of a block, with an error that says
// so.
func TestEndlessTextIsCut(t *testing.T) {
	a := newAccumulator("http://model.test", 0)
	if err := feed(t, a, startText); err != nil {
		t.Fatal(err)
	}
	piece := textDelta(strings.Repeat("x", 64<<10))
	ev := event(t, piece)
	var err error
	n := 0
	for ; err == nil && n < 1000; n++ {
		_, _, err = a.add(ev)
	}
	var big *llm.AnswerTooLargeError
	if !errors.As(err, &big) {
		t.Fatalf("after %d deltas: %v, want an AnswerTooLargeError", n, err)
	}
	if got := n * 64 << 10; got > llm.MaxBlockBytes+64<<10 {
		t.Errorf("stopped after %d bytes", got)
	}
	if llm.IsTransient(err) || !strings.Contains(err.Error(), "8 MiB") {
		t.Errorf("error %q", err)
	}
}

// A server reporting more output tokens than the request allowed is not
// followed further.
func TestReportedTokensAreBounded(t *testing.T) {
	a := newAccumulator("http://model.test", 1000)
	err := feed(t, a, `{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":5000}}`)
	var big *llm.AnswerTooLargeError
	if !errors.As(err, &big) {
		t.Fatalf("error %v", err)
	}
	a = newAccumulator("http://model.test", 1000)
	if err := feed(t, a, `{"type":"message_delta","delta":{"stop_reason":"max_tokens"},"usage":{"output_tokens":1000}}`); err != nil {
		t.Fatal(err)
	}
}

// Only what moves the answer on counts as progress.
func TestProgress(t *testing.T) {
	a := newAccumulator("http://model.test", 0)
	for _, c := range []struct {
		data  string
		moved bool
	}{
		{`{"type":"message_start","message":{"usage":{"input_tokens":3}}}`, true},
		{`{"type":"something_new"}`, false},
		{startText, true},
		{textDelta(""), false},
		{textDelta("x"), true},
		{stopMsg, true},
	} {
		if _, moved, err := a.add(event(t, c.data)); err != nil || moved != c.moved {
			t.Errorf("%s: moved %v (%v), want %v", c.data, moved, err, c.moved)
		}
	}
}

// BenchmarkAssemble folds answers of 40-byte deltas in: the time per byte
// stays the same whatever the answer's size.
func BenchmarkAssemble(b *testing.B) {
	ev := event(b, textDelta(strings.Repeat("y", 40)))
	start, stop := event(b, startText), event(b, stopMsg)
	for _, size := range []int{1 << 20, 4 << 20} {
		b.Run(fmt.Sprintf("%dMiB", size>>20), func(b *testing.B) {
			b.SetBytes(int64(size))
			for b.Loop() {
				a := newAccumulator("", 0)
				a.add(start)
				for range size / 40 {
					a.add(ev)
				}
				a.add(stop)
				_ = a.response()
			}
		})
	}
}

// An endless stream of events that add nothing to the answer (thinking,
// stop events) is stopped too.
func TestEndlessEventsAreCut(t *testing.T) {
	a := newAccumulator("http://model.test", 0)
	ev := event(t, `{"type":"message_delta","delta":{"stop_reason":null},"usage":{"output_tokens":1},"padding":"`+strings.Repeat("p", 1<<20)+`"}`)
	var err error
	for n := 0; err == nil && n < 1000; n++ {
		_, _, err = a.add(ev)
	}
	var big *llm.AnswerTooLargeError
	if !errors.As(err, &big) || !strings.Contains(err.Error(), "128 MiB") {
		t.Fatalf("error %v", err)
	}
}
