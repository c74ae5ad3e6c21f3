package session

import (
	"bufio"
	"bytes"
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
	// Warnings say what could not be read and was left out.
	Warnings []string
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
// invalid JSON, unknown entry types, entries missing what their type needs.
// Parse fails only when nothing usable is found.
func Parse(r io.Reader, name string) (*Transcript, error) {
	t := &Transcript{Path: name}
	br := bufio.NewReaderSize(r, 64<<10)
	for n := 1; ; n++ {
		line, err := readLine(br)
		if err != nil && !errors.Is(err, io.EOF) {
			if errors.Is(err, errLineTooLong) {
				t.warn("%s:%d: line longer than %d bytes; skipped", name, n, maxLine)
				continue
			}
			return nil, fmt.Errorf("reading %s: %w", name, err)
		}
		cut := errors.Is(err, io.EOF) && len(line) > 0
		if trimmed := bytes.TrimSpace(line); len(trimmed) > 0 {
			t.add(trimmed, n, cut, name)
		}
		if errors.Is(err, io.EOF) {
			break
		}
	}
	if t.Header.Type == "" && len(t.Entries) == 0 {
		if len(t.Warnings) > 0 {
			return nil, fmt.Errorf("%s holds no readable transcript entries (%s)", name, t.Warnings[0])
		}
		return nil, fmt.Errorf("%s is empty", name)
	}
	if t.Header.Type == "" {
		t.warn("%s: the header line is missing; loaded what could be read", name)
	}
	return t, nil
}

var errLineTooLong = errors.New("line too long")

// readLine reads one line without its newline. At the end of the input it
// returns the last, unterminated line (if any) with io.EOF.
func readLine(br *bufio.Reader) ([]byte, error) {
	var buf []byte
	for {
		chunk, err := br.ReadSlice('\n')
		buf = append(buf, chunk...)
		if len(buf) > maxLine {
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = br.ReadSlice('\n')
			}
			if errors.Is(err, io.EOF) {
				return nil, io.EOF
			}
			return nil, errLineTooLong
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil {
			return buf, err
		}
		return buf[:len(buf)-1], nil
	}
}

func (t *Transcript) warn(format string, args ...any) {
	t.Warnings = append(t.Warnings, fmt.Sprintf(format, args...))
}

func (t *Transcript) add(line []byte, n int, cut bool, name string) {
	var e Entry
	if err := json.Unmarshal(line, &e); err != nil {
		if cut {
			t.warn("%s:%d: the last line was cut off (ponder probably stopped while writing it); dropped it", name, n)
		} else {
			t.warn("%s:%d: not a valid transcript entry (%v); skipped", name, n, err)
		}
		return
	}
	if problem := e.check(); problem != "" {
		t.warn("%s:%d: %s; skipped", name, n, problem)
		return
	}
	if e.Type == TypeHeader {
		if t.Header.Type != "" {
			t.warn("%s:%d: a second header; skipped", name, n)
			return
		}
		if e.Version > FormatVersion {
			t.warn("%s: written by a newer ponder (format %d, this one reads %d); unknown parts are left out", name, e.Version, FormatVersion)
		}
		t.Header = e
		return
	}
	t.Entries = append(t.Entries, e)
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
			case llm.BlockText, llm.BlockToolUse, llm.BlockToolResult:
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
	case TypeResolved, TypeUsage, TypeClear:
	case TypeCompact:
		if e.Summary == "" {
			return "compaction without a summary"
		}
	case TypeTodos:
		if len(e.Todos) == 0 {
			return "todo entry without todos"
		}
	default:
		return fmt.Sprintf("unknown entry type %q", e.Type)
	}
	return ""
}
