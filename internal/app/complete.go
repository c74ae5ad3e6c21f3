package app

import (
	"context"
	"io/fs"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/ponder-agent/ponder/internal/gitignore"
	"github.com/ponder-agent/ponder/internal/permission"
)

// This file completes @-mentions: the files and directories below the
// working directory that git does not ignore and the Read rules let
// through, matched fuzzily against what the user typed.

// completionTTL is how long a listing of the project is reused.
const completionTTL = 10 * time.Second

// maxCompletionEntries bounds the listing of a very large project.
const maxCompletionEntries = 50000

// fileList is the cached listing of the working directory.
type fileList struct {
	mu    sync.Mutex
	at    time.Time
	paths []string // slash-separated, relative; directories end in "/"
}

// CompleteFiles returns up to limit paths below the working directory
// that match query, best first: directories end in "/". It walks the
// project (at most every few seconds): call it away from a UI's event
// loop.
func (a *App) CompleteFiles(query string, limit int) []string {
	paths := a.projectFiles()
	type scored struct {
		path  string
		score int
	}
	var hits []scored
	for _, p := range paths {
		if s, ok := fuzzyScore(p, query); ok {
			hits = append(hits, scored{p, s})
		}
	}
	sort.SliceStable(hits, func(i, j int) bool {
		if hits[i].score != hits[j].score {
			return hits[i].score > hits[j].score
		}
		return hits[i].path < hits[j].path
	})
	out := make([]string, 0, min(limit, len(hits)))
	for _, h := range hits[:min(limit, len(hits))] {
		out = append(out, h.path)
	}
	return out
}

// projectFiles lists the working directory, from the cache when fresh.
func (a *App) projectFiles() []string {
	l := &a.files
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.paths != nil && time.Since(l.at) < completionTTL {
		return l.paths
	}
	// Completion only reads: it needs no plan file (naming one would
	// choose its name before the task is known).
	pc := permission.NewContext(a.plan.Mode(), nil, permission.Caller{})
	filter := a.perm.ReadFilter(pc, "Read", a.dir)
	var mu sync.Mutex
	paths := []string{}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	_ = gitignore.New(a.dir).Walk(ctx, "", gitignore.WalkOptions{}, func(e gitignore.Entry) error {
		if filter.Check(e.Path, e.Type).Behavior != permission.Allow {
			if e.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		p := e.Rel
		if e.IsDir() {
			p += "/"
		}
		mu.Lock()
		defer mu.Unlock()
		if len(paths) >= maxCompletionEntries {
			return fs.SkipAll
		}
		paths = append(paths, p)
		return nil
	})
	sort.Strings(paths)
	l.paths, l.at = paths, time.Now()
	return paths
}

// fuzzyScore matches query against path as a subsequence, ignoring case,
// and scores the match: letters in a row, a start of a name, and a match
// in the last name count for it; length against it.
func fuzzyScore(path, query string) (int, bool) {
	if query == "" {
		return -strings.Count(path, "/")*10 - len(path), true
	}
	lp, lq := strings.ToLower(path), strings.ToLower(query)
	base := strings.LastIndexByte(strings.TrimSuffix(lp, "/"), '/') + 1
	score, qi, prev := 0, 0, -2
	for i := 0; i < len(lp) && qi < len(lq); i++ {
		if lp[i] != lq[qi] {
			continue
		}
		score++
		if i == prev+1 {
			score += 5
		}
		if i == 0 || strings.ContainsRune("/._-", rune(lp[i-1])) {
			score += 3
		}
		if i >= base {
			score += 2
		}
		prev = i
		qi++
	}
	if qi < len(lq) {
		return 0, false
	}
	if strings.Contains(lp[base:], lq) {
		score += 20
	}
	return score*10 - len(path), true
}
