package builtin

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/tool"
)

//go:embed edit.md
var editDoc string

type editInput struct {
	FilePath   string  `json:"file_path" desc:"The file to change: an absolute path, or one relative to the project directory."`
	OldString  string  `json:"old_string" desc:"The exact text to replace, including indentation. It must occur exactly once unless replace_all is true."`
	NewString  *string `json:"new_string" desc:"The text to put in its place (may be empty to delete). Must differ from old_string."`
	ReplaceAll bool    `json:"replace_all,omitempty" desc:"Replace every occurrence of old_string instead of requiring a single one."`
}

type editTool struct{ tool.Meta }

// NewEdit returns the Edit tool, which replaces exact text in a file.
func NewEdit() tool.Tool {
	return editTool{tool.NewMeta[editInput]("Edit", permission.KindWrite, editDoc, false)}
}

func (editTool) Prepare(env *tool.Env, input json.RawMessage) (tool.Call, error) {
	in, err := tool.Decode[editInput](input)
	if err != nil {
		return nil, err
	}
	switch {
	case strings.TrimSpace(in.FilePath) == "":
		return nil, errors.New("file_path is required")
	case in.NewString == nil:
		return nil, errors.New(`new_string is required (use "" to delete old_string)`)
	case in.OldString == "":
		return nil, errors.New("old_string must not be empty; to create a file or replace all of it, use Write")
	case in.OldString == *in.NewString:
		return nil, errors.New("old_string and new_string are the same, so there is nothing to change")
	}
	path := env.Abs(in.FilePath)
	return &editCall{env: env, path: path, decided: decide(path), old: in.OldString, new: *in.NewString, all: in.ReplaceAll}, nil
}

type editCall struct {
	env      *tool.Env
	path     string
	decided  decidedPath
	old, new string
	all      bool
}

func (c *editCall) Access() permission.Access {
	return c.decided.access()
}

// editPlan is the outcome of applying an edit in memory.
type editPlan struct {
	content string // the new file contents
	count   int    // replacements made
	first   int    // byte offset of the first replacement in content
	newText string // the replacement as written (line endings adjusted)
	before  string // the file's contents before the edit
}

func (c *editCall) plan(ctx context.Context) (*editPlan, error) {
	w := fileWriter{ctx: ctx, path: c.path, canon: c.decided.canon}
	return c.planFrom(func() ([]byte, error) { return w.read(c.env) })
}

// planFrom applies the edit to what read returns.
func (c *editCall) planFrom(read func() ([]byte, error)) (*editPlan, error) {
	info, err := os.Stat(c.path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("file does not exist: %s. Edit only changes existing files; use Write to create one", c.path)
	case err != nil:
		return nil, err
	case info.IsDir():
		return nil, fmt.Errorf("%s is a directory, not a file", c.path)
	}
	if c.env.Files != nil {
		if err := c.env.Files.CheckFresh(c.path); err != nil {
			return nil, err
		}
	}
	data, err := read()
	if err != nil {
		return nil, err
	}
	content := string(data)
	old, repl := adaptLineEndings(content, c.old, c.new)
	n := strings.Count(content, old)
	if n == 0 && old != c.old {
		// A file with mixed line endings may hold the text as given.
		if m := strings.Count(content, c.old); m > 0 {
			old, repl, n = c.old, c.new, m
		}
	}
	switch {
	case n == 0:
		return nil, errors.New(notFoundHint(c.path, content, c.old))
	case n > 1 && !c.all:
		return nil, fmt.Errorf("old_string occurs %d times in %s (at lines %s). Include more surrounding lines in old_string so that it matches only the place you mean, or set replace_all to true to change every occurrence",
			n, c.path, matchLines(content, old, 10))
	}
	// The size is known before the copy is made: replace_all of a short
	// text by a long one would otherwise build a huge file in memory.
	if err := c.env.CheckWriteSize(c.path, int64(len(content))+int64(n)*(int64(len(repl))-int64(len(old)))); err != nil {
		return nil, err
	}
	p := &editPlan{count: n, newText: repl, first: strings.Index(content, old), before: content}
	if c.all {
		p.content = strings.ReplaceAll(content, old, repl)
	} else {
		p.content = content[:p.first] + repl + content[p.first+len(old):]
	}
	return p, nil
}

// Validate applies the edit in memory, so that nobody is asked to allow an
// edit that cannot apply; Run checks everything again.
func (c *editCall) Validate() error {
	_, err := c.plan(context.Background())
	return err
}

func (c *editCall) Run(ctx context.Context) tool.Result {
	if err := ctx.Err(); err != nil {
		return tool.Errorf("Edit was interrupted before it started.")
	}
	w := writerFor(ctx, c.decided)
	if w.err != nil {
		return tool.Errorf("%v", w.err)
	}
	p, err := c.planFrom(func() ([]byte, error) { return w.read(c.env) })
	if err != nil {
		return tool.Errorf("%v", err)
	}
	if err := w.commit(c.env, []byte(p.content)); err != nil {
		return tool.Errorf("Could not write %s: %v", c.path, err)
	}
	what := "Replaced 1 occurrence"
	if p.count > 1 {
		what = fmt.Sprintf("Replaced %d occurrences (the first is shown)", p.count)
	}
	return tool.Result{
		Content: fmt.Sprintf("Edited %s. %s:\n%s", c.path, what, editSnippet(p)),
		Summary: fmt.Sprintf("Edited file, %s", plural(p.count, "replacement")),
		Diff:    madeDiff(c.env, c.path, p.before, p.content),
	}
}

// adaptLineEndings makes old and repl use the file's line endings: in a
// file that mostly ends lines with CRLF, "\n" in them becomes "\r\n".
func adaptLineEndings(content, old, repl string) (string, string) {
	crlf := strings.Count(content, "\r\n")
	lf := strings.Count(content, "\n") - crlf
	toLF := func(s string) string { return strings.ReplaceAll(s, "\r\n", "\n") }
	old, repl = toLF(old), toLF(repl)
	if crlf > lf {
		toCRLF := func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }
		return toCRLF(old), toCRLF(repl)
	}
	return old, repl
}

// matchLines lists the line numbers where old starts, at most max of them.
func matchLines(content, old string, max int) string {
	var nums []string
	line, pos := 1, 0
	for len(nums) < max {
		i := strings.Index(content[pos:], old)
		if i < 0 {
			break
		}
		line += strings.Count(content[pos:pos+i], "\n")
		nums = append(nums, fmt.Sprint(line))
		line += strings.Count(old, "\n")
		pos += i + len(old)
	}
	s := strings.Join(nums, ", ")
	if strings.Count(content, old) > max {
		s += ", …"
	}
	return s
}
