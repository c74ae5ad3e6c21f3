package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// rpcPeer drives ponder acp or ponder mcp serve over raw JSON lines, as a
// careless or hostile client would.
type rpcPeer struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan map[string]any
	stderr bytes.Buffer
}

// startPeer starts ponder with args in w's project.
func startPeer(t *testing.T, w *world, args ...string) *rpcPeer {
	t.Helper()
	cmd := exec.Command(ponderBin, args...)
	cmd.Dir = w.dir
	cmd.Env = w.env()
	p := &rpcPeer{t: t, cmd: cmd, lines: make(chan map[string]any, 64)}
	cmd.Stderr = &p.stderr
	var err error
	if p.stdin, err = cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	go func() {
		defer close(p.lines)
		r := bufio.NewReaderSize(stdout, 1<<20)
		for {
			line, err := r.ReadBytes('\n')
			if len(bytes.TrimSpace(line)) > 0 {
				var m map[string]any
				if json.Unmarshal(line, &m) != nil {
					m = map[string]any{"unparsable": string(line)}
				}
				p.lines <- m
			}
			if err != nil {
				return
			}
		}
	}()
	return p
}

// send writes one raw line.
func (p *rpcPeer) send(line string) {
	p.t.Helper()
	if _, err := io.WriteString(p.stdin, line+"\n"); err != nil {
		p.t.Fatalf("writing to ponder: %v\nstderr:\n%s", err, cut(p.stderr.String()))
	}
}

// reply waits for the response with the given id (as JSON), skipping
// notifications and requests of ponder's.
func (p *rpcPeer) reply(id string) map[string]any {
	p.t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		select {
		case m, ok := <-p.lines:
			if !ok {
				p.t.Fatalf("ponder closed its output before answering id %s; stderr:\n%s", id, cut(p.stderr.String()))
			}
			if _, isRequest := m["method"]; isRequest {
				continue
			}
			got, _ := json.Marshal(m["id"])
			if string(got) == id {
				return m
			}
			p.t.Fatalf("an answer with id %s while waiting for %s: %v", got, id, m)
		case <-deadline:
			p.t.Fatalf("no answer with id %s; stderr:\n%s", id, cut(p.stderr.String()))
		}
	}
}

// wantError checks that a reply is the JSON-RPC error code.
func (p *rpcPeer) wantError(m map[string]any, code int) {
	p.t.Helper()
	e, _ := m["error"].(map[string]any)
	if e == nil || e["code"] != float64(code) || e["message"] == "" {
		p.t.Errorf("reply %v, want error %d", m, code)
	}
}

// wantResult checks that a reply succeeded.
func (p *rpcPeer) wantResult(m map[string]any) map[string]any {
	p.t.Helper()
	r, _ := m["result"].(map[string]any)
	if r == nil {
		p.t.Fatalf("reply %v, want a result", m)
	}
	return r
}

// close ends the input and checks that ponder exits with 0.
func (p *rpcPeer) close() {
	p.t.Helper()
	p.stdin.Close()
	for range p.lines {
	}
	if err := p.cmd.Wait(); err != nil {
		p.t.Errorf("ponder exited with %v; stderr:\n%s", err, cut(p.stderr.String()))
	}
}

// badLines are messages each server must answer with an error and
// survive: the line, the id the answer carries and the code.
var badLines = []struct{ line, id string }{
	{`{not json`, "null"},
	{`{"jsonrpc":"2.0","id":901,"method":42}`, "901"},
	{`{"jsonrpc":"2.0","id":902}`, "902"},
	{`{"jsonrpc":"2.0","id":"s903","params":{}}`, `"s903"`},
	{`{"jsonrpc":"2.0","method":7}`, "null"},
	{`[{"jsonrpc":"2.0","id":904,"method":"ping"}]`, "null"},
	{`{"jsonrpc":"2.0","id":905,"method":"ping","Method":"x"}`, "null"},
	{`{"jsonrpc":"1.0","id":906,"method":"initialize"}`, "906"},
	{`{"jsonrpc":"2.0","id":{"x":1},"method":"initialize"}`, "null"},
	{`{"jsonrpc":"2.0","id":null,"method":"initialize"}`, "null"},
}

func badCode(line string) int {
	if !json.Valid([]byte(line)) {
		return -32700
	}
	return -32600
}

// ponder acp answers each malformed or invalid message with its JSON-RPC
// error, a 12 MB message with an Invalid Request error carrying its id,
// and goes on serving: the requests after them succeed and it exits
// cleanly when the editor closes its end.
func TestACPAnswersBadMessagesAndGoesOn(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api)
		p := startPeer(t, w, "acp")
		p.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}`)
		p.wantResult(p.reply("1"))
		for _, b := range badLines {
			p.send(b.line)
			p.wantError(p.reply(b.id), badCode(b.line))
		}
		p.send(`{"jsonrpc":"2.0","id":990,"result":{}}`) // a stray response: nothing to answer
		huge := `{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"x","prompt":[{"type":"text","text":"` +
			strings.Repeat("a", 12<<20) + `"}]}}`
		p.send(huge)
		r := p.reply("2")
		p.wantError(r, -32600)
		if msg, _ := r["error"].(map[string]any)["message"].(string); !strings.Contains(msg, "limit") {
			t.Errorf("the oversized message's error: %q", msg)
		}
		p.send(`{"jsonrpc":"2.0","id":3,"method":"session/new","params":{"cwd":"` + w.dir + `","mcpServers":[]}}`)
		if res := p.wantResult(p.reply("3")); res["sessionId"] == "" || res["sessionId"] == nil {
			t.Errorf("session/new after the bad messages: %v", res)
		}
		p.close()
	})
}

// ponder mcp serve answers each malformed or invalid message with its
// JSON-RPC error and goes on: tools/list afterwards lists its tools.
func TestMCPServeAnswersBadMessagesAndGoesOn(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api)
		p := startPeer(t, w, "mcp", "serve")
		p.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"e2e","version":"1"}}}`)
		p.wantResult(p.reply("1"))
		p.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
		for _, b := range badLines {
			p.send(b.line)
			p.wantError(p.reply(b.id), badCode(b.line))
		}
		p.send(`{"jsonrpc":"2.0","id":990,"error":"not an object"}`) // a malformed stray response
		huge := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ask","arguments":{"question":"` +
			strings.Repeat("a", 17<<20) + `"}}}`
		p.send(huge)
		p.wantError(p.reply("2"), -32600)
		p.send(`{"jsonrpc":"2.0","id":3,"method":"tools/list"}`)
		tools, _ := p.wantResult(p.reply("3"))["tools"].([]any)
		if len(tools) != 3 {
			t.Errorf("tools/list after the bad messages: %v", tools)
		}
		p.close()
	})
}
