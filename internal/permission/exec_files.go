package permission

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/ponder-agent/ponder/internal/permission/shellclass"
)

// execFiles applies the rules for reading and changing files (Read and
// Edit rules) to the files a shell line names (shellclass.FileUse): a
// file it reads meets the Read rules, a file it writes the Edit rules,
// as if the line had used the Read or Edit tool on it. With deny, the
// deny rules apply (a match denies, and so does another name, a hard
// link, of a denied file); else the ask rules (a match asks).
func (e *Engine) execFiles(a Access, class shellclass.Result, deny bool) (Decision, bool) {
	rules := e.ask
	if deny {
		rules = e.deny
	}
	if len(class.Files) == 0 {
		return Decision{}, false
	}
	dir := e.workDir(a)
	for _, f := range class.Files {
		p := e.filePath(dir, f.Path)
		if p == "" {
			continue
		}
		if f.Named && !deny {
			continue // an ask rule asks about what a command does, when known
		}
		kind, b := "ask", Ask
		if deny {
			kind, b = "deny", Deny
		}
		for _, u := range fileAccesses(f, p) {
			r, linked, ok := e.fileCovered(rules, u.Access, p, deny)
			switch {
			case linked:
				return hardLinkDenied(p), true
			case ok:
				return Decision{Behavior: b, Rule: kind + " rule " + r.Text, Reason: fmt.Sprintf(
					"The command %s %s, which the permission rule %s (%s) covers.", u.verb, f.Path, r.Text, r.origin())}, true
			}
		}
	}
	return Decision{}, false
}

// fileCovered puts one use of the file at p (absolute) to rules: the
// rule that covers it, or, with links, whether it is another name (a
// hard link) of a file the deny rules cover.
func (e *Engine) fileCovered(rules []Rule, a Access, p string, links bool) (r Rule, linked, ok bool) {
	it := items{paths: bothForms(a.Paths, canonicalAll(a.Paths))}
	if r, ok := e.match.anyCovers(rules, a, it); ok {
		return r, false, true
	}
	if links && e.deniedLink(p, a.Kind == KindRead) {
		return Rule{}, true, false
	}
	return Rule{}, false, false
}

// workDir is the directory a command runs in.
func (e *Engine) workDir(a Access) string {
	if a.Dir == "" {
		return e.match.root
	}
	return a.Dir
}

// filePath makes a path a shell line names absolute: relative to dir, or
// below the home directory for ~/. A path with ~user is left out.
func (e *Engine) filePath(dir, p string) string {
	switch {
	case p == "~" || strings.HasPrefix(p, "~/"):
		if e.match.home == "" {
			return ""
		}
		return filepath.Join(e.match.home, p[1:])
	case strings.HasPrefix(p, "~"):
		return ""
	case filepath.IsAbs(p):
		return filepath.Clean(p)
	}
	return filepath.Join(dir, p)
}

// fileAccess is one way a command may use a file it names.
type fileAccess struct {
	Access
	verb string
}

// fileAccesses are the ways a command may use a file: to read it, to
// write it, or, when the program's use of it is not known, either.
func fileAccesses(f shellclass.FileUse, p string) []fileAccess {
	read := fileAccess{Access{Tool: "Read", Kind: KindRead, Paths: []string{p}}, "reads"}
	write := fileAccess{Access{Tool: "Edit", Kind: KindWrite, Paths: []string{p}}, "writes"}
	switch {
	case f.Named:
		read.verb, write.verb = "names", "names"
		return []fileAccess{read, write}
	case f.Write:
		return []fileAccess{write}
	}
	return []fileAccess{read}
}
