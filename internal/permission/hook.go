package permission

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ponder-agent/ponder/internal/permission/shellclass"
)

// HookRuling is what a session's PreToolUse hooks said about a call. It is
// one voice among the rules, weighed by Decide: a refusal counts like a
// deny rule, asking like an ask rule, and allowing spares the question a
// call would otherwise ask, but never lifts a deny rule or a hard limit
// (plan mode, read-only agents, ponder's secrets).
type HookRuling struct {
	// Behavior is Allow, Ask or Deny; zero when no hook decided.
	Behavior Behavior
	// Reason is the hooks' reason, told to the model with a refusal.
	Reason string
}

// hookDecision turns a hook's ruling into a decision.
func hookDecision(h HookRuling) Decision {
	reason := strings.TrimSpace(h.Reason)
	switch h.Behavior {
	case Deny:
		if reason == "" {
			reason = "A PreToolUse hook refused this call."
		} else {
			reason = "A PreToolUse hook refused this call: " + reason
		}
	case Ask:
		if reason == "" {
			reason = "A PreToolUse hook asks for confirmation."
		}
	default:
		if reason == "" {
			reason = "Allowed by a PreToolUse hook."
		}
	}
	return Decision{Behavior: h.Behavior, Rule: "hook", Reason: reason}
}

// SetSettingsFiles names ponder's own settings files (the user's, which
// may lie anywhere): a hook's allow never spares the question for a write
// to one of them, as it never does for the files that decide what runs
// inside the project (see hookMayAllow).
func (e *Engine) SetSettingsFiles(paths []string) {
	canon := make([]string, 0, len(paths))
	for _, p := range paths {
		canon = append(canon, Canonical(p))
	}
	e.mu.Lock()
	e.settingsFiles = canon
	e.mu.Unlock()
}

// hookMayAllow reports whether a PreToolUse hook's allow may spare the
// question a call would ask. It may not for a call that writes a file
// that decides what runs or one of ponder's settings files (see
// writesWhatRuns): a hook that waves edits through must not become the
// way a model rewrites what runs next, hooks included. The caller holds
// e.mu.
func (e *Engine) hookMayAllow(a Access, canon []string, class shellclass.Result) bool {
	return e.writesWhatRuns(a, canon, class) == ""
}

// writesWhatRuns says why a call writes a file that decides what runs
// (the protected names: ponder's and other agents' settings, which define
// hooks, git's configuration, editor tasks...) or one of ponder's
// settings files, or returns "". For a shell line these are the files its
// words show it writes. The caller holds e.mu.
func (e *Engine) writesWhatRuns(a Access, canon []string, class shellclass.Result) string {
	paths, canonPaths := a.Paths, canon
	switch a.Kind {
	case KindWrite:
	case KindExec:
		dir := e.workDir(a)
		paths = nil
		for _, f := range class.Files {
			if f.Write {
				if p := e.filePath(dir, f.Path); p != "" {
					paths = append(paths, p)
				}
			}
		}
		for _, w := range class.Writes {
			if p := e.filePath(dir, w); p != "" {
				paths = append(paths, p)
			}
		}
		canonPaths = canonicalAll(paths)
	default:
		return ""
	}
	if len(paths) == 0 {
		return ""
	}
	for i, p := range paths {
		for _, pair := range [][2]string{{e.match.root, p}, {e.canonRoot, canonPaths[i]}} {
			if rel, err := filepath.Rel(pair[0], pair[1]); err == nil {
				if name, why := protectedRel(filepath.ToSlash(rel)); why != "" {
					return fmt.Sprintf("%s is a file that decides what runs (%s: %s).", p, name, why)
				}
			}
		}
		if slices.Contains(e.settingsFiles, canonPaths[i]) {
			return p + " is one of ponder's settings files, which decide what runs (hooks, MCP servers, permissions)."
		}
		if n := hardLinks(canonPaths[i]); n > 1 {
			return fmt.Sprintf("%s has %d hard links, so writing it would change another file too.", p, n)
		}
	}
	return ""
}
