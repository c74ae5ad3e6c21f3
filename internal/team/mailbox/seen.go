package mailbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sync"
	"time"
)

// seenKeep is how many IDs a Seen record remembers. A duplicate can only
// arrive while its first copy is among the last few messages of the
// inbox, so thousands is far more than needed and still a small file.
const seenKeep = 4096

// Seen is the durable record of the message IDs a receiver has applied,
// one per inbox, kept with the receiver (under its config directory:
// <configDir>/teams/<team>/seen/<name>.log). It is what turns
// at-least-once delivery into applying each message once; see Handle.
//
// The record is an append-only file of IDs, one per line, each append
// synced before Add returns. A line cut short by a crash is dropped;
// when the file holds twice seenKeep IDs it is rewritten (atomically)
// with the newest seenKeep. Several processes may share one record:
// appends are serialised by a lock and every reader picks up the others'
// appends.
type Seen struct {
	root *os.Root // <configDir>/teams
	file string
	lock string
	keep int // seenKeep, smaller in tests

	mu     sync.Mutex
	ids    map[string]struct{}
	loaded os.FileInfo // the file as last read
}

// OpenSeen opens (creating if needed) the Seen record of name's inbox in
// team, under configDir.
func OpenSeen(configDir, team, name string) (*Seen, error) {
	if err := ValidateName("team", team); err != nil {
		return nil, err
	}
	if err := ValidateName("member", name); err != nil {
		return nil, err
	}
	if configDir == "" {
		return nil, errors.New("mailbox: no config directory for the seen record")
	}
	teams := filepath.Join(configDir, "teams")
	if err := os.MkdirAll(teams, 0o700); err != nil {
		return nil, fmt.Errorf("mailbox: creating %s: %w", teams, err)
	}
	root, err := os.OpenRoot(teams)
	if err != nil {
		return nil, fmt.Errorf("mailbox: opening %s: %w", teams, err)
	}
	dir := path.Join(team, "seen")
	if err := root.MkdirAll(dir, 0o700); err != nil {
		root.Close()
		return nil, fmt.Errorf("mailbox: creating the seen record of %s: %w", name, err)
	}
	s := &Seen{root: root, file: path.Join(dir, name+".log"), lock: path.Join(dir, name+".lock"), keep: seenKeep}
	if err := s.refresh(); err != nil {
		root.Close()
		return nil, err
	}
	return s, nil
}

// Has reports whether id has been recorded, by this process or another.
func (s *Seen) Has(id string) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.refresh(); err != nil {
		return false, err
	}
	_, ok := s.ids[id]
	return ok, nil
}

// Add records id durably: when Add returns nil the ID survives a crash.
func (s *Seen) Add(id string) error {
	if err := validateID(id); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	lock, err := s.root.OpenFile(s.lock, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("mailbox: opening %s: %w", s.lock, err)
	}
	defer lock.Close()
	if err := s.waitLock(lock); err != nil {
		return err
	}
	if err := s.append(id); err != nil {
		return fmt.Errorf("mailbox: recording message %s as applied: %w", id, err)
	}
	if err := s.refresh(); err != nil {
		return err
	}
	if len(s.ids) >= 2*s.keep {
		return s.compact()
	}
	return nil
}

// waitLock takes the record's lock. Holders keep it for one append, so
// a lock held for long means a stopped process: give up after
// seenLockWait rather than hang.
func (s *Seen) waitLock(lock *os.File) error {
	delay := 100 * time.Microsecond
	deadline := time.Now().Add(seenLockWait)
	for {
		ok, err := tryLock(lock)
		if err != nil || ok {
			return err
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("mailbox: the seen record %s has been locked by another process for %s", s.file, seenLockWait)
		}
		time.Sleep(delay)
		delay = min(2*delay, 20*time.Millisecond)
	}
}

// seenLockWait bounds waitLock.
const seenLockWait = 30 * time.Second

// append adds a line, first cutting a torn last line a crash left.
func (s *Seen) append(id string) error {
	f, err := s.root.OpenFile(s.file, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	if err != nil {
		return err
	}
	end := int64(bytes.LastIndexByte(data, '\n') + 1)
	if end != int64(len(data)) {
		if err := f.Truncate(end); err != nil {
			return err
		}
	}
	if _, err := f.WriteAt([]byte(id+"\n"), end); err != nil {
		return err
	}
	return f.Sync()
}

// refresh rereads the file when it changed since it was last read.
// The caller holds s.mu.
func (s *Seen) refresh() error {
	info, err := s.root.Stat(s.file)
	if errors.Is(err, fs.ErrNotExist) {
		s.ids, s.loaded = map[string]struct{}{}, nil
		return nil
	}
	if err != nil {
		return fmt.Errorf("mailbox: reading the seen record: %w", err)
	}
	if s.loaded != nil && os.SameFile(info, s.loaded) && info.Size() == s.loaded.Size() && info.ModTime().Equal(s.loaded.ModTime()) {
		return nil
	}
	data, err := s.root.ReadFile(s.file)
	if err != nil {
		return fmt.Errorf("mailbox: reading the seen record: %w", err)
	}
	ids := map[string]struct{}{}
	for _, line := range completeLines(data) {
		ids[line] = struct{}{}
	}
	s.ids, s.loaded = ids, info
	return nil
}

// compact rewrites the record with its newest keep IDs. The caller
// holds the lock.
func (s *Seen) compact() error {
	data, err := s.root.ReadFile(s.file)
	if err != nil {
		return err
	}
	lines := completeLines(data)
	lines = lines[max(0, len(lines)-s.keep):]
	var buf bytes.Buffer
	for _, l := range lines {
		buf.WriteString(l)
		buf.WriteByte('\n')
	}
	tmp := s.file + ".tmp"
	f, err := s.root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(buf.Bytes())
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = s.root.Rename(tmp, s.file)
	}
	if err != nil {
		_ = s.root.Remove(tmp)
		return fmt.Errorf("mailbox: compacting the seen record: %w", err)
	}
	if d, err := s.root.Open(path.Dir(s.file)); err == nil {
		_ = d.Sync()
		d.Close()
	}
	return s.refresh()
}

// completeLines returns the non-empty, newline-terminated lines of data.
func completeLines(data []byte) []string {
	end := bytes.LastIndexByte(data, '\n') + 1
	var out []string
	for line := range bytes.SplitSeq(data[:end], []byte{'\n'}) {
		if len(line) > 0 {
			out = append(out, string(line))
		}
	}
	return out
}

// Close releases the record.
func (s *Seen) Close() error { return s.root.Close() }

// Handle receives the next message of name from mb and applies it once:
// a message seen recorded already is acknowledged without calling
// apply (and Handle waits for the next); otherwise apply runs, its ID is
// recorded in seen, and only then is it acknowledged. It returns the
// message applied.
//
// If apply fails, the message is given back (Nak) and its error
// returned: it will be delivered again. A crash at any point loses
// nothing: before the ID is recorded, the message comes again and is
// applied again (apply's lasting effects should therefore be idempotent
// by the message's ID or its request ID); after, it comes again and is
// skipped. A *BadMessageError from Receive is returned as it is; the
// caller may go on.
func Handle(ctx context.Context, mb Mailbox, seen *Seen, name string, apply func(context.Context, Message) error) (Message, error) {
	if seen == nil {
		return Message{}, errors.New("mailbox: Handle needs a seen record")
	}
	for {
		d, err := mb.Receive(ctx, name)
		if err != nil {
			return Message{}, err
		}
		msg := d.Message()
		dup, err := seen.Has(msg.ID)
		if err != nil {
			settle(ctx, d.Nak)
			return msg, err
		}
		if dup {
			if err := settle(ctx, d.Ack); err != nil {
				return msg, err
			}
			continue
		}
		if err := apply(ctx, msg); err != nil {
			settle(ctx, d.Nak)
			return msg, err
		}
		if err := seen.Add(msg.ID); err != nil {
			settle(ctx, d.Nak)
			return msg, err
		}
		return msg, settle(ctx, d.Ack)
	}
}

// settle acknowledges or gives back a delivery even when ctx has just
// ended: a message applied should not be left leased for want of a
// context.
func settle(ctx context.Context, f func(context.Context) error) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	return f(ctx)
}
