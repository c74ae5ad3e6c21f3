package builtin

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/tool"
)

// In plan mode Write and Edit change the plan file by its own path and
// never through a link: a link put at the plan's path after the
// permission check is replaced, and the file it names stays as it was;
// a path that no longer is the plan file is refused.
func TestPlanWriteReplacesALinkItFinds(t *testing.T) {
	env := newEnv(t)
	plans := permission.Canonical(t.TempDir())
	plan := filepath.Join(plans, "the-plan.md")
	victim := filepath.Join(t.TempDir(), "victim.conf")
	os.WriteFile(victim, []byte("root only\n"), 0o600)
	e, err := permission.NewEngine(permission.Rules{}, env.Dir, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ctx := tool.WithGate(context.Background(), &tool.Gate{Engine: e, Context: permission.Context{Mode: permission.ModePlan, PlanFile: plan}})

	// The link names a file with the plan's size and time, as the other
	// user can arrange, so that the freshness check passes through it:
	// only where the write goes decides.
	os.WriteFile(plan, []byte("# plan 1\n\n"), 0o644)
	env.Files.Note(plan)
	swap := func() {
		info, _ := os.Stat(plan)
		os.Chtimes(victim, info.ModTime(), info.ModTime())
		os.Remove(plan)
		os.Symlink(victim, plan)
	}
	swap()
	if res := prepare(t, NewWrite(), env, map[string]any{"file_path": plan, "content": "# new plan\n"}).Run(ctx); res.IsError {
		t.Fatalf("write: %s", res.Content)
	}
	if data, _ := os.ReadFile(victim); string(data) != "root only\n" {
		t.Fatalf("the write went through the link: %q", data)
	}
	if info, _ := os.Lstat(plan); !info.Mode().IsRegular() {
		t.Fatalf("the link is still there: %v", info.Mode())
	}

	os.WriteFile(plan, []byte("# plan 1\n\n"), 0o644)
	env.Files.Note(plan)
	swap()
	res := prepare(t, NewEdit(), env, map[string]any{"file_path": plan, "old_string": "root only", "new_string": "planned"}).Run(ctx)
	if !res.IsError {
		t.Errorf("an edit read through the link: %s", res.Content)
	}
	if data, _ := os.ReadFile(victim); string(data) != "root only\n" {
		t.Fatalf("the edit went through the link: %q", data)
	}

	other := filepath.Join(plans, "other.md")
	if res := prepare(t, NewWrite(), env, map[string]any{"file_path": other, "content": "x"}).Run(ctx); !res.IsError {
		t.Errorf("wrote %s in plan mode", other)
	}
}
