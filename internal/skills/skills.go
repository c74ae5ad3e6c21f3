// Package skills reads skills: folders holding a SKILL.md file (YAML front
// matter with a name and a description, then instructions) and whatever
// files the instructions refer to. The model is offered each skill by name
// and description through the Skill tool, and loads one by calling it.
//
// A skill is text. Loading one gives the model its instructions and the
// folder they came from, nothing else: the files of the folder are read,
// and its scripts run, only through the other tools and their rules. What
// a SKILL.md's front matter says beyond name and description grants
// nothing.
package skills

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

// FileName is the file that makes a folder a skill.
const FileName = "SKILL.md"

// MaxFileSize bounds a SKILL.md; a larger one is skipped.
const MaxFileSize = 256 << 10

// Skill is one skill.
type Skill struct {
	Name        string
	Description string
	// Body is the instructions, after the front matter.
	Body string
	// Dir is the skill's folder; Path its SKILL.md.
	Dir, Path string
	// Scope is "user" or "project".
	Scope string
}

// Dir is a directory of skill folders and its scope.
type Dir struct {
	Path  string
	Scope string
}

// Load reads the skills of dirs (each a directory of skill folders). When
// two skills share a name, the first directory's wins, so list the user's
// first. Folders and files that are symbolic links are not followed; a
// skill that cannot be used is reported with its path; missing
// directories are not a problem.
func Load(dirs []Dir) ([]Skill, []error) {
	var out []Skill
	var problems []error
	taken := map[string]bool{}
	for _, d := range dirs {
		entries, err := os.ReadDir(d.Path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			problems = append(problems, err)
			continue
		}
		for _, e := range entries {
			if !e.IsDir() { // a link to a folder is not a folder here
				continue
			}
			dir := filepath.Join(d.Path, e.Name())
			path := filepath.Join(dir, FileName)
			info, err := os.Lstat(path)
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err == nil && !info.Mode().IsRegular() {
				err = errors.New("not a regular file")
			}
			if err == nil && info.Size() > MaxFileSize {
				err = fmt.Errorf("larger than %d KB", MaxFileSize>>10)
			}
			var s Skill
			if err == nil {
				s, err = parseFile(path)
			}
			if err != nil {
				problems = append(problems, fmt.Errorf("skill %s: %w", path, err))
				continue
			}
			if taken[s.Name] {
				continue
			}
			taken[s.Name] = true
			s.Dir, s.Path, s.Scope = dir, path, d.Scope
			out = append(out, s)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, problems
}

func parseFile(path string) (Skill, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Skill{}, err
	}
	return Parse(data, filepath.Base(filepath.Dir(path)))
}

// Parse reads a SKILL.md: front matter with a description (and a name;
// the folder's name when it has none), then the instructions.
func Parse(data []byte, folder string) (Skill, error) {
	text := strings.ReplaceAll(string(data), "\r\n", "\n")
	if !strings.HasPrefix(text, "---\n") {
		return Skill{}, errors.New("it must start with front matter (a --- line, name and description, another --- line)")
	}
	header, body, ok := strings.Cut(text[4:], "\n---")
	if !ok {
		return Skill{}, errors.New("the front matter is not closed with a --- line")
	}
	var fm struct {
		Name        string `yaml:"name"`
		Description string `yaml:"description"`
	}
	if err := yaml.Unmarshal([]byte(header), &fm); err != nil {
		return Skill{}, fmt.Errorf("front matter: %w", err)
	}
	s := Skill{Name: strings.TrimSpace(fm.Name), Description: strings.Join(strings.Fields(fm.Description), " "),
		Body: strings.TrimSpace(strings.TrimPrefix(body, "\n"))}
	if s.Name == "" {
		s.Name = folder
	}
	switch {
	case !validName(s.Name):
		return Skill{}, fmt.Errorf("%q cannot be a skill name (use letters, digits, - and _, up to 64)", s.Name)
	case s.Description == "":
		return Skill{}, errors.New("the front matter has no description, which is how the model knows when to use the skill")
	case s.Body == "":
		return Skill{}, errors.New("the instructions are empty")
	}
	return s, nil
}

func validName(name string) bool {
	if name == "" || len(name) > 64 {
		return false
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}
