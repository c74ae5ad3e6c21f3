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

//go:embed write.md
var writeDoc string

type writeInput struct {
	FilePath string  `json:"file_path" desc:"The file to write: an absolute path, or one relative to the project directory."`
	Content  *string `json:"content" desc:"The complete new contents of the file."`
}

type writeTool struct{ tool.Meta }

// NewWrite returns the Write tool, which creates a file or replaces all of
// its contents.
func NewWrite() tool.Tool {
	return writeTool{tool.NewMeta[writeInput]("Write", permission.KindWrite, writeDoc, false)}
}

func (writeTool) Prepare(env *tool.Env, input json.RawMessage) (tool.Call, error) {
	in, err := tool.Decode[writeInput](input)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(in.FilePath) == "" {
		return nil, errors.New("file_path is required")
	}
	if in.Content == nil {
		return nil, errors.New(`content is required (use "" for an empty file)`)
	}
	if strings.HasSuffix(in.FilePath, "/") {
		return nil, fmt.Errorf("file_path %q names a directory; give the path of a file", in.FilePath)
	}
	path := env.Abs(in.FilePath)
	return &writeCall{env: env, path: path, decided: decide(path), content: *in.Content}, nil
}

type writeCall struct {
	env     *tool.Env
	path    string
	decided decidedPath
	content string
}

func (c *writeCall) Access() permission.Access {
	return c.decided.access()
}

// check refuses directories and files the session has not read, or that
// changed since. It reports whether the file exists.
func (c *writeCall) check() (exists bool, err error) {
	if err := c.env.CheckWriteSize(c.path, int64(len(c.content))); err != nil {
		return false, err
	}
	info, err := os.Stat(c.path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return false, nil
	case err != nil:
		return false, err
	case info.IsDir():
		return true, fmt.Errorf("%s is a directory; Write only writes files", c.path)
	}
	if c.env.Files != nil {
		if err := c.env.Files.CheckFresh(c.path); err != nil {
			return true, err
		}
	}
	return true, nil
}

// Validate fails early for a directory or a file not read first; Run
// checks again.
func (c *writeCall) Validate() error {
	_, err := c.check()
	return err
}

func (c *writeCall) Run(ctx context.Context) tool.Result {
	if err := ctx.Err(); err != nil {
		return tool.Errorf("Write was interrupted before it started.")
	}
	exists, err := c.check()
	if err != nil {
		return tool.Errorf("%v", err)
	}
	w := writerFor(ctx, c.decided)
	if w.err != nil {
		return tool.Errorf("%v", w.err)
	}
	before, shown := "", true
	if exists {
		before, shown = w.readForDiff()
	}
	if err := w.commit(c.env, []byte(c.content)); err != nil {
		return tool.Errorf("Could not write %s: %v", c.path, err)
	}
	diff := ""
	if shown {
		diff = madeDiff(c.env, c.path, before, c.content)
	}
	verb := "Created"
	if exists {
		verb = "Updated"
	}
	lines := plural(countLines(c.content), "line")
	return tool.Result{
		Content: fmt.Sprintf("%s %s (%s).", verb, c.path, lines),
		Summary: fmt.Sprintf("%s file, %s", verb, lines),
		Diff:    diff,
	}
}
