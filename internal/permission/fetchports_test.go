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
		mode  Mode
		cmd   string
		ports []uint16
	}{
		{ModeDefault, "curl -s https://docs.dev/x", []uint16{443}},
		{ModePlan, "curl -s https://docs.dev/x http://docs.dev:8080/y", []uint16{443, 8080}},
		{ModeDefault, "wget -qO- --max-redirect=0 http://localhost:3000/", []uint16{3000}},
		{ModeDefault, "ls", nil},
		// Asks; once the user says yes, the reader still runs confined,
		// with the port of the address approved.
		{ModeDefault, "curl -s https://other.dev/", []uint16{443}},
		{ModeBypass, "curl -s https://other.dev/", []uint16{443}},
		{ModeDefault, "curl -s https://docs.dev/ > out.html", nil}, // a writer: unconfined once approved
		// After a yes, a fetch whose options may send it elsewhere gets
		// the port of the address written.
		{ModeDefault, "curl -sL https://docs.dev/x", []uint16{443}},
	} {
		d := e.Decide(Context{Mode: tc.mode, PlanFile: fx.plan}, Access{Tool: "Bash", Kind: KindExec, Command: tc.cmd})
		if !slices.Equal(d.Ports, tc.ports) {
			t.Errorf("%s %q: ports %v (%s), want %v", tc.mode, tc.cmd, d.Ports, d.Behavior, tc.ports)
		}
		if d.Behavior == Allow && !d.Sandbox {
			t.Errorf("%s %q: allowed unconfined", tc.mode, tc.cmd)
		}
	}
}
