package agentdef

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Sources are the agent files of one session: the user's own directory
// and the project's, and whether the user trusts the project.
type Sources struct {
	// UserDir holds the user's agent files (<config>/agents).
	UserDir string
	// ProjectDir holds the project's agent files (<root>/.ponder/agents).
	ProjectDir string
	// ProjectTrusted says the user trusts the project. Until then a
	// project's agent file may not choose a model: which model (and so
	// which vendor, at whose cost) gets the code is the user's choice.
	ProjectTrusted bool
}

// ModelChoice is a model an untrusted project's agent file asks for and
// does not get.
type ModelChoice struct {
	// File is the agent file; Model what it names.
	File, Model string
}

// LoadSession returns the agent types of a session: the built-in ones,
// then the user's, then the project's (a later file replaces an earlier
// one of the same name). No file may take the name of a built-in agent
// type, whose read-only limits and prompts the rest of ponder relies on:
// such a file is skipped and reported. An untrusted project's files run
// on the inherited model when they name one of their own (see
// IgnoredModels); the roles inherit and fast are the user's models anyway.
func LoadSession(s Sources) ([]Definition, []error) {
	user, problems := Load(s.UserDir)
	project, more := Load(s.ProjectDir)
	problems = append(problems, more...)
	if !s.ProjectTrusted {
		for i := range project {
			if namesModel(project[i]) {
				project[i].Model = ModelInherit
			}
		}
	}
	defs := BuiltIn()
	for _, d := range append(user, project...) {
		if b, ok := builtinNamed(d.Name); ok {
			problems = append(problems, fmt.Errorf("agent file %s: %q is the name of the built-in %s agent, which a file cannot replace; give the agent another name", d.Source, d.Name, b))
			continue
		}
		defs = append(defs, d)
	}
	return defs, problems
}

// IgnoredModels lists the model choices of an untrusted project's agent
// files, which LoadSession ignores, for the notice that says so.
func IgnoredModels(projectDir string) []ModelChoice {
	defs, _ := Load(projectDir)
	var out []ModelChoice
	for _, d := range defs {
		if namesModel(d) {
			out = append(out, ModelChoice{File: filepath.Clean(d.Source), Model: d.Model})
		}
	}
	return out
}

// namesModel reports whether a definition names a model of its own
// rather than one of the user's roles (inherit, fast).
func namesModel(d Definition) bool {
	return d.Model != ModelInherit && d.Model != ModelFast
}

// builtinNamed finds the built-in agent type a name stands for. Names are
// compared without regard to case, so that "explore" cannot pass for
// Explore in a listing.
func builtinNamed(name string) (string, bool) {
	for _, b := range BuiltIn() {
		if strings.EqualFold(b.Name, name) {
			return b.Name, true
		}
	}
	return "", false
}
