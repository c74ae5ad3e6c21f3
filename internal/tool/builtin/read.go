package builtin

import (
	"bufio"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/tool"
)

//go:embed read.md
var readDoc string

const (
	readDefaultLimit = 2000
	readMaxLineChars = 2000
	// readMaxOutput bounds the text one Read returns, whatever the limit.
	readMaxOutput = 256 << 10
	// readCountBudget is how far past the shown lines Read keeps reading
	// to tell how long the file is.
	readCountBudget = 64 << 20
	binarySniffSize = 8 << 10
)

type readInput struct {
	FilePath string `json:"file_path" desc:"The file to read: an absolute path, or one relative to the project directory."`
	Offset   int    `json:"offset,omitempty" desc:"First line to show, counting from 1. Leave out to start at the top."`
	Limit    int    `json:"limit,omitempty" desc:"Most lines to show (default 2000)."`
}

type readTool struct{ tool.Meta }

// NewRead returns the Read tool, which shows a text file with line numbers.
func NewRead() tool.Tool {
	return readTool{tool.NewMeta[readInput]("Read", permission.KindRead, readDoc, true)}
}

func (readTool) Prepare(env *tool.Env, input json.RawMessage) (tool.Call, error) {
	in, err := tool.Decode[readInput](input)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(in.FilePath) == "" {
		return nil, errors.New("file_path is required")
	}
	if in.Offset < 0 {
		return nil, fmt.Errorf("offset must be 1 or more, got %d", in.Offset)
	}
	if in.Limit < 0 {
		return nil, fmt.Errorf("limit must be 1 or more, got %d", in.Limit)
	}
	path := env.Abs(in.FilePath)
	c := &readCall{env: env, path: path, decided: decide(path), offset: in.Offset, limit: in.Limit}
	if c.offset == 0 {
		c.offset = 1
	}
	if c.limit == 0 {
		c.limit = readDefaultLimit
	}
	return c, nil
}

type readCall struct {
	env     *tool.Env
	path    string
	decided decidedPath
	offset  int
	limit   int
}

func (c *readCall) Access() permission.Access {
	return c.decided.access()
}

// Run reads the file on a goroutine of its own, so that ponder stops
// waiting once ctx is done even when a read blocks in the kernel.
func (c *readCall) Run(ctx context.Context) tool.Result {
	return untilDone(ctx, "Read", func() tool.Result { return c.run(ctx) })
}

func (c *readCall) run(ctx context.Context) tool.Result {
	if ext := binaryExtension(c.path); ext != "" {
		if info, err := os.Stat(c.path); err == nil && info.Mode().IsRegular() {
			return tool.Errorf("%s looks like a binary file (%s), which Read cannot show as text. Use a command-line tool through Bash to inspect it if needed.", c.path, ext)
		}
	}
	f, err := openDecided(c.decided.canon)
	var refused *refusedFile
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return tool.Errorf("%s", notFoundMessage(c.path))
	case errors.As(err, &refused) && strings.HasSuffix(refused.why, "not a file"):
		return tool.Errorf("%s is a directory, not a file. Use LS to see what it contains.", c.path)
	case errors.As(err, &refused):
		return tool.Errorf("%s.", err)
	case err != nil:
		return tool.Errorf("Cannot read %s: %v", c.path, err)
	}
	defer f.Close()
	lr := &limitedReader{r: f, n: f.maxBytes()}
	if text, ok := c.env.EditorText(ctx, c.path); ok {
		// The editor's buffer, unsaved changes included.
		lr = &limitedReader{r: strings.NewReader(text), n: f.maxBytes()}
	}
	br := bufio.NewReaderSize(lr, 64<<10)
	if head, _ := br.Peek(binarySniffSize); hasNUL(head) {
		return tool.Errorf("%s contains binary data (a NUL byte near the start), which Read cannot show as text. Use a command-line tool through Bash to inspect it if needed.", c.path)
	}
	res, err := c.readLines(ctx, br, lr)
	if err != nil {
		return tool.Errorf("Cannot read %s: %v", c.path, err)
	}
	if c.env.Files != nil {
		c.env.Files.Note(c.path)
	}
	return res
}

func hasNUL(b []byte) bool {
	for _, c := range b {
		if c == 0 {
			return true
		}
	}
	return false
}

// readLines produces the numbered text for the requested window.
// lr bounds what is read; once it is reached the text ends there, with a
// note.
func (c *readCall) readLines(ctx context.Context, br *bufio.Reader, lr *limitedReader) (tool.Result, error) {
	var (
		out       []byte
		line      []byte // current line, up to a cap
		cut       bool   // current line was longer than the cap
		lineNo    int
		shown     int
		stopAt    int // line after the last one shown, 0 while showing
		counted   int64
		capped    bool // output budget hit
		exact     = true
		lineBytes = readMaxLineChars * 4
	)
	last := c.offset + c.limit - 1
	for {
		chunk, more, err := br.ReadLine()
		if err == io.EOF {
			break
		}
		if err != nil {
			return tool.Result{}, err
		}
		if lineNo%4096 == 0 && ctx.Err() != nil {
			return tool.Result{}, ctx.Err()
		}
		if stopAt != 0 {
			// Past the window: only count lines, within a budget.
			counted += int64(len(chunk))
			if !more {
				lineNo++
			}
			if counted > readCountBudget {
				exact = false
				break
			}
			continue
		}
		if room := lineBytes - len(line); len(chunk) > room {
			chunk, cut = chunk[:max(room, 0)], true
		}
		line = append(line, chunk...)
		if more {
			continue
		}
		lineNo++
		if lineNo >= c.offset {
			text, shortened := cutRunes(string(line), readMaxLineChars)
			if shortened || cut {
				text += " … [line truncated at 2000 characters]"
			}
			if len(out)+len(text) > readMaxOutput && shown > 0 {
				capped = true
				stopAt = lineNo
			} else {
				out = numbered(out, lineNo, text)
				shown++
				if lineNo == last {
					stopAt = lineNo + 1
				}
			}
		}
		line, cut = line[:0], false
	}
	total := lineNo
	limitMB := lr.n0() >> 20
	switch {
	case total == 0 && lr.reached:
		return tool.Errorf("%s has no line end in its first %d MB, and Read reads no further.", c.path, limitMB), nil
	case total == 0:
		return tool.Result{Content: fmt.Sprintf("%s exists but is empty.", c.path), Summary: "Read empty file"}, nil
	case shown == 0 && lr.reached:
		return tool.Errorf("Read reads only the first %d MB of %s (%s); offset %d lies beyond that.", limitMB, c.path, plural(total, "line"), c.offset), nil
	case shown == 0:
		return tool.Result{
			Content: fmt.Sprintf("%s has %s, so offset %d is past its end. Use a smaller offset.", c.path, plural(total, "line"), c.offset),
			IsError: true,
		}, nil
	}
	first := c.offset
	end := first + shown - 1
	if lr.reached {
		exact = false
	}
	if stopAt != 0 && end < total {
		var note string
		switch {
		case capped:
			note = fmt.Sprintf("Output stopped at line %d because the text is large", end)
		case exact:
			note = fmt.Sprintf("Showing lines %d-%d of %d", first, end, total)
		default:
			note = fmt.Sprintf("Showing lines %d-%d; the file goes on", first, end)
		}
		out = fmt.Appendf(out, "\n(%s. To continue, read again with offset=%d.)\n", note, end+1)
	} else if lr.reached {
		out = fmt.Appendf(out, "\n(Read stops after the first %d MB of this file, which goes on.)\n", limitMB)
	}
	return tool.Result{
		Content: validUTF8(string(out)),
		Summary: fmt.Sprintf("Read %s", plural(shown, "line")),
	}, nil
}
