// Package acp is ponder's Agent Client Protocol front end (`ponder acp`):
// an editor (Zed, a JetBrains IDE, Neovim) starts ponder, talks JSON-RPC
// to it over standard input and output, and drives sessions with its own
// interface. Like every front end it sees a session only through app and
// event: it turns events into session updates and questions into
// permission requests, and hands the editor's answers back to app. Every
// decision stays in the session; an editor answers questions, nothing
// more.
package acp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/ponder-agent/ponder/internal/app"
	"github.com/ponder-agent/ponder/internal/jsonrpcline"
)

// Options configure the server.
type Options struct {
	// App is the base of every session's options: the command line's
	// model, provider, rules and permissions. Dir, Resume, Interactive and
	// Sink are set per session.
	App app.Options
	// Version is ponder's version, told to the editor.
	Version string
	In      io.Reader
	Out     io.Writer
	// Log receives diagnostics (editors show an agent's standard error
	// in their logs).
	Log io.Writer
}

// MaxMessage is the longest message ponder acp reads, in bytes: what the
// ACP SDK's reader holds (10 MiB with its newline), less a margin. It is
// above what a prompt may carry for ponder (the largest image ponder
// attaches, 5 MiB, is under 7 MiB in base64, and ponder takes no images
// over ACP). A longer message is answered with an Invalid Request error
// and the connection goes on.
const MaxMessage = 10<<20 - 1<<10

// Serve speaks the protocol on o.In and o.Out until the editor closes
// its end or ctx ends, then closes every session and answers every
// request still in flight.
func Serve(ctx context.Context, o Options) error {
	s := newServer(o)
	track := newInflight()
	out := jsonrpcline.NewWriter(o.Out)
	in := newGate(track.reader(jsonrpcline.NewFilter(o.In, out, s.opts.Log, MaxMessage)))
	conn := sdk.NewAgentSideConnection(s, track.writer(out), in)
	conn.SetLogger(slog.New(slog.NewTextHandler(s.opts.Log, &slog.HandlerOptions{Level: slog.LevelWarn})))
	s.conn = conn
	in.open()
	select {
	case <-conn.Done():
	case <-ctx.Done():
	}
	// Turns still running are cancelled with their sessions; then every
	// request read gets its answer before ponder exits.
	s.closeAll()
	track.wait(drainWait)
	return nil
}

// gate holds back reading until open: the connection starts reading as
// it is made, and nothing it reads may be handled before the server knows
// the connection.
type gate struct {
	r     io.Reader
	ready chan struct{}
}

func newGate(r io.Reader) *gate { return &gate{r: r, ready: make(chan struct{})} }

func (g *gate) open() { close(g.ready) }

func (g *gate) Read(p []byte) (int, error) {
	<-g.ready
	return g.r.Read(p)
}

// server is the agent side of one connection: its sessions by id.
type server struct {
	opts Options
	conn *sdk.AgentSideConnection

	mu       sync.Mutex
	client   sdk.ClientCapabilities
	sessions map[string]*session
}

func newServer(o Options) *server {
	if o.Log == nil {
		o.Log = io.Discard
	}
	return &server{opts: o, sessions: map[string]*session{}}
}

var _ sdk.Agent = (*server)(nil)
var _ sdk.AgentLoader = (*server)(nil)

// logf writes a diagnostic line to the log.
func (s *server) logf(format string, args ...any) {
	fmt.Fprintf(s.opts.Log, "ponder acp: "+format+"\n", args...)
}

// Initialize tells the editor what ponder can do: list, load and close
// sessions, and take text, resource links and embedded text resources in
// prompts. No authentication: the provider's key comes from the
// environment the editor starts ponder with.
func (s *server) Initialize(_ context.Context, p sdk.InitializeRequest) (sdk.InitializeResponse, error) {
	s.mu.Lock()
	s.client = p.ClientCapabilities
	s.mu.Unlock()
	return sdk.InitializeResponse{
		ProtocolVersion: sdk.ProtocolVersionNumber,
		AgentInfo:       &sdk.Implementation{Name: "ponder", Title: sdk.Ptr("ponder"), Version: s.opts.Version},
		AgentCapabilities: sdk.AgentCapabilities{
			LoadSession:        true,
			PromptCapabilities: sdk.PromptCapabilities{EmbeddedContext: true},
			McpCapabilities:    sdk.McpCapabilities{},
			SessionCapabilities: sdk.SessionCapabilities{
				Close: &sdk.SessionCloseCapabilities{},
				List:  &sdk.SessionListCapabilities{},
			},
		},
		AuthMethods: []sdk.AuthMethod{},
	}, nil
}

// errNoAuth answers authenticate: there is nothing to authenticate.
var errNoAuth = errors.New("ponder needs no authentication over ACP: it reads the model provider's key from its environment " +
	"(ANTHROPIC_API_KEY, or OPENAI_API_KEY with OPENAI_BASE_URL); set it in the editor's settings for the agent server")

// Authenticate refuses: ponder offers no authentication methods.
func (s *server) Authenticate(context.Context, sdk.AuthenticateRequest) (sdk.AuthenticateResponse, error) {
	return sdk.AuthenticateResponse{}, sdk.NewInvalidParams(map[string]any{"error": errNoAuth.Error()})
}

// clientCaps returns what the editor said it can do.
func (s *server) clientCaps() sdk.ClientCapabilities {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.client
}

// lookup finds a session by id.
func (s *server) lookup(id sdk.SessionId) (*session, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ss, ok := s.sessions[string(id)]; ok {
		return ss, nil
	}
	return nil, sdk.NewInvalidParams(map[string]any{"error": fmt.Sprintf("no session %q is open (start one with session/new or session/load)", id)})
}

// closeAll closes every session, as the editor went away.
func (s *server) closeAll() {
	s.mu.Lock()
	list := make([]*session, 0, len(s.sessions))
	for _, ss := range s.sessions {
		list = append(list, ss)
	}
	s.sessions = map[string]*session{}
	s.mu.Unlock()
	var wg sync.WaitGroup
	for _, ss := range list {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ss.close()
		}()
	}
	wg.Wait()
}
