package agentdef

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/ponder-agent/ponder/internal/frontmatter"
	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/smallfile"
)

// frontMatter is the YAML header of an agent file.
type frontMatter struct {
	Name            string           `yaml:"name"`
	Description     string           `yaml:"description"`
	Tools           frontmatter.List `yaml:"tools"`
	DisallowedTools frontmatter.List `yaml:"disallowedTools"`
	Model           string           `yaml:"model"`
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
	data, err := smallfile.Read(path, maxAgentFileSize)
	if err != nil {
		return Definition{}, err
	}
	return Parse(data, path)
}

// Parse reads an agent definition: YAML front matter between "---" lines,
// then the prompt. Errors name source (and the line, where there is one).
func Parse(data []byte, source string) (Definition, error) {
	var fm frontMatter
	body, err := frontmatter.Parse(data, source, &fm, frontmatter.Options{Required: true, Strict: true})
	if err != nil {
		return Definition{}, err
	}
	if err := fm.check(body); err != nil {
		return Definition{}, fmt.Errorf("agent file %s: %w", source, err)
	}
	d := Definition{
		Name:            fm.Name,
		Description:     strings.TrimSpace(fm.Description),
		Prompt:          strings.TrimSpace(body),
		DisallowedTools: fm.DisallowedTools.Items(permission.SplitRuleList),
		Model:           fm.Model,
		Source:          source,
	}
	if fm.Tools.Set {
		d.Tools = fm.Tools.Items(permission.SplitRuleList)
		if d.Tools == nil {
			d.Tools = []string{}
		}
	}
	if d.Model == "" {
		d.Model = ModelInherit
	}
	return d, nil
}

// check refuses a header without the fields an agent needs.
func (fm frontMatter) check(body string) error {
	switch {
	case fm.Name == "":
		return errors.New("the front matter has no name")
	case !validName(fm.Name):
		return fmt.Errorf("name %q must start with a letter and hold only letters, digits, - and _", fm.Name)
	case strings.TrimSpace(fm.Description) == "":
		return errors.New("the front matter has no description (it tells the model when to use the agent)")
	case strings.TrimSpace(body) == "":
		return errors.New("the prompt (the text after the front matter) is empty")
	}
	return nil
}

// maxAgentFileSize bounds an agent file; anything larger is refused
// rather than read.
const maxAgentFileSize = 1 << 20
