package permission

import (
	"slices"
	"testing"
)

// A confined command that fetches carries the ports of its fetches, so
// that the sandbox can open exactly those; nothing else gets ports.
func TestFetchPorts(t *testing.T) {
	fx := newFixture(t)
	e, err := NewEngine(Rules{Allow: []string{"WebFetch(domain:docs.dev)", "WebFetch(domain:localhost)"}}, fx.root, fx.home)
	if err != nil {
		t.Fatal(err)
	}
	e.SetSandbox(SandboxPolicy{Available: true})
	for _, tc := range []struct {
		mode   Mode
		cmd    string
		ports  []uint16
		lookup bool
	}{
		{ModeDefault, "curl -s https://docs.dev/x", []uint16{443}, true},
		{ModePlan, "curl -s https://docs.dev/x http://docs.dev:8080/y", []uint16{443, 8080}, true},
		{ModeDefault, "wget -qO- --max-redirect=0 http://localhost:3000/", []uint16{3000}, false},
		{ModePlan, "curl -s http://127.0.0.1:3000/ http://127.1:3001/", []uint16{3000, 3001}, false},
		{ModePlan, "curl -s http://api.localhost:3000/", []uint16{3000}, false},
		{ModePlan, "curl -s http://localhost:3000/ https://docs.dev/", []uint16{3000, 443}, true},
		{ModeDefault, "ls", nil, false},
		// Asks; once the user says yes, the reader still runs confined,
		// with the port of the address approved.
		{ModeDefault, "curl -s https://other.dev/", []uint16{443}, true},
		{ModeBypass, "curl -s https://other.dev/", []uint16{443}, true},
		{ModeDefault, "curl -s https://docs.dev/ > out.html", nil, false}, // a writer: unconfined once approved
		// After a yes, a fetch whose options may send it elsewhere gets
		// the port of the address written.
		{ModeDefault, "curl -sL https://docs.dev/x", []uint16{443}, true},
	} {
		d := e.Decide(Context{Mode: tc.mode, PlanFile: fx.plan}, Access{Tool: "Bash", Kind: KindExec, Command: tc.cmd})
		if !slices.Equal(d.Ports, tc.ports) {
			t.Errorf("%s %q: ports %v (%s), want %v", tc.mode, tc.cmd, d.Ports, d.Behavior, tc.ports)
		}
		if d.Lookup != tc.lookup {
			t.Errorf("%s %q: lookup %v, want %v", tc.mode, tc.cmd, d.Lookup, tc.lookup)
		}
		if d.Behavior == Allow && !d.Sandbox {
			t.Errorf("%s %q: allowed unconfined", tc.mode, tc.cmd)
		}
	}
}

// Only a fetch of a host name asks DNS; addresses in every form and the
// local host's names do not.
func TestNeedsLookup(t *testing.T) {
	for url, want := range map[string]bool{
		"https://docs.dev/x":        true,
		"http://DOCS.dev.:8080/":    true,
		"http://127.0.0.1/":         false,
		"http://127.1:80/":          false,
		"http://0x7f000001/":        false,
		"http://2130706433/":        false,
		"http://[::1]:3000/":        false,
		"http://[2001:db8::1]/":     false,
		"http://localhost:3000/":    false,
		"http://api.localhost/":     false,
		"http://localhost.evil.dev": true,
		"not a url at all %%":       true,
	} {
		if got := needsLookup(url); got != want {
			t.Errorf("needsLookup(%q) = %v, want %v", url, got, want)
		}
	}
}
