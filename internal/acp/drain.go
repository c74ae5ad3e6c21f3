package acp

import (
	"bytes"
	"encoding/json"
	"io"
	"sync"
	"time"
)

// drainWait bounds how long ponder acp waits, once the editor has closed
// its input, for the answers to requests still in flight.
const drainWait = 20 * time.Second

// inflight counts the editor's requests that have not been answered yet,
// so that an editor (or a script) that closes its input right after its
// last request still gets every answer before ponder exits. It watches
// the lines going in and out; it changes none of them.
type inflight struct {
	mu      sync.Mutex
	n       int
	changed chan struct{}
	partial []byte
}

func newInflight() *inflight { return &inflight{changed: make(chan struct{})} }

// message is what tells requests and answers apart.
type message struct {
	ID     *json.RawMessage `json:"id"`
	Method string           `json:"method"`
}

func (f *inflight) add(d int) {
	f.mu.Lock()
	f.n += d
	close(f.changed)
	f.changed = make(chan struct{})
	f.mu.Unlock()
}

// reader counts the requests read through it.
func (f *inflight) reader(r io.Reader) io.Reader { return &countIn{f: f, r: r} }

// writer counts the answers written through it.
func (f *inflight) writer(w io.Writer) io.Writer { return &countOut{f: f, w: w} }

// wait waits until every request read has been answered, or limit passes.
func (f *inflight) wait(limit time.Duration) {
	t := time.NewTimer(limit)
	defer t.Stop()
	for {
		f.mu.Lock()
		n, ch := f.n, f.changed
		f.mu.Unlock()
		if n <= 0 {
			return
		}
		select {
		case <-ch:
		case <-t.C:
			return
		}
	}
}

type countIn struct {
	f *inflight
	r io.Reader
}

func (c *countIn) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.f.scan(p[:n])
	return n, err
}

// scan counts the requests among the complete lines of data.
func (f *inflight) scan(data []byte) {
	f.mu.Lock()
	f.partial = append(f.partial, data...)
	var lines [][]byte
	for {
		i := bytes.IndexByte(f.partial, '\n')
		if i < 0 {
			break
		}
		lines = append(lines, f.partial[:i])
		f.partial = f.partial[i+1:]
	}
	if len(f.partial) == 0 {
		f.partial = nil
	}
	f.mu.Unlock()
	for _, l := range lines {
		var m message
		if json.Unmarshal(l, &m) == nil && m.ID != nil && m.Method != "" {
			f.add(1)
		}
	}
}

type countOut struct {
	f *inflight
	w io.Writer
}

// Write passes on one message (the connection writes each whole) and
// counts it when it answers a request.
func (c *countOut) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	var m message
	if json.Unmarshal(bytes.TrimSpace(p), &m) == nil && m.ID != nil && m.Method == "" {
		c.f.add(-1)
	}
	return n, err
}
