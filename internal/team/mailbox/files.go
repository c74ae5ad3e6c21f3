package mailbox

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The file mailbox keeps, under <configDir>/teams (opened as an os.Root,
// so no name, link or ".." can lead outside it):
//
//	<team>/inboxes/<name>/<key>_<id>.json             queued, oldest key first
//	<team>/inboxes/<name>/processing/<key>_<id>.json  leased to a receiver
//	<team>/inboxes/<name>/done/<key>_<id>.json        acknowledged (the last keepDone)
//	<team>/inboxes/<name>/rejected/<key>_<id>.json    unreadable, set aside
//	<team>/inboxes/<name>/.lock                       serialises changes to the inbox
//
// The key is a 20-digit number, the send time in nanoseconds raised past
// every key already in the inbox, assigned under the inbox lock: the
// lexical order of the names is the order in which Sends stored them,
// whichever process sent them.
//
// A lease is an flock(2) lock on the leased file, held by the receiver's
// open descriptor. The kernel drops it when the receiver closes it or
// dies, so a leased file whose lock can be taken belongs to no one and
// goes back to the inbox.
//
// Acknowledged messages move to done/ rather than being deleted: a Send
// retried after the receiver already acknowledged the first copy finds
// its ID there and stores nothing, and the inbox keeps a short history of
// what a member was told (plan approvals among it) for anyone debugging a
// team. Only the newest keepDone are kept.

// FileOptions tunes the file mailbox; the zero value is the default.
type FileOptions struct {
	// KeepDone is how many acknowledged messages each inbox keeps
	// (default 256; a negative value keeps none).
	KeepDone int
}

const defaultKeepDone = 256

const (
	dirProcessing = "processing"
	dirDone       = "done"
	dirRejected   = "rejected"
	lockFile      = ".lock"
	tmpPrefix     = ".tmp-"
	msgSuffix     = ".json"
	keyDigits     = 20
)

type fileMailbox struct {
	team     string
	root     *os.Root // <configDir>/teams
	keepDone int

	mu          sync.Mutex
	closed      bool
	lastKey     uint64
	wake        chan struct{} // closed and replaced on every change made here
	outstanding map[*fileDelivery]struct{}
}

// OpenFiles returns the file mailbox of team under configDir.
func OpenFiles(configDir, team string, opts FileOptions) (Mailbox, error) {
	if !locksSupported {
		_, err := tryLock(nil)
		return nil, err
	}
	if err := ValidateName("team", team); err != nil {
		return nil, err
	}
	if configDir == "" {
		return nil, errors.New("mailbox: no config directory for the file mailbox")
	}
	teams, err := filepath.Abs(filepath.Join(configDir, "teams"))
	if err != nil {
		return nil, fmt.Errorf("mailbox: the config directory %s: %w", configDir, err)
	}
	if err := os.MkdirAll(teams, 0o700); err != nil {
		return nil, fmt.Errorf("mailbox: creating %s: %w", teams, err)
	}
	root, err := os.OpenRoot(teams)
	if err != nil {
		return nil, fmt.Errorf("mailbox: opening %s: %w", teams, err)
	}
	keep := opts.KeepDone
	switch {
	case keep == 0:
		keep = defaultKeepDone
	case keep < 0:
		keep = 0
	}
	return &fileMailbox{
		team: team, root: root, keepDone: keep,
		wake: make(chan struct{}), outstanding: map[*fileDelivery]struct{}{},
	}, nil
}

func (m *fileMailbox) Team() string { return m.team }

// inbox is the path of name's inbox relative to the root.
func (m *fileMailbox) inbox(name string) string {
	return path.Join(m.team, "inboxes", name)
}

// ensureInbox creates name's inbox and its subdirectories.
func (m *fileMailbox) ensureInbox(name string) error {
	dir := m.inbox(name)
	for _, d := range []string{dir, path.Join(dir, dirProcessing), path.Join(dir, dirDone)} {
		if err := m.root.MkdirAll(d, 0o700); err != nil {
			return fmt.Errorf("mailbox: creating the inbox of %s: %w", name, err)
		}
	}
	return nil
}

// checkOpen fails after Close.
func (m *fileMailbox) checkOpen() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return ErrClosed
	}
	return nil
}

// changed returns a channel closed at the next change made through m.
func (m *fileMailbox) changed() <-chan struct{} {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.wake
}

// notify wakes the receivers waiting in m.
func (m *fileMailbox) notify() {
	m.mu.Lock()
	defer m.mu.Unlock()
	close(m.wake)
	m.wake = make(chan struct{})
}

// lockInbox takes name's inbox lock, waiting while another receiver or
// sender holds it (briefly: it is held for a few file operations) or
// until ctx ends. Closing the returned file releases it.
func (m *fileMailbox) lockInbox(ctx context.Context, name string) (*os.File, error) {
	f, err := m.root.OpenFile(path.Join(m.inbox(name), lockFile), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("mailbox: opening the lock of the inbox of %s: %w", name, err)
	}
	delay := 100 * time.Microsecond
	for {
		ok, err := tryLock(f)
		if err != nil || ok {
			if err != nil {
				f.Close()
				return nil, err
			}
			return f, nil
		}
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			f.Close()
			return nil, ctx.Err()
		case <-t.C:
		}
		delay = min(2*delay, 20*time.Millisecond)
	}
}

// Send stores msg in the inbox of msg.To: a temporary file, synced, then
// renamed to its key, and the directory synced, all under the inbox
// lock so that keys and renames happen in the same order.
func (m *fileMailbox) Send(ctx context.Context, msg Message) error {
	if err := m.checkOpen(); err != nil {
		return err
	}
	if msg.Team != m.team {
		return fmt.Errorf("mailbox: message %s is for team %s, this mailbox serves %s", quote(msg.ID), quote(msg.Team), m.team)
	}
	data, err := msg.encode()
	if err != nil {
		return err
	}
	if err := m.ensureInbox(msg.To); err != nil {
		return err
	}
	lock, err := m.lockInbox(ctx, msg.To)
	if err != nil {
		return err
	}
	defer lock.Close()

	dir := m.inbox(msg.To)
	maxKey, found, err := m.scanForSend(dir, msg.ID)
	if err != nil || found {
		return err
	}
	key := m.nextKey(maxKey)
	final := path.Join(dir, formatKey(key)+"_"+msg.ID+msgSuffix)
	if err := m.writeSynced(dir, data, final); err != nil {
		return fmt.Errorf("mailbox: storing message %s for %s: %w", msg.ID, msg.To, err)
	}
	m.notify()
	return nil
}

// scanForSend looks through the inbox and its processing and done
// directories: it reports the highest key there and whether a message
// with id is stored already. Temporary files left by a sender that died
// are removed (the caller holds the lock, so no sender is writing).
func (m *fileMailbox) scanForSend(dir, id string) (maxKey uint64, found bool, err error) {
	for _, sub := range []string{"", dirProcessing, dirDone} {
		d := path.Join(dir, sub)
		entries, err := m.readDir(d)
		if err != nil {
			return 0, false, err
		}
		for _, e := range entries {
			n := e.Name()
			if sub == "" && strings.HasPrefix(n, tmpPrefix) {
				_ = m.root.Remove(path.Join(d, n))
				continue
			}
			key, mid, ok := parseName(n)
			if !ok {
				continue
			}
			if mid == id {
				return 0, true, nil
			}
			maxKey = max(maxKey, key)
		}
	}
	return maxKey, false, nil
}

// nextKey is now in nanoseconds, or past the highest key in the inbox
// and the last key this process gave out if the clock says otherwise.
func (m *fileMailbox) nextKey(maxKey uint64) uint64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	k := max(uint64(time.Now().UnixNano()), maxKey+1, m.lastKey+1)
	m.lastKey = k
	return k
}

// writeSynced writes data to a new temporary file in dir, syncs it,
// renames it to final and syncs dir: a crash leaves either no message or
// the whole one.
func (m *fileMailbox) writeSynced(dir string, data []byte, final string) error {
	tmp := path.Join(dir, tmpPrefix+randomHex(8))
	f, err := m.root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = m.root.Rename(tmp, final)
	}
	if err != nil {
		_ = m.root.Remove(tmp)
		return err
	}
	return m.syncDir(dir)
}

// syncDir flushes dir's entries to disk.
func (m *fileMailbox) syncDir(dir string) error {
	d, err := m.root.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, errors.ErrUnsupported) {
		return err
	}
	return nil
}

// readDir lists dir, sorted by name; a missing directory is empty.
func (m *fileMailbox) readDir(dir string) ([]fs.DirEntry, error) {
	entries, err := fs.ReadDir(m.root.FS(), dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("mailbox: reading %s: %w", dir, err)
	}
	return entries, nil
}

// messageNames lists the message files in dir, oldest first.
func (m *fileMailbox) messageNames(dir string) ([]string, error) {
	entries, err := m.readDir(dir)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		if _, _, ok := parseName(e.Name()); ok && e.Type().IsRegular() {
			names = append(names, e.Name())
		}
	}
	return names, nil
}

// Pending counts the queued and leased messages of name.
func (m *fileMailbox) Pending(ctx context.Context, name string) (int, error) {
	if err := m.checkOpen(); err != nil {
		return 0, err
	}
	if err := ValidateName("member", name); err != nil {
		return 0, err
	}
	n := 0
	for _, sub := range []string{"", dirProcessing} {
		names, err := m.messageNames(path.Join(m.inbox(name), sub))
		if err != nil {
			return 0, err
		}
		n += len(names)
	}
	return n, nil
}

// Close gives back every delivery not settled yet and releases m.
func (m *fileMailbox) Close() error {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil
	}
	pending := make([]*fileDelivery, 0, len(m.outstanding))
	for d := range m.outstanding {
		pending = append(pending, d)
	}
	m.mu.Unlock()

	var errs []error
	for _, d := range pending {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		if err := d.Nak(ctx); err != nil && !errors.Is(err, ErrSettled) {
			errs = append(errs, err)
		}
		cancel()
	}
	m.mu.Lock()
	m.closed = true
	close(m.wake)
	m.wake = make(chan struct{})
	m.mu.Unlock()
	errs = append(errs, m.root.Close())
	return errors.Join(errs...)
}

// formatKey writes a key as 20 digits, so names sort as numbers.
func formatKey(k uint64) string {
	s := strconv.FormatUint(k, 10)
	return strings.Repeat("0", keyDigits-len(s)) + s
}

// parseName splits "<key>_<id>.json"; ok is false for any other name.
func parseName(n string) (key uint64, id string, ok bool) {
	if len(n) < keyDigits+2+len(msgSuffix) || n[keyDigits] != '_' || !strings.HasSuffix(n, msgSuffix) {
		return 0, "", false
	}
	for i := range keyDigits {
		if n[i] < '0' || n[i] > '9' {
			return 0, "", false
		}
	}
	key, err := strconv.ParseUint(n[:keyDigits], 10, 64)
	if err != nil {
		return 0, "", false
	}
	id = n[keyDigits+1 : len(n)-len(msgSuffix)]
	if validateID(id) != nil {
		return 0, "", false
	}
	return key, id, true
}

// pollInterval is how long a receiver without inotify waits before
// looking at its inbox again: 10 ms, doubling to 250 ms while nothing
// comes. A Send through the same Mailbox wakes it at once; this bounds
// the delay for one from another process.
func pollInterval(polls int) time.Duration {
	return min(10*time.Millisecond<<min(polls, 5), 250*time.Millisecond)
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
