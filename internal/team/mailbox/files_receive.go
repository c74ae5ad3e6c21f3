package mailbox

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"sync"
	"time"
)

// Receive waits for the oldest message of name's inbox and leases it.
// It looks at the inbox, and when there is nothing to take, waits for a
// change: a Send through m, an inotify event from any process (Linux),
// or the fallback interval (see watcher), whichever comes first.
func (m *fileMailbox) Receive(ctx context.Context, name string) (Delivery, error) {
	if err := m.checkOpen(); err != nil {
		return nil, err
	}
	if err := ValidateName("member", name); err != nil {
		return nil, err
	}
	if err := m.ensureInbox(name); err != nil {
		return nil, err
	}
	dir := filepath.Join(m.root.Name(), filepath.FromSlash(m.inbox(name)))
	w := newWatcher(dir, filepath.Join(dir, dirProcessing))
	defer w.close()

	for polls := 0; ; polls++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		local := m.changed() // before looking, so a change while looking wakes us
		d, busy, err := m.tryReceive(ctx, name)
		if err != nil && m.checkOpen() != nil {
			return nil, ErrClosed // closed while looking
		}
		if d != nil || err != nil {
			return d, err
		}
		t := time.NewTimer(w.fallback(polls, busy))
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		case <-local:
			polls = -1
		case <-w.changed():
		case <-t.C:
		}
		t.Stop()
		if err := m.checkOpen(); err != nil {
			return nil, err
		}
	}
}

// tryReceive leases the oldest message of name's inbox, if there is one
// and no live lease is outstanding (busy). Under the inbox lock it first
// gives back the leases whose holders are gone.
func (m *fileMailbox) tryReceive(ctx context.Context, name string) (d Delivery, busy bool, err error) {
	lock, err := m.lockInbox(ctx, name)
	if err != nil {
		return nil, false, err
	}
	defer lock.Close()

	busy, err = m.recoverLeases(name)
	if err != nil || busy {
		return nil, busy, err
	}
	dir := m.inbox(name)
	if stray, why, err := m.strayName(dir); err != nil || stray != "" {
		if err != nil {
			return nil, false, err
		}
		return nil, false, m.reject(name, stray, errors.New(why))
	}
	names, err := m.messageNames(dir)
	if err != nil || len(names) == 0 {
		return nil, false, err
	}
	file := names[0]
	f, err := m.openMessage(path.Join(dir, file))
	if err != nil {
		return nil, false, err
	}
	ok, err := tryLock(f)
	if err != nil || !ok {
		// Locked by something that is not a receiver of this package:
		// wait as for a live lease.
		f.Close()
		return nil, true, err
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxMessageBytes+1))
	if err != nil {
		f.Close()
		return nil, false, fmt.Errorf("mailbox: reading %s: %w", file, err)
	}
	msg, derr := decodeMessage(data, m.team, name, path.Join(m.inbox(name), file))
	if derr != nil {
		f.Close()
		return nil, false, m.reject(name, file, derr)
	}
	if err := m.root.Rename(path.Join(dir, file), path.Join(dir, dirProcessing, file)); err != nil {
		f.Close()
		return nil, false, fmt.Errorf("mailbox: leasing %s: %w", file, err)
	}
	fd := &fileDelivery{m: m, inbox: name, file: file, f: f, msg: msg}
	m.mu.Lock()
	m.outstanding[fd] = struct{}{}
	m.mu.Unlock()
	return fd, false, nil
}

// recoverLeases returns to the inbox every leased file whose lock can be
// taken (its receiver closed it or died) and reports whether a live
// lease remains. The caller holds the inbox lock.
func (m *fileMailbox) recoverLeases(name string) (busy bool, err error) {
	dir := m.inbox(name)
	leased, err := m.messageNames(path.Join(dir, dirProcessing))
	if err != nil {
		return false, err
	}
	for _, file := range leased {
		p := path.Join(dir, dirProcessing, file)
		f, err := m.openMessage(p)
		if err != nil {
			return false, err
		}
		ok, err := tryLock(f)
		if err == nil && !ok {
			busy = true
		}
		if err == nil && ok {
			err = m.root.Rename(p, path.Join(dir, file))
		}
		f.Close()
		if err != nil {
			return false, fmt.Errorf("mailbox: giving back %s: %w", p, err)
		}
	}
	return busy, nil
}

// openMessage opens a message file for reading and locking. It does
// not wait on a FIFO planted under a message's name (O_NONBLOCK) and
// refuses anything but a regular file.
func (m *fileMailbox) openMessage(p string) (*os.File, error) {
	f, err := m.root.OpenFile(p, os.O_RDONLY|openNonblock, 0)
	if err != nil {
		return nil, fmt.Errorf("mailbox: opening %s: %w", p, err)
	}
	info, err := f.Stat()
	if err == nil && !info.Mode().IsRegular() {
		err = fmt.Errorf("not a regular file (%v)", info.Mode().Type())
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("mailbox: opening %s: %w", p, err)
	}
	return f, nil
}

// reject moves an unreadable message file out of the way, so it blocks
// nothing and is still there for a person to look at.
func (m *fileMailbox) reject(name, file string, cause error) error {
	dir := m.inbox(name)
	to := path.Join(dir, dirRejected, file)
	if err := m.root.MkdirAll(path.Join(dir, dirRejected), 0o700); err != nil {
		return fmt.Errorf("mailbox: setting aside %s: %w (it could not be read: %v)", file, err, cause)
	}
	if err := m.root.Rename(path.Join(dir, file), to); err != nil {
		return fmt.Errorf("mailbox: setting aside %s: %w (it could not be read: %v)", file, err, cause)
	}
	return &BadMessageError{Inbox: name, Where: filepath.Join(m.root.Name(), filepath.FromSlash(to)), Err: cause}
}

// fileDelivery is a leased message file; f holds the lease.
type fileDelivery struct {
	m     *fileMailbox
	inbox string
	file  string
	msg   Message

	mu sync.Mutex
	f  *os.File // nil once settled
}

func (d *fileDelivery) Message() Message { return d.msg }

// Ack moves the file to done/ (synced, so it stays acknowledged after a
// power loss) and trims done/ to the newest keepDone.
func (d *fileDelivery) Ack(ctx context.Context) error {
	return d.settle(ctx, func(dir string) error {
		if err := d.m.root.Rename(path.Join(dir, dirProcessing, d.file), path.Join(dir, dirDone, d.file)); err != nil {
			return fmt.Errorf("mailbox: acknowledging message %s: %w", d.msg.ID, err)
		}
		if err := d.m.syncDir(path.Join(dir, dirDone)); err != nil {
			return err
		}
		if err := d.m.syncDir(path.Join(dir, dirProcessing)); err != nil {
			return err
		}
		d.m.pruneDone(dir)
		return nil
	})
}

// Nak moves the file back to the inbox under its own name, so it is the
// oldest again.
func (d *fileDelivery) Nak(ctx context.Context) error {
	return d.settle(ctx, func(dir string) error {
		if err := d.m.root.Rename(path.Join(dir, dirProcessing, d.file), path.Join(dir, d.file)); err != nil {
			return fmt.Errorf("mailbox: giving back message %s: %w", d.msg.ID, err)
		}
		return nil
	})
}

// settle runs move under the inbox lock while the lease is still held,
// then releases the lease. On error the delivery stays leased.
func (d *fileDelivery) settle(ctx context.Context, move func(dir string) error) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.f == nil {
		if err := d.m.checkOpen(); err != nil {
			return err
		}
		return ErrSettled
	}
	lock, err := d.m.lockInbox(ctx, d.inbox)
	if err != nil {
		return err
	}
	err = move(d.m.inbox(d.inbox))
	lock.Close()
	if err != nil {
		return err
	}
	d.release()
	d.m.notify()
	return nil
}

// release drops the lease without moving the file: what a crash does.
// The caller holds d.mu.
func (d *fileDelivery) release() {
	if d.f == nil {
		return
	}
	d.f.Close()
	d.f = nil
	d.m.mu.Lock()
	delete(d.m.outstanding, d)
	d.m.mu.Unlock()
}

// pruneDone removes the oldest acknowledged messages beyond keepDone.
// Failing to prune loses nothing, so errors are ignored.
func (m *fileMailbox) pruneDone(dir string) {
	names, err := m.messageNames(path.Join(dir, dirDone))
	if err != nil {
		return
	}
	for i := 0; i < len(names)-m.keepDone; i++ {
		_ = m.root.Remove(path.Join(dir, dirDone, names[i]))
	}
}
