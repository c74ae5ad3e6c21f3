// Package proctree makes sure that nothing a command starts outlives it.
//
// Each command ponder runs gets a session of its own. When it ends, the
// Tracker kills its session, its process group and every descendant it
// can find through /proc, round after round until none is left (a process
// killed with SIGKILL cannot fork again). Processes that left the session
// and lost their parent (double forks, setsid) are re-parented to ponder,
// which makes itself a child subreaper; the Tracker kills those orphans
// too, but only once no command that might own them is still running.
//
// What ponder starts on purpose (a Bash call's shell, a background shell,
// an editor, a server) runs inside a Scope, which protects it and its
// children from the hunt while it lasts.
//
// A process has one set of children and one subreaper flag, so there is
// one Tracker per process: Default.
package proctree

import (
	"sync"
	"time"
)

// Tracker knows which processes ponder started on purpose and when
// commands ran, and hunts down what they left behind.
type Tracker struct {
	self int
	os   system

	mu sync.Mutex
	// active are the scopes that have begun and not ended.
	active map[*Scope]struct{}
	// spans are the times during which ended scopes ran; an orphan born
	// outside all of them is none of ponder's business.
	spans []span
	// kept are processes started on purpose; hunts never touch them.
	kept map[int]int

	// hunt serialises kills, so parallel scopes do not fight over the
	// same processes.
	hunt sync.Mutex
}

// span is a stretch of time in clock ticks since boot, both ends included.
type span struct{ from, to uint64 }

// maxSpans bounds the remembered spans; the oldest are forgotten first.
const maxSpans = 4096

var (
	defaultOnce    sync.Once
	defaultTracker *Tracker
)

// Default returns the process's Tracker, making ponder a child subreaper
// on first use (where the system has that).
func Default() *Tracker {
	defaultOnce.Do(func() {
		defaultTracker = newTracker(hostSystem())
		defaultTracker.os.becomeSubreaper()
	})
	return defaultTracker
}

func newTracker(sys system) *Tracker {
	return &Tracker{self: sys.pid(), os: sys, active: map[*Scope]struct{}{}, kept: map[int]int{}}
}

// Scope is a stretch of time during which ponder starts processes on
// purpose. Orphans born while a scope is active are left alone until it
// ends, since they may belong to it.
type Scope struct {
	t     *Tracker
	start uint64
	kept  []int
	once  sync.Once
}

// Begin opens a scope. Call it before starting the process.
func (t *Tracker) Begin() *Scope {
	s := &Scope{t: t, start: t.os.now()}
	t.mu.Lock()
	t.active[s] = struct{}{}
	t.mu.Unlock()
	return s
}

// Keep marks pid as started on purpose: hunts never kill or reap it (its
// starter waits for it). It stays kept until the scope ends.
func (s *Scope) Keep(pid int) {
	t := s.t
	t.mu.Lock()
	t.kept[pid]++
	s.kept = append(s.kept, pid)
	t.mu.Unlock()
}

// Hold marks pid as started on purpose for as long as it runs, beyond
// the scope it was started in: hunts never kill or reap it until the
// returned release is called (after its starter has waited for it). It
// is for long-lived processes such as servers, whose scope would
// otherwise have to stay open, and so shield every orphan born after it
// from the hunt, for as long as they run. Start the process within a
// scope, Hold it, then End the scope.
func (t *Tracker) Hold(pid int) (release func()) {
	t.mu.Lock()
	t.kept[pid]++
	t.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			t.mu.Lock()
			if t.kept[pid]--; t.kept[pid] <= 0 {
				delete(t.kept, pid)
			}
			t.mu.Unlock()
		})
	}
}

// End closes the scope and hunts the orphans that no active scope may
// still own. It is safe to call more than once.
func (s *Scope) End() {
	s.once.Do(func() {
		t := s.t
		t.mu.Lock()
		delete(t.active, s)
		for _, pid := range s.kept {
			if t.kept[pid]--; t.kept[pid] <= 0 {
				delete(t.kept, pid)
			}
		}
		t.spans = append(t.spans, span{from: s.start, to: t.os.now()})
		if len(t.spans) > maxSpans {
			t.spans = append(t.spans[:0], t.spans[len(t.spans)-maxSpans:]...)
		}
		t.mu.Unlock()
		t.HuntOrphans(false)
	})
}

// KillSession kills the session and process group led by leader and every
// descendant of their members, including leader itself when it still
// runs, until none is left. Members that are ponder's children and not
// kept are reaped.
func (t *Tracker) KillSession(leader int) {
	if leader <= 0 {
		return
	}
	t.hunt.Lock()
	defer t.hunt.Unlock()
	t.os.killGroup(leader)
	t.killRounds(func(procs map[int]proc) []int {
		var roots []int
		for pid, p := range procs {
			if pid == leader || p.sid == leader || p.pgid == leader {
				roots = append(roots, pid)
			}
		}
		return withDescendants(procs, roots)
	})
}

// HuntOrphans kills ponder's children that nobody started on purpose,
// that were born while a now-ended scope ran, and that no active scope
// may own, with all their descendants. With all set (when ponder exits)
// active scopes protect nothing.
func (t *Tracker) HuntOrphans(all bool) {
	t.hunt.Lock()
	defer t.hunt.Unlock()
	t.killRounds(func(procs map[int]proc) []int {
		t.mu.Lock()
		defer t.mu.Unlock()
		var roots []int
		for pid, p := range procs {
			if p.ppid != t.self || t.kept[pid] > 0 || !t.bornInSpan(p.start) {
				continue
			}
			if !all && t.protected(p.start) {
				continue
			}
			roots = append(roots, pid)
			if p.sid == pid {
				for q, pp := range procs {
					if pp.sid == pid {
						roots = append(roots, q)
					}
				}
			}
		}
		return withDescendants(procs, roots)
	})
}

// Shutdown kills every orphan any scope left, active or not: ponder is
// exiting.
func (t *Tracker) Shutdown() { t.HuntOrphans(true) }

// bornInSpan reports whether a process born at start (ticks) was born
// while some scope ran. t.mu is held.
func (t *Tracker) bornInSpan(start uint64) bool {
	if t.protected(start) {
		return true
	}
	for _, sp := range t.spans {
		if sp.from <= start && start <= sp.to {
			return true
		}
	}
	return false
}

// protected reports whether an active scope began before a process born
// at start, and so might own it. t.mu is held.
func (t *Tracker) protected(start uint64) bool {
	for s := range t.active {
		if s.start <= start {
			return true
		}
	}
	return false
}

// maxRounds bounds the kill loop; each round kills everything it finds,
// so only a process that keeps forking faster than it is killed (which
// SIGKILL prevents) could need more than a few.
const maxRounds = 50

// killWait is how long one round waits for its victims to die. SIGKILL
// takes effect at once unless a process sleeps uninterruptibly (a hung
// network file system), which no wait would cure.
const killWait = 2 * time.Second

// killRounds repeats: list processes, pick victims, kill them, wait for
// them to die, reap the ones that are ponder's (unkept) children, until a
// round finds no victim.
func (t *Tracker) killRounds(pick func(map[int]proc) []int) {
	for range maxRounds {
		procs := t.os.list()
		if procs == nil {
			return
		}
		victims := pick(procs)
		var live, reap []int
		for _, pid := range victims {
			p := procs[pid]
			if pid == t.self || pid <= 1 {
				continue
			}
			if p.zombie {
				if p.ppid == t.self && !t.isKept(pid) {
					reap = append(reap, pid)
				}
				continue
			}
			live = append(live, pid)
		}
		if len(live) == 0 && len(reap) == 0 {
			return
		}
		var dying []int
		for _, pid := range live {
			if h := t.os.kill(pid, procs[pid].start); h >= 0 {
				dying = append(dying, h)
			}
		}
		t.os.await(dying, killWait)
		for _, pid := range reap {
			t.os.reap(pid)
		}
	}
}

func (t *Tracker) isKept(pid int) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.kept[pid] > 0
}

// withDescendants returns roots and every process below them.
func withDescendants(procs map[int]proc, roots []int) []int {
	children := map[int][]int{}
	for pid, p := range procs {
		children[p.ppid] = append(children[p.ppid], pid)
	}
	seen := map[int]bool{}
	var out []int
	var walk func(int)
	walk = func(pid int) {
		if seen[pid] {
			return
		}
		seen[pid] = true
		if _, ok := procs[pid]; ok {
			out = append(out, pid)
		}
		for _, c := range children[pid] {
			walk(c)
		}
	}
	for _, r := range roots {
		walk(r)
	}
	return out
}

// proc is what the Tracker needs to know of one process.
type proc struct {
	ppid, pgid, sid int
	// start is the start time in clock ticks since boot.
	start  uint64
	zombie bool
}

// system is the operating system as the Tracker sees it; tests replace it.
type system interface {
	pid() int
	becomeSubreaper()
	// now is the current time in the unit of proc.start.
	now() uint64
	// list returns every process, or nil where that cannot be known.
	list() map[int]proc
	// kill sends SIGKILL to pid if it is still the process born at start.
	// It returns a handle to await its death, or -1.
	kill(pid int, start uint64) int
	// await waits until the processes behind the handles have died, or
	// timeout has passed, and releases the handles.
	await(handles []int, timeout time.Duration)
	// killGroup sends SIGKILL to a process group.
	killGroup(pgid int)
	// reap collects an exited child's status.
	reap(pid int)
}
