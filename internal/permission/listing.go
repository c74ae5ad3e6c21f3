package permission

// ListedRule is one rule an engine holds, for showing the user which
// rules are in force (/permissions): what it does, as written, and where
// it was written.
type ListedRule struct {
	// Behavior is "deny", "ask" or "allow".
	Behavior string
	Text     string
	// Origin is the settings file, "command line", or, for a rule added
	// while the session ran (an answer's "don't ask again", an approval's
	// grant, a command's allowed-tools), "this session".
	Origin string
}

// Listed returns the rules in force, in the order they are judged:
// deny, then ask, then allow, each list in the order it was read.
func (e *Engine) Listed() []ListedRule {
	e.mu.RLock()
	defer e.mu.RUnlock()
	var out []ListedRule
	for _, l := range []struct {
		name  string
		rules []Rule
	}{{"deny", e.deny}, {"ask", e.ask}, {"allow", e.allow}} {
		for i, r := range l.rules {
			origin := r.origin()
			if l.name == "allow" && i >= e.startAllow {
				origin = "this session"
			}
			out = append(out, ListedRule{Behavior: l.name, Text: r.Text, Origin: origin})
		}
	}
	return out
}
