package bench

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// ponderBinary builds ponder once per benchmark run.
func ponderBinary(b *testing.B) string {
	b.Helper()
	out := filepath.Join(b.TempDir(), "ponder")
	cmd := exec.Command("go", "build", "-o", out, "github.com/ponder-agent/ponder/cmd/ponder")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0") // the release build
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		b.Fatal(err)
	}
	if err := Warm(out); err != nil {
		b.Fatal(err)
	}
	return out
}

func reportPair(b *testing.B, p Pair) {
	b.ReportMetric(p.Subject.Ms(), "ms/run")
	b.ReportMetric(p.Baseline.Ms(), "baseline-ms/run")
	b.ReportMetric(p.Ratio(), "ratio")
	if p.Subject.MaxRSS > 0 {
		b.ReportMetric(p.Subject.MiB(), "peak-MiB")
	}
}

func BenchmarkStartup(b *testing.B) {
	ponder := ponderBinary(b)
	for b.Loop() {
		p, err := Startup(ponder, 20)
		if err != nil {
			b.Fatal(err)
		}
		reportPair(b, p)
	}
}

func BenchmarkOneTurn(b *testing.B) {
	ponder := ponderBinary(b)
	for b.Loop() {
		p, err := OneTurn(ponder, 10)
		if err != nil {
			b.Fatal(err)
		}
		reportPair(b, p)
	}
}

func BenchmarkThreeTurns(b *testing.B) {
	ponder := ponderBinary(b)
	for b.Loop() {
		p, err := ThreeTurns(ponder, 10)
		if err != nil {
			b.Fatal(err)
		}
		reportPair(b, p)
	}
}

func BenchmarkHarness(b *testing.B) {
	for b.Loop() {
		per, fake, err := Harness(20)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(per.Microseconds())/1000, "harness-ms/request")
		b.ReportMetric(float64(fake.Microseconds())/1000, "fake-ms/request")
	}
}

func BenchmarkGrepVsRipgrep(b *testing.B) {
	if _, err := exec.LookPath("rg"); err != nil {
		b.Skip("ripgrep is not installed (apt-get install ripgrep)")
	}
	dir := filepath.Join(b.TempDir(), "tree")
	if err := GenerateTree(dir, 5000); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		p, err := GrepPair(dir, "zanzibar", "files_with_matches", 5)
		if err != nil {
			b.Fatal(err)
		}
		reportPair(b, p)
	}
}

func BenchmarkResume10k(b *testing.B) {
	for b.Loop() {
		p, err := Resume(10000, 3)
		if err != nil {
			b.Fatal(err)
		}
		reportPair(b, p)
	}
}

func BenchmarkSandbox(b *testing.B) {
	for range b.N {
		r, err := SandboxCost(20)
		if err != nil {
			b.Skip(err)
		}
		b.ReportMetric(r.Plain.Ms(), "plain-ms")
		b.ReportMetric(r.Start.Ms(), "confined-ms")
		b.ReportMetric(r.ToolConfined.Ms(), "tool-confined-ms")
	}
}
