package e2e

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// userSettings writes the user's own settings file.
func (w *world) userSettings(content string) {
	w.t.Helper()
	if err := os.MkdirAll(w.cfg, 0o755); err != nil {
		w.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(w.cfg, "settings.json"), []byte(content), 0o600); err != nil {
		w.t.Fatal(err)
	}
}

// settled waits until every logged request has an outcome.
func (w *world) settled() []fakemodel.Request {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err := w.srv.WaitFor(ctx, func(rs []fakemodel.Request) bool {
		for _, r := range rs {
			if r.Outcome == fakemodel.OutcomePending {
				return false
			}
		}
		return true
	})
	if err != nil {
		w.t.Fatalf("requests never settled: %v", err)
	}
	return w.srv.Requests()
}

// stalls are the ways a model server can fall silent.
var stalls = map[string]fakemodel.Reply{
	"no-answer":           {NoAnswer: true},
	"stall-after-headers": {StallAfterHeaders: true},
	"stall-mid-stream":    {Text: "an answer that stops half way through and never goes on", StallAfter: 3},
}

// A server that goes silent is given up on after the idle timeout,
// retried, and finally reported as silent with exit 1, instead of
// holding ponder forever.
func TestSilentServerIsRetriedThenReported(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		for name, stall := range stalls {
			t.Run(name, func(t *testing.T) {
				stall.Name, stall.Times = name, -1
				w := newWorld(t, api, stall)
				w.userSettings(`{"retry":{"maxAttempts":2}}`)
				w.extraEnv = append(w.extraEnv, "PONDER_IDLE_TIMEOUT=0.3")
				start := time.Now()
				o := w.mustRun(1, "", "-p", "hello")
				if !strings.Contains(o.stderr, "no data from the model server for 0.3 s") {
					t.Fatalf("stderr %q", o.stderr)
				}
				if d := time.Since(start); d > 20*time.Second {
					t.Errorf("took %s", d)
				}
				reqs := w.settled()
				if len(reqs) != 2 {
					t.Fatalf("%d requests, want 2 (one retry)", len(reqs))
				}
				for _, r := range reqs {
					if r.Outcome != fakemodel.OutcomeStalled {
						t.Errorf("outcome %q, want stalled", r.Outcome)
					}
				}
			})
		}
	})
}

func TestSilentServerOnceThenAnswer(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		for name, stall := range stalls {
			t.Run(name, func(t *testing.T) {
				stall.Name = name
				w := newWorld(t, api, stall, fakemodel.Reply{Name: "ok", Text: "recovered"})
				w.extraEnv = append(w.extraEnv, "PONDER_IDLE_TIMEOUT=0.3")
				o := w.mustRun(0, "", "-p", "hello")
				if strings.TrimSpace(o.stdout) != "recovered" {
					t.Fatalf("stdout %q", o.stdout)
				}
				if !strings.Contains(o.stderr, "no data from the model server") {
					t.Errorf("the retry does not say why: %q", o.stderr)
				}
				w.allUsed()
			})
		}
	})
}

// The idle timeout also comes from settings, and a bad value is an error
// that names it.
func TestIdleTimeoutSetting(t *testing.T) {
	w := newWorld(t, "anthropic", fakemodel.Reply{Name: "stall", StallAfterHeaders: true, Times: -1})
	w.userSettings(`{"network":{"idleTimeout":1},"retry":{"maxAttempts":1}}`)
	o := w.mustRun(1, "", "-p", "hello")
	if !strings.Contains(o.stderr, "no data from the model server for 1 s") {
		t.Fatalf("stderr %q", o.stderr)
	}
	w.userSettings(`{"network":{"idleTimeout":0.01}}`)
	o = w.mustRun(2, "", "-p", "hello")
	if !strings.Contains(o.stderr, "network.idleTimeout") {
		t.Fatalf("stderr %q", o.stderr)
	}
	w.userSettings(`{}`)
	w.extraEnv = append(w.extraEnv, "PONDER_IDLE_TIMEOUT=soon")
	o = w.mustRun(2, "", "-p", "hello")
	if !strings.Contains(o.stderr, "PONDER_IDLE_TIMEOUT") {
		t.Fatalf("stderr %q", o.stderr)
	}
}

// An overload reported inside a 200 stream is retried like a 529, and the
// text streamed before it is dropped.
func TestInStreamOverloadIsRetried(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api,
			fakemodel.Reply{Name: "overloaded", Text: "partial words that must not count", StreamError: "overloaded_error", ErrorAfter: 3, ErrorCode: "overloaded"},
			fakemodel.Reply{Name: "ok", Text: "whole answer"},
		)
		o := w.mustRun(0, "", "-p", "hello", "--output-format", "json")
		if res := lastResult(t, o.stdout); res["result"] != "whole answer" {
			t.Fatalf("result %v", res)
		}
		if !strings.Contains(o.stderr, "overloaded") {
			t.Errorf("the retry does not say why: %q", o.stderr)
		}
		reqs := w.settled()
		if len(reqs) != 2 || reqs[0].Outcome != fakemodel.OutcomeStreamErr {
			t.Fatalf("requests %+v", reqs)
		}
	})
}

// Any other in-stream error is reported with its type and message, not as
// "200 OK", and is not retried.
func TestInStreamErrorIsReported(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api, fakemodel.Reply{Name: "bad", Text: "some text first", StreamError: "invalid_request_error",
			ErrorMessage: "the prompt is too long", ErrorAfter: 2, Times: -1})
		o := w.mustRun(1, "", "-p", "hello")
		for _, want := range []string{"invalid_request_error", "the prompt is too long", w.srv.URL()} {
			if !strings.Contains(o.stderr, want) {
				t.Errorf("stderr %q lacks %q", o.stderr, want)
			}
		}
		if strings.Contains(o.stderr, "200") {
			t.Errorf("stderr %q reports the stream's status", o.stderr)
		}
		if n := len(w.settled()); n != 1 {
			t.Errorf("%d requests; a bad request is not retried", n)
		}
	})
}

// A server nobody listens on is named as unreachable, not as a stream
// that ended early.
func TestConnectionRefusedIsNamed(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		url := "http://" + ln.Addr().String()
		ln.Close()
		w := newWorld(t, api)
		w.userSettings(`{"retry":{"maxAttempts":2}}`)
		base, env := url, "ANTHROPIC_BASE_URL="
		if api == "openai" {
			base, env = url+"/v1", "OPENAI_BASE_URL="
		}
		w.extraEnv = append(w.extraEnv, env+base)
		o := w.mustRun(1, "", "-p", "hello")
		want := "cannot connect to the model server at " + base + ": connection refused"
		if !strings.Contains(o.stderr, want) || strings.Contains(o.stderr, "ended early") {
			t.Fatalf("stderr %q, want %q", o.stderr, want)
		}
	})
}
