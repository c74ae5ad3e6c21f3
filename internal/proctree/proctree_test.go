package proctree

import (
	"slices"
	"sort"
	"sync"
	"testing"
	"time"
)

// fakeSystem is a process table the test controls.
type fakeSystem struct {
	mu     sync.Mutex
	self   int
	clock  uint64
	procs  map[int]proc
	killed []int
	reaped []int
	// onKill runs after a kill, to let a dying process leave a child.
	onKill func(pid int)
}

func newFake() *fakeSystem {
	return &fakeSystem{self: 100, clock: 1000, procs: map[int]proc{100: {ppid: 1, pgid: 100, sid: 100}}}
}

func (f *fakeSystem) pid() int         { return f.self }
func (f *fakeSystem) becomeSubreaper() {}
func (f *fakeSystem) now() uint64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.clock
}
func (f *fakeSystem) tick(n uint64) { f.mu.Lock(); f.clock += n; f.mu.Unlock() }

// spawn adds a process born now.
func (f *fakeSystem) spawn(pid, ppid, pgid, sid int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.procs[pid] = proc{ppid: ppid, pgid: pgid, sid: sid, start: f.clock}
}

func (f *fakeSystem) list() map[int]proc {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := map[int]proc{}
	for k, v := range f.procs {
		out[k] = v
	}
	return out
}

// kill turns the process into a zombie; its children go to ponder, the
// subreaper, as on Linux.
func (f *fakeSystem) kill(pid int, start uint64) int {
	f.mu.Lock()
	p, ok := f.procs[pid]
	if !ok || p.start != start || p.zombie {
		f.mu.Unlock()
		return -1
	}
	f.killed = append(f.killed, pid)
	p.zombie = true
	f.procs[pid] = p
	for q, c := range f.procs {
		if c.ppid == pid {
			c.ppid = f.self
			f.procs[q] = c
		}
	}
	if p.ppid != f.self {
		delete(f.procs, pid) // its live parent reaps it
	}
	hook := f.onKill
	f.mu.Unlock()
	if hook != nil {
		hook(pid)
	}
	return pid
}

func (f *fakeSystem) await([]int, time.Duration) {}
func (f *fakeSystem) killGroup(int)              {}
func (f *fakeSystem) reap(pid int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reaped = append(f.reaped, pid)
	delete(f.procs, pid)
}

func (f *fakeSystem) alive(pid int) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	p, ok := f.procs[pid]
	return ok && !p.zombie
}

func (f *fakeSystem) killedSorted() []int {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := append([]int(nil), f.killed...)
	sort.Ints(out)
	return out
}

func TestSessionKilledWithDescendants(t *testing.T) {
	f := newFake()
	tr := newTracker(f)
	s := tr.Begin()
	f.spawn(200, 100, 200, 200) // the shell, session leader
	s.Keep(200)
	f.spawn(201, 200, 200, 200) // a job in its group
	f.spawn(202, 201, 202, 200) // a job that made its own group
	f.spawn(203, 202, 203, 203) // a grandchild that left the session
	f.spawn(300, 100, 300, 300) // another command's shell
	tr.KillSession(200)
	if got := f.killedSorted(); !slices.Equal(got, []int{200, 201, 202, 203}) {
		t.Fatalf("killed %v", got)
	}
	if !f.alive(300) {
		t.Fatal("another session was hit")
	}
	if slices.Contains(f.reaped, 200) {
		t.Fatal("a kept process was reaped; its starter waits for it")
	}
}

func TestKillRoundsCatchLateChildren(t *testing.T) {
	f := newFake()
	tr := newTracker(f)
	// A process that, as it dies, turns out to have forked one more.
	next := 500
	f.onKill = func(pid int) {
		if pid < 503 {
			next++
			f.spawn(next, pid, 400, 400)
		}
	}
	f.spawn(400, 100, 400, 400)
	tr.KillSession(400)
	for _, pid := range []int{400, 501, 502, 503} {
		if f.alive(pid) {
			t.Errorf("%d survived", pid)
		}
	}
}

func TestOrphansWaitForCommandsThatMayOwnThem(t *testing.T) {
	f := newFake()
	tr := newTracker(f)

	early := tr.Begin() // a long command, running throughout
	f.tick(10)
	short := tr.Begin()
	f.tick(10)
	f.spawn(600, 100, 600, 600) // an orphan (setsid, parent gone) born now
	f.tick(10)
	short.End()
	if !f.alive(600) {
		t.Fatal("an orphan that the still-running command may own was killed")
	}
	f.tick(10)
	early.End()
	if f.alive(600) {
		t.Fatal("the orphan outlived every command that could own it")
	}
	if !slices.Contains(f.reaped, 600) {
		t.Error("the killed orphan was not reaped")
	}
}

func TestScopeStartedLaterDoesNotProtect(t *testing.T) {
	f := newFake()
	tr := newTracker(f)
	first := tr.Begin()
	f.tick(5)
	f.spawn(700, 100, 700, 700)
	f.tick(5)
	later := tr.Begin() // started after the orphan was born
	defer later.End()
	first.End()
	if f.alive(700) {
		t.Fatal("a scope that began after the orphan's birth protected it")
	}
}

func TestOnlyOrphansOfCommandsAreHunted(t *testing.T) {
	f := newFake()
	tr := newTracker(f)
	f.spawn(800, 100, 800, 800) // started outside any scope (say, a server)
	f.tick(10)
	s := tr.Begin()
	f.tick(1)
	f.spawn(801, 100, 801, 801) // started on purpose, kept
	s.Keep(801)
	f.spawn(802, 100, 802, 802) // an orphan that already died
	f.procs[802] = proc{ppid: 100, pgid: 802, sid: 802, start: f.clock, zombie: true}
	f.tick(1)
	tr.HuntOrphans(true)
	if !f.alive(801) || slices.Contains(f.reaped, 801) {
		t.Fatal("a kept process was killed or reaped")
	}
	if !f.alive(800) {
		t.Fatal("a process born outside every scope was killed")
	}
	if !slices.Contains(f.reaped, 802) {
		t.Fatal("a dead orphan was left unreaped")
	}
	s.End()
}

func TestShutdownIgnoresActiveScopes(t *testing.T) {
	f := newFake()
	tr := newTracker(f)
	s := tr.Begin()
	f.tick(1)
	f.spawn(900, 100, 900, 900)
	f.spawn(901, 900, 900, 900)
	tr.HuntOrphans(false)
	if !f.alive(900) {
		t.Fatal("protected orphan killed by an ordinary hunt")
	}
	tr.Shutdown()
	if f.alive(900) || f.alive(901) {
		t.Fatal("Shutdown left an orphan or its child")
	}
	s.End()
}

// A server held beyond its scope survives hunts, and shields no orphan
// born later: a command's escaped child is hunted as soon as the
// command's scope ends, while the server runs on.
func TestHeldProcessOutlivesItsScopeAndShieldsNothing(t *testing.T) {
	f := newFake()
	tr := newTracker(f)
	start := tr.Begin()
	f.tick(1)
	f.spawn(950, 100, 950, 950) // the server
	release := tr.Hold(950)
	start.End()
	if !f.alive(950) {
		t.Fatal("the held server was killed when its start-up scope ended")
	}
	f.tick(10)
	cmd := tr.Begin()
	f.tick(1)
	f.spawn(951, 100, 951, 951) // a command's double-forked leftover
	f.tick(1)
	cmd.End()
	if f.alive(951) {
		t.Fatal("a held server shielded an orphan born after it")
	}
	if !f.alive(950) {
		t.Fatal("the held server was hunted with the command's orphans")
	}
	release()
	release() // idempotent
	tr.HuntOrphans(false)
	if f.alive(950) {
		t.Fatal("a released process left running was not hunted")
	}
}
