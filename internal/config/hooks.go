package config

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/ponder-agent/ponder/event"
)

// HookGroup is one entry of a hook event's list in the settings, in the
// shape other coding agents use:
//
//	{"hooks": {"PreToolUse": [
//	  {"matcher": "Bash", "hooks": [{"type": "command", "command": "./check.sh", "timeout": 30}]}
//	]}}
//
// Matcher selects tools by name for tool events (a regular expression
// that must match the whole name; "" or "*" for all), how the session
// began for SessionStart, and what started a compaction for PreCompact.
type HookGroup struct {
	Matcher string        `json:"matcher,omitempty"`
	Hooks   []HookCommand `json:"hooks"`
}

// HookCommand is one hook: a shell command (type "command", the only
// type ponder runs) and how many seconds it may take (default 60).
type HookCommand struct {
	Type    string   `json:"type"`
	Command string   `json:"command"`
	Timeout *float64 `json:"timeout,omitempty"`
}

// HookEvents are the events the settings may name hooks for.
var HookEvents = []event.HookEvent{event.HookPreToolUse, event.HookPostToolUse, event.HookPostToolUseFailure,
	event.HookUserPromptSubmit, event.HookStop, event.HookSessionStart, event.HookSessionEnd,
	event.HookPreCompact, event.HookNotification, event.HookPermissionRequest, event.HookPlanTransition}

// foreignHookEvents are hook events of other coding agents that ponder
// does not run: a settings file naming them is not broken, and they are
// dropped with a warning. Any other unknown name is an error.
var foreignHookEvents = []string{"SubagentStop"}

// dropForeignHooks removes the hooks of foreignHookEvents from s and says
// so, naming the line.
func dropForeignHooks(file string, data []byte, keys []keyAt, s *Settings) []Warning {
	var out []Warning
	for _, name := range foreignHookEvents {
		if _, ok := s.Hooks[name]; !ok {
			continue
		}
		delete(s.Hooks, name)
		w := Warning{File: file, Msg: fmt.Sprintf("hooks.%s ignored: ponder does not run %s hooks", name, name)}
		if k, ok := keyFor(keys, "hooks."+name); ok {
			w.Line, _ = position(data, k.offset)
		}
		out = append(out, w)
	}
	return out
}

// maxHookTimeout bounds a hook's timeout, in seconds (a day).
const maxHookTimeout = 24 * 60 * 60

// HookSource is one command hook with the file and key that define it.
type HookSource struct {
	Event   event.HookEvent
	Matcher string
	Command string
	// Timeout is the hook's time limit; 0 for the default.
	Timeout time.Duration
	// From is the settings file, Key the hook's place in it
	// ("hooks.PreToolUse[0].hooks[1]").
	From, Key string
}

// HookSources lists the command hooks of the settings that count, the
// user's first: every file adds its own. An untrusted project's hooks are
// not among them (narrow drops them, and the trust notice names them).
// The list is read once, when the settings are loaded: a file changed
// later changes nothing in a session already running.
func (c *Config) HookSources() []HookSource {
	var out []HookSource
	for _, l := range c.Layers {
		for _, ev := range HookEvents {
			for i, g := range l.Settings.Hooks[string(ev)] {
				for j, h := range g.Hooks {
					src := HookSource{Event: ev, Matcher: g.Matcher, Command: h.Command, From: l.File,
						Key: fmt.Sprintf("hooks.%s[%d].hooks[%d]", ev, i, j)}
					if h.Timeout != nil {
						src.Timeout = time.Duration(*h.Timeout * float64(time.Second))
					}
					out = append(out, src)
				}
			}
		}
	}
	return out
}

// validateHooks checks the hooks setting: known events, matchers that
// compile, hooks of type "command" with a command and a sane timeout.
func validateHooks(hooks map[string][]HookGroup) (field, msg string) {
	names := make([]string, len(HookEvents))
	for i, e := range HookEvents {
		names[i] = string(e)
	}
	for _, name := range sortedKeys(hooks) {
		known := false
		for _, e := range HookEvents {
			known = known || string(e) == name
		}
		if !known {
			return "hooks." + name, "is not a hook event ponder runs (want one of " + strings.Join(names, ", ") + ")"
		}
		for i, g := range hooks[name] {
			at := fmt.Sprintf("hooks.%s[%d]", name, i)
			if m := strings.TrimSpace(g.Matcher); m != "" && m != "*" {
				if _, err := regexp.Compile("^(?:" + m + ")$"); err != nil {
					return at + ".matcher", fmt.Sprintf("%q is not a valid regular expression: %v", g.Matcher, err)
				}
			}
			if len(g.Hooks) == 0 {
				return at + ".hooks", "lists no hooks (want [{\"type\": \"command\", \"command\": \"...\"}])"
			}
			for j, h := range g.Hooks {
				at := fmt.Sprintf("%s.hooks[%d]", at, j)
				switch {
				case h.Type == "":
					return at, "type is missing (want \"command\")"
				case h.Type != "command":
					return at, "type " + strconv.Quote(h.Type) + " is not supported (ponder runs \"command\" hooks)"
				case strings.TrimSpace(h.Command) == "":
					return at, "command is empty"
				case h.Timeout != nil && (*h.Timeout <= 0 || *h.Timeout > maxHookTimeout):
					return at, fmt.Sprintf("timeout must be more than 0 and at most %d seconds", maxHookTimeout)
				}
			}
		}
	}
	return "", ""
}
