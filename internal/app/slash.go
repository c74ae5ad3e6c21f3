package app

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/commands"
	"github.com/ponder-agent/ponder/internal/config"
)

// This file is custom slash commands: markdown prompts from
// <config>/commands, ~/.claude/commands, .ponder/commands and
// .claude/commands, expanded by Send when a prompt starts with their name.

// builtinCommands are the names the interface keeps for itself; no file
// may take them.
var builtinCommands = []string{"plan", "clear", "compact", "resume", "rewind", "model", "todos", "cost", "help", "exit", "quit",
	"diff", "init", "context", "permissions", "status"}

// CommandInfo describes a custom slash command to front ends.
type CommandInfo struct {
	// Name is the command with its slash ("/review").
	Name         string
	Description  string
	ArgumentHint string
	// Scope is "user" or "project".
	Scope string
}

// loadCommands reads the command files; the user's come first, so a
// repository cannot replace them.
func (a *App) loadCommands() {
	home, _ := os.UserHomeDir()
	dirs := []commands.Dir{{Path: filepath.Join(a.cfg.ConfigDir, "commands"), Scope: commands.ScopeUser}}
	if home != "" {
		dirs = append(dirs, commands.Dir{Path: filepath.Join(home, ".claude", "commands"), Scope: commands.ScopeUser})
	}
	dirs = append(dirs, projectCommandDirs(a.root)...)
	cmds, problems := commands.Load(dirs, builtinCommands)
	for _, p := range problems {
		a.warnings = append(a.warnings, "skipped "+p.Error())
	}
	a.commands = cmds
}

// Commands lists the custom slash commands, by name.
func (a *App) Commands() []CommandInfo {
	out := make([]CommandInfo, len(a.commands))
	for i, c := range a.commands {
		out[i] = CommandInfo{Name: "/" + c.Name, Description: c.Description, ArgumentHint: c.ArgumentHint, Scope: string(c.Scope)}
	}
	return out
}

// IsCommand reports whether line starts with a custom command's name.
func (a *App) IsCommand(line string) bool {
	_, ok := a.command(line)
	return ok
}

// command finds the custom command line calls, with its arguments.
func (a *App) command(line string) (cmdCall, bool) {
	name, args, ok := commands.Split(line)
	if !ok {
		return cmdCall{}, false
	}
	if name == initCommand.Name {
		return cmdCall{initCommand, args}, true
	}
	for _, c := range a.commands {
		if c.Name == name {
			return cmdCall{c, args}, true
		}
	}
	return cmdCall{}, false
}

type cmdCall struct {
	cmd  commands.Command
	args string
}

// expandCommand turns a line calling a custom command into its prompt,
// and returns the model the command asks for ("" for the session's).
// What the command's front matter asks for counts only when the file is
// the user's or the project is trusted: a repository's command is a
// prompt, nothing more. Its allowed tools become allow rules for the
// rest of the session, added through the permission engine, so plan mode
// and deny rules still hold over them. Any other line comes back as it
// is. ownText says the prompt is the user's own words (typed, or a
// command of the user's or a trusted folder's), whose @-mentions attach
// files.
func (a *App) expandCommand(line string) (prompt, model string, ownText bool) {
	call, ok := a.command(line)
	if !ok {
		return line, "", true
	}
	c := call.cmd
	granted := c.Scope == commands.ScopeUser || a.cfg.Trusted
	if len(c.AllowedTools) > 0 || c.Model != "" {
		if !granted {
			// Said when the command is used, once per run: the notice at
			// start leaves commands out.
			a.mu.Lock()
			warned := a.commandWarned[c.Name]
			if a.commandWarned == nil {
				a.commandWarned = map[string]bool{}
			}
			a.commandWarned[c.Name] = true
			a.mu.Unlock()
			if !warned {
				var what []string
				if len(c.AllowedTools) > 0 {
					what = append(what, "allowed-tools ("+strings.Join(c.AllowedTools, ", ")+")")
				}
				if c.Model != "" {
					what = append(what, "model ("+c.Model+")")
				}
				a.emit(event.Notice{Level: "warning", Text: fmt.Sprintf("/%s is a command of this project (%s); its %s ignored until you trust this folder (--trust).",
					c.Name, c.Path, strings.Join(what, " and ")+map[bool]string{true: " are", false: " is"}[len(what) > 1])})
			}
		} else {
			for _, r := range c.AllowedTools {
				if err := a.perm.AddAllow(r); err != nil {
					a.emit(event.Notice{Level: "warning", Text: fmt.Sprintf("/%s: allowed-tools %q: %v", c.Name, r, err)})
				}
			}
			if len(c.AllowedTools) > 0 {
				a.emit(event.Notice{Level: "info", Text: fmt.Sprintf("/%s allows for this session: %s", c.Name, strings.Join(c.AllowedTools, ", "))})
			}
			model = c.Model
		}
	}
	return c.Expand(call.args), model, granted
}

// setTurnModel sets the model of the turn about to run ("" for the
// session's).
func (a *App) setTurnModel(model string) {
	a.mu.Lock()
	a.turnModel = a.aliases.resolve(model)
	a.mu.Unlock()
}

// projectCommandDirs are the project's directories of command files.
func projectCommandDirs(root string) []commands.Dir {
	return []commands.Dir{
		{Path: filepath.Join(root, ".ponder", "commands"), Scope: commands.ScopeProject},
		{Path: filepath.Join(root, ".claude", "commands"), Scope: commands.ScopeProject}}
}

// ignoredCommandGrants lists what an untrusted project's commands ask for
// that is ignored (allowed-tools, model), for the one trust notice and
// the trust question.
func ignoredCommandGrants(root string) []config.Ignored {
	cmds, _ := commands.Load(projectCommandDirs(root), builtinCommands)
	var out []config.Ignored
	for _, c := range cmds {
		if len(c.AllowedTools) > 0 {
			out = append(out, config.Ignored{File: c.Path, Name: "allowed-tools of /" + c.Name, Value: strings.Join(c.AllowedTools, ", ")})
		}
		if c.Model != "" {
			out = append(out, config.Ignored{File: c.Path, Name: "model of /" + c.Name, Value: c.Model})
		}
	}
	return out
}
