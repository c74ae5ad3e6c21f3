package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// A tool denied outright is withheld the same way wherever the rule was
// written (--disallowedTools, the user's settings, an untrusted project's
// settings): the model is not offered it, nor any tool of its kind, and a
// call of it anyway is refused by the permission engine with one
// tool_refused event and nothing else, and nothing runs.
func TestDeniedToolIsWithheldAlikeFromEverySource(t *testing.T) {
	for _, tc := range []struct {
		rule     string
		withheld []string // tools of the rule's kind, none offered
		call     fakemodel.ToolCall
	}{
		{"Task", []string{"Task"}, fakemodel.ToolCall{Name: "Task", Input: map[string]any{
			"description": "look", "prompt": "look around", "subagent_type": "Explore"}}},
		{"Write", []string{"Write", "Edit"}, fakemodel.ToolCall{Name: "Edit", Input: map[string]any{
			"file_path": "notes.txt", "old_string": "old", "new_string": "new"}}},
		{"Bash(*)", []string{"Bash"}, fakemodel.ToolCall{Name: "Bash", Input: map[string]any{"command": "touch ran.txt"}}},
	} {
		t.Run(tc.rule, func(t *testing.T) {
			forAPIs(t, func(t *testing.T, api string) {
				offered := map[string][]string{}
				for _, source := range []string{"flag", "user settings", "project settings"} {
					w := newWorld(t, api, calls("go", tc.call)...)
					w.write("notes.txt", "old\n")
					args := []string{"-p", "go", "--output-format", "stream-json", "--permission-mode", "bypassPermissions"}
					rules := fmt.Sprintf(`{"permissions":{"deny":[%q]}}`, tc.rule)
					switch source {
					case "flag":
						args = append(args, "--disallowedTools", tc.rule)
					case "user settings":
						os.MkdirAll(w.cfg, 0o755)
						os.WriteFile(filepath.Join(w.cfg, "settings.json"), []byte(rules), 0o644)
					case "project settings":
						w.write(".ponder/settings.json", rules)
					}
					o := w.mustRun(0, "", args...)
					reqs := w.srv.Requests()
					first := reqs[0].Tools
					for _, name := range tc.withheld {
						if contains(first, name) {
							t.Errorf("%s: %s is offered: %v", source, name, first)
						}
					}
					offered[source] = first
					res := toolResults(reqs[len(reqs)-1])
					if len(res) != 1 || !failed(res[0]) || !strings.Contains(res[0].Content, "Denied by the permission rule "+tc.rule) {
						t.Errorf("%s: the call's result %+v", source, res)
					}
					refusals, finishes := 0, 0
					for _, l := range lines(t, o.stdout) {
						switch l["event"] {
						case "tool_refused":
							refusals++
							if l["rule"] != "deny rule "+tc.rule || l["tool"] != tc.call.Name {
								t.Errorf("%s: refusal %v", source, l)
							}
						case "tool_finished":
							finishes++
						}
					}
					if refusals != 1 || finishes != 0 {
						t.Errorf("%s: %d tool_refused and %d tool_finished events for one refused call", source, refusals, finishes)
					}
					if w.read("notes.txt") != "old\n" || w.read("ran.txt") != "<missing>" {
						t.Errorf("%s: the refused call ran", source)
					}
					if len(w.srv.Requests()) != 2 {
						t.Errorf("%s: %d requests; a refused Task must launch no agent", source, len(w.srv.Requests()))
					}
				}
				if !slices.Equal(offered["flag"], offered["user settings"]) || !slices.Equal(offered["flag"], offered["project settings"]) {
					t.Errorf("the offered tools differ by where the rule was written: %v", offered)
				}
			})
		})
	}
}

// A tool with a narrower deny rule stays offered; only the calls the rule
// covers are refused.
func TestNarrowDenyRuleKeepsTheToolOffered(t *testing.T) {
	w := newWorld(t, "anthropic", calls("go", fakemodel.ToolCall{Name: "Bash", Input: map[string]any{"command": "echo fine"}})...)
	w.mustRun(0, "", "-p", "go", "--disallowedTools", "Bash(rm:*)", "--allowedTools", "Bash(echo:*)")
	if tools := w.srv.Requests()[0].Tools; !contains(tools, "Bash") {
		t.Fatalf("Bash withheld by a rule about rm only: %v", tools)
	}
	if res := lastResults(t, w, 1); failed(res[0]) || !strings.Contains(res[0].Content, "fine") {
		t.Fatalf("result %+v", res)
	}
}

// The starting mode goes through the one transition like every change,
// and says where it came from: the flag, or a settings file. A settings
// file never turns bypass on, even with the command line's permission and
// the folder trusted.
func TestStartingModeSaysWhereItCameFrom(t *testing.T) {
	w := newWorld(t, "openai", fakemodel.Reply{Times: -1, Text: "ok"})
	w.write(".ponder/settings.json", `{"permissions":{"defaultMode":"plan"}}`)
	o := w.mustRun(0, "", "-p", "hello", "--output-format", "stream-json")
	if via := modeChangeVia(t, o.stdout); via != "settings" {
		t.Fatalf("mode_changed via %q, want settings", via)
	}
	o = w.mustRun(0, "", "-p", "hello", "--output-format", "stream-json", "--permission-mode", "acceptEdits")
	if via := modeChangeVia(t, o.stdout); via != "flag" {
		t.Fatalf("mode_changed via %q, want flag", via)
	}
	w.write(".ponder/settings.json", `{"permissions":{"defaultMode":"bypassPermissions"}}`)
	o = w.mustRun(0, "", "-p", "hello", "--output-format", "json", "--trust", "--dangerously-skip-permissions")
	if m := lastResult(t, o.stdout)["permission_mode"]; m != "default" {
		t.Fatalf("a settings file turned on %v", m)
	}
}

func modeChangeVia(t *testing.T, out string) any {
	t.Helper()
	for _, l := range lines(t, out) {
		if l["event"] == "mode_changed" {
			return l["via"]
		}
	}
	return nil
}
