package mailbox

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
)

// startNATS runs a JetStream server on 127.0.0.1 with its store in dir;
// port 0 picks a free port. The server stops when the test ends.
func startNATS(t testing.TB, dir string, port int) *server.Server {
	t.Helper()
	if port == 0 {
		port = -1
	}
	s, err := server.NewServer(&server.Options{
		ServerName: "ponder-test", Host: "127.0.0.1", Port: port,
		JetStream: true, StoreDir: dir, NoLog: true, NoSigs: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	s.Start()
	if !s.ReadyForConnections(10 * time.Second) {
		s.Shutdown()
		t.Fatal("the NATS server did not start")
	}
	t.Cleanup(func() { s.Shutdown(); s.WaitForShutdown() })
	return s
}

func serverPort(s *server.Server) int { return s.Addr().(*net.TCPAddr).Port }

// backend is one Mailbox implementation on one store, for the
// conformance suite.
type backend struct {
	name string
	team string
	// open returns a new handle on the store, as another process would.
	open func(t *testing.T) Mailbox
	// crash drops a handle as a killed process would: nothing settled.
	crash func(t *testing.T, mb Mailbox)
	// inject stores raw bytes in the inbox of name, as a hostile or
	// broken writer would.
	inject func(t *testing.T, name string, data []byte)
	// stored counts every message stored for the team, in any inbox.
	stored func(t *testing.T) int
	// rejected returns the unreadable messages set aside for name.
	rejected func(t *testing.T, name string) []string
	// dir is the file mailbox's config directory ("" for JetStream).
	dir string
}

var teamSeq atomic.Int64

func newTeamName() string { return fmt.Sprintf("team%d", teamSeq.Add(1)) }

func fileBackend(t *testing.T) backend {
	dir := t.TempDir()
	team := newTeamName()
	return backend{
		name: "files", team: team, dir: dir,
		open: func(t *testing.T) Mailbox {
			mb, err := OpenFiles(dir, team, FileOptions{})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { mb.Close() })
			return mb
		},
		crash: func(t *testing.T, mb Mailbox) { mb.(*fileMailbox).crashForTest() },
		inject: func(t *testing.T, name string, data []byte) {
			inbox := filepath.Join(dir, "teams", team, "inboxes", name)
			if err := os.MkdirAll(inbox, 0o700); err != nil {
				t.Fatal(err)
			}
			// Key 1: older than anything Send writes, so it comes first.
			if err := os.WriteFile(filepath.Join(inbox, formatKey(1)+"_"+NewID()+".json"), data, 0o600); err != nil {
				t.Fatal(err)
			}
		},
		stored: func(t *testing.T) int {
			n := 0
			filepath.WalkDir(filepath.Join(dir, "teams", team, "inboxes"), func(p string, d fs.DirEntry, err error) error {
				if err == nil && !d.IsDir() && strings.HasSuffix(p, ".json") && !strings.Contains(p, "/done/") {
					n++
				}
				return nil
			})
			return n
		},
		rejected: func(t *testing.T, name string) []string {
			files, _ := filepath.Glob(filepath.Join(dir, "teams", team, "inboxes", name, "rejected", "*"))
			var out []string
			for _, f := range files {
				data, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, string(data))
			}
			return out
		},
	}
}

// natsBackend gives each test its own team (so its own stream) on a
// server shared by the whole suite.
func natsBackend(t *testing.T, url string) backend {
	team := newTeamName()
	opts := NATSOptions{AckWait: time.Second, SendTimeout: 5 * time.Second}
	return backend{
		name: "nats", team: team,
		open: func(t *testing.T) Mailbox {
			mb, err := OpenNATS(url, team, opts)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { mb.Close() })
			return mb
		},
		crash: func(t *testing.T, mb Mailbox) { mb.(*natsMailbox).crashForTest() },
		inject: func(t *testing.T, name string, data []byte) {
			nc, err := nats.Connect(url)
			if err != nil {
				t.Fatal(err)
			}
			defer nc.Close()
			if _, err := nc.Request(natsSubject(team, name), data, 5*time.Second); err != nil {
				t.Fatal(err)
			}
		},
		stored: func(t *testing.T) int {
			mb := openNATSInternal(t, url, team)
			info, err := mb.js.Stream(context.Background(), natsStreamName(team))
			if err != nil {
				t.Fatal(err)
			}
			st, err := info.Info(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			return int(st.State.Msgs)
		},
		rejected: func(t *testing.T, name string) []string {
			mb := openNATSInternal(t, url, team)
			st, err := mb.js.Stream(context.Background(), natsStreamName(team))
			if err != nil {
				t.Fatal(err)
			}
			info, err := st.Info(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			var out []string
			for seq := info.State.FirstSeq; seq <= info.State.LastSeq && info.State.Msgs > 0; seq++ {
				raw, err := st.GetMsg(context.Background(), seq)
				if err == nil && raw.Subject == natsRejectedSubject(team, name) {
					out = append(out, string(raw.Data))
				}
			}
			return out
		},
	}
}

func openNATSInternal(t *testing.T, url, team string) *natsMailbox {
	t.Helper()
	mb, err := OpenNATS(url, team, NATSOptions{AckWait: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mb.Close() })
	return mb.(*natsMailbox)
}

// crashForTest drops every lease without moving its file back, and
// closes m: what the kernel does when the process dies.
func (m *fileMailbox) crashForTest() {
	m.mu.Lock()
	held := make([]*fileDelivery, 0, len(m.outstanding))
	for d := range m.outstanding {
		held = append(held, d)
	}
	m.mu.Unlock()
	for _, d := range held {
		d.mu.Lock()
		d.release()
		d.mu.Unlock()
	}
	m.Close()
}

// crashForTest stops the keep-alives and closes the connection without
// giving anything back: the server redelivers after AckWait.
func (m *natsMailbox) crashForTest() {
	m.mu.Lock()
	held := make([]*natsDelivery, 0, len(m.outstanding))
	for d := range m.outstanding {
		held = append(held, d)
	}
	m.mu.Unlock()
	for _, d := range held {
		d.mu.Lock()
		d.abandon()
		d.mu.Unlock()
	}
	m.nc.Close()
	m.Close()
}

// textMsg builds a text message in team from a to b.
func textMsg(t *testing.T, team, from, to, text string) Message {
	t.Helper()
	m, err := NewMessage(team, from, to, TypeText, Text{Text: text})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func textOf(t *testing.T, m Message) string {
	t.Helper()
	var x Text
	if err := m.Decode(TypeText, &x); err != nil {
		t.Fatal(err)
	}
	return x.Text
}

func send(t *testing.T, mb Mailbox, msgs ...Message) {
	t.Helper()
	for _, m := range msgs {
		if err := mb.Send(testCtx(t), m); err != nil {
			t.Fatal(err)
		}
	}
}

// receive waits (up to 10 s) for the next delivery of name.
func receive(t *testing.T, mb Mailbox, name string) Delivery {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	d, err := mb.Receive(ctx, name)
	if err != nil {
		t.Fatalf("receive for %s: %v", name, err)
	}
	return d
}

func ack(t *testing.T, d Delivery) {
	t.Helper()
	if err := d.Ack(testCtx(t)); err != nil {
		t.Fatal(err)
	}
}

func pending(t *testing.T, mb Mailbox, name string) int {
	t.Helper()
	n, err := mb.Pending(testCtx(t), name)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
