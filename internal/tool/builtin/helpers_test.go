package builtin

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/internal/tool"
)

func newEnv(t *testing.T) *tool.Env {
	t.Helper()
	return &tool.Env{Dir: t.TempDir(), Files: tool.NewFileTracker()}
}

// prepare encodes input and prepares a call, failing the test on error.
func prepare(t *testing.T, tl tool.Tool, env *tool.Env, input any) tool.Call {
	t.Helper()
	c, err := tl.Prepare(env, mustJSON(t, input))
	if err != nil {
		t.Fatalf("%s.Prepare(%s): %v", tl.Name(), mustJSON(t, input), err)
	}
	return c
}

// prepareErr prepares (and, for calls that can, validates) a call that
// must fail before running, and returns the error text.
func prepareErr(t *testing.T, tl tool.Tool, env *tool.Env, input any) string {
	t.Helper()
	c, err := tl.Prepare(env, mustJSON(t, input))
	if err == nil {
		if v, ok := c.(tool.Validator); ok {
			err = v.Validate()
		}
	}
	if err == nil {
		t.Fatalf("%s(%s) was accepted with %+v, want an error", tl.Name(), mustJSON(t, input), c.Access())
	}
	return err.Error()
}

// run prepares and runs a call.
func run(t *testing.T, tl tool.Tool, env *tool.Env, input any) tool.Result {
	t.Helper()
	return prepare(t, tl, env, input).Run(context.Background())
}

// runOK runs a call that must succeed and returns its content.
func runOK(t *testing.T, tl tool.Tool, env *tool.Env, input any) string {
	t.Helper()
	res := run(t, tl, env, input)
	if res.IsError {
		t.Fatalf("%s(%s) failed: %s", tl.Name(), mustJSON(t, input), res.Content)
	}
	return res.Content
}

// runErr runs a call that must fail and returns its content.
func runErr(t *testing.T, tl tool.Tool, env *tool.Env, input any) string {
	t.Helper()
	res := run(t, tl, env, input)
	if !res.IsError {
		t.Fatalf("%s(%s) succeeded, want an error: %s", tl.Name(), mustJSON(t, input), res.Content)
	}
	return res.Content
}

func mustJSON(t *testing.T, v any) json.RawMessage {
	t.Helper()
	if raw, ok := v.(string); ok {
		return json.RawMessage(raw)
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// put writes files below dir; a name ending in "/" makes a directory.
func put(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if strings.HasSuffix(name, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func readString(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func wantContains(t *testing.T, got string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(got, w) {
			if len(got) > 2000 {
				got = got[:1000] + " … " + got[len(got)-1000:]
			}
			t.Errorf("output lacks %q:\n%s", w, got)
		}
	}
}

// TestToolBasics checks names, schemas and concurrency flags of all tools.
func TestToolBasics(t *testing.T) {
	tools := []struct {
		tl    tool.Tool
		name  string
		safe  bool
		props []string
	}{
		{NewRead(), "Read", true, []string{"file_path", "offset", "limit"}},
		{NewWrite(), "Write", false, []string{"file_path", "content"}},
		{NewEdit(), "Edit", false, []string{"file_path", "old_string", "new_string", "replace_all"}},
		{NewGlob(), "Glob", true, []string{"pattern", "path"}},
		{NewGrep(), "Grep", true, []string{"pattern", "path", "glob", "type", "output_mode", "-i", "-n", "-A", "-B", "-C", "head_limit", "multiline"}},
		{NewLS(), "LS", true, []string{"path", "ignore"}},
		{NewBash(BashOptions{}), "Bash", false, []string{"command", "description", "timeout", "run_in_background", "outside_sandbox"}},
		{NewBashOutput(NewShells()), "BashOutput", true, []string{"bash_id", "filter"}},
		{NewKillShell(NewShells()), "KillShell", false, []string{"shell_id"}},
		{NewWebFetch(nil), "WebFetch", true, []string{"url", "prompt"}},
	}
	for _, tc := range tools {
		if tc.tl.Name() != tc.name {
			t.Errorf("name %q, want %q", tc.tl.Name(), tc.name)
		}
		if tc.tl.ConcurrencySafe() != tc.safe {
			t.Errorf("%s: ConcurrencySafe = %v", tc.name, tc.tl.ConcurrencySafe())
		}
		if len(tc.tl.Description()) < 200 {
			t.Errorf("%s: description too short", tc.name)
		}
		var schema struct {
			Properties map[string]json.RawMessage `json:"properties"`
		}
		if err := json.Unmarshal(tc.tl.Schema(), &schema); err != nil {
			t.Fatalf("%s schema: %v", tc.name, err)
		}
		if len(schema.Properties) != len(tc.props) {
			t.Errorf("%s: schema has %d properties, want %d: %s", tc.name, len(schema.Properties), len(tc.props), tc.tl.Schema())
		}
		for _, p := range tc.props {
			if _, ok := schema.Properties[p]; !ok {
				t.Errorf("%s: schema lacks %q", tc.name, p)
			}
		}
		// Unknown fields are refused by every tool.
		if _, err := tc.tl.Prepare(newEnv(t), json.RawMessage(`{"bogus": 1}`)); err == nil {
			t.Errorf("%s accepted an unknown field", tc.name)
		}
	}
}
