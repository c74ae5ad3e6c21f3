package acp

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	sdk "github.com/coder/acp-go-sdk"
)

// toolCall is how an editor is shown one tool call: what kind of thing it
// does, a title, the files it touches, and for edits the change. It is
// presentation only; what a call may do is decided in the session.
type toolCall struct {
	id      string
	name    string
	kind    sdk.ToolKind
	title   string
	locs    []sdk.ToolCallLocation
	diff    []sdk.ToolCallContent
	rawJSON json.RawMessage
}

// toolInput holds the input fields the built-in tools use to say what
// they touch.
type toolInput struct {
	FilePath     string `json:"file_path"`
	Path         string `json:"path"`
	Pattern      string `json:"pattern"`
	Command      string `json:"command"`
	URL          string `json:"url"`
	Description  string `json:"description"`
	SubagentType string `json:"subagent_type"`
	Content      string `json:"content"`
	OldString    string `json:"old_string"`
	NewString    string `json:"new_string"`
	Offset       int    `json:"offset"`
}

// maxDiffFile bounds the size of a file whose old content a Write's diff
// shows.
const maxDiffFile = 1 << 20

// describe makes the editor's view of a call to tool name with input,
// relative paths taken from dir.
func describe(dir, id, name string, input json.RawMessage) toolCall {
	var in toolInput
	_ = json.Unmarshal(input, &in) // a malformed input is shown by name alone
	abs := func(p string) string {
		if p == "" || filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(dir, p)
	}
	rel := func(p string) string {
		if r, err := filepath.Rel(dir, abs(p)); err == nil && !strings.HasPrefix(r, "..") {
			return r
		}
		return p
	}
	c := toolCall{id: id, name: name, kind: sdk.ToolKindOther, title: name, rawJSON: input}
	loc := func(p string, line int) {
		if p == "" {
			return
		}
		l := sdk.ToolCallLocation{Path: abs(p)}
		if line > 0 {
			l.Line = sdk.Ptr(line)
		}
		c.locs = append(c.locs, l)
	}
	switch name {
	case "Read":
		c.kind, c.title = sdk.ToolKindRead, "Read "+rel(in.FilePath)
		loc(in.FilePath, in.Offset)
	case "LS":
		c.kind, c.title = sdk.ToolKindRead, "List "+rel(in.Path)
		loc(in.Path, 0)
	case "Write":
		c.kind, c.title = sdk.ToolKindEdit, "Write "+rel(in.FilePath)
		loc(in.FilePath, 0)
		if in.FilePath != "" {
			c.diff = []sdk.ToolCallContent{sdk.ToolDiffContent(abs(in.FilePath), in.Content, oldText(dir, abs(in.FilePath))...)}
		}
	case "Edit":
		c.kind, c.title = sdk.ToolKindEdit, "Edit "+rel(in.FilePath)
		loc(in.FilePath, 0)
		if in.FilePath != "" {
			c.diff = []sdk.ToolCallContent{sdk.ToolDiffContent(abs(in.FilePath), in.NewString, in.OldString)}
		}
	case "Glob":
		c.kind, c.title = sdk.ToolKindSearch, "Find "+in.Pattern
		loc(in.Path, 0)
	case "Grep":
		c.kind, c.title = sdk.ToolKindSearch, "Search for "+in.Pattern
		loc(in.Path, 0)
	case "Bash":
		c.kind, c.title = sdk.ToolKindExecute, "Run "+oneLine(in.Command)
	case "BashOutput":
		c.kind, c.title = sdk.ToolKindExecute, "Read a background command's output"
	case "KillShell":
		c.kind, c.title = sdk.ToolKindExecute, "Stop a background command"
	case "WebFetch":
		c.kind, c.title = sdk.ToolKindFetch, "Fetch "+in.URL
	case "Task":
		c.kind, c.title = sdk.ToolKindThink, fmt.Sprintf("Agent (%s): %s", in.SubagentType, in.Description)
	case "TodoWrite":
		c.kind, c.title = sdk.ToolKindThink, "Update the todo list"
	case "AskUserQuestion":
		c.kind, c.title = sdk.ToolKindThink, "Ask you a question"
	case "EnterPlanMode":
		c.kind, c.title = sdk.ToolKindSwitchMode, "Enter plan mode"
	case "ExitPlanMode":
		c.kind, c.title = sdk.ToolKindSwitchMode, "Present the plan for approval"
	}
	return c
}

// oldText is the current text of a file a Write would replace, for its
// diff: only a regular text file inside the project (symlinks resolved),
// never more than maxDiffFile. The call is shown before anything decided
// it may run, so nothing outside the project is read for it (a model's
// Write to /proc/self/environ shows no old text).
func oldText(dir, path string) []string {
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return nil
	}
	if rel, err := filepath.Rel(root, real); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return nil
	}
	info, err := os.Stat(real)
	if err != nil || !info.Mode().IsRegular() || info.Size() > maxDiffFile {
		return nil
	}
	data, err := os.ReadFile(real)
	if err != nil || !utf8.Valid(data) {
		return nil
	}
	return []string{string(data)}
}

// oneLine shortens a command to a title.
func oneLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i] + " …"
	}
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

// rawInput is the call's input as a value the protocol carries, or nil
// when it is not JSON.
func (c toolCall) rawInput() any {
	var v any
	if json.Unmarshal(c.rawJSON, &v) != nil {
		return nil
	}
	return v
}

// start is the tool_call update that announces the call.
func (c toolCall) start(status sdk.ToolCallStatus) sdk.SessionUpdate {
	opts := []sdk.ToolCallStartOpt{sdk.WithStartKind(c.kind), sdk.WithStartStatus(status), sdk.WithStartRawInput(c.rawInput())}
	if len(c.locs) > 0 {
		opts = append(opts, sdk.WithStartLocations(c.locs))
	}
	if len(c.diff) > 0 {
		opts = append(opts, sdk.WithStartContent(c.diff))
	}
	return sdk.StartToolCall(sdk.ToolCallId(c.id), c.title, opts...)
}

// permissionCall is the call as a permission request shows it.
func (c toolCall) permissionCall() sdk.ToolCallUpdate {
	return sdk.ToolCallUpdate{
		ToolCallId: sdk.ToolCallId(c.id),
		Title:      sdk.Ptr(c.title),
		Kind:       sdk.Ptr(c.kind),
		Status:     sdk.Ptr(sdk.ToolCallStatusPending),
		Locations:  c.locs,
		Content:    c.diff,
		RawInput:   c.rawInput(),
	}
}

// maxShown bounds the text of a tool result shown in the editor.
const maxShown = 16 << 10

// textContent is text as tool call content, cut to maxShown.
func textContent(s string) []sdk.ToolCallContent {
	if len(s) > maxShown {
		cut := maxShown
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "\n… (cut)"
	}
	return []sdk.ToolCallContent{sdk.ToolContent(sdk.TextBlock(s))}
}
