package permission

import (
	"net/url"
	"path"
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
		p := a.Paths[0]
		rel, err := filepath.Rel(e.match.root, p)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return "Edit(//" + escapeGlob(strings.TrimPrefix(filepath.ToSlash(filepath.Dir(p)), "/")) + "/**)"
		}
		rel = filepath.ToSlash(rel)
		dir := path.Dir(rel)
		// A file that decides what runs, or one at the top of the project
		// (whose directory is the whole project), gets a rule for itself.
		if name, _ := protectedRel(rel); name != "" || dir == "." {
			return "Edit(/" + escapeGlob(rel) + ")"
		}
		return "Edit(" + escapeGlob(dir) + "/**)"
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

// escapeGlob quotes the characters a path pattern treats specially.
func escapeGlob(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`*?[{\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
