package mcpclient

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ponder-agent/ponder/internal/config"
	"github.com/ponder-agent/ponder/internal/proctree"
	"github.com/ponder-agent/ponder/internal/tool"
)

// maxTools bounds the tools ponder takes from one server; a server that
// lists more is cut off there (and says so in its status).
const maxTools = 200

// server is one configured MCP server and, once started, its session.
type server struct {
	spec config.MCPSource
	o    Options

	mu      sync.Mutex
	st      Status
	session *mcp.ClientSession
	tools   []*mcpTool
	closing bool
	// proc is the stdio server's process, nil for HTTP servers.
	proc   *process
	stderr *tail
	// host carries messages to a server of the SDK host (type sdk), conn
	// is its connection once opened, and ready closes when its start in
	// the background is over.
	host  HostFunc
	conn  *hostConn
	ready chan struct{}
	// hostSays is what the host says of its server's tools, by name:
	// deny, or write (ask before each call). It only narrows.
	hostSays map[string]string
}

func newServer(spec config.MCPSource, o Options) *server {
	transport := "stdio"
	switch spec.Server.Type {
	case "http", "streamable-http":
		transport = "http"
	case "sdk":
		transport = "sdk"
	}
	return &server{spec: spec, o: o, st: Status{Name: spec.Name, From: spec.From, Transport: transport}, stderr: &tail{}}
}

func (s *server) setState(state, why string) {
	s.mu.Lock()
	s.st.State, s.st.Error = state, why
	s.mu.Unlock()
}

func (s *server) status() Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.st
	st.Tools = append([]ToolInfo(nil), s.st.Tools...)
	for i, ti := range st.Tools {
		switch s.hostSays[ti.Remote] {
		case config.MCPToolDeny:
			if ti.Skipped == "" {
				st.Tools[i].Skipped = "denied by the SDK host"
			}
			st.Tools[i].ReadOnly = false
		case config.MCPToolWrite:
			st.Tools[i].ReadOnly = false
		}
	}
	return st
}

// offered returns the server's usable tools: those the settings and the
// host let through.
func (s *server) offered() []tool.Tool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.st.State != StateConnected && s.st.State != StateClosed {
		return nil
	}
	out := make([]tool.Tool, 0, len(s.tools))
	for _, t := range s.tools {
		if s.hostSays[t.remote] != config.MCPToolDeny {
			out = append(out, t)
		}
	}
	return out
}

// hostSay is what the host says of one of its server's tools: deny,
// write (ask first) or nothing.
func (s *server) hostSay(remote string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hostSays[remote]
}

// current is the server's session, or an error saying why there is none.
func (s *server) current() (*mcp.ClientSession, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.session == nil || s.st.State != StateConnected {
		why := s.st.Error
		if why == "" {
			why = "it is " + s.st.State
		}
		return nil, fmt.Errorf("the MCP server %s is not running (%s)", s.st.Name, why)
	}
	return s.session, nil
}

// timeout is the server's start-up timeout.
func (s *server) timeout() time.Duration {
	if t := s.spec.Server.Timeout; t != nil {
		return time.Duration(*t * float64(time.Second))
	}
	return s.o.Timeout
}

// toolTimeout bounds one call of the server's tools.
func (s *server) toolTimeout() time.Duration {
	if t := s.spec.Server.ToolTimeout; t != nil {
		return time.Duration(*t * float64(time.Second))
	}
	return s.o.ToolTimeout
}

// start connects, lists the tools and records the outcome. A server that
// takes longer than its timeout is killed.
func (s *server) start(ctx context.Context) {
	limit := s.timeout()
	sctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	transport, err := s.transport()
	if err != nil {
		s.setState(StateFailed, err.Error())
		return
	}
	// A server that does not answer in time is stopped at once, so that
	// nothing waits on it; the connection then fails.
	stop := context.AfterFunc(sctx, s.kill)
	defer stop()

	// ponder offers a server nothing of its own: no roots, no sampling
	// (which would let a server spend ponder's model on its own
	// prompts), no elicitation.
	client := mcp.NewClient(&mcp.Implementation{Name: "ponder", Version: s.o.Version}, &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{}})
	var sessOpts *mcp.ClientSessionOptions
	if s.hosted() {
		// The SDK's servers speak the handshake of this version; asking
		// them to discover first only costs a refused round trip.
		sessOpts = &mcp.ClientSessionOptions{ProtocolVersion: hostProtocolVersion}
	}
	cs, err := client.Connect(sctx, transport, sessOpts)
	if err == nil {
		err = s.listTools(sctx, cs)
		if err != nil {
			_ = cs.Close()
		}
	}
	if err == nil && !stop() {
		err = sctx.Err() // timed out as the listing finished
		_ = cs.Close()
	}
	s.mu.Lock()
	closing := s.closing
	s.mu.Unlock()
	if err == nil && closing {
		// The session closed while the server connected.
		_ = cs.Close()
		s.cleanup()
		return
	}
	if err != nil {
		if sctx.Err() != nil && ctx.Err() == nil {
			err = fmt.Errorf("did not start and list its tools within %s (its start-up timeout)", limit.Round(time.Millisecond))
		} else if exit := s.exited(); exit != "" {
			err = fmt.Errorf("%w (its process ended: %s)", err, exit)
		}
		s.cleanup()
		s.setState(StateFailed, s.explain(err))
		return
	}
	s.mu.Lock()
	s.session = cs
	s.st.State = StateConnected
	s.mu.Unlock()
	go s.watch(cs)
}

// exited describes how a stdio server's process ended, or is "" while it
// runs or was never started.
func (s *server) exited() string {
	s.mu.Lock()
	p := s.proc
	s.mu.Unlock()
	if p == nil || p.cmd.ProcessState == nil {
		return ""
	}
	return p.cmd.ProcessState.String()
}

// watch notes a server that goes away while the session runs.
func (s *server) watch(cs *mcp.ClientSession) {
	err := cs.Wait()
	s.mu.Lock()
	closing := s.closing
	s.mu.Unlock()
	if closing {
		return
	}
	why := "the server went away"
	if err != nil && !errors.Is(err, mcp.ErrConnectionClosed) {
		why += ": " + err.Error()
	}
	s.setState(StateClosed, s.explain(errors.New(why)))
	s.cleanup()
}

// explain adds what a stdio server last wrote to its standard error.
func (s *server) explain(err error) string {
	msg := err.Error()
	if t := s.stderr.String(); t != "" {
		msg += "; it wrote: " + t
	}
	return msg
}

// transport builds the connection the server's definition asks for, with
// ${NAME} expanded.
func (s *server) transport() (mcp.Transport, error) {
	def := s.spec.Server
	expand := func(v string) (string, error) { return config.ExpandEnv(v, s.o.Getenv, s.o.Credential) }
	if s.hosted() {
		s.mu.Lock()
		host := s.host
		s.mu.Unlock()
		if host == nil {
			return nil, fmt.Errorf("%s", errNeedsHost)
		}
		opened := func(c *hostConn) {
			s.mu.Lock()
			s.conn = c
			s.mu.Unlock()
		}
		return &hostTransport{server: s.spec.Name, send: host, logf: s.o.Logf, opened: opened}, nil
	}
	if s.st.Transport == "http" {
		url, err := expand(def.URL)
		if err != nil {
			return nil, fmt.Errorf("url: %v", err)
		}
		headers := http.Header{}
		for k, v := range def.Headers {
			val, err := expand(v)
			if err != nil {
				return nil, fmt.Errorf("header %s: %v", k, err)
			}
			headers.Set(k, val)
		}
		return &mcp.StreamableClientTransport{
			Endpoint:             url,
			HTTPClient:           &http.Client{Transport: headerTransport{headers: headers, base: http.DefaultTransport}},
			MaxRetries:           -1,
			DisableStandaloneSSE: true,
		}, nil
	}
	command, err := expand(def.Command)
	if err != nil {
		return nil, fmt.Errorf("command: %v", err)
	}
	args := make([]string, len(def.Args))
	for i, a := range def.Args {
		if args[i], err = expand(a); err != nil {
			return nil, fmt.Errorf("args: %v", err)
		}
	}
	env := append([]string(nil), s.o.Environ...)
	for _, k := range sortedKeys(def.Env) {
		v, err := expand(def.Env[k])
		if err != nil {
			return nil, fmt.Errorf("env %s: %v", k, err)
		}
		env = append(env, k+"="+v)
	}
	dir := s.o.Dir
	if def.Cwd != "" {
		if dir, err = expand(def.Cwd); err != nil {
			return nil, fmt.Errorf("cwd: %v", err)
		}
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(s.o.Dir, dir)
		}
	}
	if _, err := exec.LookPath(command); err != nil && !strings.ContainsRune(command, filepath.Separator) {
		return nil, fmt.Errorf("command %q not found in PATH", command)
	}
	cmd := exec.Command(command, args...)
	cmd.Dir, cmd.Env, cmd.Stderr = dir, env, s.stderr
	// Output a grandchild keeps open must not hold up the wait.
	cmd.WaitDelay = 2 * time.Second
	ownSession(cmd)
	p := &process{cmd: cmd}
	s.mu.Lock()
	s.proc = p
	s.mu.Unlock()
	return &stdioTransport{inner: &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}, proc: p}, nil
}

// close ends the session: a stdio server's input is closed, and it is
// stopped if it does not exit, with whatever it started.
func (s *server) close() {
	s.mu.Lock()
	s.closing = true
	cs := s.session
	s.mu.Unlock()
	if cs != nil {
		_ = cs.Close()
	}
	s.cleanup()
	s.mu.Lock()
	if s.st.State == StateConnected {
		s.st.State = StateClosed
	}
	s.mu.Unlock()
}

// kill stops a stdio server and everything it started, at once; a
// host's server has its connection closed.
func (s *server) kill() {
	s.mu.Lock()
	p, c := s.proc, s.conn
	s.mu.Unlock()
	p.kill()
	if c != nil {
		_ = c.Close()
	}
}

// cleanup kills what is left of a stdio server and lets the process
// tracker forget it; a host's server has its connection closed.
func (s *server) cleanup() {
	s.mu.Lock()
	p, c := s.proc, s.conn
	s.mu.Unlock()
	p.kill()
	p.done()
	if c != nil {
		_ = c.Close()
	}
}

// headerTransport adds the server definition's headers to each request.
type headerTransport struct {
	headers http.Header
	base    http.RoundTripper
}

func (t headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range t.headers {
		r.Header[k] = v
	}
	return t.base.RoundTrip(r)
}

// tail keeps the last bytes a server wrote to its standard error.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

const tailSize = 2048

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > tailSize {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-tailSize:]...)
	}
	return len(p), nil
}

// String is the tail on one line, trimmed.
func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.Join(strings.Fields(strings.ToValidUTF8(string(t.buf), "?")), " ")
}

// process is a stdio server's process, held by the process tracker from
// its start until it has been waited for.
type process struct {
	cmd *exec.Cmd

	mu      sync.Mutex
	pid     int
	release func()
}

// started notes the process's id and holds it, so that no hunt for a
// command's leftovers takes it for one.
func (p *process) started(pid int) {
	release := proctree.Default().Hold(pid)
	p.mu.Lock()
	p.pid, p.release = pid, release
	p.mu.Unlock()
}

// kill stops the process's session and everything in it. Nil-safe.
func (p *process) kill() {
	if p == nil {
		return
	}
	p.mu.Lock()
	pid := p.pid
	p.mu.Unlock()
	if pid > 0 {
		proctree.Default().KillSession(pid)
	}
}

// done lets the tracker forget the process once it has been waited for.
func (p *process) done() {
	if p == nil {
		return
	}
	p.mu.Lock()
	release := p.release
	// Once released, the process may be reaped by anyone and its id
	// reused: nothing is killed by that id any more.
	p.release, p.pid = nil, 0
	p.mu.Unlock()
	if release != nil {
		release()
	}
}

// stdioTransport starts a stdio server inside a process-tracker scope and
// holds it for as long as it runs.
type stdioTransport struct {
	inner *mcp.CommandTransport
	proc  *process
}

func (t *stdioTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	scope := proctree.Default().Begin()
	defer scope.End()
	conn, err := t.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	t.proc.started(t.inner.Command.Process.Pid)
	return conn, nil
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
