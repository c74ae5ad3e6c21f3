package builtin

import (
	"bytes"
	"errors"
	"io"
)

// A file named to Grep may be of any size. Files up to grepMaxFileSize
// are read whole, as in a directory search; larger ones are searched as
// they are read, a window at a time, so that memory stays bounded however
// large the file.
type streamLimits struct {
	// read is how much is read at a time.
	read int
	// maxLine is the longest line held whole; a longer one is searched
	// in pieces of about this size.
	maxLine int
	// carry bounds the bytes kept from one window to the next as leading
	// context (-B) or, for multiline patterns, as the overlap in which a
	// match may begin in one window and end in the next.
	carry int
}

// defaultStream are the limits of a streamed search: its memory stays
// around 4 reads plus maxLine.
var defaultStream = streamLimits{read: 1 << 20, maxLine: 8 << 20, carry: 1 << 20}

// streamStats says what a streamed search could not do exactly.
type streamStats struct {
	cutLines bool // a line over the longest held was searched in pieces
	windowed bool // a multiline pattern was searched window by window
}

// searchStream searches what f (the file named path) reads, a window at
// a time.
// It finds what searchFile would, with two bounds: a line longer than
// lim.maxLine is searched in pieces, and a multiline match must fit in
// lim.carry plus a window.
func (w *grepWorker) searchStream(f io.Reader, path string, lim streamLimits) (fileResult, bool, skipReason, streamStats) {
	s := w.s
	var st streamStats
	res := fileResult{path: path}
	buf := make([]byte, 0, 4*lim.read)
	w.out = w.out[:0]
	var lo *lineOut
	if s.mode == modeContent {
		lo = w.newLineOut(nil, path)
	}
	var (
		from    int // where the search of the current window starts
		scanned int // the end of the last window: new lines come after it
		multi   = multiState{last: -1}
		sawNUL  bool // a NUL byte: the file is binary if anything matched
		read    int  // bytes read so far
		eof     bool
		stopped bool // files mode: one match is enough
	)
	visit := func(ls, le int) bool {
		res.count++
		if lo != nil {
			lo.match(ls, le)
		}
		if s.mode == modeFiles {
			stopped = true
			return false
		}
		return true
	}
	for !eof {
		// Fill the window.
		if cap(buf)-len(buf) < lim.read {
			grown := make([]byte, len(buf), 2*cap(buf))
			copy(grown, buf)
			buf = grown
		}
		n, err := io.ReadFull(f, buf[len(buf):len(buf)+lim.read])
		fresh := buf[len(buf) : len(buf)+n]
		buf = buf[:len(buf)+n]
		switch {
		case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
			eof = true
		case err != nil:
			return fileResult{}, false, skippedError, st
		}
		if read < binarySniffSize && bytes.IndexByte(fresh[:min(n, binarySniffSize-read)], 0) >= 0 {
			return fileResult{}, false, skippedBinary, st // a NUL at the start
		}
		read += n
		if bytes.IndexByte(fresh, 0) >= 0 {
			sawNUL = true
		}
		if stopped {
			// Only looking for a NUL further on now.
			if sawNUL {
				return fileResult{}, false, skippedBinary, st
			}
			buf = buf[:0]
			continue
		}

		// The window ends at its last newline; the rest waits for more.
		end, piece := len(buf), false
		if !eof {
			nl := bytes.LastIndexByte(buf[scanned:], '\n')
			switch {
			case nl >= 0:
				end = scanned + nl + 1
			case len(buf)-scanned < lim.maxLine:
				continue // read on to the end of the line
			default:
				st.cutLines, piece = true, true // a huge line: search this piece
			}
		}
		// Multiline matches may run into the next window: only those
		// starting before until count now, the rest is searched again.
		// until is a line start, except in a huge line, where the
		// search must move on all the same.
		until := end
		if s.multiline && !eof {
			st.windowed = true
			until = max(from, end-lim.carry)
			if !piece {
				until = lineStartBefore(buf, until, from)
			}
		}
		window := buf[:end]
		if lo != nil {
			lo.buf = window
		}
		if s.multiline {
			s.eachMultilineMatch(window, from, until, &multi, visit)
		} else {
			w.eachMatchingLine(window, from, visit)
		}
		if eof || stopped {
			continue
		}
		next := end // where the next search starts
		if s.multiline {
			// Where the last match taken ended, if that is past until:
			// every match starting before was taken.
			next = max(until, multi.last)
			multi.abut = next == multi.last
			multi.midLine = next > 0 && buf[next-1] != '\n'
		}
		if lo != nil {
			// Context owed after the last match, as far as the lines
			// before next: those after it are searched again.
			lo.tail(lo.lineNumber(next))
		}

		// Keep what the next window needs: the rest of the last line,
		// the lines of leading context, the multiline overlap.
		keep := lineStartBefore(buf, next, 0)
		for k := 0; k < s.before && keep > 0; k++ {
			keep = bytes.LastIndexByte(buf[:keep-1], '\n') + 1
		}
		keep = max(keep, next-lim.carry) // very long lines: less context
		if lo != nil {
			lo.shift(keep)
		}
		multi.done = max(0, multi.done-keep)
		multi.last -= keep
		from = next - keep
		scanned = end - keep
		buf = buf[:copy(buf, buf[keep:])]
	}
	if res.count == 0 {
		return fileResult{}, false, notSkipped, st
	}
	if sawNUL {
		return fileResult{}, false, skippedBinary, st
	}
	if s.mode == modeFiles {
		res.mod = modTime(path)
	}
	if lo != nil {
		lo.finish()
		w.out = lo.out
		res.out = bytes.Clone(w.out)
		res.extra = lo.dropped
	}
	return res, true, notSkipped, st
}

// lineStartBefore returns the start of the line holding offset at, but
// not before floor.
func lineStartBefore(buf []byte, at, floor int) int {
	if at <= floor {
		return floor
	}
	return max(floor, bytes.LastIndexByte(buf[:at], '\n')+1)
}
