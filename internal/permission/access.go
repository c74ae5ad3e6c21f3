package permission

// Kind is what a tool call does to the system, as the tool declares it.
type Kind int

// Access kinds, from harmless to powerful.
const (
	// KindNone touches nothing outside ponder's own session state
	// (questions to the user, todo lists, mode changes that ask first).
	KindNone Kind = iota
	// KindRead reads files or directories named in Paths.
	KindRead
	// KindWrite creates, changes or deletes the files named in Paths.
	KindWrite
	// KindExec runs the shell command in Command.
	KindExec
	// KindNetwork fetches the URL in Target.
	KindNetwork
	// KindAgent launches the subagent type in Target; AgentReadOnly says
	// whether every tool that agent type may use is read-only.
	KindAgent
	// KindExternal is a tool ponder cannot see into (such as an MCP
	// tool); ReadOnly says whether it is annotated as read-only.
	KindExternal
)

func (k Kind) String() string {
	switch k {
	case KindNone:
		return "none"
	case KindRead:
		return "read"
	case KindWrite:
		return "write"
	case KindExec:
		return "exec"
	case KindNetwork:
		return "network"
	case KindAgent:
		return "agent"
	case KindExternal:
		return "external"
	}
	return "unknown"
}

// Access is a tool call's own declaration of what it would touch. Tools
// build it from their parsed input before anything runs.
type Access struct {
	// Tool is the tool's name, as rules name it.
	Tool string
	Kind Kind
	// Paths are the files a read or write touches, absolute.
	Paths []string
	// Canon, when it has one entry per path, holds the canonical forms
	// (Canonical) the tool resolved once and will open itself, following
	// no symbolic link: Decide judges these very paths instead of
	// resolving Paths again, so that a link swapped in after the
	// decision cannot send the tool to a file that was never judged.
	Canon []string
	// Command is the shell command of an exec.
	Command string
	// Dir is the directory an exec starts in, against which the relative
	// paths of its files are read; the project root when empty.
	Dir string
	// Target is the URL of a network access or the agent type of an
	// agent launch.
	Target string
	// AgentReadOnly says that the launched agent type can only read.
	AgentReadOnly bool
	// ReadOnly marks an external tool annotated as read-only.
	ReadOnly bool
	// Background marks an exec that keeps running after the call returns
	// (Bash with run_in_background).
	Background bool
	// Unsandboxed marks an exec that asks to run outside the OS sandbox,
	// after the sandbox withheld something it needed.
	Unsandboxed bool
}
