//go:build linux && (amd64 || arm64)

package sandbox

import (
	"os/exec"
	"testing"
	"time"
)

// BenchmarkFilterPerCall measures what the seccomp filter adds to each
// system call: dd copies a million single bytes (two million read and
// write calls) confined and not, and the difference is spread over the
// calls. Landlock checks only when files are opened, so the difference is
// the filter's.
func BenchmarkFilterPerCall(b *testing.B) {
	s := landlockBox(&testing.T{}, Options{})
	const calls = 2_000_000
	run := func(c *Confinement) time.Duration {
		cmd := exec.Command("dd", "if=/dev/zero", "of=/dev/null", "bs=1", "count=1000000", "status=none")
		start := time.Now()
		p, err := s.Start(cmd, c)
		if err != nil {
			b.Fatal(err)
		}
		if err := p.Wait(); err != nil {
			b.Fatal(err)
		}
		took := time.Since(start)
		p.Cleanup()
		return took
	}
	var plain, confined time.Duration
	for b.Loop() {
		plain += run(nil)
		confined += run(&Confinement{})
	}
	n := time.Duration(b.N)
	b.ReportMetric(float64(plain/n)/calls, "ns/call-plain")
	b.ReportMetric(float64(confined/n)/calls, "ns/call-confined")
	b.ReportMetric(float64((confined-plain)/n)/calls, "ns/call-filter")
}
