package agentdef

import _ "embed"

var (
	//go:embed prompts/explore.md
	explorePrompt string
	//go:embed prompts/plan.md
	planPrompt string
	//go:embed prompts/general.md
	generalPrompt string
)

// readOnlyTools of the built-in read-only agents.
var builtinReadTools = []string{"Read", "Glob", "Grep", "LS", "Bash", "WebFetch"}

// BuiltIn returns the built-in agents.
func BuiltIn() []Definition {
	return []Definition{
		{
			Name: "Explore",
			Description: "A fast read-only agent for searching a codebase: finding files by pattern, searching code for keywords, answering questions about how the code works. " +
				"Say how thorough it should be: \"quick\", \"medium\" or \"very thorough\".",
			Prompt:          explorePrompt,
			Tools:           builtinReadTools,
			DisallowedTools: []string{"Task", "ExitPlanMode", "Write", "Edit", "NotebookEdit"},
			Model:           ModelFast,
			ReadOnly:        true,
			Source:          "built-in",
		},
		{
			Name: "Plan",
			Description: "A software architect agent that designs an implementation: explores the code read-only and returns a step-by-step plan, the trade-offs, and the critical files. " +
				"Give it the full background: the requirements, what was found so far, the constraints.",
			Prompt:          planPrompt,
			Tools:           builtinReadTools,
			DisallowedTools: []string{"Task", "ExitPlanMode", "Write", "Edit", "NotebookEdit"},
			Model:           ModelInherit,
			ReadOnly:        true,
			ForkContext:     true,
			Source:          "built-in",
		},
		{
			Name:        "general-purpose",
			Description: "An agent for complex multi-step tasks and open-ended research; it has the same tools as the main conversation (in plan mode it cannot be launched, as it can change files).",
			Prompt:      generalPrompt,
			Model:       ModelInherit,
			Source:      "built-in",
		},
	}
}

// ReadOnlyReminder is attached to every request of a read-only agent.
const ReadOnlyReminder = "Reminder: this is a read-only task. You cannot create, change or delete files, and only read-only commands run."
