package builtin

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/ponder-agent/ponder/internal/gitignore"
	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/tool"
)

//go:embed glob.md
var globDoc string

const globMaxResults = 100

type globInput struct {
	Pattern string `json:"pattern" desc:"Glob pattern such as \"**/*.go\" or \"src/**/*.{ts,tsx}\", relative to path (absolute patterns are allowed)."`
	Path    string `json:"path,omitempty" desc:"Directory to search in, absolute or relative to the project directory. Defaults to the project directory."`
}

type globTool struct{ tool.Meta }

// NewGlob returns the Glob tool, which finds files by name pattern.
func NewGlob() tool.Tool {
	return globTool{tool.NewMeta[globInput]("Glob", permission.KindRead, globDoc, true)}
}

func (globTool) Prepare(env *tool.Env, input json.RawMessage) (tool.Call, error) {
	in, err := tool.Decode[globInput](input)
	if err != nil {
		return nil, err
	}
	pattern := strings.TrimSpace(in.Pattern)
	if pattern == "" {
		return nil, errors.New("pattern is required")
	}
	if !doublestar.ValidatePattern(filepath.ToSlash(pattern)) {
		return nil, fmt.Errorf("pattern %q is not a valid glob (check brackets and braces)", pattern)
	}
	root := env.Abs(in.Path)
	full := pattern
	if !filepath.IsAbs(pattern) {
		full = strings.TrimSuffix(root, "/") + "/" + strings.TrimPrefix(pattern, "./")
	}
	base, rest := doublestar.SplitPattern(filepath.ToSlash(full))
	base = filepath.Clean(filepath.FromSlash(base))
	c := &globCall{root: base, start: "", pattern: rest}
	if rel, ok := within(root, base); ok && !filepath.IsAbs(pattern) {
		// Keep the ignore rules of the whole search path in force when
		// the pattern starts below it.
		c.root, c.start = root, rel
		c.pattern = joinSlash(rel, rest)
	}
	c.base = base
	return c, nil
}

// within returns p relative to dir (slash-separated) when p is dir or
// below it.
func within(dir, p string) (string, bool) {
	rel, err := filepath.Rel(dir, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	if rel == "." {
		rel = ""
	}
	return filepath.ToSlash(rel), true
}

func joinSlash(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "/" + b
}

type globCall struct {
	root    string // directory whose ignore rules apply
	start   string // where the walk begins, relative to root
	base    string // absolute form of start: the search root
	pattern string // relative to root
}

func (c *globCall) Access() permission.Access {
	return fileAccess(c.base)
}

type foundFile struct {
	path string
	mod  time.Time
}

// Run works on a goroutine of its own, so that ponder stops waiting once
// ctx is done even when the file system does not answer.
func (c *globCall) Run(ctx context.Context) tool.Result {
	return untilDone(ctx, "Glob", func() tool.Result { return c.run(ctx) })
}

func (c *globCall) run(ctx context.Context) tool.Result {
	info, err := os.Stat(c.base)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return tool.Errorf("Directory does not exist: %s", c.base)
	case err != nil:
		return tool.Errorf("Cannot search %s: %v", c.base, err)
	case !info.IsDir():
		return tool.Errorf("%s is a file, not a directory to search in.", c.base)
	}
	prune := newDirPruner(c.pattern)
	// Only the newest globMaxResults files are shown: they are all that
	// is kept of a match over a large tree; the rest are counted.
	var (
		mu      sync.Mutex
		matched int
		found   = firstN[foundFile]{before: func(a, b foundFile) int { return newestFirst(a.path, a.mod, b.path, b.mod) }}
	)
	perm := newWalkFilter(ctx, "Glob", c.base)
	m := gitignore.New(c.root)
	err = m.Walk(ctx, c.start, gitignore.WalkOptions{}, func(e gitignore.Entry) error {
		if e.IsDir() {
			if !prune.mayHold(e.Rel) || !perm.allows(e) {
				return fs.SkipDir
			}
			return nil
		}
		if !doublestar.MatchUnvalidated(c.pattern, e.Rel) || !perm.allows(e) {
			return nil
		}
		f := foundFile{path: e.Path, mod: modTime(e.Path)}
		mu.Lock()
		matched++
		found.push(f)
		if found.len() > globMaxResults {
			found.dropLast()
		}
		mu.Unlock()
		return nil
	})
	if err != nil {
		if ctx.Err() != nil {
			return tool.Errorf("Glob was interrupted.")
		}
		return tool.Errorf("Cannot search %s: %v", c.base, err)
	}
	if matched == 0 {
		return tool.Result{Content: joinNotes(fmt.Sprintf("No files match %q in %s.", c.pattern, c.base), perm.notes()), Summary: "No files found"}
	}
	var b strings.Builder
	for _, f := range found.sorted() {
		b.WriteString(f.path)
		b.WriteByte('\n')
	}
	if matched > globMaxResults {
		fmt.Fprintf(&b, "(Showing the %d most recently modified of %d matching files; %d more were left out. Use a narrower pattern or path to see them.)\n",
			globMaxResults, matched, matched-globMaxResults)
	}
	if hidden := perm.note(); hidden != "" {
		b.WriteString("(" + hidden + ")\n")
	}
	return tool.Result{Content: b.String(), Summary: fmt.Sprintf("Found %s", plural(matched, "file"))}
}

// modTime is the modification time of path, following links where
// possible; zero when unknown.
func modTime(path string) time.Time {
	info, err := os.Stat(path)
	if err != nil {
		if info, err = os.Lstat(path); err != nil {
			return time.Time{}
		}
	}
	return info.ModTime()
}

// dirPruner tells from a pattern which directories may hold matches, so
// the walk skips the rest. It errs on the side of descending.
type dirPruner struct {
	segs []string // pattern split at slashes; nil: no pruning
}

func newDirPruner(pattern string) dirPruner {
	if strings.ContainsAny(pattern, "{\\") {
		// Braces may hide slashes and escapes complicate splitting.
		return dirPruner{}
	}
	return dirPruner{segs: strings.Split(pattern, "/")}
}

// mayHold reports whether files below directory rel could match.
func (p dirPruner) mayHold(rel string) bool {
	if p.segs == nil {
		return true
	}
	i := 0
	for d := range strings.SplitSeq(rel, "/") {
		if i < len(p.segs) && p.segs[i] == "**" {
			return true
		}
		if i >= len(p.segs)-1 {
			// Files here would have more segments than the pattern.
			return false
		}
		if !doublestar.MatchUnvalidated(p.segs[i], d) {
			return false
		}
		i++
	}
	return true
}
