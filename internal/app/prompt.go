package app

import (
	_ "embed"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"text/template"
	"time"
)

//go:embed prompt.md
var promptText string

// promptTemplate is parsed on first use, not at start-up.
var promptTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("system").Parse(promptText))
})

// promptInfo is what the system prompt describes.
type promptInfo struct {
	Dir              string
	Git              bool
	Platform         string
	Date             string
	Instructions     string
	InstructionsFile string
	HasTodo          bool
	HasAsk           bool
	HasEnter         bool
}

// maxInstructions bounds the project instructions included in the prompt.
const maxInstructions = 40_000

// systemPrompt builds the system prompt. It stays the same for the whole
// session so the provider's prompt cache keeps working; everything that
// changes (plan mode, reminders) travels in the conversation instead.
func systemPrompt(dir string, now time.Time, tools []string) string {
	info := promptInfo{
		Dir:      dir,
		Git:      isGitRepo(dir),
		Platform: runtime.GOOS + "/" + runtime.GOARCH,
		Date:     now.Format("2006-01-02"),
		HasTodo:  slices.Contains(tools, "TodoWrite"),
		HasAsk:   slices.Contains(tools, "AskUserQuestion"),
		HasEnter: slices.Contains(tools, "EnterPlanMode"),
	}
	info.Instructions, info.InstructionsFile = projectInstructions(dir)
	var b strings.Builder
	if err := promptTemplate().Execute(&b, info); err != nil {
		panic(err) // the template is part of the binary
	}
	return b.String()
}

// projectInstructions reads AGENTS.md, or CLAUDE.md when there is no
// AGENTS.md, from the project directory.
func projectInstructions(dir string) (text, file string) {
	for _, name := range []string{"AGENTS.md", "CLAUDE.md"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			continue
		}
		s := strings.TrimSpace(string(data))
		if len(s) > maxInstructions {
			s = s[:maxInstructions] + "\n[… the rest of " + name + " was left out]"
		}
		return s, name
	}
	return "", ""
}

// isGitRepo reports whether dir is inside a git work tree.
func isGitRepo(dir string) bool {
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			return true
		}
		parent := filepath.Dir(d)
		if parent == d {
			return false
		}
		d = parent
	}
}
