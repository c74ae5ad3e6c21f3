package permission

// ProtectedNames lists the names, relative to a project's root, of the
// files and directories that decide what runs (as accept-edits knows
// them), for the sandbox to keep read-only. Names that are prefixes or
// endings are given as written (.env, .code-workspace): the caller
// decides what to make of them.
func ProtectedNames() []string {
	out := make([]string, 0, len(protectedNames))
	for _, p := range protectedNames {
		out = append(out, p.name)
	}
	return out
}
