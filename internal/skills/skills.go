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

	"github.com/ponder-agent/ponder/internal/frontmatter"
	"github.com/ponder-agent/ponder/internal/smallfile"
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
			if err != nil {
				problems = append(problems, fmt.Errorf("skill %s: %w", path, err))
				continue
			}
			s, err := parseFile(path)
			if err != nil {
				problems = append(problems, err)
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

// parseFile reads a SKILL.md; only a regular file is read, and no more
// than MaxFileSize of it.
func parseFile(path string) (Skill, error) {
	data, err := smallfile.Read(path, MaxFileSize)
	if err != nil {
		return Skill{}, err
	}
	return Parse(data, path)
}

// Parse reads the SKILL.md at path: front matter with a description (and
// a name; the folder's name when it has none), then the instructions.
func Parse(data []byte, path string) (Skill, error) {
	var fm struct {
		Name        string `yaml:"name"`
		Description string `yaml:"description"`
	}
	body, err := frontmatter.Parse(data, path, &fm, frontmatter.Options{Required: true})
	if err != nil {
		return Skill{}, err
	}
	folder := filepath.Base(filepath.Dir(path))
	s := Skill{Name: strings.TrimSpace(fm.Name), Description: strings.Join(strings.Fields(fm.Description), " "),
		Body: strings.TrimSpace(body)}
	if s.Name == "" {
		s.Name = folder
	}
	switch {
	case !validName(s.Name):
		return Skill{}, fmt.Errorf("skill %s: %q cannot be a skill name (use letters, digits, - and _, up to 64)", path, s.Name)
	case s.Description == "":
		return Skill{}, fmt.Errorf("skill %s: the front matter has no description, which is how the model knows when to use the skill", path)
	case s.Body == "":
		return Skill{}, fmt.Errorf("skill %s: the instructions are empty", path)
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
