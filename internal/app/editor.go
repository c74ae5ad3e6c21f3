package app

import "github.com/ponder-agent/ponder/internal/tool"

// Editor is the user's editor as file tools use it (an editor driving
// the session over the Agent Client Protocol): reads see its unsaved
// buffers, writes go through it so the user sees them, and whatever it
// cannot do is done on disk. It never decides: a call reaches it only
// after the permission engine let it run.
type Editor = tool.Editor
