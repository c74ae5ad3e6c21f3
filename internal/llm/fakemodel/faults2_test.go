package fakemodel

import (
	"errors"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/ponder-agent/ponder/internal/llm"
)

// A server that sends only keep-alive pings after the start of its answer
// is silent for the idle timeout on both APIs, however often it pings.
func TestKeepAlivePingsDoNotHoldTheStream(t *testing.T) {
	for _, api := range []string{APIAnthropic, APIOpenAI} {
		t.Run(api, func(t *testing.T) {
			t.Parallel()
			srv := newServer(t, Reply{Text: longText, KeepAlive: Duration(20 * time.Millisecond)})
			start := time.Now()
			_, err := drain(testCtx(t), adapter(srv, api, 300*time.Millisecond))
			var idle *llm.IdleTimeoutError
			if !errors.As(err, &idle) {
				t.Fatalf("error %v (%T), want an idle timeout", err, err)
			}
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("took %s", d)
			}
			if reqs := settled(t, srv); reqs[0].Outcome != OutcomeStalled {
				t.Errorf("outcome %q", reqs[0].Outcome)
			}
		})
	}
}

// A slow answer whose deltas keep coming is not cut by the idle timeout.
func TestSlowProgressIsNotIdle(t *testing.T) {
	for _, api := range []string{APIAnthropic, APIOpenAI} {
		t.Run(api, func(t *testing.T) {
			t.Parallel()
			srv := newServer(t, Reply{Text: "one two three four five six seven eight", ChunkBytes: 4, ChunkDelay: Duration(60 * time.Millisecond)})
			text, err := drain(testCtx(t), adapter(srv, api, 300*time.Millisecond))
			if err != nil || text != "one two three four five six seven eight" {
				t.Fatalf("%q, %v", text, err)
			}
		})
	}
}

// An endless answer is stopped at the bound of one block.
func TestEndlessAnswerIsStopped(t *testing.T) {
	for _, api := range []string{APIAnthropic, APIOpenAI} {
		t.Run(api, func(t *testing.T) {
			t.Parallel()
			srv := newServer(t, Reply{Text: strings.Repeat("endless ", 512), ChunkBytes: 4096, Endless: true})
			text, err := drain(testCtx(t), adapter(srv, api, time.Minute))
			var big *llm.AnswerTooLargeError
			if !errors.As(err, &big) || llm.IsTransient(err) {
				t.Fatalf("error %v (%T), want an AnswerTooLargeError", err, err)
			}
			if len(text) > llm.MaxBlockBytes+4096 {
				t.Errorf("streamed %d bytes", len(text))
			}
		})
	}
}

// A text delta whose text is an array is an error worth another attempt.
func TestBadDeltaIsAnError(t *testing.T) {
	for _, api := range []string{APIAnthropic, APIOpenAI} {
		t.Run(api, func(t *testing.T) {
			t.Parallel()
			srv := newServer(t, Reply{Text: longText, BadDelta: true})
			_, err := drain(testCtx(t), adapter(srv, api, time.Minute))
			var bad *llm.BadEventError
			if !errors.As(err, &bad) || !llm.IsTransient(err) || !strings.Contains(err.Error(), "an array, not a string") {
				t.Fatalf("error %v (%T)", err, err)
			}
		})
	}
}

// Text in deltas of a fixed size joins back whole, runes uncut.
func TestChunkBytes(t *testing.T) {
	text := strings.Repeat("héllo wörld ", 20)
	pieces := textPieces(Reply{Text: text, ChunkBytes: 5})
	if strings.Join(pieces, "") != text || len(pieces) < len(text)/7 {
		t.Fatalf("%d pieces", len(pieces))
	}
	for _, p := range pieces {
		if !utf8.ValidString(p) {
			t.Fatalf("piece %q cuts a rune", p)
		}
	}
}

func TestNewFaultFieldsParseFromJSON(t *testing.T) {
	s, err := ParseScript([]byte(`{"replies":[{"text":"x","keep_alive":"1s","endless":true,"chunk_bytes":4,"bad_delta":true}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if r := s.Replies[0]; r.KeepAlive.D() != time.Second || !r.Endless || r.ChunkBytes != 4 || !r.BadDelta {
		t.Fatalf("parsed %+v", r)
	}
	for _, bad := range []string{
		`{"replies":[{"endless":true}]}`,
		`{"replies":[{"bad_delta":true}]}`,
		`{"replies":[{"text":"x","chunk_bytes":-1}]}`,
		`{"replies":[{"text":"x","keep_alive":-5}]}`,
	} {
		if _, err := ParseScript([]byte(bad)); err == nil {
			t.Errorf("accepted %s", bad)
		}
	}
}
