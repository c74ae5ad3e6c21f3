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
	groups []int
	// onKill runs after a kill, to let a dying process leave a child.
	onKill func(pid int)
	// onList runs before each listing, to let processes move on.
	onList func()
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
	if f.onList != nil {
		f.onList()
	}
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

// killGroup kills every live member of the group, as one signal does.
func (f *fakeSystem) killGroup(g int) {
	f.mu.Lock()
	f.groups = append(f.groups, g)
	var members []int
	for pid, p := range f.procs {
		if p.pgid == g && !p.zombie {
			members = append(members, pid)
		}
	}
	starts := map[int]uint64{}
	for _, pid := range members {
		starts[pid] = f.procs[pid].start
	}
	f.mu.Unlock()
	for _, pid := range members {
		f.kill(pid, starts[pid])
	}
}

func (f *fakeSystem) reap(pid int, start uint64) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	p, ok := f.procs[pid]
	if !ok || !p.zombie || p.start != start || p.ppid != f.self {
		return false
	}
	f.reaped = append(f.reaped, pid)
	delete(f.procs, pid)
	return true
}

func (f *fakeSystem) ids() (int, int) { return f.self, f.self }

func (f *fakeSystem) zombies() map[int]proc {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := map[int]proc{}
	for pid, p := range f.procs {
		if p.zombie && p.ppid == f.self {
			out[pid] = p
		}
	}
	return out
}

func (f *fakeSystem) watchChildren(func()) {}

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

// exit turns a process into a zombie of its parent, its children going to
// ponder, as a process that exits of itself.
func (f *fakeSystem) exit(pid int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	p := f.procs[pid]
	p.zombie = true
	f.procs[pid] = p
	for q, c := range f.procs {
		if c.ppid == pid {
			c.ppid = f.self
			f.procs[q] = c
		}
	}
}

// hopper makes a process that forks and exits each time the tracker
// looks: its next generation is born after the look began, in the same
// group, and the last one is re-parented to ponder and left a zombie.
func (f *fakeSystem) hopper(first int) *int {
	cur := first
	f.spawn(cur, 100, first, first)
	f.onList = func() {
		if !f.alive(cur) {
			return
		}
		f.tick(1)
		next := cur + 1
		f.spawn(next, cur, first, first)
		f.exit(cur)
		cur = next
	}
	return &cur
}

// A process that re-forks while its command's orphans are hunted is
// still the command's: its generations born during the hunt are killed
// (its group at once), and the exited ones reaped.
func TestHopperBornDuringTheHuntIsKilled(t *testing.T) {
	f := newFake()
	tr := newTracker(f)
	s := tr.Begin()
	f.spawn(200, 100, 200, 200)
	s.Keep(200)
	f.tick(1)
	cur := f.hopper(900)
	f.exit(200)
	tr.KillSession(200)
	s.End()
	if f.alive(*cur) {
		t.Fatalf("generation %d of the hopper outlived the hunt", *cur)
	}
	if !slices.Contains(f.groups, 900) {
		t.Errorf("the hopper's group was not killed as a whole (groups killed: %v)", f.groups)
	}
	for pid, p := range f.list() {
		if p.zombie && p.ppid == 100 && pid != 200 {
			t.Errorf("zombie %d left unreaped", pid)
		}
	}
}

// Exited orphans are reaped while commands still run, but never a child
// that someone else will wait for: a kept process, one in ponder's own
// session, or one a scope may be starting right now.
func TestReapOrphans(t *testing.T) {
	f := newFake()
	tr := newTracker(f)
	running := tr.Begin()
	f.spawn(200, 100, 200, 200)
	running.Keep(200)
	f.tick(1)
	f.spawn(300, 100, 300, 300) // an orphan of the running command
	f.spawn(301, 100, 100, 100) // ponder's own (an editor), same session
	f.spawn(302, 100, 302, 302) // kept by a scope
	f.tick(1)
	starting := tr.Begin() // its process has not been kept yet
	f.tick(1)
	f.spawn(303, 100, 303, 303) // may be that process
	for _, pid := range []int{200, 300, 301, 302, 303} {
		f.exit(pid)
	}
	other := tr.Begin()
	other.Keep(302)
	if n := tr.ReapOrphans(); n != 1 {
		t.Errorf("reaped %d", n)
	}
	if !slices.Equal(f.reaped, []int{300}) {
		t.Fatalf("reaped %v, want only the orphan 300", f.reaped)
	}
	starting.Keep(303)
	starting.End()
	other.End()
	running.End()
}
