package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// A server that starts its answer and then only sends keep-alive pings is
// given up on after the idle timeout, on both APIs: pings are not
// progress.
func TestKeepAlivePingsDoNotDefeatTheIdleTimeout(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api, fakemodel.Reply{Name: "pings", Text: "never sent", KeepAlive: fakemodel.Duration(100 * time.Millisecond), Times: -1})
		w.userSettings(`{"retry":{"maxAttempts":2}}`)
		w.extraEnv = append(w.extraEnv, "PONDER_IDLE_TIMEOUT=1")
		start := time.Now()
		o := w.mustRun(1, "", "-p", "hello")
		if !strings.Contains(o.stderr, "no data from the model server for 1 s") {
			t.Fatalf("stderr %q", o.stderr)
		}
		if d := time.Since(start); d > 30*time.Second {
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

// An answer that never ends is stopped at the bound of one block with an
// error that says so, is not tried again, and does not take ponder's
// memory with it.
func TestEndlessAnswerIsStopped(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api, fakemodel.Reply{Name: "endless", Text: strings.Repeat("and so on ", 400), ChunkBytes: 2000, Endless: true, Times: -1})
		p := w.spawnMeasured("-p", "hello")
		code, sig := p.wait(t)
		if code != 1 || sig != 0 {
			t.Fatalf("exit %d (signal %v); stderr:\n%s", code, sig, p.stderr.String())
		}
		stderr := p.stderr.String()
		for _, want := range []string{"the model's answer is too large", "8 MiB", w.srv.URL()} {
			if !strings.Contains(stderr, want) {
				t.Errorf("stderr %q lacks %q", stderr, want)
			}
		}
		if n := len(w.settled()); n != 1 {
			t.Errorf("%d requests; an answer too large is not asked for again", n)
		}
		mb := p.peakMB(t)
		t.Logf("%s: peak memory %d MB", api, mb)
		if mb > 120 {
			t.Errorf("peak memory %d MB for an answer bounded at 8 MiB", mb)
		}
	})
}

// Four megabytes of 40-byte deltas are assembled in time proportional to
// their size: the whole run stays within a few seconds of CPU.
func TestManySmallDeltasCostLinearTime(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		text := strings.Repeat("0123456789abcdefghijklmnopqrstuvwxyz \n", 4<<20/38)
		w := newWorld(t, api, fakemodel.Reply{Name: "big", Text: text, ChunkBytes: 40})
		w.timeout = 3 * time.Minute
		p := w.spawn("-p", "hello")
		if code, _ := p.wait(t); code != 0 {
			t.Fatalf("exit %d; stderr:\n%s", code, p.stderr.String())
		}
		if got := p.stdout.Len(); got < len(text) {
			t.Errorf("printed %d bytes of %d", got, len(text))
		}
		ps := p.cmd.ProcessState
		cpu := ps.UserTime() + ps.SystemTime()
		t.Logf("%s: %d bytes in %d deltas: %s of CPU", api, len(text), len(text)/40, cpu)
		if cpu > 10*time.Second {
			t.Errorf("%s of CPU for 4 MB of deltas", cpu)
		}
	})
}

// A text delta whose text is a JSON array is not skipped: it fails the
// attempt, which is tried again, and finally reported as undecodable.
func TestUndecodableDeltaIsRetriedThenReported(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api, fakemodel.Reply{Name: "bad", Text: "an answer with a bad delta", BadDelta: true, Times: -1})
		w.userSettings(`{"retry":{"maxAttempts":2}}`)
		o := w.mustRun(1, "", "-p", "hello")
		for _, want := range []string{"undecodable", "delta", "an array, not a string", w.srv.URL()} {
			if !strings.Contains(o.stderr, want) {
				t.Errorf("stderr %q lacks %q", o.stderr, want)
			}
		}
		if n := len(w.settled()); n != 2 {
			t.Errorf("%d requests, want 2 (one retry)", n)
		}
	})
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api,
			fakemodel.Reply{Name: "bad", Text: "words that must not count", BadDelta: true},
			fakemodel.Reply{Name: "good", Text: "the whole answer"})
		o := w.mustRun(0, "", "-p", "hello")
		if strings.TrimSpace(o.stdout) != "the whole answer" {
			t.Fatalf("stdout %q", o.stdout)
		}
		w.allUsed()
	})
}
