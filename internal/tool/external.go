package tool

// ReadOnlyMarker is implemented by tools ponder cannot see into
// (permission.KindExternal, such as MCP tools) to say whether they are
// marked read-only: by their own annotation, or by the user's settings,
// which win. The agent loop passes the mark to the permission engine with
// every call of the tool and when it decides what to offer, so that one
// mark decides both.
type ReadOnlyMarker interface {
	ReadOnly() bool
}

// MarkedReadOnly reports whether t is an external tool marked read-only.
// Tools of every other kind declare what they touch through their calls
// and are never marked.
func MarkedReadOnly(t Tool) bool {
	m, ok := t.(ReadOnlyMarker)
	return ok && m.ReadOnly()
}
