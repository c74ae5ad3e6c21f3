// Package demo builds ponder's scripted demonstration: a scratch copy of a
// tiny project and a fake model that walks through plan mode, so that a
// newcomer can try the interface without an API key.
package demo

import (
	"embed"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ponder-agent/ponder/internal/app"
	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

//go:embed project
var project embed.FS

// Label marks the demo in the status bar.
const Label = "DEMO: scripted session, no model is called"

// Prompt is the request typed into the input box for the newcomer.
const Prompt = "Add a --shout flag that prints the greeting in capitals"

// Options are the app options of a demonstration session: a scratch copy
// of the project (see Scratch) with a configuration of its own, and the
// scripted model in place of a provider.
func Options() (app.Options, error) {
	dir, cfg, err := Scratch()
	if err != nil {
		return app.Options{}, err
	}
	return app.Options{Dir: dir, ConfigDir: cfg, Model: "scripted-demo", LLM: fakemodel.NewProvider(Script()),
		Getenv: func(string) string { return "" }}, nil
}

// Scratch copies the demo project into a new temporary directory and
// returns it with a config directory of its own beside it.
func Scratch() (projectDir, configDir string, err error) {
	base, err := os.MkdirTemp("", "ponder-demo-")
	if err != nil {
		return "", "", err
	}
	projectDir = filepath.Join(base, "greet")
	configDir = filepath.Join(base, "config")
	err = fs.WalkDir(project, "project", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		// go.mod is stored as go.mod.txt: a go.mod would make the
		// directory a module of its own, which cannot be embedded.
		target := filepath.Join(projectDir, strings.TrimSuffix(strings.TrimPrefix(p, "project"), ".txt"))
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := project.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	return projectDir, configDir, err
}

// pace makes the scripted model feel like a model: a pause before it
// answers and text that arrives in pieces.
func pace(r fakemodel.Reply) fakemodel.Reply {
	if r.Delay == 0 {
		r.Delay = fakemodel.Duration(700 * time.Millisecond)
	}
	if r.ChunkDelay == 0 {
		r.ChunkDelay = fakemodel.Duration(60 * time.Millisecond)
	}
	return r
}
