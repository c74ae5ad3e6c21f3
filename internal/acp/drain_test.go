package acp

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/ponder-agent/ponder/internal/app"
	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// syncBuffer is a bytes.Buffer safe for the connection's writer and the
// test's reader.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// A client that closes its input right after its requests (a script
// piping them in) still gets every answer before Serve returns.
func TestEveryRequestAnsweredAfterInputCloses(t *testing.T) {
	base := t.TempDir()
	t.Setenv("HOME", base)
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}`,
		`{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"relative","mcpServers":[]}}`,
		`{"jsonrpc":"2.0","id":"three","method":"authenticate","params":{"methodId":"x"}}`,
		`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"none"}}`,
		`not json at all`,
		`{"jsonrpc":"2.0","id":4,"method":"no/such/method","params":{}}`,
	}, "\n") + "\n"
	var out syncBuffer
	err := Serve(context.Background(), Options{
		App: app.Options{ConfigDir: base, LLM: fakemodel.NewProvider(fakemodel.Script{}), Getenv: func(string) string { return "" }},
		In:  strings.NewReader(in), Out: &out,
	})
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var m struct {
			ID json.RawMessage `json:"id"`
		}
		if json.Unmarshal([]byte(line), &m) == nil && m.ID != nil {
			ids[string(m.ID)] = true
		}
	}
	for _, want := range []string{`1`, `2`, `"three"`, `4`} {
		if !ids[want] {
			t.Errorf("no answer to request %s; output:\n%s", want, out.String())
		}
	}
}
