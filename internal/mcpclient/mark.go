package mcpclient

// MarkReadOnly counts the tool named name (mcp__server__tool) as
// read-only from now on, as the user's settings would have had it from
// the start: the user marked it while the session runs. What a host says
// of its server's tools still narrows it. It reports whether the session
// has such a tool.
func (m *Manager) MarkReadOnly(name string) bool {
	if m == nil {
		return false
	}
	for _, s := range m.list() {
		s.mu.Lock()
		found := false
		for _, t := range s.tools {
			if t.Name() == name {
				t.readOnly.Store(true)
				found = true
			}
		}
		for i := range s.st.Tools {
			if s.st.Tools[i].Name == name && s.st.Tools[i].Skipped == "" {
				s.st.Tools[i].ReadOnly = true
			}
		}
		s.mu.Unlock()
		if found {
			return true
		}
	}
	return false
}
