package mailbox

import (
	"crypto/rand"
	"encoding/binary"
	"time"
)

// crockford is Crockford's base-32 alphabet in lower case: no i, l, o or
// u, and its order is the byte order, so encoded values sort as numbers.
const crockford = "0123456789abcdefghjkmnpqrstvwxyz"

// NewID returns a new message ID: 26 characters, the creation time in
// milliseconds followed by 80 random bits, so IDs made at different
// times sort by time and two IDs never collide in practice.
func NewID() string {
	return newIDAt(time.Now())
}

// NewRequestID returns an ID for a request that expects an answer (a
// plan approval, a shutdown), prefixed by kind so a log shows what it
// asked, e.g. "plan_approval-01j…". kind must be a valid message type.
func NewRequestID(kind string) string {
	return kind + "-" + NewID()
}

func newIDAt(t time.Time) string {
	var b [16]byte
	binary.BigEndian.PutUint64(b[:8], uint64(t.UnixMilli())<<16)
	_, _ = rand.Read(b[6:]) // crypto/rand.Read never fails
	// 128 bits, of which the first 48 are the time: 26 characters of 5
	// bits (130 bits, the top 2 zero).
	hi := binary.BigEndian.Uint64(b[:8])
	lo := binary.BigEndian.Uint64(b[8:])
	var out [26]byte
	for i := 25; i >= 0; i-- {
		out[i] = crockford[lo&31]
		lo = lo>>5 | hi<<59
		hi >>= 5
	}
	return string(out[:])
}
