package plans

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ponder-agent/ponder/internal/llm"
	"github.com/ponder-agent/ponder/internal/session"
)

// transcript writes a session whose plan-mode states name the slugs, in
// order, the way a session records them.
func transcript(t *testing.T, configDir, project, id string, slugs ...string) {
	t.Helper()
	w, err := session.Create(session.NewStore(configDir, project).Path(id), session.Entry{SessionID: id, Cwd: project})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	msg := llm.UserText("make a plan")
	w.Append(session.Entry{Type: session.TypeMessage, Message: &msg})
	for _, s := range slugs {
		w.Append(session.Entry{Type: session.TypeState, State: []byte(`{"mode": "plan", "slug": "` + s + `"}`)})
	}
}

// Plans are matched to the sessions that wrote them from what their
// transcripts last recorded, across every project sharing the plans
// directory, read through package session.
func TestListFindsTheWritingSession(t *testing.T) {
	base := t.TempDir()
	configDir, plansDir := filepath.Join(base, "config"), filepath.Join(base, "plans")
	os.MkdirAll(plansDir, 0o755)
	for name, body := range map[string]string{"first-plan.md": "# First\n", "second-plan.md": "intro line\n", "second-plan-agent-a1.md": "# Agent\n"} {
		os.WriteFile(filepath.Join(plansDir, name), []byte(body), 0o644)
	}
	old := time.Now().Add(-time.Hour)
	os.Chtimes(filepath.Join(plansDir, "first-plan.md"), old, old)
	transcript(t, configDir, "/p/one", "s-one", "renamed-away", "first-plan")
	transcript(t, configDir, "/p/two", "s-two", "second-plan")
	list, err := List(plansDir, configDir)
	if err != nil || len(list) != 3 {
		t.Fatalf("List = %+v, %v", list, err)
	}
	owners := map[string]string{}
	for _, p := range list {
		owners[p.Slug] = p.Session + " " + p.Title
	}
	want := map[string]string{"first-plan": "s-one First", "second-plan": "s-two intro line", "second-plan-agent-a1": "s-two Agent"}
	for slug, w := range want {
		if owners[slug] != w {
			t.Errorf("%s: %q, want %q", slug, owners[slug], w)
		}
	}
	if list[len(list)-1].Slug != "first-plan" {
		t.Errorf("not newest first: %+v", list)
	}
	if p, err := Find(list, "sec"); err == nil {
		t.Errorf("an ambiguous prefix found %s", p.Slug)
	}
	if p, err := Find(list, "first"); err != nil || p.Slug != "first-plan" {
		t.Errorf("Find(first) = %+v, %v", p, err)
	}
}
