package permission

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/ponder-agent/ponder/internal/permission/shellclass"
)

// storedDenied applies the Read deny rules to what git keeps of files: a
// git command that can print committed, staged or stashed copies (git
// show HEAD:.env, git log -p, git diff --cached, git grep) reads those
// files as surely as cat does, though it never opens them. Limited to
// named files, each meets the rules; otherwise the command is refused
// while a Read deny rule may cover a file where it looks.
func (e *Engine) storedDenied(a Access, class shellclass.Result) (Decision, bool) {
	if len(class.Stored) == 0 {
		return Decision{}, false
	}
	dir := e.workDir(a)
	for _, s := range class.Stored {
		scopes := []string{e.match.root}
		if s.Paths != nil || s.Blobs != nil {
			scopes = scopes[:0]
			// A pathspec is relative to where git runs; the path of a
			// rev:path word, to the top of the repository.
			named := make([][2]string, 0, len(s.Paths)+len(s.Blobs))
			for _, p := range s.Paths {
				named = append(named, [2]string{dir, p})
			}
			for _, p := range s.Blobs {
				named = append(named, [2]string{e.match.root, p})
			}
			for _, n := range named {
				p := n[1]
				abs := e.filePath(n[0], p)
				if abs == "" {
					abs = e.match.root
				}
				r, linked, ok := e.fileCovered(e.deny, Access{Tool: "Read", Kind: KindRead, Paths: []string{abs}}, abs, true)
				switch {
				case linked:
					return hardLinkDenied(abs), true
				case ok:
					return storedDecision(s, p, r), true
				}
				if info, err := os.Stat(abs); err == nil && info.Mode().IsRegular() {
					continue // one file, and the rules allow reading it
				}
				scopes = append(scopes, abs)
			}
		}
		for _, scope := range scopes {
			if r, ok := e.readDenyUnder(scope); ok {
				return storedDecision(s, "", r), true
			}
		}
	}
	return Decision{}, false
}

func storedDecision(s shellclass.Stored, path string, r Rule) Decision {
	what := "files"
	if path != "" {
		what = path
	}
	return Decision{Behavior: Deny, Rule: "deny rule " + r.Text, Reason: fmt.Sprintf(
		"%s can print git's stored copies of %s, and the permission rule %s (%s) may cover them. Limit it to files the rules let you read (git diff -- path/to/file, git show HEAD:path/to/file).",
		s.Command, what, r.Text, r.origin())}
}

// readDenyUnder finds a Read deny rule that may cover a file at or below
// dir: one that denies every read, whose base lies inside dir, or whose
// pattern may match below it.
func (e *Engine) readDenyUnder(dir string) (Rule, bool) {
	dir = filepath.ToSlash(filepath.Clean(dir))
	for _, r := range e.deny {
		if r.kind() != KindRead {
			continue
		}
		if r.Specifier == "" || r.c == nil {
			return r, true
		}
		for _, p := range r.c.paths {
			if _, ok := below(dir, p.base); ok {
				return r, true
			}
			if rel, ok := below(p.base, dir); ok {
				if p.whole || p.match(dir, func() bool { return true }, false) || !p.whole && rel != "" && mayMatchBelow(p, rel) {
					return r, true
				}
			}
		}
	}
	return Rule{}, false
}

// mayMatchBelow reports whether a glob pattern based above a directory
// (rel below its base) may match something inside it: a name pattern
// may match at any depth; an anchored one only if rel is a prefix of
// where it can reach, which is judged loosely (any wildcard may).
func mayMatchBelow(p *pathPattern, rel string) bool {
	if p.basename {
		return true
	}
	pre := p.pre
	if pre == "" {
		return true
	}
	return strings.HasPrefix(rel+"/", pre) || strings.HasPrefix(pre, rel+"/") || strings.HasPrefix(pre, rel)
}
