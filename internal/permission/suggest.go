package permission

import (
	"net/url"
	"path"
	"path/filepath"
	"strings"

	"github.com/ponder-agent/ponder/internal/permission/shellclass"
)

// suggest fills in, for a decision to ask, the rule that would allow calls
// like a from now on ("yes, and don't ask again"). It uses the shell line
// Decide already parsed. A suggested rule is never broader than what the
// user is shown: none for a line that does more than run one command (a
// redirection, an environment change, commands it cannot show), none for
// a program named at run time, and only the exact command for a program
// that runs other commands (sh -c, env, timeout, xargs, python ...).
func (e *Engine) suggest(d Decision, a Access, class shellclass.Result) Decision {
	if d.Behavior != Ask {
		return d
	}
	switch a.Kind {
	case KindExec:
		d.Suggest = suggestExec(class)
	case KindWrite:
		if len(a.Paths) == 0 {
			break
		}
		p := a.Paths[0]
		rel, err := filepath.Rel(e.match.root, p)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			d.Suggest = "Edit(//" + escapeGlob(strings.TrimPrefix(filepath.ToSlash(filepath.Dir(p)), "/")) + "/**)"
			break
		}
		rel = filepath.ToSlash(rel)
		dir := path.Dir(rel)
		// A file that decides what runs, or one at the top of the project
		// (whose directory is the whole project), gets a rule for itself.
		if name, _ := protectedRel(rel); name != "" || dir == "." {
			d.Suggest = "Edit(/" + escapeGlob(rel) + ")"
			break
		}
		d.Suggest = "Edit(" + escapeGlob(dir) + "/**)"
	case KindNetwork:
		if u, err := url.Parse(a.Target); err == nil && u.Hostname() != "" {
			d.Suggest = "WebFetch(domain:" + u.Hostname() + ")"
		}
	default:
		d.Suggest = a.Tool
	}
	return d
}

// suggestExec proposes a rule for a shell line, or "".
func suggestExec(class shellclass.Result) string {
	if class.Opaque != "" || len(class.Writes) > 0 || len(class.Env) > 0 {
		return ""
	}
	if len(class.Fetches) > 0 {
		// A reader that only asks because of where it fetches from is
		// allowed by a rule for that host.
		host := ""
		for _, f := range class.Fetches {
			u, err := url.Parse(f.URL)
			if f.URL == "" || err != nil || u.Hostname() == "" || host != "" && u.Hostname() != host {
				return ""
			}
			host = u.Hostname()
		}
		if !class.ReadOnly {
			return ""
		}
		return "WebFetch(domain:" + host + ")"
	}
	if len(class.Commands) != 1 {
		return ""
	}
	c := class.Commands[0]
	if !c.Literal || len(c.Args) == 0 {
		return ""
	}
	args := c.Args
	var rule string
	switch {
	case shellclass.RunsCommands(shellclass.Program(args[0])):
		// Only this very command: any other arguments could run anything.
		rule = "Bash(" + strings.Join(args, " ") + ")"
	default:
		prefix := args[0]
		if len(args) > 1 && !strings.HasPrefix(args[1], "-") {
			prefix += " " + args[1]
		}
		rule = "Bash(" + prefix + ":*)"
	}
	// The rule must allow the command it is offered for.
	r, err := ParseRule(rule)
	if err != nil || !allowMatches(parseCommandSpec(r.Specifier), c) {
		return ""
	}
	return rule
}

// EscapeGlob quotes the characters a path pattern treats specially, so
// that a rule names exactly the path s.
func EscapeGlob(s string) string { return escapeGlob(s) }

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
