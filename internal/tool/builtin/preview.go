package builtin

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/ponder-agent/ponder/internal/textdiff"
	"github.com/ponder-agent/ponder/internal/tool"
)

// What a Write or Edit shows before it runs: the lines it changes.

// Limits of a preview: files larger than this are not read for one, and a
// diff is cut after so many lines.
const (
	maxPreviewFile  = 4 << 20
	maxPreviewLines = 400
)

// Preview shows what the write would change.
func (c *writeCall) Preview() (string, string) {
	old, ok := readForPreview(c.path)
	if !ok {
		return displayPath(c.env, c.path), ""
	}
	return displayPath(c.env, c.path), previewDiff(displayPath(c.env, c.path), old, c.content)
}

// Preview shows what the edit would change; nothing when it cannot apply.
func (c *editCall) Preview() (string, string) {
	rel := displayPath(c.env, c.path)
	old, ok := readForPreview(c.path)
	if !ok {
		return rel, ""
	}
	p, err := c.plan(context.Background())
	if err != nil {
		return rel, ""
	}
	return rel, previewDiff(rel, old, p.content)
}

var (
	_ tool.Previewer = (*writeCall)(nil)
	_ tool.Previewer = (*editCall)(nil)
)

// readForPreview reads a regular file's text without blocking (a FIFO or
// device under the name is never read); a missing file is empty.
func readForPreview(path string) (string, bool) {
	f, err := openNoBlock(path)
	if os.IsNotExist(err) {
		return "", true
	}
	if err != nil {
		return "", false
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil || !info.Mode().IsRegular() || info.Size() > maxPreviewFile {
		return "", false
	}
	data, err := io.ReadAll(io.LimitReader(f, maxPreviewFile+1))
	if err != nil || len(data) > maxPreviewFile || strings.IndexByte(string(data), 0) >= 0 {
		return "", false
	}
	return string(data), true
}

// previewDiff is the unified diff old → new, cut at maxPreviewLines.
func previewDiff(name, old, new string) string {
	if strings.IndexByte(new, 0) >= 0 {
		return ""
	}
	d := textdiff.Unified(name, name, old, new, 3)
	lines := strings.SplitAfter(d, "\n")
	if len(lines) > maxPreviewLines {
		d = strings.Join(lines[:maxPreviewLines], "") + fmt.Sprintf("… %d more lines of diff\n", len(lines)-maxPreviewLines)
	}
	return d
}

// displayPath is path relative to the project directory when inside it.
func displayPath(env *tool.Env, path string) string {
	if env == nil || env.Dir == "" {
		return path
	}
	rel, err := filepath.Rel(env.Dir, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return path
	}
	return rel
}
