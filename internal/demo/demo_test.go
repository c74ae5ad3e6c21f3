package demo

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/app"
	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/planmode"
)

// yes answers every question the way a newcomer pressing Enter would.
type yes struct{}

func (yes) Ask(_ context.Context, q permission.Question) (permission.Answer, error) {
	if q.Kind == event.AskPlanExit {
		return permission.Answer{Option: planmode.OptionAcceptEdits}, nil
	}
	return permission.Answer{Allow: true}, nil
}

// The scripted session goes all the way: plan mode, a refused early
// write, the plan, approval, and the implementation in the scratch copy.
func TestDemoScriptRunsThrough(t *testing.T) {
	dir, cfg, err := Scratch()
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(filepath.Dir(dir))
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		t.Fatalf("the scratch project lacks go.mod: %v", err)
	}
	prov := fakemodel.NewProvider(script(false))
	a, err := app.New(app.Options{Dir: dir, ConfigDir: cfg, LLM: prov, Interactive: true, Asker: yes{}, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	a.Start()
	res, err := a.Send(context.Background(), Prompt)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Text, "scripted demo") || a.Mode() != event.ModeAcceptEdits {
		t.Fatalf("result %q, mode %s", res.Text, a.Mode())
	}
	main, _ := os.ReadFile(filepath.Join(dir, "main.go"))
	if !strings.Contains(string(main), `flag.Bool("shout"`) {
		t.Fatalf("main.go was not changed:\n%s", main)
	}
	if _, err := os.Stat(filepath.Join(dir, "main_test.go")); err != nil {
		t.Fatal("main_test.go was not written")
	}
	if plan, ok := a.PlanText(); !ok || !strings.Contains(plan, "--shout") {
		t.Fatal("the plan file was not written")
	}
	refused := false
	for _, r := range prov.Requests() {
		for _, tr := range r.LastUser().ToolResults {
			if tr.IsError && strings.Contains(tr.Content, "plan file") {
				refused = true
			}
		}
	}
	if !refused {
		t.Fatal("the demo's early write was not refused by plan mode")
	}
	// Every step of the approving path is used; what is left serves the
	// other paths (declining, clear-context, rejection, interruption).
	if u := strings.Join(prov.Unused(), ","); u != "declined,implement fresh,implement fresh 2,rejected,interrupted,anything else" {
		t.Errorf("unused replies %s", u)
	}
}
