package fakemodel

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"sync"
)

// book holds what a Server or Provider shares between requests: the
// replies with their use counts, the request log, and id counters. All of
// it is guarded by mu.
type book struct {
	mu      sync.Mutex
	replies []Reply
	used    []int
	log     []Request
	changed chan struct{} // closed and replaced whenever log changes
	serial  int
}

func newBook(s Script) *book {
	b := &book{changed: make(chan struct{})}
	b.add(s.Replies...)
	return b
}

// add appends replies to the script. It panics on a reply that cannot be
// served, as a test helper would rather fail loudly than mislead.
func (b *book) add(rs ...Reply) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, r := range rs {
		if err := r.validate(); err != nil {
			panic(fmt.Sprintf("fakemodel: reply %s: %v", label(r, len(b.replies)), err))
		}
		b.replies = append(b.replies, r)
		b.used = append(b.used, 0)
	}
}

// take picks the reply for req, records it as used, and logs req. It
// returns the reply, whether one matched, and the log index of req.
func (b *book) take(req Request) (Reply, bool, int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	var (
		chosen Reply
		found  bool
	)
	for i, r := range b.replies {
		if lim := r.limit(); lim >= 0 && b.used[i] >= lim {
			continue
		}
		if !r.When.Matches(&req) {
			continue
		}
		b.used[i]++
		chosen, found = r.resolve(&req), true
		req.Reply = label(r, i)
		break
	}
	b.log = append(b.log, req)
	b.notifyLocked()
	return chosen, found, len(b.log) - 1
}

// logOnly logs a request that no reply may answer.
func (b *book) logOnly(req Request) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.log = append(b.log, req)
	b.notifyLocked()
}

// settle records the outcome of the request at log index i.
func (b *book) settle(i int, outcome string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.log[i].Outcome = outcome
	b.notifyLocked()
}

func (b *book) notifyLocked() {
	close(b.changed)
	b.changed = make(chan struct{})
}

// requests returns a copy of the log.
func (b *book) requests() []Request {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.copyLocked()
}

func (b *book) copyLocked() []Request {
	out := slices.Clone(b.log)
	for i := range out {
		out[i].Header = out[i].Header.Clone()
	}
	return out
}

// unused lists the replies that still have uses left: a limited reply not
// used as often as allowed, or an unlimited one never used.
func (b *book) unused() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []string
	for i, r := range b.replies {
		lim := r.limit()
		if (lim < 0 && b.used[i] == 0) || (lim >= 0 && b.used[i] < lim) {
			out = append(out, label(r, i))
		}
	}
	return out
}

// next returns a new identifier with the given prefix, unique in b.
func (b *book) next(prefix string) string {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.serial++
	return prefix + strconv.Itoa(b.serial)
}

// waitFor blocks until cond holds for the log or ctx is done.
func (b *book) waitFor(ctx context.Context, cond func([]Request) bool) error {
	for {
		b.mu.Lock()
		log, ch := b.copyLocked(), b.changed
		b.mu.Unlock()
		if cond(log) {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return context.Cause(ctx)
		}
	}
}
