package e2e

import (
	"os"
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// One Edit with replace_all cannot turn the plan file (the one file plan
// mode lets change) into a file past the bound on what a call may write:
// it is refused before anything is written, and the file stays as it was.
func TestEditOfThePlanFileIsBounded(t *testing.T) {
	pw := newPlanWorld(t)
	big := strings.Repeat("x\n", 512<<10) // 1 MiB
	if err := os.WriteFile(pw.plan, []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	res, _ := pw.resumeWith(t, "grow the plan", []fakemodel.ToolCall{
		{Name: "Read", Input: map[string]any{"file_path": pw.plan}},
		{Name: "Edit", Input: map[string]any{"file_path": pw.plan, "old_string": "x", "new_string": strings.Repeat("y", 128), "replace_all": true}},
	})
	if !failed(res[1]) || !strings.Contains(res[1].Content, "files.maxWriteMiB") {
		t.Fatalf("the edit was not refused for its size: %.300s", res[1].Content)
	}
	if info, err := os.Stat(pw.plan); err != nil || info.Size() != int64(len(big)) {
		t.Fatalf("the plan file changed: %v, %v", info.Size(), err)
	}
}
