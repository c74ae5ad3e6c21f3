package frontmatter

import (
	"fmt"

	"go.yaml.in/yaml/v3"
)

// List is a header field that may be written as one string ("Read, Grep")
// or as a YAML list. How a string splits into items is the caller's to
// say (a tool rule such as "Bash(git diff:*, x)" keeps its commas), so
// List keeps what was written and Items splits it.
type List struct {
	// Set reports whether the field was present at all.
	Set bool
	// text is the string form; items the list form.
	text   string
	items  []string
	isText bool
}

// UnmarshalYAML accepts a string or a list of strings.
func (l *List) UnmarshalYAML(n *yaml.Node) error {
	l.Set = true
	switch n.Kind {
	case yaml.ScalarNode:
		l.text, l.isText = n.Value, true
		return nil
	case yaml.SequenceNode:
		return n.Decode(&l.items)
	}
	return fmt.Errorf("line %d: a list is a comma-separated string or a YAML list", n.Line)
}

// Items returns the list's items: the YAML list as written, or the string
// cut by split. An absent field has none.
func (l List) Items(split func(string) []string) []string {
	if l.isText {
		return split(l.text)
	}
	return l.items
}
