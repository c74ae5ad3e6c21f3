package builtin

import (
	"bytes"
	"strings"
	"sync"
)

// resultSet gathers the files a search matched. Grep's answer shows at
// most grepMaxOutput bytes, in an order fixed by the mode, so the set
// keeps only the results that can be shown (those that come first, until
// they fill the output) and counts the rest: a search matching every file
// of a large tree holds a few hundred paths, not all of them.
type resultSet struct {
	mu    sync.Mutex
	mode  grepMode
	kept  firstN[fileResult]
	bytes int // the least output the kept results take

	files int // files matched
	total int // matching lines
	extra int // output lines left out of files' long results
	lines int // output lines of the files' results (content mode)
}

func newResultSet(mode grepMode) *resultSet {
	order := func(a, b fileResult) int { return strings.Compare(a.path, b.path) }
	if mode == modeFiles {
		order = func(a, b fileResult) int { return newestFirst(a.path, a.mod, b.path, b.mod) }
	}
	return &resultSet{mode: mode, kept: firstN[fileResult]{before: order}}
}

// shownBytes is the least output a result takes: its path and a newline,
// or its lines.
func (s *resultSet) shownBytes(r fileResult) int {
	if s.mode == modeContent {
		return len(r.out)
	}
	return len(r.path) + 1
}

// add records a file's result; it may be called from several goroutines.
func (s *resultSet) add(r fileResult) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.files++
	s.total += r.count
	s.extra += r.extra
	if s.mode == modeContent {
		s.lines += bytes.Count(r.out, []byte{'\n'})
		if len(r.out) > 0 && r.out[len(r.out)-1] != '\n' {
			s.lines++
		}
	}
	s.kept.push(r)
	s.bytes += s.shownBytes(r)
	// The result shown last can go when those before it fill the
	// output without it: it would never be reached.
	for s.kept.len() > 1 {
		w := s.shownBytes(s.kept.last())
		if s.bytes-w < grepMaxOutput {
			break
		}
		s.kept.dropLast()
		s.bytes -= w
	}
}

// shown returns the kept results in the order they are shown.
func (s *resultSet) shown() []fileResult {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.kept.sorted()
}
