package jsonrpcline

import (
	"encoding/json"
	"strings"
)

// reserved are the member names of a JSON-RPC 2.0 message.
var reserved = []string{"jsonrpc", "id", "method", "params", "result", "error"}

// maxValue is how much of a reserved member's value is kept: enough for
// any id, method name or error object worth reading; params and results
// are only told apart by their first byte.
const maxValue = 4 << 10

// maxKey bounds the member names decoded.
const maxKey = 256

// maxDepth is the deepest nesting let through: the MCP SDK refuses more
// than 1000 levels by ending the connection, so ponder answers well before.
const maxDepth = 512

// member is one reserved member of the top-level object.
type member struct {
	raw       []byte // the value's first maxValue bytes
	truncated bool
}

// scanner states.
const (
	stStart = iota
	stKey
	stKeyStr
	stColon
	stValStart
	stValStr
	stValNest
	stValScalar
	stAfterVal
	stEnd
	stOther // not an object
	stBad   // not valid JSON (as far as the scanner can tell)
)

// topScan reads one message's bytes as they come, without holding them,
// and keeps what classifies it: whether it is an object, its reserved
// members (exact names only) and the faults that would make an SDK end the
// connection (a reserved name twice or in other letter case, nesting too
// deep). It is fed an oversized line in pieces, so it must never need the
// whole.
type topScan struct {
	state   int
	kind    byte // the first byte that is not white space
	depth   int
	esc     bool
	inStr   bool // inside a string within a nested value
	key     []byte
	keyLong bool
	val     []byte
	valLong bool

	members map[string]member
	dup     bool // a reserved name twice, or in other letter case
	deep    bool
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// feed scans the next bytes of the message.
func (s *topScan) feed(b []byte) {
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch s.state {
		case stStart:
			if isSpace(c) {
				continue
			}
			s.kind = c
			if c == '{' {
				s.state = stKey
			} else {
				s.state = stOther
			}
		case stKey:
			switch {
			case isSpace(c):
			case c == '"':
				s.key, s.keyLong, s.esc = append(s.key[:0], c), false, false
				s.state = stKeyStr
			case c == '}': // json.Valid tells an empty object from a trailing comma
				s.state = stEnd
			default:
				s.state = stBad
			}
		case stKeyStr:
			if len(s.key) < maxKey {
				s.key = append(s.key, c)
			} else {
				s.keyLong = true
			}
			if s.endsString(c) {
				s.state = stColon
			}
		case stColon:
			switch {
			case isSpace(c):
			case c == ':':
				s.state = stValStart
			default:
				s.state = stBad
			}
		case stValStart:
			if isSpace(c) {
				continue
			}
			s.val, s.valLong, s.esc, s.inStr = append(s.val[:0], c), false, false, false
			switch c {
			case '"':
				s.state = stValStr
			case '{', '[':
				s.depth = 1
				s.state = stValNest
			default:
				s.state = stValScalar
			}
		case stValStr:
			s.keep(c)
			if s.endsString(c) {
				s.finish()
			}
		case stValNest:
			s.keep(c)
			if s.inStr {
				if s.endsString(c) {
					s.inStr = false
				}
				continue
			}
			switch c {
			case '"':
				s.inStr = true
			case '{', '[':
				s.depth++
				if s.depth+1 > maxDepth {
					s.deep = true
				}
			case '}', ']':
				s.depth--
				if s.depth == 0 {
					s.finish()
				}
			}
		case stValScalar:
			if isSpace(c) || c == ',' || c == '}' {
				s.finish()
				i-- // the byte ends the value and is read again after it
				continue
			}
			s.keep(c)
		case stAfterVal:
			switch {
			case isSpace(c):
			case c == ',':
				s.state = stKey
			case c == '}':
				s.state = stEnd
			default:
				s.state = stBad
			}
		case stEnd:
			if !isSpace(c) {
				s.state = stBad
			}
		case stOther, stBad:
			return
		}
	}
}

// keep adds a byte of a value, up to maxValue.
func (s *topScan) keep(c byte) {
	if len(s.val) < maxValue {
		s.val = append(s.val, c)
	} else {
		s.valLong = true
	}
}

// finish records the member just read when its name is reserved.
func (s *topScan) finish() {
	s.state = stAfterVal
	if s.keyLong {
		return
	}
	var name string
	if json.Unmarshal(s.key, &name) != nil {
		return
	}
	for _, r := range reserved {
		if !strings.EqualFold(name, r) {
			continue
		}
		if s.members == nil {
			s.members = map[string]member{}
		}
		if _, seen := s.members[r]; seen || name != r {
			s.dup = true
		}
		s.members[r] = member{raw: append([]byte(nil), s.val...), truncated: s.valLong}
	}
}

// get returns a reserved member.
func (s *topScan) get(name string) (member, bool) {
	m, ok := s.members[name]
	return m, ok
}

// endsString takes byte c inside a JSON string and reports whether it is
// the quote that closes it (an escaped quote is not).
func (s *topScan) endsString(c byte) bool {
	switch {
	case s.esc:
		s.esc = false
	case c == '\\':
		s.esc = true
	case c == '"':
		return true
	}
	return false
}
