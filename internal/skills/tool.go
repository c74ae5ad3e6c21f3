package skills

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/tool"
)

// toolDoc opens the Skill tool's description; the list of skills follows.
const toolDoc = `Load a skill: instructions for a particular kind of task, written by the user or for this project. When a task matches a skill's description below, load that skill before starting and follow what it says.

Loading a skill only gives you its text and the folder it lives in. Files in that folder (references, templates, scripts) are read with Read and run with Bash like any other file, under the same permissions. Load each skill once per conversation; its instructions stay in the conversation.

Available skills:`

type input struct {
	Skill string `json:"skill" desc:"The name of the skill to load, exactly as listed."`
}

// Tool is the Skill tool over a set of skills.
type Tool struct {
	tool.Meta
	skills []Skill
}

// NewTool returns the Skill tool offering skills. Loading a skill is a
// read of its SKILL.md, so the Read rules decide whether it may be loaded.
func NewTool(skills []Skill) *Tool {
	var b strings.Builder
	b.WriteString(toolDoc)
	for _, s := range skills {
		fmt.Fprintf(&b, "\n- %s: %s", s.Name, s.Description)
	}
	return &Tool{Meta: tool.NewMeta[input]("Skill", permission.KindRead, b.String(), true), skills: skills}
}

// Prepare finds the skill asked for.
func (t *Tool) Prepare(_ *tool.Env, raw json.RawMessage) (tool.Call, error) {
	in, err := tool.Decode[input](raw)
	if err != nil {
		return nil, err
	}
	name := strings.TrimPrefix(strings.TrimSpace(in.Skill), "/")
	if name == "" {
		return nil, errors.New("skill is required: give the name of one of the listed skills")
	}
	for _, s := range t.skills {
		if s.Name == name {
			return &call{s: s}, nil
		}
	}
	names := make([]string, len(t.skills))
	for i, s := range t.skills {
		names[i] = s.Name
	}
	return nil, fmt.Errorf("there is no skill %q; the skills are: %s", name, strings.Join(names, ", "))
}

type call struct{ s Skill }

// Access is a read of the skill's SKILL.md.
func (c *call) Access() permission.Access {
	return permission.Access{Paths: []string{c.s.Path}}
}

// Run reads the skill as it is now (it may have been edited since the
// session started) and returns its instructions.
func (c *call) Run(ctx context.Context) tool.Result {
	if ctx.Err() != nil {
		return tool.Errorf("Skill was interrupted before it started.")
	}
	body := c.s.Body
	if info, err := os.Lstat(c.s.Path); err == nil && info.Mode().IsRegular() {
		if s, err := parseFile(c.s.Path); err == nil && s.Name == c.s.Name {
			body = s.Body
		}
	}
	return tool.Result{
		Content: fmt.Sprintf("Skill %q loaded. Its folder is %s (read its other files from there as you need them).\n\n%s", c.s.Name, c.s.Dir, body),
		Summary: "Loaded skill " + c.s.Name,
	}
}
