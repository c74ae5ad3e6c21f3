package permission

import (
	"path/filepath"
	"strings"
)

// Scope is the approved plan's fence: the files it said it would change,
// and the directories it named as such, under which it may create or
// change files. While a scope is in force (Context.Scope), accept-edits
// lets through, unasked, only edits inside it; an edit outside asks as
// in default mode, saying that the file is not in the plan. Rules and
// hard limits are untouched: the scope narrows what the mode's default
// lets through, nothing else.
type Scope struct {
	// Files and Dirs are absolute and clean.
	Files []string
	Dirs  []string
}

// RuleScope is the rule of a decision the plan's scope made.
const RuleScope = "plan scope"

// covers says the scope holds path (in any of its forms): a planned file
// itself, or anything under a planned directory. A named file does not
// open its directory.
func (s *Scope) covers(paths ...string) bool {
	for _, p := range paths {
		p = filepath.Clean(p)
		for _, f := range s.Files {
			if p == f {
				return true
			}
		}
		for _, d := range s.Dirs {
			if rel, err := filepath.Rel(d, p); err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel) {
				return true
			}
		}
	}
	return false
}

// outside returns the paths of a write the scope does not hold, each
// judged by both its given and its canonical form (a link into the plan
// is not the plan: the real file must be in it too).
func (s *Scope) outside(paths, canon []string) []string {
	var out []string
	for i, p := range paths {
		c := p
		if i < len(canon) {
			c = canon[i]
		}
		if !s.covers(p) || !s.coversCanon(c) {
			out = append(out, p)
		}
	}
	return out
}

// coversCanon is covers for a canonical path: the scope's own entries are
// compared in their canonical forms too.
func (s *Scope) coversCanon(c string) bool {
	if s.covers(c) {
		return true
	}
	canon := Scope{Files: canonicalAll(s.Files), Dirs: canonicalAll(s.Dirs)}
	return canon.covers(c)
}

// scopeReason is what the user and the model read about an edit outside
// the plan.
func scopeReason(outside []string) string {
	return "This file is not in the plan: " + strings.Join(outside, ", ") +
		". The approved plan did not name it, so changing it needs the user's yes. " +
		"Keep to the files the plan names, or explain to the user why this change is needed."
}
