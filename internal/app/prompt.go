package app

import (
	_ "embed"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"text/template"
	"time"

	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/smallfile"
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
func systemPrompt(dir string, now time.Time, tools []string, readable func(string) bool) (prompt, problem string) {
	info := promptInfo{
		Dir:      dir,
		Git:      isGitRepo(dir),
		Platform: runtime.GOOS + "/" + runtime.GOARCH,
		Date:     now.Format("2006-01-02"),
		HasTodo:  slices.Contains(tools, "TodoWrite"),
		HasAsk:   slices.Contains(tools, "AskUserQuestion"),
		HasEnter: slices.Contains(tools, "EnterPlanMode"),
	}
	info.Instructions, info.InstructionsFile, problem = projectInstructions(dir, readable)
	var b strings.Builder
	if err := promptTemplate().Execute(&b, info); err != nil {
		panic(err) // the template is part of the binary
	}
	return b.String(), problem
}

// projectInstructions reads AGENTS.md, or CLAUDE.md when there is no
// AGENTS.md, from the project directory. The file is what a repository
// says to the model, so it gets no more than a Read of it would: readable
// says whether the rules let it be read without asking (a link to a file
// a deny rule covers is not sent); a link may not lead out of the project
// (a repository has no say over the user's other files); and
// only a regular file's first maxInstructions bytes are read, never a
// device or a pipe. problem says why a file that is there was left out.
func projectInstructions(dir string, readable func(path string) bool) (text, file, problem string) {
	for _, name := range []string{"AGENTS.md", "CLAUDE.md"} {
		path := filepath.Join(dir, name)
		if _, err := os.Lstat(path); err != nil {
			continue
		}
		if !insideDir(dir, path) {
			return "", "", fmt.Sprintf("%s was not given to the model: it is a link that leads out of the project", path)
		}
		if readable != nil && !readable(path) {
			return "", "", fmt.Sprintf("%s was not given to the model: the permission rules do not let ponder read it without asking", path)
		}
		data, err := smallfile.Prefix(path, maxInstructions)
		if err != nil {
			return "", "", fmt.Sprintf("%s was not given to the model: %v", path, err)
		}
		s := strings.TrimSpace(string(data))
		if len(data) > maxInstructions {
			s = strings.TrimSpace(string(data[:maxInstructions])) + "\n[… the rest of " + name + " was left out]"
		}
		return s, name, ""
	}
	return "", "", ""
}

// insideDir reports whether path, with every link resolved, lies in dir
// (also resolved).
func insideDir(dir, path string) bool {
	d, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return false
	}
	p, err := filepath.EvalSymlinks(path)
	if err != nil {
		return false
	}
	rel, err := filepath.Rel(d, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
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

// readsFreely says whether the permission rules let a file be read
// without asking, as a Read of it in the default mode would be.
func (a *App) readsFreely(path string) bool {
	d := a.perm.Decide(permission.NewContext(permission.ModeDefault, nil, permission.Caller{}),
		permission.Access{Tool: "Read", Kind: permission.KindRead, Paths: []string{path}})
	return d.Behavior == permission.Allow
}
