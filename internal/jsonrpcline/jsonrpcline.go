// Package jsonrpcline stands in front of a JSON-RPC 2.0 SDK that reads
// one message per line (ponder acp, ponder mcp serve) and lets through
// only what that SDK can take. The SDKs end the connection, or drop a
// message without answering, on a line too long for them, a line that is
// not JSON, or a message that is not valid JSON-RPC; the filter answers
// those itself as JSON-RPC 2.0 says (-32700 Parse error, -32600 Invalid
// Request, with the request's id whenever it can be read) and goes on, so
// one bad line never ends a server and no request is left unanswered.
//
// A line longer than the limit is never held whole: it is read through,
// keeping only its id, and answered with an error.
package jsonrpcline

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"sync"
)

// Writer serialises whole messages to the client: the SDK's and the
// filter's answers share it, each Write one message.
type Writer struct {
	mu sync.Mutex
	w  io.Writer
}

// NewWriter wraps w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Write writes p at once.
func (w *Writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.w.Write(p)
}

// Filter is an io.Reader of the messages the SDK behind it may read, one
// per line.
type Filter struct {
	in    *bufio.Reader
	out   io.Writer
	log   io.Writer
	limit int

	line    []byte // the line being read
	pending []byte // what is still to be handed on
	err     error  // the input's error, returned once pending is empty
}

// NewFilter reads messages from in, answers the ones it refuses on out
// (which the SDK must write through too: give both a *Writer), notes what
// it drops on log (may be nil), and hands on lines of at most limit bytes.
func NewFilter(in io.Reader, out io.Writer, log io.Writer, limit int) *Filter {
	if log == nil {
		log = io.Discard
	}
	return &Filter{in: bufio.NewReaderSize(in, 64<<10), out: out, log: log, limit: limit}
}

// Read hands on the next accepted bytes.
func (f *Filter) Read(p []byte) (int, error) {
	for len(f.pending) == 0 {
		if f.err != nil {
			return 0, f.err
		}
		f.next()
	}
	n := copy(p, f.pending)
	f.pending = f.pending[n:]
	return n, nil
}

// next reads one line and decides what becomes of it.
func (f *Filter) next() {
	if cap(f.line) > 1<<20 {
		f.line = nil // a big message's buffer is not kept for the small ones
	}
	f.line = f.line[:0]
	var s topScan
	size := 0
	for {
		frag, err := f.in.ReadSlice('\n')
		size += len(frag)
		switch {
		case size <= f.limit+2: // the line, its \r and its \n: kept
			f.line = append(f.line, frag...)
		case len(f.line) > 0:
			s.feed(f.line)
			s.feed(frag)
			f.line = f.line[:0]
		default:
			s.feed(frag)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			f.err = err
		}
		break
	}
	kept := size <= f.limit+2
	body := trimEOL(f.line)
	length := size // an oversized line is counted whole, its ends too
	if kept {
		if isBlank(body) {
			return
		}
		length = len(body)
		s.feed(body)
	}
	v := judge(&s, kept && json.Valid(body), length, f.limit)
	switch {
	case v.pass:
		f.pending = append(body, '\n')
	case v.instead != nil:
		fmt.Fprintf(f.log, "ponder: %s\n", v.why)
		f.pending = v.instead
	default:
		if v.why != "" {
			fmt.Fprintf(f.log, "ponder: refused a message: %s\n", v.why)
		}
		if v.reply != nil {
			if _, err := f.out.Write(v.reply); err != nil && f.err == nil {
				f.err = err
			}
		}
	}
}

// trimEOL drops the line's \n and \r.
func trimEOL(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}

func isBlank(b []byte) bool {
	for _, c := range b {
		if !isSpace(c) {
			return false
		}
	}
	return true
}
