// Package checkpoint keeps, per user turn, what each file held before
// ponder changed it, so that a session can be rewound: files restored to
// how they were before a chosen turn, and the conversation cut back to
// that turn.
//
// The records live in the session's transcript (entries of type turn,
// checkpoint and rewind, see session.Checkpoint), so they move with
// resume and fork; file contents are stored once each, named by their
// SHA-256, in a blob directory shared by the sessions of a config
// directory.
//
// A restore never follows a symbolic link: a file is recorded under its
// real path, and restored only while that path still leads to it without
// a link on the way. Changes made by shell commands that ran outside the
// sandbox cannot be restored; they are recorded so a rewind names them.
package checkpoint

import (
	"sync"
	"time"

	"github.com/ponder-agent/ponder/internal/permission/shellclass"
	"github.com/ponder-agent/ponder/internal/session"
)

// MaxFileSize is the largest file whose content is kept; a larger one is
// recorded as not restorable.
const MaxFileSize = 16 << 20

// Turn is one user turn and what ponder changed during it.
type Turn struct {
	// N numbers the turns of a session from 1; numbers are never reused.
	N int
	// Prompt is what the user sent ("" for a turn that continued an
	// earlier one, such as an answered plan approval).
	Prompt string
	// Keep is how many messages of the conversation came before the
	// turn's prompt (-1 when unknown).
	Keep int
	// Time is when the turn began.
	Time time.Time
	// Files are the files changed, each with its content before the
	// turn's first change, in the order they were first changed.
	Files []File
	// Commands are shell commands that ran outside the sandbox.
	Commands []Command
	// Start is how the turn was sent, to send it again after a rewind.
	Start Start
	// Approved is the plan approval the turn answered, for a turn that
	// began by approving a plan left pending (see BeginApproved); Option
	// is how it was answered.
	Approved *session.Pending
	Option   string
}

// Start is how a turn was sent: the mode the session was in and the
// command that sent the prompt ("/plan" for /plan <task>, whose mode is
// the one before the command; "" for a prompt typed as it is).
type Start struct {
	Mode string
	Via  string
}

// File is a file's state before a turn changed it.
type File struct {
	Path string
	// Blob names the saved content; Absent says there was no file.
	Blob   string
	Absent bool
	// Reason says why the content could not be kept ("" when it was).
	Reason string
}

// Command is a shell command whose changes cannot be restored, with the
// files its line names as written.
type Command struct {
	Command string
	Writes  []string
}

// Store records the checkpoints of one session.
type Store struct {
	blobs  string
	append func(session.Entry) error
	skip   func(path string) bool
	now    func() time.Time

	mu      sync.Mutex
	turns   []*Turn // live turns, oldest first
	last    int     // the highest turn number used
	current *Turn   // the turn in progress, or nil
	seen    map[string]bool
}

// New returns a store that keeps contents in blobDir and records entries
// with appendEntry (the session's transcript). Writes to paths for which
// skip reports true are not checkpointed (nil: none).
func New(blobDir string, appendEntry func(session.Entry) error, skip func(path string) bool) *Store {
	if skip == nil {
		skip = func(string) bool { return false }
	}
	return &Store{blobs: blobDir, append: appendEntry, skip: skip, now: time.Now, seen: map[string]bool{}}
}

// Replay rebuilds the turns from a transcript's entries (resume, fork).
// The turn in progress when the transcript ended is closed: the next
// change starts a new turn.
func (s *Store) Replay(entries []session.Entry) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, e := range entries {
		c := e.Checkpoint
		if c == nil {
			continue
		}
		s.last = max(s.last, c.Turn)
		switch e.Type {
		case session.TypeTurn:
			s.turns = append(s.turns, &Turn{N: c.Turn, Prompt: c.Prompt, Keep: c.Keep, Time: e.Time, Start: Start{Mode: c.Mode, Via: c.Via}, Approved: c.Approved, Option: c.Option})
		case session.TypeCheckpoint:
			t := s.find(c.Turn)
			if t == nil {
				continue
			}
			if c.Command != "" {
				t.Commands = append(t.Commands, Command{Command: c.Command, Writes: c.Writes})
			} else if c.Path != "" {
				t.Files = append(t.Files, File{Path: c.Path, Blob: c.Blob, Absent: c.Absent, Reason: c.Reason})
			}
		case session.TypeRewind:
			if c.Conversation {
				s.drop(c.Turn)
			}
		}
	}
}

// find returns the live turn numbered n, or nil.
func (s *Store) find(n int) *Turn {
	for _, t := range s.turns {
		if t.N == n {
			return t
		}
	}
	return nil
}

// drop forgets turn n and every later one.
func (s *Store) drop(n int) {
	for i, t := range s.turns {
		if t.N >= n {
			s.turns = s.turns[:i]
			return
		}
	}
}

// Begin starts a new turn for prompt, keep messages into the
// conversation, and returns its number.
func (s *Store) Begin(prompt string, keep int) int {
	return s.BeginFrom(prompt, keep, Start{})
}

// BeginFrom is Begin for a turn sent as start says.
func (s *Store) BeginFrom(prompt string, keep int, start Start) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.beginTurnLocked(&Turn{Prompt: prompt, Keep: keep, Start: start})
}

// BeginApproved starts the turn that answers approval, a plan approval a
// run left pending, keep messages into the conversation (the messages up
// to the call that asked for it), and returns its number. Rewinding its
// conversation puts the approval back.
func (s *Store) BeginApproved(approval *session.Pending, option string, keep int) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.beginTurnLocked(&Turn{Keep: keep, Approved: approval, Option: option})
}

func (s *Store) beginTurnLocked(t *Turn) int {
	s.last++
	t.N, t.Time = s.last, s.now()
	s.turns = append(s.turns, t)
	s.current = t
	s.seen = map[string]bool{}
	s.record(session.TypeTurn, &session.Checkpoint{Turn: t.N, Prompt: t.Prompt, Keep: t.Keep, Mode: t.Start.Mode, Via: t.Start.Via, Approved: t.Approved, Option: t.Option})
	return t.N
}

// currentLocked returns the turn in progress, starting an unnamed one if
// none. The caller holds s.mu.
func (s *Store) currentLocked() *Turn {
	if s.current == nil {
		s.beginTurnLocked(&Turn{Keep: -1})
	}
	return s.current
}

// BeforeWrite saves what path holds now, the first time the current turn
// changes it. It implements tool.ChangeRecorder.
func (s *Store) BeforeWrite(path string) {
	if s.skip(path) {
		return
	}
	real := realPath(path)
	if s.skip(real) {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.currentLocked()
	if s.seen[real] {
		return
	}
	s.seen[real] = true
	f := s.save(real)
	t.Files = append(t.Files, f)
	s.record(session.TypeCheckpoint, &session.Checkpoint{Turn: t.N, Path: f.Path, Blob: f.Blob, Absent: f.Absent, Reason: f.Reason})
}

// RanCommand records a shell command that ran outside the sandbox. It
// implements tool.ChangeRecorder.
func (s *Store) RanCommand(command string) {
	writes := shellclass.Classify(command).Writes
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.currentLocked()
	t.Commands = append(t.Commands, Command{Command: command, Writes: writes})
	s.record(session.TypeCheckpoint, &session.Checkpoint{Turn: t.N, Command: command, Writes: writes})
}

// record appends an entry; a transcript that cannot be written has
// already said so through its own errors.
func (s *Store) record(typ string, c *session.Checkpoint) {
	if s.append != nil {
		_ = s.append(session.Entry{Type: typ, Checkpoint: c})
	}
}

// Last is the number of the latest turn begun (0 before any).
func (s *Store) Last() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.last
}

// Turns returns copies of the live turns, oldest first.
func (s *Store) Turns() []Turn {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Turn, len(s.turns))
	for i, t := range s.turns {
		out[i] = *t
		out[i].Files = append([]File(nil), t.Files...)
		out[i].Commands = append([]Command(nil), t.Commands...)
	}
	return out
}

// Turn returns the live turn numbered n.
func (s *Store) Turn(n int) (Turn, bool) {
	for _, t := range s.Turns() {
		if t.N == n {
			return t, true
		}
	}
	return Turn{}, false
}

// Rewound records a rewind to turn n. When the conversation was cut
// back (to keep messages), turn n and every later one are forgotten, and
// the next change starts a new turn.
func (s *Store) Rewound(n int, files, conversation bool, keep int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := &session.Checkpoint{Turn: n, Files: files, Conversation: conversation}
	if conversation {
		c.Keep = keep
		s.drop(n)
	}
	s.current = nil
	s.seen = map[string]bool{}
	s.record(session.TypeRewind, c)
}
