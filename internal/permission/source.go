package permission

// Source says where a rule was written. Path patterns resolve against the
// project root whatever their source; the source is there so that messages
// can name the file a rule came from, and so that rules of a project the
// user has not trusted can be told apart (package config drops their allow
// rules before they get here).
type Source int

// The places rules come from.
const (
	// SourceSession is a rule given on the command line (--allowedTools,
	// --disallowedTools) or added during the session ("yes, and don't ask
	// again").
	SourceSession Source = iota
	// SourceUser is the user's own settings file.
	SourceUser
	// SourceProject is the project's .ponder/settings.json.
	SourceProject
	// SourceLocal is the project's .ponder/settings.local.json.
	SourceLocal
)

func (s Source) String() string {
	switch s {
	case SourceUser:
		return "user settings"
	case SourceProject:
		return "project settings"
	case SourceLocal:
		return "local project settings"
	}
	return "command line"
}

// RuleSet is the rules of one settings file.
type RuleSet struct {
	Source Source
	// File is the settings file, for messages.
	File string
	// Root is the directory the set's relative path patterns start from
	// (an outer project's root for its rules); the engine's project root
	// when empty.
	Root             string
	Allow, Ask, Deny []string
	// Modes, when set, makes the set's rules count in those modes only;
	// such a set may hold allow rules alone (see rule_modes.go).
	Modes []Mode
}

// where names a rule's origin in a message: the file, or the command line.
func where(src Source, file string) string {
	if file != "" {
		return file
	}
	return src.String()
}
