package builtin

import (
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"
)

// cappedOutput collects a command's output in bounded memory: it keeps
// enough of the start and of the end to show limit characters in all,
// and counts what lies between.
type cappedOutput struct {
	mu    sync.Mutex
	limit int    // characters shown at most
	head  []byte // the first bytes of output
	tail  []byte // the latest bytes of output, trimmed from time to time
	bytes int64
	chars int64
}

func newCappedOutput(limit int) *cappedOutput {
	return &cappedOutput{limit: limit}
}

// Write never fails, so the command never sees a broken pipe on our side.
func (o *cappedOutput) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.bytes += int64(len(p))
	for _, c := range p {
		if utf8.RuneStart(c) {
			o.chars++
		}
	}
	// A character takes at most four bytes, so 4×limit bytes of head
	// hold at least limit characters, and 2×limit bytes of tail at
	// least the limit/2 characters needed from the end.
	headCap := 4 * o.limit
	if room := headCap - len(o.head); room > 0 {
		o.head = append(o.head, p[:min(room, len(p))]...)
	}
	tailCap := 2*o.limit + utf8.UTFMax
	o.tail = append(o.tail, p...)
	if len(o.tail) > 2*tailCap {
		o.tail = append(o.tail[:0], o.tail[len(o.tail)-tailCap:]...)
	}
	return len(p), nil
}

// String returns the output, or its start and end with a note of how
// many characters were left out between them.
func (o *cappedOutput) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.chars <= int64(o.limit) && o.bytes == int64(len(o.head)) {
		return string(o.head)
	}
	half := o.limit / 2
	head, _ := cutRunes(string(o.head), half)
	tail := lastRunes(string(o.tail), o.limit-half)
	left := o.chars - int64(utf8.RuneCountInString(head)) - int64(utf8.RuneCountInString(tail))
	var b strings.Builder
	b.WriteString(head)
	fmt.Fprintf(&b, "\n\n[… %d characters of output left out …]\n\n", max(left, 0))
	b.WriteString(tail)
	return b.String()
}

// lastRunes returns the last n characters of s.
func lastRunes(s string, n int) string {
	i := len(s)
	for count := 0; i > 0 && count < n; count++ {
		_, size := utf8.DecodeLastRuneInString(s[:i])
		i -= size
	}
	return s[i:]
}
