// Package plans browses plan files from the shell: which plans exist, which
// session wrote each, and what they are about.
package plans

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/ponder-agent/ponder/internal/planmode"
	"github.com/ponder-agent/ponder/internal/session"
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
	owners := sessionsBySlug(configDir)
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

// sessionsBySlug maps plan slugs to the sessions whose plan-mode state,
// as their transcripts last recorded it, names them. Transcripts are read
// through package session, which knows their format and their damage.
func sessionsBySlug(configDir string) map[string]string {
	out := map[string]string{}
	list, _ := session.AllSessions(configDir)
	// Oldest first, so that a slug two sessions named (a fork before its
	// plan was copied) goes to the newer one.
	for i := len(list) - 1; i >= 0; i-- {
		if slug := lastSlug(list[i].Path); slug != "" {
			out[slug] = list[i].ID
		}
	}
	return out
}

// lastSlug returns the plan slug a transcript's last state names, or "".
func lastSlug(path string) string {
	tr, err := session.Load(path)
	if err != nil {
		return ""
	}
	var st planmode.State
	if raw := tr.LastState(); raw == nil || json.Unmarshal(raw, &st) != nil {
		return ""
	}
	return st.Slug
}
