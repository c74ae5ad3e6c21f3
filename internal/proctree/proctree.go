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
	"sync/atomic"
	"time"
)

// Tracker knows which processes ponder started on purpose and when
// commands ran, and hunts down what they left behind.
type Tracker struct {
	self int
	// sid and pgid are ponder's own session and process group: processes
	// in them are ponder's (an editor, say), never a command's, since
	// every command starts in a session of its own.
	sid, pgid int
	os        system

	mu sync.Mutex
	// active are the scopes that have begun and not ended.
	active map[*Scope]struct{}
	// spans are the times during which ended scopes ran; an orphan born
	// outside all of them is none of ponder's business. A span stays open
	// while its scope's orphans are hunted, so that a process born during
	// the hunt (a re-forking one) still counts as the scope's.
	spans []*span
	// kept are processes started on purpose; hunts never touch them.
	kept map[int]int

	// hunt serialises kills, so parallel scopes do not fight over the
	// same processes.
	hunt sync.Mutex

	// reaped counts the orphans ReapOrphans collected.
	reaped atomic.Int64

	// marks is the record left for a later ponder (see leftovers.go).
	marks marks
}

// span is a stretch of time in clock ticks since boot, both ends
// included; open reaches to now.
type span struct {
	from, to uint64
	open     bool
}

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
		defaultTracker.os.watchChildren(func() { defaultTracker.ReapOrphans() })
	})
	return defaultTracker
}

func newTracker(sys system) *Tracker {
	sid, pgid := sys.ids()
	return &Tracker{self: sys.pid(), sid: sid, pgid: pgid, os: sys, active: map[*Scope]struct{}{}, kept: map[int]int{}}
}

// Scope is a stretch of time during which ponder starts processes on
// purpose. Orphans born while a scope is active are left alone until it
// ends, since they may belong to it.
type Scope struct {
	t     *Tracker
	start uint64
	kept  []int
	// started says the scope's process has started and been kept; until
	// then an exited child born since the scope began may be that very
	// process, which its starter will reap.
	started bool
	once    sync.Once
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
	s.started = true
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
		sp := &span{from: s.start, open: true}
		t.spans = append(t.spans, sp)
		if len(t.spans) > maxSpans {
			t.spans = append(t.spans[:0], t.spans[len(t.spans)-maxSpans:]...)
		}
		t.mu.Unlock()
		t.HuntOrphans(false)
		t.mu.Lock()
		sp.to, sp.open = t.os.now(), false
		t.mu.Unlock()
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
// exiting. Its record for later processes goes with them.
func (t *Tracker) Shutdown() {
	t.HuntOrphans(true)
	t.forget()
}

// bornInSpan reports whether a process born at start (ticks) was born
// while some scope ran. t.mu is held.
func (t *Tracker) bornInSpan(start uint64) bool {
	if t.protected(start) {
		return true
	}
	for _, sp := range t.spans {
		if sp.from <= start && (sp.open || start <= sp.to) {
			return true
		}
	}
	return false
}

// pendingSince reports whether a scope that has not started its process
// yet began at or before start: a child born at start may then be that
// process. t.mu is held.
func (t *Tracker) pendingSince(start uint64) bool {
	for s := range t.active {
		if !s.started && s.start <= start {
			return true
		}
	}
	return false
}

// ReapOrphans collects the exit status of ponder's children that have
// exited and that nobody will wait for: processes a command left behind,
// re-parented to ponder as their subreaper. A process that forks and
// exits over and over would otherwise fill the process table with them
// while its command runs. It leaves alone every child ponder started on
// purpose (kept, or in ponder's own session) and every child that may be
// a process a scope is starting right now. It returns how many it reaped.
func (t *Tracker) ReapOrphans() int {
	zombies := t.os.zombies()
	if len(zombies) == 0 {
		return 0
	}
	t.mu.Lock()
	var reap []int
	for pid, p := range zombies {
		if t.kept[pid] > 0 || p.sid == t.sid || t.pendingSince(p.start) {
			continue
		}
		reap = append(reap, pid)
	}
	t.mu.Unlock()
	n := 0
	for _, pid := range reap {
		if t.os.reap(pid, zombies[pid].start) {
			n++
		}
	}
	t.reaped.Add(int64(n))
	return n
}

// Reaped is how many orphans ReapOrphans has collected so far.
func (t *Tracker) Reaped() int64 { return t.reaped.Load() }

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

// killRounds repeats: list processes, pick victims, kill their process
// groups and then each of them, wait for them to die, reap the ones that
// are ponder's (unkept) children, until a round finds no victim. A signal
// to a process group reaches every member at once, a member forking at
// that moment included, so a process that keeps forking in its group
// cannot stay a step ahead of the kills; the kills one by one then catch
// the processes that left their group.
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
		for _, g := range t.groupsOf(live, procs) {
			t.os.killGroup(g)
		}
		var dying []int
		for _, pid := range live {
			if h := t.os.kill(pid, procs[pid].start); h >= 0 {
				dying = append(dying, h)
			}
		}
		t.os.await(dying, killWait)
		for _, pid := range reap {
			t.os.reap(pid, procs[pid].start)
		}
	}
}

// groupsOf returns the process groups of victims that may be killed
// whole: not ponder's own, and not the group of a process started on
// purpose (a running command's shell leads its own).
func (t *Tracker) groupsOf(victims []int, procs map[int]proc) []int {
	t.mu.Lock()
	defer t.mu.Unlock()
	seen := map[int]bool{}
	var out []int
	for _, pid := range victims {
		g := procs[pid].pgid
		if g <= 1 || g == t.pgid || g == t.self || seen[g] || t.kept[g] > 0 {
			continue
		}
		seen[g] = true
		out = append(out, g)
	}
	return out
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
	// reap collects the status of an exited child if it is still the
	// process born at start, and reports whether it did.
	reap(pid int, start uint64) bool
	// ids returns the session and process group of ponder itself.
	ids() (sid, pgid int)
	// zombies returns ponder's children that have exited and not been
	// reaped.
	zombies() map[int]proc
	// watchChildren calls f, from a goroutine of its own, whenever a
	// child may have exited.
	watchChildren(f func())
}
