package acp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	sdk "github.com/coder/acp-go-sdk"
)

func TestDescribeKindsTitlesLocations(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name, input string
		kind        sdk.ToolKind
		title, loc  string
	}{
		{"Read", `{"file_path":"a.go","offset":7}`, sdk.ToolKindRead, "Read a.go", "a.go"},
		{"LS", `{"path":"sub"}`, sdk.ToolKindRead, "List sub", "sub"},
		{"Write", `{"file_path":"b.go","content":"x"}`, sdk.ToolKindEdit, "Write b.go", "b.go"},
		{"Edit", `{"file_path":"c.go","old_string":"a","new_string":"b"}`, sdk.ToolKindEdit, "Edit c.go", "c.go"},
		{"Glob", `{"pattern":"**/*.go"}`, sdk.ToolKindSearch, "Find **/*.go", ""},
		{"Grep", `{"pattern":"TODO","path":"src"}`, sdk.ToolKindSearch, "Search for TODO", "src"},
		{"Bash", `{"command":"go test ./...\nrm -rf /"}`, sdk.ToolKindExecute, "Run go test ./... …", ""},
		{"WebFetch", `{"url":"https://example.com","prompt":"p"}`, sdk.ToolKindFetch, "Fetch https://example.com", ""},
		{"Task", `{"subagent_type":"Explore","description":"find it","prompt":"p"}`, sdk.ToolKindThink, "Agent (Explore): find it", ""},
		{"ExitPlanMode", `{}`, sdk.ToolKindSwitchMode, "Present the plan for approval", ""},
		{"mcp__x__y", `not json`, sdk.ToolKindOther, "mcp__x__y", ""},
	}
	for _, tc := range cases {
		c := describe(dir, "id", tc.name, json.RawMessage(tc.input))
		if c.kind != tc.kind || c.title != tc.title {
			t.Errorf("%s: kind %q title %q", tc.name, c.kind, c.title)
		}
		if tc.loc != "" && (len(c.locs) != 1 || c.locs[0].Path != filepath.Join(dir, tc.loc)) {
			t.Errorf("%s: locations %+v", tc.name, c.locs)
		}
	}
	if r := describe(dir, "id", "Read", json.RawMessage(`{"file_path":"a.go","offset":7}`)); r.locs[0].Line == nil || *r.locs[0].Line != 7 {
		t.Errorf("read line %+v", r.locs)
	}
	if e := describe(dir, "id", "Edit", json.RawMessage(`{"file_path":"c.go","old_string":"a","new_string":"b"}`)); e.diff[0].Diff == nil || *e.diff[0].Diff.OldText != "a" || e.diff[0].Diff.NewText != "b" {
		t.Errorf("edit diff %+v", e.diff)
	}
}

// A Write's diff shows the old text of project files only: the call is
// shown before anything decided it may run, so a model cannot have the
// editor display a file outside the project, directly or by a link.
func TestWriteDiffReadsOnlyProjectFiles(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "project")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	secret := filepath.Join(base, "secret.txt")
	for p, text := range map[string]string{secret: "outside", filepath.Join(dir, "in.txt"): "inside"} {
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(secret, filepath.Join(dir, "link.txt")); err != nil {
		t.Fatal(err)
	}
	old := func(path string) *string {
		in, _ := json.Marshal(map[string]string{"file_path": path, "content": "new"})
		c := describe(dir, "id", "Write", in)
		return c.diff[0].Diff.OldText
	}
	if o := old("in.txt"); o == nil || *o != "inside" {
		t.Errorf("project file: old text %v", o)
	}
	for _, p := range []string{secret, "link.txt", "../secret.txt", "/proc/self/environ", "missing.txt"} {
		if o := old(p); o != nil {
			t.Errorf("%s: old text %q shown", p, *o)
		}
	}
}
