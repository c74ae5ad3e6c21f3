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
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/ponder-agent/ponder/internal/gitignore"
	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/tool"
)

//go:embed ls.md
var lsDoc string

const lsMaxEntries = 1000

type lsInput struct {
	Path   string   `json:"path" desc:"Directory to list, absolute or relative to the project directory."`
	Ignore []string `json:"ignore,omitempty" desc:"Glob patterns of names or paths to leave out, such as \"*.test.js\" or \"dist\"."`
}

type lsTool struct{ tool.Meta }

// NewLS returns the LS tool, which shows a directory tree.
func NewLS() tool.Tool { return lsTool{tool.NewMeta[lsInput]("LS", permission.KindRead, lsDoc, true)} }

func (lsTool) Prepare(env *tool.Env, input json.RawMessage) (tool.Call, error) {
	in, err := tool.Decode[lsInput](input)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(in.Path) == "" {
		return nil, errors.New(`path is required (use "." for the project directory)`)
	}
	for _, g := range in.Ignore {
		if !doublestar.ValidatePattern(g) {
			return nil, fmt.Errorf("ignore pattern %q is not a valid glob", g)
		}
	}
	return &lsCall{dir: env.Abs(in.Path), ignore: in.Ignore}, nil
}

type lsCall struct {
	dir    string
	ignore []string
}

func (c *lsCall) Access() permission.Access {
	return fileAccess(c.dir)
}

func (c *lsCall) skip(e gitignore.Entry) bool {
	name := e.Name()
	for _, g := range c.ignore {
		g = strings.TrimSuffix(g, "/")
		if doublestar.MatchUnvalidated(g, name) || doublestar.MatchUnvalidated(g, e.Rel) {
			return true
		}
	}
	return false
}

// Run works on a goroutine of its own, so that ponder stops waiting once
// ctx is done even when the file system does not answer.
func (c *lsCall) Run(ctx context.Context) tool.Result {
	return untilDone(ctx, "LS", func() tool.Result { return c.run(ctx) })
}

func (c *lsCall) run(ctx context.Context) tool.Result {
	info, err := os.Stat(c.dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return tool.Errorf("Directory does not exist: %s", c.dir)
	case err != nil:
		return tool.Errorf("Cannot list %s: %v", c.dir, err)
	case !info.IsDir():
		return tool.Errorf("%s is a file, not a directory. Use Read to see its contents.", c.dir)
	}
	perm := newWalkFilter(ctx, "LS", c.dir)
	m := gitignore.New(c.dir)
	var (
		entries  []gitignore.Entry
		queue    = []string{""}
		full     bool
		unlisted int
	)
	// Breadth first, so that a cut-off still shows the upper levels.
	for len(queue) > 0 {
		if ctx.Err() != nil {
			return tool.Errorf("LS was interrupted.")
		}
		dir := queue[0]
		queue = queue[1:]
		if full {
			unlisted++
			continue
		}
		ents, err := m.ReadDir(dir)
		if err != nil {
			continue // unreadable subdirectory: show it empty
		}
		for _, e := range ents {
			if c.skip(e) || !perm.allows(e) {
				continue
			}
			if len(entries) == lsMaxEntries {
				full = true
				break
			}
			entries = append(entries, e)
			if e.IsDir() {
				queue = append(queue, e.Rel)
			}
		}
	}
	out := renderTree(c.dir, entries, full, unlisted)
	if hidden := perm.note(); hidden != "" {
		out += "(" + hidden + ")\n"
	}
	return tool.Result{
		Content: out,
		Summary: fmt.Sprintf("Listed %s", plural(len(entries), "entry")),
	}
}

// renderTree prints entries as an indented tree under root.
func renderTree(root string, entries []gitignore.Entry, full bool, unlisted int) string {
	slices.SortFunc(entries, func(a, b gitignore.Entry) int { return comparePaths(a.Rel, b.Rel) })
	var b strings.Builder
	b.WriteString(strings.TrimSuffix(root, string(filepath.Separator)) + "/\n")
	for _, e := range entries {
		depth := strings.Count(e.Rel, "/")
		b.WriteString(strings.Repeat("  ", depth+1))
		b.WriteString(e.Name())
		if e.IsDir() {
			b.WriteByte('/')
		} else if e.Type&fs.ModeSymlink != 0 {
			b.WriteByte('@')
		}
		b.WriteByte('\n')
	}
	if len(entries) == 0 {
		b.WriteString("  (empty)\n")
	}
	if full {
		fmt.Fprintf(&b, "(Listing stopped at %d entries", lsMaxEntries)
		if unlisted > 0 {
			fmt.Fprintf(&b, "; %s not opened", plural(unlisted, "more directory"))
		}
		b.WriteString(". List a subdirectory, or use Glob to find specific files.)\n")
	}
	return validUTF8(b.String())
}

// comparePaths orders slash paths element by element, so that a directory's
// contents follow it directly.
func comparePaths(a, b string) int {
	for {
		ai, bi := strings.IndexByte(a, '/'), strings.IndexByte(b, '/')
		ah, bh := a, b
		if ai >= 0 {
			ah = a[:ai]
		}
		if bi >= 0 {
			bh = b[:bi]
		}
		if c := strings.Compare(ah, bh); c != 0 {
			return c
		}
		switch {
		case ai < 0 && bi < 0:
			return 0
		case ai < 0:
			return -1
		case bi < 0:
			return 1
		}
		a, b = a[ai+1:], b[bi+1:]
	}
}
