package e2e

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const mod = "github.com/ponder-agent/ponder/"

// frontEnds are the packages that talk to people and programs, existing
// or planned: each may see a session only through app and event.
var frontEnds = []string{"internal/tui", "internal/headless", "internal/cli", "internal/acp", "internal/mcpserver", "internal/reviewpage", "sdk"}

// leaves are utility packages that import nothing of ponder's, which any
// package may use.
var leaves = []string{mod + "internal/smallfile", mod + "internal/atomicfile"}

// The layering rules of docs/architecture.md: imports flow one way, the
// core never reaches a front end, and the agent never sees a terminal
// library.
func TestImportDirection(t *testing.T) {
	deps := func(pkg string) []string {
		out, err := exec.Command("go", "list", "-deps", mod+pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", pkg, err)
		}
		return strings.Fields(string(out))
	}
	rules := []struct {
		pkg       string
		forbidden []string
	}{
		{"event", []string{mod}}, // standard library only
		{"internal/llm", []string{mod + "internal/"}},
		{"internal/config", []string{mod + "internal/"}},
		{"internal/runfiles", []string{mod + "internal/"}}, // the sandbox reads it
		{"internal/hooks", []string{mod + "internal/"}},    // event only: any front end's hooks fit
		{"internal/permission", []string{mod + "internal/planmode", mod + "internal/tool", mod + "internal/agent", mod + "internal/app", mod + "internal/session"}},
		{"internal/planmode", []string{mod + "internal/tool", mod + "internal/agent", mod + "internal/app", mod + "internal/session", mod + "internal/llm"}},
		{"internal/session", []string{mod + "internal/agent", mod + "internal/app", mod + "internal/planmode"}},
		{"internal/tool", []string{mod + "internal/agent", mod + "internal/app"}},
		{"internal/agent", []string{mod + "internal/app", "charm.land/", "github.com/charmbracelet/"}},
		{"internal/app", []string{"charm.land/", "github.com/charmbracelet/"}},
	}
	for _, r := range rules {
		for _, d := range deps(r.pkg) {
			for _, f := range append(r.forbidden, prefixed(mod, frontEnds)...) {
				if strings.HasPrefix(d, f) && d != mod+r.pkg && !slices.Contains(leaves, d) {
					if r.pkg == "event" && d == mod+"event" {
						continue
					}
					t.Errorf("%s depends on %s", r.pkg, d)
				}
			}
		}
	}
}

// Front ends see a session only through app and event (and config, for
// what a front end may read before a session starts): they render events
// and answer questions, and reach no package where a rule is decided or
// kept (permission, planmode, agent, tool, session, llm ...), so no front
// end can grow a shortcut around them. Each may also use its own
// subpackages and the UI helpers listed for it:
//   - tui: markdown (rendering) and editor (finding $EDITOR); tui/input is
//     its own.
//   - acp and mcpserver: jsonrpcline (what their SDKs may read, and the
//     JSON-RPC errors for the rest).
//   - cli wires the command line to a front end: it runs tui, headless,
//     acp, the MCP server (mcpserver) or the scripted demo (demo builds
//     the demo's app options), and shows or
//     opens plans (markdown, editor). Flag checks, process set-up and the
//     plan listing go through app, which owns the tables they use.
//
// The rule is on each package's own imports, test files aside.
func TestFrontEndsSeeOnlyAppAndEvent(t *testing.T) {
	common := []string{"event", "internal/app", "internal/config"}
	helpers := map[string][]string{
		"internal/tui":       {"internal/markdown", "internal/editor"},
		"internal/acp":       {"internal/jsonrpcline"},
		"internal/mcpserver": {"internal/jsonrpcline"},
		"internal/cli":       {"internal/tui", "internal/headless", "internal/acp", "internal/mcpserver", "internal/demo", "internal/markdown", "internal/editor", "internal/reviewpage"},
	}
	checked := 0
	for _, fe := range frontEnds {
		out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, mod+fe+"/...").Output()
		if err != nil {
			continue // a front end yet to be written
		}
		allowed := append(prefixed(mod, append(common, helpers[fe]...)), mod+fe+"/")
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			fields := strings.Fields(line)
			if len(fields) == 0 {
				continue
			}
			checked++
			for _, imp := range fields[1:] {
				if !strings.HasPrefix(imp, mod) || imp == mod+fe {
					continue
				}
				if !allowedImport(imp, allowed) {
					t.Errorf("front end %s imports %s; it may use only app, event, config and its own helpers", fields[0], imp)
				}
			}
		}
	}
	if checked < 4 {
		t.Fatalf("checked %d front-end packages; tui, tui/input, headless and cli at least", checked)
	}
}

func allowedImport(imp string, allowed []string) bool {
	for _, a := range allowed {
		if imp == a || strings.HasSuffix(a, "/") && strings.HasPrefix(imp, a) {
			return true
		}
	}
	return false
}

func prefixed(prefix string, ps []string) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = prefix + p
	}
	return out
}
