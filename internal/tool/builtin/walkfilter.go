package builtin

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/ponder-agent/ponder/internal/gitignore"
	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/tool"
)

// walkFilter leaves out of a search or listing every entry the permission
// rules would not let the call read, and counts what it left out. Grep,
// Glob and LS declare only the directory they start from; this is how
// each file they then come across meets the same rules a Read of it
// would. An entry a deny rule covers is hidden; one an ask rule covers is
// skipped too (a search asks nobody), and the result says how to ask for
// it. Directories are judged before they are entered, so a hidden
// directory costs nothing more.
type walkFilter struct {
	f *permission.ReadFilter // nil when the call runs outside an agent
	// counts of hidden entries: denied and asked, files and directories
	denied, asked [2]atomic.Int64
	mu            sync.Mutex
	askRule       string
}

// newWalkFilter returns the filter for a walk by toolName below root.
func newWalkFilter(ctx context.Context, toolName, root string) *walkFilter {
	w := &walkFilter{}
	if g := tool.GateFrom(ctx); g != nil {
		w.f = g.ReadFilter(toolName, root)
	}
	return w
}

// allows reports whether the entry may be read or listed (and, for a
// directory, entered). It is safe for concurrent use.
func (w *walkFilter) allows(e gitignore.Entry) bool {
	if w.f == nil {
		return true
	}
	d := w.f.Check(e.Path, e.Type)
	kind := 0
	if e.IsDir() {
		kind = 1
	}
	switch d.Behavior {
	case permission.Allow:
		return true
	case permission.Ask:
		w.asked[kind].Add(1)
		w.mu.Lock()
		if w.askRule == "" {
			w.askRule = strings.TrimPrefix(d.Rule, "ask rule ")
		}
		w.mu.Unlock()
	default:
		w.denied[kind].Add(1)
	}
	return false
}

// note says what was left out, in sentences for the result, or "".
func (w *walkFilter) note() string {
	var parts []string
	if n := entries(&w.denied); n != "" {
		parts = append(parts, n+" hidden by permission rules.")
	}
	if n := entries(&w.asked); n != "" {
		parts = append(parts, fmt.Sprintf("%s skipped because reading needs approval (%s); Read a file by its path to ask for it.", n, w.askRule))
	}
	return strings.Join(parts, " ")
}

// entries counts files and directories in words, or returns "".
func entries(c *[2]atomic.Int64) string {
	var parts []string
	if n := c[0].Load(); n > 0 {
		parts = append(parts, plural(int(n), "file"))
	}
	if n := c[1].Load(); n > 0 {
		parts = append(parts, plural(int(n), "directory"))
	}
	return strings.Join(parts, " and ")
}

// notes returns note as a list for joinNotes.
func (w *walkFilter) notes() []string {
	if n := w.note(); n != "" {
		return []string{n}
	}
	return nil
}
