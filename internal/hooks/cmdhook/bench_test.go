package cmdhook

import (
	"context"
	"os"
	"testing"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/sandbox"
)

// BenchmarkRun is what one hook costs ponder: starting sh, feeding it its
// input, reading its answer and sweeping up, outside the sandbox and, when
// there is one, inside it (as in plan mode).
func BenchmarkRun(b *testing.B) {
	in := event.HookInput{Event: event.HookPreToolUse, ToolName: "Bash"}
	sb, err := sandbox.New(sandbox.Options{})
	if err != nil {
		b.Fatal(err)
	}
	for _, confined := range []bool{false, true} {
		name := "free"
		if confined {
			name = "confined"
			if !sb.Available() {
				b.Log("no sandbox here")
				continue
			}
		}
		b.Run(name, func(b *testing.B) {
			h := New(Options{Command: `cat >/dev/null; echo '{}'`, Dir: b.TempDir(), Env: []string{"PATH=" + os.Getenv("PATH")},
				Sandbox: sb, Confine: func() bool { return confined }})
			for b.Loop() {
				if _, err := h.Run(context.Background(), in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
