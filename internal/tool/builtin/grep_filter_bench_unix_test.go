//go:build unix

package builtin

import (
	"context"
	"os"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/tool"
)

// BenchmarkGrepPermissionFilter measures what judging every file against
// the permission rules costs a search: no engine at all, an engine with no
// rule that concerns reading (the common case), and one with typical deny
// and ask rules for reads.
func BenchmarkGrepPermissionFilter(b *testing.B) {
	n := 5000
	if s := os.Getenv("PONDER_GREP_BENCH_FILES"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	dir := b.TempDir()
	writeBenchTree(b, dir, n)
	env := &tool.Env{Dir: dir, Files: tool.NewFileTracker()}
	home := b.TempDir()
	engine := func(r permission.Rules) context.Context {
		e, err := permission.NewEngine(r, dir, home)
		if err != nil {
			b.Fatal(err)
		}
		return tool.WithGate(context.Background(), &tool.Gate{Engine: e, Context: permission.Context{Mode: permission.ModeDefault}})
	}
	ctxs := []struct {
		name string
		ctx  context.Context
	}{
		{"no-engine", context.Background()},
		{"no-read-rules", engine(permission.Rules{Allow: []string{"Bash(go test:*)"}, Deny: []string{"Bash(rm:*)"}})},
		{"read-rules", engine(permission.Rules{
			Deny: []string{"Read(.env)", "Read(.env.*)", "Read(*.pem)", "Read(~/.ssh/**)", "Read(//etc/shadow)", "Read(/secrets/**)"},
			Ask:  []string{"Read(pkg07/sub03/**)", "Read(**/*.key)"},
		})},
	}
	call, err := NewGrep().Prepare(env, mustJSONB(b, map[string]any{"pattern": "needleXYZ"}))
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range ctxs {
		b.Run(c.name, func(b *testing.B) {
			start := cpuTime()
			for b.Loop() {
				if res := call.Run(c.ctx); res.IsError {
					b.Fatal(res.Content)
				}
			}
			// CPU time is steadier than wall time on a shared machine.
			b.ReportMetric(float64((cpuTime()-start).Microseconds())/float64(b.N)/1000, "cpu-ms/op")
		})
	}
}

// cpuTime is the user and system CPU time the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
