package permission

// What a rule's tool name covers. A rule names a tool, but what matters is
// what a call does: a rule for Read covers every tool that reads files
// (Grep, Glob, LS), a rule for Edit every tool that writes them. Each tool
// declares its kind once, on the tool itself; the engine learns the kinds
// of the session's tools from Rules.Tools. The words below are the rule
// language's own, kept for names the session may have no tool for (rules
// written for other coding agents: MultiEdit, NotebookEdit) and for
// engines built without a tool list.

// ruleWords are the names that stand for a kind of access in any rule.
var ruleWords = map[string]Kind{
	"Read": KindRead, "Edit": KindWrite, "Write": KindWrite, "MultiEdit": KindWrite, "NotebookEdit": KindWrite,
	"Bash": KindExec, "WebFetch": KindNetwork, "Task": KindAgent,
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
