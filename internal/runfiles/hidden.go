package runfiles

import (
	"path"
	"strings"
)

// InertHidden lists the hidden file names a write may create or change
// without counting as a hidden path (see Hidden): ignore lists,
// placeholders and indentation settings, which every tool reads as data
// and none as a program or a list of programs. Names that look as plain
// but load code are not here: .gitattributes picks filter programs,
// .prettierrc, .eslintrc, .babelrc and .browserslistrc load plugins or
// shared configurations, which are modules that run.
var InertHidden = []string{
	".gitignore", ".dockerignore", ".npmignore", ".prettierignore", ".eslintignore",
	".ignore", ".rgignore", ".gitkeep", ".keep", ".editorconfig",
}

// Hidden reports whether the relative, slash-separated path rel passes
// through a hidden file or directory (an element whose name starts with
// '.') other than one of InertHidden as its last element, and returns
// that element. Hidden files are where tools keep their configuration,
// and no table can name every tool: accept-edits asks before writing
// one, whatever its name.
func Hidden(rel string) (string, bool) {
	rel = path.Clean(rel)
	if rel == "." {
		return "", false
	}
	elems := strings.Split(rel, "/")
	for i, el := range elems {
		if el == ".." || !strings.HasPrefix(el, ".") {
			continue
		}
		if i == len(elems)-1 && inertHidden(el) {
			continue
		}
		return el, true
	}
	return "", false
}

func inertHidden(name string) bool {
	for _, n := range InertHidden {
		if strings.EqualFold(n, name) {
			return true
		}
	}
	return false
}
