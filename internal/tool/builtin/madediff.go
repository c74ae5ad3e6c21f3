package builtin

import (
	"strings"

	"github.com/ponder-agent/ponder/internal/atomicfile"
	"github.com/ponder-agent/ponder/internal/tool"
)

// What a Write or Edit shows after it ran: the change it made, for the
// front ends' transcript (tool.Result.Diff). The model never sees it.

// madeDiff is the unified diff of a change made to path, relative to the
// project directory, or "" for text that cannot be shown (binary, or
// larger than a preview reads).
func madeDiff(env *tool.Env, path, before, after string) string {
	if len(before) > maxPreviewFile || len(after) > maxPreviewFile || strings.IndexByte(before, 0) >= 0 {
		return ""
	}
	return previewDiff(displayPath(env, path), before, after)
}

// readForDiff reads what the file holds before a Write replaces it, for
// the diff only: never through a FIFO or device, never past the preview
// limit, and for the plan file without following a link. ok is false
// when it cannot be shown.
func (w fileWriter) readForDiff() (string, bool) {
	if w.noFollow {
		data, err := atomicfile.ReadNoFollow(w.path, maxPreviewFile)
		if err != nil {
			return "", false
		}
		return string(data), true
	}
	return readForPreview(w.path)
}
