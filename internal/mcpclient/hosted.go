package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A server of type "sdk" lives inside the program that drives ponder (a
// host of the Claude Agent SDK, which defines it with createSdkMcpServer).
// ponder reaches it through the host's control channel: each JSON-RPC
// message ponder sends the server is one control request, and the
// server's response to a request comes back as the answer to it. Messages
// the server sends on its own (notifications, its own requests, a response
// that came too late) arrive as control requests of the host.
//
// The connection here is an ordinary mcp.Connection, so everything else
// (the handshake, listing tools, calls, results, timeouts, cancellation)
// is the same code as for stdio and HTTP servers. What the host answers is
// checked like any other input: an answer that is not the response to the
// request it answers becomes an error response, never a crash, and a host
// that does not answer is bounded by the caller's context (the start-up
// and tool timeouts, an interrupt).

// HostFunc carries one JSON-RPC message to the server named server in the
// host program. It writes the message before it returns (so messages reach
// the host in the order they were sent) and returns an error only when it
// could not, and then never calls done. Otherwise it later calls done
// exactly once: with the server's JSON-RPC
// message the host answered with (for a request, its response; for a
// notification or a response, an acknowledgement that is ignored), or
// with an error when the host failed the request, is gone, or ctx ended
// first.
type HostFunc func(ctx context.Context, server string, message json.RawMessage, done func(answer json.RawMessage, err error)) error

// hostProtocolVersion is the MCP version ponder asks the host's servers
// for: the Claude Agent SDK's own.
const hostProtocolVersion = "2025-11-25"

// maxQueued bounds the messages a host's server may send on its own that
// wait to be read; more are dropped (and said so).
const maxQueued = 256

// errClosed says the connection to a host's server was closed.
var errClosed = errors.New("the connection to the SDK host's server is closed")

// hostTransport connects to a server of the host through send.
type hostTransport struct {
	server string
	send   HostFunc
	logf   func(format string, args ...any)
	// opened is told the connection, so the server can close it (and
	// hand it messages the host sends on its own).
	opened func(*hostConn)
}

// Connect opens the connection; nothing is sent until the client speaks.
func (t *hostTransport) Connect(context.Context) (mcp.Connection, error) {
	ctx, cancel := context.WithCancel(context.Background())
	c := &hostConn{server: t.server, send: t.send, logf: t.logf, in: make(chan jsonrpc.Message, maxQueued), closed: make(chan struct{}), ctx: ctx, cancel: cancel}
	if c.logf == nil {
		c.logf = func(string, ...any) {}
	}
	if t.opened != nil {
		t.opened(c)
	}
	return c, nil
}

// hostConn is one connection to a host's server.
type hostConn struct {
	server string
	send   HostFunc
	logf   func(format string, args ...any)

	// in holds the messages to read: responses to ponder's requests and
	// what the server sent on its own.
	in     chan jsonrpc.Message
	closed chan struct{}
	once   sync.Once
	// ctx ends when the connection closes, and with it every wait for
	// the host.
	ctx    context.Context
	cancel context.CancelFunc
}

// Read returns the next message from the server.
func (c *hostConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case m := <-c.in:
		return m, nil
	case <-c.closed:
		return nil, io.EOF
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Write sends a message to the server. A request's answer is awaited in
// the background for as long as the request's context (its timeout, an
// interrupt) and the connection last; then it is read as the response.
func (c *hostConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	select {
	case <-c.closed:
		return errClosed
	default:
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	req, ok := msg.(*jsonrpc.Request)
	if !ok || !req.IsCall() {
		// Notifications and ponder's responses to the server's own
		// requests: the host acknowledges them, and nothing waits.
		return c.send(c.ctx, c.server, data, func(json.RawMessage, error) {})
	}
	wctx, stop := context.WithCancel(ctx)
	unlink := context.AfterFunc(c.ctx, stop)
	err = c.send(wctx, c.server, data, func(answer json.RawMessage, err error) {
		unlink()
		defer stop()
		if wctx.Err() != nil {
			// The caller gave up (timeout, interrupt) or the connection
			// closed: nobody waits for this answer any more.
			return
		}
		c.deliver(c.response(req, answer, err))
	})
	if err != nil {
		unlink()
		stop()
	}
	return err
}

// response reads the host's answer to req as the server's response to it.
// Whatever else the host answered with is an error response for req, so
// the call fails with a reason and nothing waits for a response that will
// not come.
func (c *hostConn) response(req *jsonrpc.Request, answer json.RawMessage, err error) *jsonrpc.Response {
	fail := func(format string, args ...any) *jsonrpc.Response {
		why := fmt.Sprintf(format, args...)
		return &jsonrpc.Response{ID: req.ID, Error: &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: why}}
	}
	if err != nil {
		c.logf("MCP server %s (SDK host): %s got no response: %v", c.server, req.Method, err)
		return fail("the SDK host did not carry %s to its server %s: %v", req.Method, c.server, err)
	}
	msg, err := jsonrpc.DecodeMessage(answer)
	if err != nil {
		c.logf("MCP server %s (SDK host): the answer to %s is not a JSON-RPC message: %v", c.server, req.Method, err)
		return fail("the SDK host answered %s with something that is not a JSON-RPC message: %v", req.Method, err)
	}
	resp, ok := msg.(*jsonrpc.Response)
	if !ok {
		c.logf("MCP server %s (SDK host): the answer to %s is a request, not a response", c.server, req.Method)
		return fail("the SDK host answered %s with a request instead of a response", req.Method)
	}
	if resp.ID != req.ID {
		c.logf("MCP server %s (SDK host): the answer to %s (id %v) is the response to id %v; it is ignored", c.server, req.Method, req.ID.Raw(), resp.ID.Raw())
		return fail("the SDK host answered %s with the response to another request (id %v)", req.Method, resp.ID.Raw())
	}
	return resp
}

// deliver queues a response to one of ponder's requests for Read. It
// waits for room: the call it answers is waiting for it.
func (c *hostConn) deliver(resp *jsonrpc.Response) {
	select {
	case c.in <- resp:
	case <-c.closed:
	}
}

// receive takes a message the server sent on its own (a notification, a
// request of its own). A response arriving this way answers nothing that
// waits (ponder's requests are answered through their control requests,
// so this is one that came too late, or one made up): it is ignored and
// logged. It reports why a message was not taken, or nil.
func (c *hostConn) receive(data json.RawMessage) error {
	msg, err := jsonrpc.DecodeMessage(data)
	if err != nil {
		return fmt.Errorf("not a JSON-RPC message: %v", err)
	}
	if resp, ok := msg.(*jsonrpc.Response); ok {
		c.logf("MCP server %s (SDK host): ignored a response to no waiting request (id %v)", c.server, resp.ID.Raw())
		return nil
	}
	select {
	case <-c.closed:
		return errClosed
	default:
	}
	select {
	case c.in <- msg:
		return nil
	default:
		c.logf("MCP server %s (SDK host): more than %d messages wait to be read; one was dropped", c.server, maxQueued)
		return fmt.Errorf("too many messages wait to be read; dropped")
	}
}

// Close ends the connection and every wait for the host.
func (c *hostConn) Close() error {
	c.once.Do(func() {
		close(c.closed)
		c.cancel()
	})
	return nil
}

// SessionID is empty: the host's servers have no sessions of their own.
func (c *hostConn) SessionID() string { return "" }
