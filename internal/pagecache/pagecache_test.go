package pagecache

import (
	"os"
	"testing"
	"unsafe"
)

// The test binary is itself in the page cache (it is running), so the
// residency check must see most of a mapping it touches, and Advise must
// leave the process working.
func TestCachedAndAdvise(t *testing.T) {
	page := os.Getpagesize()
	buf := make([]byte, 4*page)
	for i := range buf {
		buf[i] = 1
	}
	addr := uintptr(unsafe.Pointer(&buf[0])) &^ uintptr(page-1)
	if got := cached(addr, uintptr(2*page)); got < 0.99 {
		t.Fatalf("touched pages reported %.2f resident", got)
	}
	Advise()
	if got := cached(addr, uintptr(2*page)); got < 0.99 {
		t.Fatalf("after Advise: %.2f", got)
	}
}
