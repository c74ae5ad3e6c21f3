// Package plans browses plan files from the shell: which plans exist, which
// session wrote each, and what they are about.
package plans

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Info describes one plan file.
type Info struct {
	Slug     string
	Path     string
	Modified time.Time
	// Session is the session that wrote the plan, when a transcript says.
	Session string
	// Title is the plan's first heading, or its first line.
	Title string
}

// List returns the plans in dir, newest first. Sessions are found in the
// transcripts under configDir/projects.
func List(dir, configDir string) ([]Info, error) {
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	owners := sessionsBySlug(filepath.Join(configDir, "projects"))
	var out []Info
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".md") || strings.HasPrefix(name, ".") {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		slug := strings.TrimSuffix(name, ".md")
		base, _, _ := strings.Cut(slug, "-agent-")
		path := filepath.Join(dir, name)
		out = append(out, Info{Slug: slug, Path: path, Modified: info.ModTime(), Session: owners[base], Title: title(path)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Modified.After(out[j].Modified) })
	return out, nil
}

// Find picks a plan by slug or unique slug prefix; "" means the newest.
func Find(list []Info, slug string) (Info, error) {
	if len(list) == 0 {
		return Info{}, fmt.Errorf("there are no plans yet")
	}
	if slug == "" {
		return list[0], nil
	}
	var found []Info
	for _, p := range list {
		if p.Slug == slug {
			return p, nil
		}
		if strings.HasPrefix(p.Slug, slug) {
			found = append(found, p)
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return Info{}, fmt.Errorf("no plan named %q (see ponder plans list)", slug)
	}
	return Info{}, fmt.Errorf("%q matches %d plans; give more of the name", slug, len(found))
}

// title returns the first heading of a plan, or its first non-empty line.
func title(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	first := ""
	for n := 0; sc.Scan() && n < 200; n++ {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "#") {
			return strings.TrimSpace(strings.TrimLeft(line, "#"))
		}
		if first == "" && line != "" {
			first = line
		}
	}
	return first
}

// sessionsBySlug maps plan slugs to the sessions whose transcripts name
// them in their plan-mode state.
func sessionsBySlug(projects string) map[string]string {
	out := map[string]string{}
	files, _ := filepath.Glob(filepath.Join(projects, "*", "*.jsonl"))
	for _, f := range files {
		if slug := lastSlug(f); slug != "" {
			out[slug] = strings.TrimSuffix(filepath.Base(f), ".jsonl")
		}
	}
	return out
}

// lastSlug reads a transcript's state entries cheaply: only lines that
// mention a state are decoded.
func lastSlug(path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	slug := ""
	for _, line := range bytes.Split(data, []byte("\n")) {
		if !bytes.Contains(line, []byte(`"type":"state"`)) {
			continue
		}
		var e struct {
			State struct {
				Slug string `json:"slug"`
			} `json:"state"`
		}
		if json.Unmarshal(line, &e) == nil && e.State.Slug != "" {
			slug = e.State.Slug
		}
	}
	return slug
}
