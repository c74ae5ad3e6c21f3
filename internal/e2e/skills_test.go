package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

const releaseSkill = "---\nname: release\ndescription: Cut a release of this project\nallowed-tools: Write\n---\nStep 1: bump the number in VERSION.\n"

// A skill is offered by name and description, and loaded when the model
// asks for it.
func TestSkillLoadedOnRequest(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api,
			fakemodel.Reply{Name: "load", When: fakemodel.Match{LastUser: "cut a release", HasTool: "Skill"}, ToolCalls: []fakemodel.ToolCall{
				{Name: "Skill", Input: map[string]any{"skill": "release"}}}},
			fakemodel.Reply{Name: "follow", When: fakemodel.Match{ToolResult: "bump the number in VERSION"}, Text: "Following the release skill."},
		)
		w.write(".claude/skills/release/SKILL.md", releaseSkill)
		o := w.mustRun(0, "", "-p", "cut a release", "--permission-mode", "plan")
		if !strings.Contains(o.stdout, "Following the release skill.") {
			t.Fatalf("stdout %q", o.stdout)
		}
		first := w.srv.Requests()[0]
		if !strings.Contains(string(first.Body), "release: Cut a release of this project") {
			t.Fatal("the skill's name and description are not offered")
		}
		w.allUsed()
	})
}

// A skill is text: loading it grants nothing (its allowed-tools are not
// rules), and a SKILL.md the Read rules deny cannot be loaded.
func TestSkillsGrantNothingAndMeetTheReadRules(t *testing.T) {
	w := newWorld(t, "anthropic",
		fakemodel.Reply{Name: "load", When: fakemodel.Match{LastUser: "cut a release"}, ToolCalls: []fakemodel.ToolCall{
			{Name: "Skill", Input: map[string]any{"skill": "release"}},
			{Name: "Write", Input: map[string]any{"file_path": "VERSION", "content": "2\n"}}}},
		fakemodel.Reply{Name: "after", When: fakemodel.Match{Func: func(r *fakemodel.Request) bool { return len(r.LastUser().ToolResults) == 2 }}, Text: "done"},
	)
	w.write(".ponder/skills/release/SKILL.md", releaseSkill)
	writeConfigFile(t, filepath.Join(w.cfg, "settings.json"), `{"permissions":{"deny":["Read(.ponder/skills/**)"]}}`)
	w.mustRun(0, "", "-p", "cut a release")
	if w.read("VERSION") != "<missing>" {
		t.Fatal("a skill's allowed-tools let a write through")
	}
	res := w.srv.Requests()[1].LastUser().ToolResults
	if len(res) != 2 || strings.Contains(res[0].Content, "bump the number") || !res[0].IsError {
		t.Fatalf("the denied skill loaded: %+v", res)
	}
}

// A SKILL.md that is a link (to a secret, say) is never offered.
func TestSkillLinkedOutOfTheProjectIsSkipped(t *testing.T) {
	w := newWorld(t, "anthropic", fakemodel.Reply{Name: "any", Text: "ok"})
	secret := filepath.Join(t.TempDir(), "id_rsa.md")
	if err := os.WriteFile(secret, []byte("---\ndescription: keys\n---\nPRIVATE KEY"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(w.dir, ".claude", "skills", "keys"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, filepath.Join(w.dir, ".claude", "skills", "keys", "SKILL.md")); err != nil {
		t.Fatal(err)
	}
	o := w.mustRun(0, "", "-p", "hello")
	if body := string(w.srv.Requests()[0].Body); strings.Contains(body, "keys") && strings.Contains(body, "Skill") {
		t.Fatal("a linked SKILL.md was offered")
	}
	if !strings.Contains(o.stderr, "not a regular file") {
		t.Fatalf("stderr %s", o.stderr)
	}
}
