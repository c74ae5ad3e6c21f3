package memlimit

import (
	"runtime"
	"runtime/debug"
	"testing"
)

func TestLimitFollowsTheLiveHeap(t *testing.T) {
	cases := []struct{ live, overhead, want int64 }{
		{1 << 20, 3 << 20, Floor},                       // a short session: the floor
		{10 << 20, 5 << 20, 5<<20 + 10<<20 + 5<<20},     // half the live heap again
		{4 << 20, 6 << 20, Floor},                       // 4+6+4 under the floor
		{8 << 20, 6 << 20, 6<<20 + 8<<20 + 4<<20},       // at least MinHeadroom
		{200 << 20, 8 << 20, 8<<20 + 200<<20 + 100<<20}, // a large session is never squeezed
	}
	for _, c := range cases {
		if got := Limit(c.live, c.overhead); got != c.want {
			t.Errorf("Limit(%d MiB, %d MiB) = %d MiB, want %d MiB", c.live>>20, c.overhead>>20, got>>20, c.want>>20)
		}
		if got := Limit(c.live, c.overhead); got < c.live+c.overhead+MinHeadroom {
			t.Errorf("Limit(%d, %d) leaves less than MinHeadroom", c.live, c.overhead)
		}
	}
}

// After a collection the limit is set again from what is live: holding a
// large heap raises it above that heap.
func TestStartFollowsCollections(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	Start()
	if got := debug.SetMemoryLimit(-1); got < Floor {
		t.Fatalf("limit %d after Start, want at least %d", got, Floor)
	}
	held := make([]byte, 64<<20)
	for i := range held {
		held[i] = 1
	}
	// The finalizer runs after a collection, on its own goroutine.
	deadline := 100
	for debug.SetMemoryLimit(-1) < 64<<20+64<<19 && deadline > 0 {
		runtime.GC()
		runtime.Gosched()
		deadline--
	}
	if got := debug.SetMemoryLimit(-1); got < 64<<20+64<<19 {
		t.Errorf("limit %d MiB while 64 MiB is live", got>>20)
	}
	runtime.KeepAlive(held)
}
