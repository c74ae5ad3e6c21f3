package mailbox

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"
)

func inboxPath(b backend, name string, sub ...string) string {
	return filepath.Join(append([]string{b.dir, "teams", b.team, "inboxes", name}, sub...)...)
}

func listDir(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			names = append(names, e.Name())
		}
	}
	return names
}

// TestFilesLayout follows one message through the directories, with the
// evidence read from disk: queued, leased, acknowledged; private modes.
func TestFilesLayout(t *testing.T) {
	t.Parallel()
	b := fileBackend(t)
	mb := b.open(t)
	m := textMsg(t, b.team, "lead", "worker", "x")
	send(t, mb, m)
	queued := listDir(t, inboxPath(b, "worker"))
	if len(queued) != 1 || !regexp.MustCompile(`^\d{20}_`+m.ID+`\.json$`).MatchString(queued[0]) {
		t.Fatalf("inbox holds %q", queued)
	}
	info, err := os.Stat(inboxPath(b, "worker", queued[0]))
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Errorf("message file mode %v, want 0600 (plans are private)", info.Mode().Perm())
	}
	for _, d := range []string{filepath.Join(b.dir, "teams"), inboxPath(b, "worker"), inboxPath(b, "worker", "processing")} {
		if info, err := os.Stat(d); err != nil || info.Mode().Perm() != 0o700 {
			t.Errorf("%s: %v %v, want mode 0700", d, info.Mode().Perm(), err)
		}
	}
	d := receive(t, mb, "worker")
	if got := listDir(t, inboxPath(b, "worker", "processing")); len(got) != 1 || got[0] != queued[0] {
		t.Fatalf("processing holds %q while leased", got)
	}
	if got := listDir(t, inboxPath(b, "worker")); len(got) != 0 {
		t.Fatalf("inbox still holds %q while leased", got)
	}
	ack(t, d)
	if got := listDir(t, inboxPath(b, "worker", "done")); len(got) != 1 || got[0] != queued[0] {
		t.Fatalf("done holds %q after the ack", got)
	}
	if got := listDir(t, inboxPath(b, "worker", "processing")); len(got) != 0 {
		t.Fatalf("processing still holds %q", got)
	}
}

// TestFilesSymlinkEscape: a link planted in the teams directory cannot
// carry a message, or a read, outside it.
func TestFilesSymlinkEscape(t *testing.T) {
	t.Parallel()
	for _, link := range []string{"absolute", "relative"} {
		t.Run(link, func(t *testing.T) {
			b := fileBackend(t)
			outside := t.TempDir()
			mb := b.open(t)
			if err := os.MkdirAll(filepath.Join(b.dir, "teams", b.team, "inboxes"), 0o700); err != nil {
				t.Fatal(err)
			}
			target := outside
			if link == "relative" {
				rel, err := filepath.Rel(filepath.Join(b.dir, "teams", b.team, "inboxes"), outside)
				if err != nil {
					t.Fatal(err)
				}
				target = rel
			}
			if err := os.Symlink(target, inboxPath(b, "worker")); err != nil {
				t.Fatal(err)
			}
			if err := mb.Send(testCtx(t), textMsg(t, b.team, "lead", "worker", "x")); err == nil {
				t.Error("Send through a link out of the teams directory succeeded")
			}
			if _, err := mb.Receive(testCtx(t), "worker"); err == nil {
				t.Error("Receive through a link out of the teams directory succeeded")
			}
			if got, _ := os.ReadDir(outside); len(got) != 0 {
				t.Fatalf("files appeared outside the teams directory: %v", got)
			}
		})
	}
}

// TestFilesStaleTempRemoved: a half-written message left by a sender
// that died is removed by the next Send, never delivered.
func TestFilesStaleTempRemoved(t *testing.T) {
	t.Parallel()
	b := fileBackend(t)
	mb := b.open(t)
	send(t, mb, textMsg(t, b.team, "lead", "worker", "first"))
	stale := inboxPath(b, "worker", ".tmp-deadbeef")
	if err := os.WriteFile(stale, []byte(`{"v":1,"id":"half`), 0o600); err != nil {
		t.Fatal(err)
	}
	send(t, mb, textMsg(t, b.team, "lead", "worker", "second"))
	if _, err := os.Stat(stale); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("stale temporary file still there: %v", err)
	}
	if n := pending(t, mb, "worker"); n != 2 {
		t.Fatalf("pending = %d", n)
	}
}

// TestFilesForeignFilesReported: files that are not messages by name are
// neither delivered nor counted; each is set aside in rejected/ and
// reported like a message that cannot be read, then the messages come.
func TestFilesForeignFilesReported(t *testing.T) {
	t.Parallel()
	b := fileBackend(t)
	mb := b.open(t)
	send(t, mb, textMsg(t, b.team, "lead", "worker", "x"))
	foreign := []string{"README", "x.json", "123_abc.json", formatKey(1) + "_bad.id.json"}
	for _, n := range foreign {
		if err := os.WriteFile(inboxPath(b, "worker", n), []byte("{}"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if n := pending(t, mb, "worker"); n != 1 {
		t.Fatalf("pending = %d, want 1", n)
	}
	for range foreign {
		_, err := mb.Receive(testCtx(t), "worker")
		var be *BadMessageError
		if !errors.As(err, &be) || !strings.Contains(be.Error(), "does not follow the mailbox's naming") {
			t.Fatalf("a foreign file was not reported: %v", err)
		}
	}
	if d := receive(t, mb, "worker"); textOf(t, d.Message()) != "x" {
		t.Fatal("got the wrong message")
	}
	if got := listDir(t, inboxPath(b, "worker", "rejected")); len(got) != len(foreign) {
		t.Fatalf("rejected/ holds %q", got)
	}
}

// TestFilesRejectedKept: an unreadable message is kept in rejected/.
func TestFilesRejectedKept(t *testing.T) {
	t.Parallel()
	b := fileBackend(t)
	mb := b.open(t)
	b.inject(t, "worker", []byte("garbage"))
	_, err := mb.Receive(testCtx(t), "worker")
	var be *BadMessageError
	if !errors.As(err, &be) || !strings.Contains(be.Where, filepath.Join("worker", "rejected")) {
		t.Fatalf("err = %v", err)
	}
	data, err := os.ReadFile(be.Where)
	if err != nil || string(data) != "garbage" {
		t.Fatalf("rejected file: %q %v", data, err)
	}
}

// TestFilesKeepDone: done/ keeps only the newest acknowledged messages.
func TestFilesKeepDone(t *testing.T) {
	t.Parallel()
	b := fileBackend(t)
	mb, err := OpenFiles(b.dir, b.team, FileOptions{KeepDone: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer mb.Close()
	var ids []string
	for i := range 5 {
		m := textMsg(t, b.team, "lead", "worker", string(rune('a'+i)))
		ids = append(ids, m.ID)
		send(t, mb, m)
	}
	for range 5 {
		ack(t, receive(t, mb, "worker"))
	}
	done := listDir(t, inboxPath(b, "worker", "done"))
	if len(done) != 2 || !strings.Contains(done[0], ids[3]) || !strings.Contains(done[1], ids[4]) {
		t.Fatalf("done holds %q, want the last two of %q", done, ids)
	}
}

// TestFilesOrderSurvivesClockSkew: a message stored with a key from a
// clock ahead of ours still comes before the ones we send after it.
func TestFilesOrderSurvivesClockSkew(t *testing.T) {
	t.Parallel()
	b := fileBackend(t)
	mb := b.open(t)
	ahead := textMsg(t, b.team, "lead", "worker", "from a fast clock")
	inbox := inboxPath(b, "worker")
	if err := os.MkdirAll(inbox, 0o700); err != nil {
		t.Fatal(err)
	}
	future := uint64(time.Now().Add(time.Hour).UnixNano())
	if err := os.WriteFile(filepath.Join(inbox, formatKey(future)+"_"+ahead.ID+".json"), mustJSON(t, ahead), 0o600); err != nil {
		t.Fatal(err)
	}
	later := textMsg(t, b.team, "lead", "worker", "sent after")
	send(t, mb, later)
	for _, want := range []Message{ahead, later} {
		d := receive(t, mb, "worker")
		if d.Message().ID != want.ID {
			t.Fatalf("got %q, want %q", textOf(t, d.Message()), textOf(t, want))
		}
		ack(t, d)
	}
}

func TestFileNames(t *testing.T) {
	t.Parallel()
	if got := formatKey(42); got != "00000000000000000042" {
		t.Fatalf("formatKey = %s", got)
	}
	for name, ok := range map[string]bool{
		formatKey(7) + "_abc.json":         true,
		formatKey(7) + "_a_b-c.json":       true,
		formatKey(7) + "_.json":            false,
		formatKey(7) + "_a.b.json":         false,
		formatKey(7) + "_abc.json.tmp":     false,
		"1234_abc.json":                    false,
		"99999999999999999999_abc.json":    false, // beyond uint64
		"0000000000000000000x_abc.json":    false,
		".tmp-" + formatKey(7) + "_a.json": false,
	} {
		if _, _, got := parseName(name); got != ok {
			t.Errorf("parseName(%q) ok = %v, want %v", name, got, ok)
		}
	}
	if k, id, _ := parseName(formatKey(7) + "_a_b.json"); k != 7 || id != "a_b" {
		t.Errorf("parseName = %d %q", k, id)
	}
}

// TestWatcherSeesOtherWriters: on Linux a waiting receiver is woken by
// inotify when another process moves a message in, rather than finding
// it at its next poll.
func TestWatcherSeesOtherWriters(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("inotify is Linux's")
	}
	dir := t.TempDir()
	proc := filepath.Join(dir, "processing")
	if err := os.Mkdir(proc, 0o700); err != nil {
		t.Fatal(err)
	}
	w := newWatcher(dir, proc)
	if w == nil {
		t.Fatal("no inotify")
	}
	defer w.close()
	tmp := filepath.Join(dir, ".tmp-x")
	if err := os.WriteFile(tmp, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	select {
	case <-w.changed():
		t.Fatal("woken by a temporary file being written")
	default:
	}
	if err := os.Rename(tmp, filepath.Join(dir, "m.json")); err != nil {
		t.Fatal(err)
	}
	select {
	case <-w.changed():
	case <-time.After(5 * time.Second):
		t.Fatal("no wake-up for a message moved into the inbox")
	}
	if err := os.Rename(filepath.Join(dir, "m.json"), filepath.Join(proc, "m.json")); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(proc, "m.json")); err != nil {
		t.Fatal(err)
	}
	select {
	case <-w.changed():
	case <-time.After(5 * time.Second):
		t.Fatal("no wake-up for a lease released")
	}
}
