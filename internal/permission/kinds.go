package permission

// What a rule's tool name covers. A rule names a tool, but what matters is
// what a call does: a rule for Read covers every tool that reads files
// (Grep, Glob, LS), a rule for Edit every tool that writes them. Each tool
// declares its kind once, on the tool itself, and the engine learns the
// kinds of the session's tools from Rules.Tools; they decide. The words
// below are the rule language's own (the names rules written for ponder
// or other coding agents use): they stand for a kind only where the
// session has no tool of that name (MultiEdit, NotebookEdit), or where an
// engine is built without its tools (a test). A test of app keeps them
// in line with the tools.

// ruleWords are the names that stand for a kind of access in any rule.
var ruleWords = map[string]Kind{
	"Read": KindRead, "Glob": KindRead, "Grep": KindRead, "LS": KindRead,
	"Edit": KindWrite, "Write": KindWrite, "MultiEdit": KindWrite, "NotebookEdit": KindWrite,
	"Bash": KindExec, "WebFetch": KindNetwork, "Task": KindAgent,
}

// WordKind is the kind of access a name of the rule language stands for.
func WordKind(name string) (Kind, bool) {
	k, ok := ruleWords[name]
	return k, ok
}

// wordKind is the kind a name of the rule language stands for, or -1.
func wordKind(tool string) Kind {
	if k, ok := ruleWords[tool]; ok {
		return k
	}
	return -1
}

// grouped reports whether a rule naming a tool of kind k covers every
// tool of that kind. Tools that touch nothing outside the session, and
// tools ponder cannot see into (MCP tools), are only ever named one by
// one.
func grouped(k Kind) bool {
	switch k {
	case KindRead, KindWrite, KindExec, KindNetwork, KindAgent:
		return true
	}
	return false
}

// ruleKind is the kind of access a rule's tool name stands for, or -1
// when the rule names one tool exactly: the kind the session's tool of
// that name declares, else the rule language's word for it.
func (m matcher) ruleKind(tool string) Kind {
	if k, ok := m.tools[tool]; ok {
		if grouped(k) {
			return k
		}
		return -1
	}
	return wordKind(tool)
}
