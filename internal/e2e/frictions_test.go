package e2e

import (
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// Text piped to ponder -p with a prompt reaches the model after it.
func TestPipedTextFollowsThePrompt(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api, fakemodel.Reply{When: fakemodel.Match{LastUser: "summarise\n\nfirst line\nsecond line"}, Text: "A summary."})
		o := w.mustRun(0, "first line\nsecond line\n", "-p", "summarise")
		if strings.TrimSpace(o.stdout) != "A summary." {
			t.Fatalf("stdout %q stderr %q", o.stdout, o.stderr)
		}
		w.allUsed()
	})
}

// An ambiguous session id lists the sessions it could mean.
func TestAmbiguousResumeListsTheCandidates(t *testing.T) {
	w := newWorld(t, "anthropic", fakemodel.Reply{Times: -1, Text: "ok"})
	ids := []string{"33333333-0000-4000-8000-000000000001", "33333333-0000-4000-8000-000000000002"}
	for _, id := range ids {
		w.mustRun(0, "", "-p", "hi", "--session-id", id)
	}
	o := w.run("", "-p", "again", "--resume", "3333")
	if o.code != 2 || !strings.Contains(o.stderr, ids[0]) || !strings.Contains(o.stderr, ids[1]) {
		t.Fatalf("exit %d, stderr %q", o.code, o.stderr)
	}
	if o := w.run("", "-p", "again", "--resume", ""); o.code != 2 || !strings.Contains(o.stderr, "needs a session id") {
		t.Fatalf("empty --resume: exit %d, stderr %q", o.code, o.stderr)
	}
}

// plans list says where the plans it lists come from.
func TestPlansListSaysWhichDirectory(t *testing.T) {
	w := newWorld(t, "anthropic",
		writePlan(fakemodel.Match{LastUser: "add a greeting"}),
		exitPlan,
	)
	w.mustRun(0, "", "-p", "add a greeting", "--permission-mode", "plan")
	o := w.mustRun(0, "", "plans", "list")
	if !strings.Contains(o.stderr, "Plans in "+w.cfg+"/plans") || !strings.Contains(o.stderr, "other projects' plans are listed too") {
		t.Fatalf("stderr %q", o.stderr)
	}
	if !strings.Contains(o.stdout, "add-greeting-") {
		t.Fatalf("stdout %q", o.stdout)
	}
}
