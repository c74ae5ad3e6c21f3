package permission

import (
	"net/url"
	"path/filepath"
	"strings"

	"github.com/ponder-agent/ponder/internal/permission/shellclass"
)

// Suggest proposes a rule that would allow calls like a from now on, for
// the "yes, and don't ask again" answer. It returns "" when no narrow rule
// fits (a compound shell line, say).
func (e *Engine) Suggest(a Access) string {
	switch a.Kind {
	case KindExec:
		cmds := shellclass.Classify(a.Command).Commands
		if len(cmds) != 1 || !cmds[0].Literal || len(cmds[0].Args) == 0 {
			return ""
		}
		args := cmds[0].Args
		prefix := args[0]
		if len(args) > 1 && !strings.HasPrefix(args[1], "-") {
			prefix += " " + args[1]
		}
		return "Bash(" + prefix + ":*)"
	case KindWrite:
		if len(a.Paths) == 0 {
			return ""
		}
		dir := filepath.Dir(a.Paths[0])
		if rel, err := filepath.Rel(e.match.root, dir); err == nil && !strings.HasPrefix(rel, "..") {
			if rel == "." {
				return "Edit(**)"
			}
			return "Edit(" + filepath.ToSlash(rel) + "/**)"
		}
		return "Edit(" + filepath.ToSlash(dir) + "/**)"
	case KindNetwork:
		if u, err := url.Parse(a.Target); err == nil && u.Hostname() != "" {
			return "WebFetch(domain:" + u.Hostname() + ")"
		}
	}
	if a.Tool != "" && a.Kind != KindExec {
		return a.Tool
	}
	return ""
}
