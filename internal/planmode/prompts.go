package planmode

import (
	"embed"
	"strings"
	"sync"
	"text/template"
)

//go:embed prompts/*.md
var promptFiles embed.FS

// prompts holds every text plan mode gives the model, parsed on first use
// rather than at start-up, which runs that do not plan never pay for.
var prompts = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("").Funcs(template.FuncMap{
		"plural": func(n int, one, many string) string {
			if n == 1 {
				return one
			}
			return many
		},
	}).ParseFS(promptFiles, "prompts/*.md"))
})

// promptData is what the texts may refer to.
type promptData struct {
	PlanFile    string
	Exists      bool
	Explore     int
	PlanAgents  int
	Interview   bool
	Variant     string
	HasTaskTool bool
	Plan        string
	Feedback    string
	Edited      bool
}

func (s *Session) data(path string, exists bool) promptData {
	return promptData{
		PlanFile:    path,
		Exists:      exists,
		Explore:     s.cfg.ExploreAgents,
		PlanAgents:  s.cfg.PlanAgents,
		Interview:   s.cfg.Interview,
		Variant:     s.cfg.Variant,
		HasTaskTool: s.cfg.HasTaskTool != nil && s.cfg.HasTaskTool(),
	}
}

// render fills in the named text (prompts/<name>.md).
func render(name string, d promptData) string {
	var b strings.Builder
	if err := prompts().ExecuteTemplate(&b, name+".md", d); err != nil {
		panic("planmode: text " + name + ": " + err.Error()) // the texts are part of the binary
	}
	return strings.TrimSpace(b.String())
}
