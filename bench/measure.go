// Package bench measures ponder against baselines run in the same
// invocation: start-up against true, headless runs against raw HTTP
// requests to the same fake model, Grep against ripgrep. The Go benchmarks
// in this package and bench/cmd/report (which writes docs/benchmarks.md)
// share these measurements.
package bench

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"syscall"
	"time"
)

// Stats summarises repeated runs of one command.
type Stats struct {
	Runs   int
	Median time.Duration
	Min    time.Duration
	// RSS is the median of the runs' peak resident sets, and MaxRSS the
	// largest, in bytes.
	RSS    int64
	MaxRSS int64
}

// MiB is the median peak memory in mebibytes.
func (s Stats) MiB() float64 { return float64(s.RSS) / (1 << 20) }

// MaxMiB is the worst run's peak memory in mebibytes.
func (s Stats) MaxMiB() float64 { return float64(s.MaxRSS) / (1 << 20) }

// Ms is the median in milliseconds.
func (s Stats) Ms() float64 { return float64(s.Median) / float64(time.Millisecond) }

// Cmd describes a command to time.
type Cmd struct {
	Name  string
	Args  []string
	Env   []string
	Dir   string
	Stdin string
	// Setup runs before each run (outside the timing) and may return a
	// directory to run in.
	Setup func(i int) (dir string, err error)
	// PeakFile, when set, is where the command (a launcher such as
	// internal/e2e/testdata/peakrss) writes the peak memory, in
	// kilobytes, of the program it ran; it replaces the kernel's figure
	// for the command, which starts out sharing this process's memory.
	PeakFile string
}

// Time runs c n times and returns the statistics. A failing run is an
// error: a benchmark that measures a failure measures nothing.
func Time(c Cmd, n int) (Stats, error) {
	var times []time.Duration
	var rss []int64
	for i := range n {
		dir := c.Dir
		if c.Setup != nil {
			d, err := c.Setup(i)
			if err != nil {
				return Stats{}, err
			}
			if d != "" {
				dir = d
			}
		}
		cmd := exec.Command(c.Name, c.Args...)
		cmd.Dir = dir
		cmd.Env = c.Env
		cmd.Stdin = bytes.NewBufferString(c.Stdin)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		start := time.Now()
		err := cmd.Run()
		d := time.Since(start)
		if err != nil {
			return Stats{}, fmt.Errorf("%s %v: %v\n%s", c.Name, c.Args, err, stderr.String())
		}
		times = append(times, d)
		if c.PeakFile != "" {
			kb, err := readKB(c.PeakFile)
			if err != nil {
				return Stats{}, err
			}
			rss = append(rss, kb*1024)
		} else if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			rss = append(rss, ru.Maxrss*1024) // kilobytes on Linux
		}
	}
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	s := Stats{Runs: n, Median: times[len(times)/2], Min: times[0]}
	if len(rss) > 0 {
		sort.Slice(rss, func(i, j int) bool { return rss[i] < rss[j] })
		s.RSS, s.MaxRSS = rss[len(rss)/2], rss[len(rss)-1]
	}
	return s, nil
}

// readKB reads a number of kilobytes from a file.
func readKB(path string) (int64, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, fmt.Errorf("peak memory: %w", err)
	}
	var kb int64
	if _, err := fmt.Sscan(string(data), &kb); err != nil {
		return 0, fmt.Errorf("peak memory in %s: %w", path, err)
	}
	return kb, nil
}

// Env returns the environment for a ponder run: a private config
// directory, and the fake model's variables.
func Env(configDir string, extra ...string) []string {
	return append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + configDir, "PONDER_CONFIG_DIR=" + configDir}, extra...)
}

// Warm gets a freshly built binary into the state it has in everyday use:
// written back to disk and in the page cache. Measuring it straight after
// the build measures the file system's write-back instead.
func Warm(binary string) error {
	syscall.Sync()
	for range 3 {
		if err := exec.Command(binary, "version").Run(); err != nil {
			return err
		}
	}
	return nil
}
