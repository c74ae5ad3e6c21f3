package agentdef

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

// frontMatter is the YAML header of an agent file.
type frontMatter struct {
	Name            string    `yaml:"name"`
	Description     string    `yaml:"description"`
	Tools           toolsList `yaml:"tools"`
	DisallowedTools toolsList `yaml:"disallowedTools"`
	Model           string    `yaml:"model"`
}

// toolsList accepts "Read, Grep" as well as a YAML list.
type toolsList struct {
	set   bool
	items []string
}

func (t *toolsList) UnmarshalYAML(n *yaml.Node) error {
	t.set = true
	switch n.Kind {
	case yaml.ScalarNode:
		for _, part := range strings.Split(n.Value, ",") {
			if p := strings.TrimSpace(part); p != "" {
				t.items = append(t.items, p)
			}
		}
		return nil
	case yaml.SequenceNode:
		return n.Decode(&t.items)
	}
	return fmt.Errorf("line %d: a tool list is a comma-separated string or a list", n.Line)
}

// validName reports whether name can be a subagent_type: a letter, then
// up to 63 letters, digits, - or _.
func validName(name string) bool {
	if name == "" || len(name) > 64 {
		return false
	}
	for i, r := range name {
		letter := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
		if i == 0 && !letter || !letter && !(r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

// Load reads the agent files (*.md) of the given directories, in order,
// so that a later directory's agent replaces an earlier one of the same
// name. A file that cannot be used is skipped and reported with its path;
// a missing directory is not a problem.
func Load(dirs ...string) ([]Definition, []error) {
	var defs []Definition
	var problems []error
	for _, dir := range dirs {
		entries, err := os.ReadDir(dir)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			problems = append(problems, fmt.Errorf("%s: %w", dir, err))
			continue
		}
		sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
		for _, e := range entries {
			if e.IsDir() || !strings.HasSuffix(e.Name(), ".md") {
				continue
			}
			path := filepath.Join(dir, e.Name())
			d, err := parseFile(path)
			if err != nil {
				problems = append(problems, err)
				continue
			}
			defs = append(defs, d)
		}
	}
	return defs, problems
}

// parseFile reads one agent file.
func parseFile(path string) (Definition, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Definition{}, err
	}
	d, err := Parse(data, path)
	if err != nil {
		return Definition{}, fmt.Errorf("agent file %s: %w", path, err)
	}
	return d, nil
}

// Parse reads an agent definition: YAML front matter between "---" lines,
// then the prompt.
func Parse(data []byte, source string) (Definition, error) {
	text := strings.ReplaceAll(string(data), "\r\n", "\n")
	if !strings.HasPrefix(text, "---\n") {
		return Definition{}, errors.New("it must start with a front matter block (a line with ---, YAML, and another ---)")
	}
	header, body, ok := strings.Cut(text[4:], "\n---")
	if !ok {
		return Definition{}, errors.New("the front matter block is not closed with a --- line")
	}
	body = strings.TrimPrefix(body, "\n")
	var fm frontMatter
	dec := yaml.NewDecoder(bytes.NewReader([]byte(header)))
	dec.KnownFields(true)
	if err := dec.Decode(&fm); err != nil && !errors.Is(err, io.EOF) {
		return Definition{}, fmt.Errorf("front matter: %v", err)
	}
	switch {
	case fm.Name == "":
		return Definition{}, errors.New("the front matter has no name")
	case !validName(fm.Name):
		return Definition{}, fmt.Errorf("name %q must start with a letter and hold only letters, digits, - and _", fm.Name)
	case strings.TrimSpace(fm.Description) == "":
		return Definition{}, errors.New("the front matter has no description (it tells the model when to use the agent)")
	case strings.TrimSpace(body) == "":
		return Definition{}, errors.New("the prompt (the text after the front matter) is empty")
	}
	d := Definition{
		Name:            fm.Name,
		Description:     strings.TrimSpace(fm.Description),
		Prompt:          strings.TrimSpace(body),
		DisallowedTools: fm.DisallowedTools.items,
		Model:           fm.Model,
		Source:          source,
	}
	if fm.Tools.set {
		d.Tools = fm.Tools.items
		if d.Tools == nil {
			d.Tools = []string{}
		}
	}
	if d.Model == "" {
		d.Model = ModelInherit
	}
	return d, nil
}
