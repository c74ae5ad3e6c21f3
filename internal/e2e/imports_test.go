package e2e

import (
	"os/exec"
	"strings"
	"testing"
)

// The layering rules of docs/architecture.md: imports flow one way, the
// core never reaches a front end, and the agent never sees a terminal
// library.
func TestImportDirection(t *testing.T) {
	const mod = "github.com/ponder-agent/ponder/"
	deps := func(pkg string) []string {
		out, err := exec.Command("go", "list", "-deps", mod+pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", pkg, err)
		}
		return strings.Fields(string(out))
	}
	frontEnds := []string{"internal/tui", "internal/headless", "internal/cli"}
	rules := []struct {
		pkg       string
		forbidden []string
	}{
		{"event", []string{mod}}, // standard library only
		{"internal/llm", []string{mod + "internal/"}},
		{"internal/config", []string{mod + "internal/"}},
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
				if strings.HasPrefix(d, f) && d != mod+r.pkg {
					if r.pkg == "event" && d == mod+"event" {
						continue
					}
					t.Errorf("%s depends on %s", r.pkg, d)
				}
			}
		}
	}
}

func prefixed(prefix string, ps []string) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = prefix + p
	}
	return out
}
