package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// defaultLogLevel is the level of the log notifications a session sends
// until its client sets one (logging/setLevel). The SDK sends none until
// then; ponder's progress is what a client of "plan" or "implement"
// waits on, so it goes out at info from the start.
//
//lint:ignore SA1019 still the log channel of current clients
const defaultLogLevel mcp.LoggingLevel = "info"

// run serves one session over t until the client goes away or ctx ends,
// as mcp.Server.Run does, with the session's log level set to
// defaultLogLevel until the client sets its own.
func run(ctx context.Context, srv *mcp.Server, t mcp.Transport) error {
	ss, err := srv.Connect(ctx, t, &mcp.ServerSessionOptions{State: &mcp.ServerSessionState{LogLevel: defaultLogLevel}})
	if err != nil {
		return err
	}
	closed := make(chan error, 1)
	go func() { closed <- ss.Wait() }()
	select {
	case <-ctx.Done():
		ss.Close()
		<-closed
		return ctx.Err()
	case err := <-closed:
		return err
	}
}
