package session

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/ponder-agent/ponder/internal/llm"
)

// Transcript is a loaded transcript.
type Transcript struct {
	Path    string
	Header  Entry
	Entries []Entry
	// Warnings say what could not be read and was left out, except what
	// an earlier resume already reported (see TypeRepaired).
	Warnings []string

	// Lines is the number of lines read, an unterminated last one
	// included; Size is the number of bytes.
	Lines int
	Size  int64
	// cutFrom is where an unreadable last line without its newline
	// starts (a write cut short by a killed process), or -1.
	cutFrom int64
	// unterminated says the file does not end with a newline.
	unterminated bool
	// reported is the last line whose damage an earlier resume reported.
	reported int
	// damage are the warnings about lines, before those already reported
	// are left out.
	damage []lineWarning
}

// lineWarning is a warning about one line (0: about no line in
// particular).
type lineWarning struct {
	line int
	text string
}

// Load reads a transcript file.
func Load(path string) (*Transcript, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("opening transcript: %w", err)
	}
	defer f.Close()
	t, err := Parse(f, path)
	if err != nil {
		return nil, err
	}
	return t, nil
}

// maxLine bounds one transcript line (a message with a very large tool
// result); longer lines are skipped with a warning.
const maxLine = 64 << 20

// Parse reads a transcript from r; name is used in warnings. Lines that
// cannot be read are skipped and reported in Warnings: a cut last line,
// invalid JSON, lines over 64 MB, unknown entry types, entries missing
// what their type needs. Parse fails only when nothing usable is found.
func Parse(r io.Reader, name string) (*Transcript, error) {
	t := &Transcript{Path: name, cutFrom: -1}
	lr := lineReader{br: bufio.NewReaderSize(r, 64<<10)}
	for n := 1; ; n++ {
		ln, err := lr.next()
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("reading %s: %w", name, err)
		}
		if ln.size > 0 {
			t.Lines = n
			t.unterminated = !ln.terminated
			t.add(ln, n, name)
		}
		if errors.Is(err, io.EOF) {
			break
		}
	}
	t.Size = lr.off
	t.settleWarnings()
	if t.Header.Type == "" && len(t.Entries) == 0 {
		if len(t.Warnings) > 0 {
			return nil, fmt.Errorf("%s holds no readable transcript entries (%s)", name, t.Warnings[0])
		}
		if len(t.damage) > 0 {
			return nil, fmt.Errorf("%s holds no readable transcript entries (%s)", name, t.damage[0].text)
		}
		return nil, fmt.Errorf("%s is empty", name)
	}
	return t, nil
}

// settleWarnings keeps the warnings about lines that no earlier resume
// reported.
func (t *Transcript) settleWarnings() {
	if t.Header.Type == "" && len(t.Entries) > 0 {
		t.warn(1, "%s: the header line is missing; loaded what could be read", t.Path)
	}
	for _, w := range t.damage {
		if w.line == 0 || w.line > t.reported {
			t.Warnings = append(t.Warnings, w.text)
		}
	}
}

// line is one line of input.
type line struct {
	text       []byte // without the newline; nil when too long
	start      int64  // offset of its first byte
	size       int64  // bytes, newline included
	terminated bool
	tooLong    bool
}

// lineReader reads lines and keeps count of the offset.
type lineReader struct {
	br  *bufio.Reader
	off int64
}

// next reads one line. At the end of the input it returns the last,
// unterminated line (if any) with io.EOF. A line over maxLine is read to
// its end but not kept.
func (lr *lineReader) next() (line, error) {
	l := line{start: lr.off}
	var buf []byte
	for {
		chunk, err := lr.br.ReadSlice('\n')
		l.size += int64(len(chunk))
		lr.off += int64(len(chunk))
		if !l.tooLong {
			buf = append(buf, chunk...)
			if len(buf) > maxLine+1 {
				l.tooLong, buf = true, nil
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err == nil {
			l.terminated = true
			if !l.tooLong {
				l.text = buf[:len(buf)-1]
			}
			return l, nil
		}
		if !l.tooLong {
			l.text = buf
		}
		return l, err
	}
}

func (t *Transcript) warn(line int, format string, args ...any) {
	t.damage = append(t.damage, lineWarning{line: line, text: fmt.Sprintf(format, args...)})
}

func (t *Transcript) add(l line, n int, name string) {
	cut := !l.terminated
	if l.tooLong {
		if cut {
			t.cutFrom = l.start
			t.warn(n, "%s:%d: the last line was cut off (ponder probably stopped while writing it); dropped it", name, n)
			return
		}
		t.warn(n, "%s:%d: line longer than %d bytes; skipped", name, n, maxLine)
		return
	}
	trimmed := trimSpace(l.text)
	if len(trimmed) == 0 {
		return
	}
	var e Entry
	if err := json.Unmarshal(trimmed, &e); err != nil {
		if cut {
			t.cutFrom = l.start
			t.warn(n, "%s:%d: the last line was cut off (ponder probably stopped while writing it); dropped it", name, n)
		} else {
			t.warn(n, "%s:%d: not a valid transcript entry (%v); skipped", name, n, err)
		}
		return
	}
	if problem := e.check(); problem != "" {
		t.warn(n, "%s:%d: %s; skipped", name, n, problem)
		return
	}
	e.Line = n
	switch e.Type {
	case TypeHeader:
		if t.Header.Type != "" {
			t.warn(n, "%s:%d: a second header; skipped", name, n)
			return
		}
		if e.Version > FormatVersion {
			t.warn(0, "%s: written by a newer ponder (format %d, this one reads %d); unknown parts are left out", name, e.Version, FormatVersion)
		}
		t.Header = e
		return
	case TypeRepaired:
		// Only a line before this one can have been reported by it.
		t.reported = max(t.reported, min(e.Through, n-1))
	}
	t.Entries = append(t.Entries, e)
}

// trimSpace trims JSON white space (and a carriage return) from both ends.
func trimSpace(b []byte) []byte {
	isSpace := func(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }
	for len(b) > 0 && isSpace(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && isSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

// check returns what is wrong with an entry, or "".
func (e *Entry) check() string {
	switch e.Type {
	case TypeHeader:
		if e.SessionID == "" {
			return "header without a session id"
		}
	case TypeMessage:
		if e.Message == nil || (e.Message.Role != llm.RoleUser && e.Message.Role != llm.RoleAssistant) {
			return "message entry without a user or assistant message"
		}
		for _, b := range e.Message.Content {
			switch b.Type {
			case llm.BlockText, llm.BlockToolUse, llm.BlockToolResult, llm.BlockImage:
			default:
				return fmt.Sprintf("message with an unknown block type %q", b.Type)
			}
		}
	case TypeState:
		if len(e.State) == 0 {
			return "state entry without a state"
		}
	case TypePlanSnapshot:
		if e.Plan == nil {
			return "plan snapshot without a plan"
		}
	case TypePending:
		if e.Pending == nil || e.Pending.ToolUseID == "" {
			return "pending approval without its tool call"
		}
	case TypeModel:
		if e.Model == "" {
			return "model entry without a model"
		}
	case TypeGrant:
		if len(e.Rules) == 0 {
			return "grant entry without rules"
		}
	case TypeFileSeen:
		if e.Seen == nil || e.Seen.Path == "" {
			return "file_seen entry without a path"
		}
	case TypeResolved, TypeUsage, TypeClear:
	case TypeRepaired:
		if e.Through <= 0 {
			return "repair record without a line"
		}
	case TypeCompact:
		if e.Summary == "" {
			return "compaction without a summary"
		}
	case TypeTodos:
		if len(e.Todos) == 0 {
			return "todo entry without todos"
		}
	case TypeTurn, TypeCheckpoint, TypeRewind:
		if e.Checkpoint == nil || e.Checkpoint.Turn <= 0 {
			return e.Type + " entry without its turn"
		}
	default:
		return fmt.Sprintf("unknown entry type %q", e.Type)
	}
	return ""
}

// unreported reports whether damage at line n is news: no earlier resume
// reported it.
func (t *Transcript) unreported(n int) bool { return n > t.reported }
