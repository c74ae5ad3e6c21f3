package builtin

import (
	"slices"
	"strings"
	"time"
)

// firstN keeps the entries a bounded listing can show out of any number
// found: a heap whose top is the entry that would be shown last, so that
// a search over a hundred thousand files holds only what its answer
// needs. before orders the listing.
type firstN[T any] struct {
	before func(a, b T) int // negative: a is shown before b
	items  []T
}

// push adds an entry.
func (h *firstN[T]) push(x T) {
	h.items = append(h.items, x)
	i := len(h.items) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !h.later(i, p) {
			break
		}
		h.items[i], h.items[p] = h.items[p], h.items[i]
		i = p
	}
}

// later reports whether entry i is shown after entry j.
func (h *firstN[T]) later(i, j int) bool { return h.before(h.items[i], h.items[j]) > 0 }

// last is the entry shown last; the heap must not be empty.
func (h *firstN[T]) last() T { return h.items[0] }

// dropLast removes the entry shown last.
func (h *firstN[T]) dropLast() {
	n := len(h.items) - 1
	h.items[0] = h.items[n]
	var zero T
	h.items[n] = zero
	h.items = h.items[:n]
	i := 0
	for {
		l, r, top := 2*i+1, 2*i+2, i
		if l < n && h.later(l, top) {
			top = l
		}
		if r < n && h.later(r, top) {
			top = r
		}
		if top == i {
			return
		}
		h.items[i], h.items[top] = h.items[top], h.items[i]
		i = top
	}
}

// len is the number of entries kept.
func (h *firstN[T]) len() int { return len(h.items) }

// sorted returns the entries kept in the listing's order.
func (h *firstN[T]) sorted() []T {
	out := slices.Clone(h.items)
	slices.SortFunc(out, h.before)
	return out
}

// newestFirst orders files by modification time, newest first, then by
// path.
func newestFirst(pathA string, modA time.Time, pathB string, modB time.Time) int {
	if c := modB.Compare(modA); c != 0 {
		return c
	}
	return strings.Compare(pathA, pathB)
}
