package builtin

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ponder-agent/ponder/internal/planbar"
)

// Shells are the commands the model started with run_in_background: each
// is tracked, its output buffered until read, and all of them are killed
// when the session ends. It is safe for concurrent use.
type Shells struct {
	mu   sync.Mutex
	next int
	byID map[string]*shell
	// free holds the commands running outside the sandbox, which plan
	// mode stops.
	free planbar.Bar
}

// NewShells returns an empty set of background shells.
func NewShells() *Shells { return &Shells{byID: map[string]*shell{}} }

// shell is one background command.
type shell struct {
	id      string
	command string
	started time.Time
	out     *shellOutput
	r       *shellRun
	done    chan struct{} // closed once the command ended and was cleaned up
	err     error         // the shell's exit, valid after done
	killed  bool
}

// ShellInfo describes a background shell for front ends and the model.
type ShellInfo struct {
	ID      string
	Command string
	Started time.Time
	// Status is "running", "exited with code N" or "killed".
	Status string
}

// add tracks a started command; onEnd, when set, runs once it has ended,
// before the shell counts as cleaned up (so KillAll waits for it).
func (s *Shells) add(command string, r *shellRun, out *shellOutput, onEnd func()) *shell {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.next++
	sh := &shell{id: "bash_" + strconv.Itoa(s.next), command: command, started: time.Now(), out: out, r: r, done: make(chan struct{})}
	s.byID[sh.id] = sh
	go func() {
		<-r.proc.Done()
		err, _ := r.finish()
		s.mu.Lock()
		sh.err = err
		s.mu.Unlock()
		if onEnd != nil {
			onEnd()
		}
		close(sh.done)
	}()
	return sh
}

func (s *Shells) get(id string) (*shell, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sh, ok := s.byID[strings.TrimSpace(id)]
	return sh, ok
}

// List describes every background shell, oldest first.
func (s *Shells) List() []ShellInfo {
	s.mu.Lock()
	shells := make([]*shell, 0, len(s.byID))
	for _, sh := range s.byID {
		shells = append(shells, sh)
	}
	s.mu.Unlock()
	sort.Slice(shells, func(i, j int) bool { return shells[i].started.Before(shells[j].started) })
	out := make([]ShellInfo, len(shells))
	for i, sh := range shells {
		out[i] = ShellInfo{ID: sh.id, Command: sh.command, Started: sh.started, Status: s.status(sh)}
	}
	return out
}

func (s *Shells) status(sh *shell) string {
	select {
	case <-sh.done:
	default:
		return "running"
	}
	if sh.r.free != nil && sh.r.free.Stopped() {
		return "stopped when plan mode began"
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if sh.killed {
		return "killed"
	}
	code := 0
	if sh.err != nil {
		code = -1
		if ee, ok := sh.err.(interface{ ExitCode() int }); ok {
			code = ee.ExitCode()
		}
	}
	if code < 0 {
		return "ended by a signal"
	}
	return fmt.Sprintf("exited with code %d", code)
}

// kill stops a shell and everything it started, and waits until it is
// cleaned up. It reports whether the shell was still running.
func (s *Shells) kill(sh *shell) bool {
	select {
	case <-sh.done:
		return false
	default:
	}
	s.mu.Lock()
	sh.killed = true
	s.mu.Unlock()
	sh.r.stop()
	<-sh.done
	return true
}

// KillAll stops every background shell; ponder calls it on the way out.
func (s *Shells) KillAll() {
	s.mu.Lock()
	shells := make([]*shell, 0, len(s.byID))
	for _, sh := range s.byID {
		shells = append(shells, sh)
	}
	s.mu.Unlock()
	var wg sync.WaitGroup
	for _, sh := range shells {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.kill(sh)
		}()
	}
	wg.Wait()
}

// describe lists the shells for a message to the model.
func (s *Shells) describe() string {
	list := s.List()
	if len(list) == 0 {
		return "There are no background shells."
	}
	var b strings.Builder
	b.WriteString("Background shells:")
	for _, i := range list {
		fmt.Fprintf(&b, "\n- %s (%s): %s", i.ID, i.Status, i.Command)
	}
	return b.String()
}

// shellOutputLimit bounds a background shell's unread output; beyond it
// the oldest output is dropped.
const shellOutputLimit = 1 << 20

// shellOutput keeps what a background shell printed and nobody has read.
type shellOutput struct {
	mu      sync.Mutex
	buf     []byte
	dropped int64
}

func (o *shellOutput) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.buf = append(o.buf, p...)
	if over := len(o.buf) - shellOutputLimit; over > 0 {
		o.dropped += int64(over)
		o.buf = append(o.buf[:0], o.buf[over:]...)
	}
	return len(p), nil
}

// take returns the unread output and how many bytes were dropped before
// it, and marks everything read.
func (o *shellOutput) take() (string, int64) {
	o.mu.Lock()
	defer o.mu.Unlock()
	s, d := string(o.buf), o.dropped
	o.buf, o.dropped = nil, 0
	return s, d
}
