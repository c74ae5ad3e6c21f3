package headless

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// The server's message is taken out of the host's answer; an answer
// without one is an error naming what is missing.
func TestMCPResponse(t *testing.T) {
	for _, tc := range []struct{ in, want, err string }{
		{`{"mcp_response":{"jsonrpc":"2.0","id":1,"result":{}}}`, `{"jsonrpc":"2.0","id":1,"result":{}}`, ""},
		{`{}`, "", "no mcp_response"},
		{`{"mcp_response":null}`, "", "no mcp_response"},
		{`null`, "", "no mcp_response"},
		{`[1]`, "", "not an object"},
		{``, "", "not an object"},
	} {
		got, err := mcpResponse(json.RawMessage(tc.in))
		if tc.err == "" && (err != nil || string(got) != tc.want) || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("%s: %s, %v", tc.in, got, err)
		}
	}
}

// A message for the host's server is one mcp_message control request,
// written before the call returns; its answer reaches done, and a caller
// that gives up withdraws the request.
func TestHostMCPRequests(t *testing.T) {
	var out bytes.Buffer
	w := &writer{out: &out, format: FormatStreamJSON}
	h := newHostCalls(w)
	got := make(chan string, 1)
	if err := h.mcp(context.Background(), "calc", json.RawMessage(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`), func(a json.RawMessage, err error) {
		got <- string(a) + errText(err)
	}); err != nil {
		t.Fatal(err)
	}
	var line struct {
		RequestID string `json:"request_id"`
		Request   struct {
			Subtype    string          `json:"subtype"`
			ServerName string          `json:"server_name"`
			Message    json.RawMessage `json:"message"`
		} `json:"request"`
	}
	if err := json.Unmarshal(out.Bytes(), &line); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	if line.Request.Subtype != "mcp_message" || line.Request.ServerName != "calc" || !strings.Contains(string(line.Request.Message), "tools/list") {
		t.Errorf("request %s", out.String())
	}
	h.deliver(line.RequestID, json.RawMessage(`{"mcp_response":{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}}`), "")
	if a := <-got; a != `{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}` {
		t.Errorf("answer %s", a)
	}

	out.Reset()
	ctx, cancel := context.WithCancel(context.Background())
	_ = h.mcp(ctx, "calc", json.RawMessage(`{"jsonrpc":"2.0","id":2,"method":"tools/call"}`), func(a json.RawMessage, err error) { got <- errText(err) })
	cancel()
	if a := <-got; a != "context canceled" {
		t.Errorf("after cancel: %q", a)
	}
	if !strings.Contains(out.String(), "control_cancel_request") {
		t.Errorf("the host was not told to drop the request: %s", out.String())
	}

	h.close()
	if err := h.mcp(context.Background(), "calc", json.RawMessage(`{}`), func(json.RawMessage, error) { t.Error("done called") }); err == nil {
		t.Error("a message was taken after the host went away")
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// What the host says of its tools only narrows: always_allow grants
// nothing, a policy ponder does not know asks.
func TestHostServerPolicies(t *testing.T) {
	var cfg map[string]sdkServerConfig
	_ = json.Unmarshal([]byte(`{"calc": {"tools": [{"name": "a", "permission_policy": "always_deny"}, {"name": "b", "permission_policy": "always_ask"},
		{"name": "c", "permission_policy": "always_allow"}, {"name": "d", "permission_policy": "sometimes"}]}}`), &cfg)
	got := hostServers([]string{"calc", "other"}, cfg)
	if len(got) != 2 || got[0].Name != "calc" || strings.Join(got[0].Deny, ",") != "a" || strings.Join(got[0].Ask, ",") != "b,d" ||
		got[1].Name != "other" || len(got[1].Deny)+len(got[1].Ask) != 0 {
		t.Errorf("%+v", got)
	}
}
