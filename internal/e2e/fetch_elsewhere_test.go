package e2e

import (
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
	"github.com/ponder-agent/ponder/internal/testenv"
)

// A fetch whose options send it somewhere other than its URL says
// (--connect-to, --resolve, a redirect, a proxy) has an unknown address:
// a rule for the URL's host does not allow it, and a deny rule for the
// place it really goes cannot be checked, so it asks.
func TestFetchesThatConnectElsewhereAsk(t *testing.T) {
	testenv.Program(t, "curl", "the fetches are curl's")
	forAPIs(t, func(t *testing.T, api string) {
		h := newHitServer(t)
		port := h.url("x", "")
		port = port[strings.LastIndex(port, ":")+1:]
		w := newWorld(t, api)
		attacks := []string{
			"curl -s --connect-to ::127.0.0.1: " + h.url("example.com", "/connect-to"),
			"curl -s --resolve example.com:" + port + ":127.0.0.1 " + h.url("example.com", "/resolve"),
			"curl -s -x " + h.url("127.0.0.1", "") + " " + h.url("example.com", "/proxy"),
			"http_proxy=" + h.url("127.0.0.1", "") + " curl -s " + h.url("example.com", "/env-proxy"),
		}
		var cs []fakemodel.ToolCall
		for _, c := range attacks {
			cs = append(cs, bashCall(c))
		}
		w.srv.Add(callsThenDone("fetch it", cs)...)
		w.mustRun(0, "", "-p", "fetch it", "--allowedTools", "WebFetch(domain:example.com)")
		res := w.lastResults(len(cs))
		for i, c := range attacks {
			if !failed(res[i]) {
				t.Errorf("%q ran: %q", c, res[i].Content)
			}
		}
		for _, p := range []string{"/connect-to", "/resolve", "/proxy", "/env-proxy"} {
			if h.count(p) != 0 || h.count("http://example.com:"+port+p) != 0 {
				t.Errorf("%s reached the local server", p)
			}
		}

		// In bypass mode a deny rule for the loopback address is the only
		// guard; a redirect-following fetch of another host asks.
		w.srv.Add(callsThenDone("bypass fetch", []fakemodel.ToolCall{
			bashCall("curl -s --connect-to ::127.0.0.1: " + h.url("example.com", "/bypass-connect")),
			bashCall("curl -sL " + h.url("example.com", "/bypass-redirect")),
		})...)
		w.mustRun(0, "", "-p", "bypass fetch", "--dangerously-skip-permissions", "--permission-mode", "bypassPermissions",
			"--disallowedTools", "WebFetch(domain:127.0.0.1)")
		for _, r := range w.lastResults(2) {
			if !failed(r) {
				t.Errorf("a fetch that may go to a denied address ran: %q", r.Content)
			}
		}
		if h.count("/bypass-connect") != 0 {
			t.Error("the denied loopback address was reached")
		}

		// The attack is real: allowed outright, --connect-to reaches the
		// local server.
		w.srv.Add(calls("allowed fetch", bashCall(attacks[0]))...)
		w.mustRun(0, "", "-p", "allowed fetch", "--allowedTools", "WebFetch")
		if h.count("/connect-to") != 1 {
			t.Error("control: --connect-to did not reach the local server, so the test proves nothing")
		}
	})
}
