// Package memlimit bounds how much garbage ponder's process lets pile up
// between collections, when the user has not tuned the collector
// (GOMEMLIMIT or GOGC in the environment). Imported for its effect by the
// ponder command alone, never by a library: it changes the whole
// process's collector.
//
// Why: ponder keeps little (a long session's conversation is a few MB,
// bounded by the model's context window), but every model request
// encodes the whole conversation anew, and the provider SDKs do it in
// nested steps that copy it five or six times over and keep their
// buffers in pools. Measured on a 50-turn session reading 20 KB per turn
// (1 MB of conversation): under 5 MB stayed live at the end, yet the
// default collector (GOGC=100) let the heap reach 19 to 29 MB, because it
// doubles whatever is reachable in the middle of a request, and the
// process peaked at 55 MiB (Anthropic API) and 65 to 69 MiB (OpenAI API).
// With the limit below, 44 to 47 MiB, for two to three times as many
// (small) collections and no measurable change in the run's time.
//
// The limit is the runtime's own memory besides the heap, plus the live
// heap, plus half of it again (at least 4 MiB): what GOGC=50 would allow,
// but measured from what is live after each collection, and never below
// 16 MiB, so a short session collects no more often than by default. A
// session that really holds more raises the limit with it, so the
// collector never works against a bound below what is live.
package memlimit

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// Floor is the least the limit is set to: what a short session needs
// anyway, so that its collector runs no more than by default.
const Floor = 16 << 20

// MinHeadroom is the least allocation the limit leaves room for between
// collections, beyond what is live; a larger live heap gets half its size.
const MinHeadroom = 4 << 20

func init() {
	if os.Getenv("GOMEMLIMIT") != "" || os.Getenv("GOGC") != "" {
		return
	}
	Start()
}

// Start sets the soft memory limit and follows the live heap after every
// collection.
func Start() {
	adjust()
	arm()
}

// sentinel is garbage whose finalizer runs after each collection.
type sentinel struct{ _ [16]byte }

func arm() {
	runtime.SetFinalizer(&sentinel{}, func(*sentinel) {
		adjust()
		arm()
	})
}

// The runtime's figures the limit is made of.
var sample = []metrics.Sample{
	{Name: "/gc/heap/live:bytes"},
	{Name: "/memory/classes/total:bytes"},
	{Name: "/memory/classes/heap/released:bytes"},
	{Name: "/memory/classes/heap/objects:bytes"},
	{Name: "/memory/classes/heap/unused:bytes"},
	{Name: "/memory/classes/heap/free:bytes"},
}

// adjust sets the limit from what the last collection found live and what
// the runtime holds besides the heap (stacks, its own bookkeeping), which
// the limit counts too.
func adjust() {
	metrics.Read(sample)
	v := make([]int64, len(sample))
	for i, s := range sample {
		if s.Value.Kind() == metrics.KindUint64 {
			v[i] = int64(s.Value.Uint64())
		}
	}
	overhead := v[1] - v[2] - v[3] - v[4] - v[5]
	debug.SetMemoryLimit(Limit(v[0], overhead))
}

// Limit is the soft memory limit for a live heap of live bytes, when the
// runtime holds overhead bytes besides the heap.
func Limit(live, overhead int64) int64 {
	return max(Floor, overhead+live+max(MinHeadroom, live/2))
}
