package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"unicode/utf8"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// compatOptions are the flags programs that embed a coding agent pass
// (the Claude Agent SDK for TypeScript and Python starts its executable
// with them), so that ponder can be that executable. Those that mean
// something to ponder are carried out; the rest are accepted and named in
// a note on standard error, so that a host's launch never fails on them.
type compatOptions struct {
	verbose            bool
	permissionPrompt   string
	includePartial     bool
	systemPrompt       string
	systemPromptSet    bool
	toolsSet           bool
	appendSystemPrompt string
	// The files of --system-prompt-file and --append-system-prompt-file.
	systemPromptFile, appendSystemPromptFile string
	// settings is --settings, addDirs --add-dir.
	settings string
	addDirs  []string
	// debug is --debug ("" when not given), debugFile --debug-file.
	debug, debugFile string
	allowSkip        bool
	replayUser       bool
	tools            string
	// ignored are accepted flags that do nothing in ponder, by name.
	ignored map[string]*string
	// ignoredBools are the same for flags without a value.
	ignoredBools map[string]*bool
	// ignoredLists are flags that may be given several times.
	ignoredLists map[string]*[]string
}

// Why accepted flags do nothing, for the note; flags not listed here have
// the general reason.
var compatReasons = map[string]string{
	"max-thinking-tokens":    "ponder does not set a thinking budget",
	"thinking":               "ponder does not set a thinking budget",
	"thinking-display":       "ponder does not set a thinking budget",
	"effort":                 "ponder does not set an effort level",
	"fallback-model":         "ponder retries the same model instead of falling back",
	"max-budget-usd":         "ponder does not price requests; use --max-turns",
	"task-budget":            "ponder does not price requests; use --max-turns",
	"setting-sources":        "ponder reads its own settings files; an untrusted project's settings only narrow",
	"agents":                 "define agents in .ponder/agents/*.md",
	"agent":                  "define agents in .ponder/agents/*.md",
	"json-schema":            "structured output is not supported",
	"no-session-persistence": "ponder always keeps a transcript",
}

// addCompatFlags registers the flags on f. A flag some other part of the
// command line defines already (say --mcp-config, once ponder reads it)
// is left to that definition, so the two never clash; call it after the
// other flags are defined.
func addCompatFlags(f *pflag.FlagSet, c *compatOptions) {
	free := func(name string) bool { return f.Lookup(name) == nil }
	if free("verbose") {
		f.BoolVar(&c.verbose, "verbose", false, "accepted for compatibility: stream-json output always has every message")
		_ = f.MarkHidden("verbose")
	}
	if free("permission-prompt-tool") {
		f.StringVar(&c.permissionPrompt, "permission-prompt-tool", "", `with stream-json input: "stdio" sends permission questions to the host as control requests (the default there)`)
		_ = f.MarkHidden("permission-prompt-tool")
	}
	if free("include-partial-messages") {
		f.BoolVar(&c.includePartial, "include-partial-messages", false, "stream-json: also print stream_event lines as the answer streams")
	}
	if free("system-prompt") {
		f.StringVar(&c.systemPrompt, "system-prompt", "", "replace ponder's system prompt (plan mode's rules are enforced whatever it says)")
	}
	if free("append-system-prompt") {
		f.StringVar(&c.appendSystemPrompt, "append-system-prompt", "", "add text to the end of the system prompt")
	}
	if free("system-prompt-file") {
		f.StringVar(&c.systemPromptFile, "system-prompt-file", "", "replace ponder's system prompt with the text of this file")
	}
	if free("append-system-prompt-file") {
		f.StringVar(&c.appendSystemPromptFile, "append-system-prompt-file", "", "add the text of this file to the end of the system prompt")
	}
	if free("settings") {
		f.StringVar(&c.settings, "settings", "", "settings for this run, a JSON object or a file holding one: they count as your own settings, after every settings file")
	}
	if free("add-dir") {
		f.StringArrayVar(&c.addDirs, "add-dir", nil, "a directory outside the project to work in too: read and edited like the project's files (repeatable)")
	}
	if free("debug") {
		f.StringVar(&c.debug, "debug", "", "print ponder's debug log on standard error: set-up, model requests, events")
		f.Lookup("debug").NoOptDefVal = "all"
	}
	if free("debug-file") {
		f.StringVar(&c.debugFile, "debug-file", "", "write ponder's debug log to this file (appended)")
	}
	if free("allow-dangerously-skip-permissions") {
		f.BoolVar(&c.allowSkip, "allow-dangerously-skip-permissions", false, "allow switching to bypassPermissions later, as --dangerously-skip-permissions")
		_ = f.MarkHidden("allow-dangerously-skip-permissions")
	}
	if free("replay-user-messages") {
		f.BoolVar(&c.replayUser, "replay-user-messages", false, "stream-json: echo the host's user messages back")
		_ = f.MarkHidden("replay-user-messages")
	}
	if free("tools") {
		f.StringVar(&c.tools, "tools", "", `the only built-in tools the session has, comma-separated ("default": all of them; "": none); MCP tools come with their servers`)
	}
	const ignored = "accepted for compatibility; no effect in ponder"
	c.ignored = map[string]*string{}
	for _, name := range []string{"max-thinking-tokens", "thinking", "thinking-display", "effort", "fallback-model", "max-budget-usd",
		"task-budget", "agent", "agents", "betas", "json-schema", "permission-prompts", "setting-sources", "project-config-root",
		"resume-session-at", "resume-drops-turn", "initialize-fields", "managed-settings", "sandbox"} {
		if free(name) {
			c.ignored[name] = f.String(name, "", ignored)
			_ = f.MarkHidden(name)
		}
	}
	c.ignoredBools = map[string]*bool{}
	for _, name := range []string{"strict-mcp-config", "include-hook-events", "session-mirror", "await-initialize",
		"managed-settings-in-initialize", "no-session-persistence"} {
		if free(name) {
			c.ignoredBools[name] = f.Bool(name, false, ignored)
			_ = f.MarkHidden(name)
		}
	}
	c.ignoredLists = map[string]*[]string{}
	for _, name := range []string{"mcp-config", "channels", "plugin-dir", "plugin-dir-no-mcp"} {
		if free(name) {
			c.ignoredLists[name] = f.StringArray(name, nil, ignored)
			_ = f.MarkHidden(name)
		}
	}
}

// read records which flags the command line set.
func (c *compatOptions) read(cmd *cobra.Command) {
	c.systemPromptSet = cmd.Flags().Changed("system-prompt")
	c.toolsSet = cmd.Flags().Changed("tools")
}

// toolList is the --tools list, or nil for every tool.
func (c *compatOptions) toolList() []string {
	return toolList(c.toolsSet, c.tools)
}

// validate checks the compatibility flags that ponder carries out, and
// reads the files of the system prompt flags.
func (c *compatOptions) validate() error {
	if c.permissionPrompt != "" && c.permissionPrompt != "stdio" {
		return fmt.Errorf("--permission-prompt-tool %q: ponder asks its host over stream-json only (use stdio)", c.permissionPrompt)
	}
	if c.systemPromptFile != "" {
		if c.systemPromptSet {
			return errors.New("give --system-prompt or --system-prompt-file, not both")
		}
		text, err := readPromptFile("--system-prompt-file", c.systemPromptFile)
		if err != nil {
			return err
		}
		c.systemPrompt, c.systemPromptSet = text, true
	}
	if c.appendSystemPromptFile != "" {
		text, err := readPromptFile("--append-system-prompt-file", c.appendSystemPromptFile)
		if err != nil {
			return err
		}
		if c.appendSystemPrompt != "" {
			text = c.appendSystemPrompt + "\n\n" + text
		}
		c.appendSystemPrompt = text
	}
	return nil
}

// maxPromptFile bounds a system prompt file.
const maxPromptFile = 1 << 20

// readPromptFile reads the text of a system prompt flag's file.
func readPromptFile(flag, path string) (string, error) {
	if info, err := os.Stat(path); err != nil {
		return "", fmt.Errorf("%s: %w", flag, err)
	} else if !info.Mode().IsRegular() {
		return "", fmt.Errorf("%s %s: not a regular file", flag, path)
	}
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("%s: %w", flag, err)
	}
	defer f.Close()
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() {
		return "", fmt.Errorf("%s %s: not a regular file", flag, path)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxPromptFile+1))
	if err != nil {
		return "", fmt.Errorf("%s: %w", flag, err)
	}
	if len(data) > maxPromptFile {
		return "", fmt.Errorf("%s %s: larger than %d bytes", flag, path, maxPromptFile)
	}
	if !utf8.Valid(data) {
		return "", fmt.Errorf("%s %s: not UTF-8 text", flag, path)
	}
	return string(data), nil
}

// debugWriter is where the debug log goes: the --debug-file, else
// standard error with --debug, else nowhere (nil). The file is left open
// for the rest of the process.
func (c *compatOptions) debugWriter(stderr io.Writer) (io.Writer, error) {
	if c.debugFile != "" {
		f, err := os.OpenFile(c.debugFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			return nil, fmt.Errorf("--debug-file: %w", err)
		}
		return f, nil
	}
	if c.debug != "" {
		return stderr, nil
	}
	return nil, nil
}

// notes says, one line each, which accepted flags were given that do
// nothing in ponder, and why.
func (c *compatOptions) notes(cmd *cobra.Command) []string {
	var names []string
	for name := range c.ignored {
		if cmd.Flags().Changed(name) {
			names = append(names, name)
		}
	}
	for name := range c.ignoredBools {
		if cmd.Flags().Changed(name) {
			names = append(names, name)
		}
	}
	for name := range c.ignoredLists {
		if cmd.Flags().Changed(name) {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	out := make([]string, 0, len(names))
	for _, name := range names {
		why := compatReasons[name]
		if why == "" {
			why = "it has no counterpart in ponder"
		}
		out = append(out, fmt.Sprintf("--%s is accepted for compatibility and ignored: %s", name, why))
	}
	return out
}
