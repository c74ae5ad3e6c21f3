// Command report runs ponder's benchmarks with their baselines and prints
// docs/benchmarks.md. bench/run.sh builds ponder and calls it.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/ponder-agent/ponder/bench"
)

func main() {
	ponder := flag.String("ponder", "", "the ponder binary to measure")
	floor := flag.String("floor", "", "the sdkfloor binary (optional)")
	grepFiles := flag.Int("grep-files", 50000, "files in the generated tree for the Grep comparison")
	runs := flag.Int("runs", 30, "runs per command")
	sandboxOnly := flag.Bool("sandbox-only", false, "print only the sandbox section (no -ponder needed)")
	denyOnly := flag.Bool("deny-only", false, "print only the deny layer section (no -ponder needed)")
	scaleOnly := flag.Bool("scale-only", false, "print only the large-tree Grep and Glob section")
	scaleFiles := flag.Int("scale-files", 100000, "files in the generated tree for the large-tree section")
	scaleTree := flag.String("scale-tree", "", "an existing tree made by bench.GenerateTree for the large-tree section (default: generate one)")
	flag.Parse()
	if *scaleOnly {
		var b strings.Builder
		if *ponder == "" {
			fmt.Fprintln(os.Stderr, "report: -ponder is required")
			os.Exit(2)
		}
		w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
		err := scaleSection(w, *ponder, *scaleTree, *scaleFiles, 3)
		if err == nil {
			err = longSection(w, *ponder, 5)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "report:", err)
			os.Exit(1)
		}
		fmt.Print(b.String())
		return
	}
	if *denyOnly {
		var b strings.Builder
		if err := denySection(func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }, *grepFiles, *runs); err != nil {
			fmt.Fprintln(os.Stderr, "report:", err)
			os.Exit(1)
		}
		fmt.Print(b.String())
		return
	}
	if *sandboxOnly {
		var b strings.Builder
		if err := sandboxSection(func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }, *runs*3); err != nil {
			fmt.Fprintln(os.Stderr, "report:", err)
			os.Exit(1)
		}
		fmt.Print(b.String())
		return
	}
	if *ponder == "" {
		fmt.Fprintln(os.Stderr, "report: -ponder is required")
		os.Exit(2)
	}
	if err := run(*ponder, *floor, *runs, *grepFiles, *scaleFiles); err != nil {
		fmt.Fprintln(os.Stderr, "report:", err)
		os.Exit(1)
	}
}

func run(ponder, floor string, runs, grepFiles, scaleFiles int) error {
	if err := bench.Warm(ponder); err != nil {
		return err
	}
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	goVersion, _ := exec.Command("go", "version").Output()
	info, _ := os.Stat(ponder)
	w("# Benchmarks\n\n")
	w("Measured by `bench/run.sh` on %s: %d CPUs, %s, ponder binary %.1f MB. Each row runs ponder and its baseline in the same invocation; ratios are of medians (%d runs each unless noted). Targets come from the issue that asked for the measurement; nothing here is asserted in tests.\n\n",
		time.Now().UTC().Format("2006-01-02"), runtime.NumCPU(), strings.TrimSpace(string(goVersion)), float64(info.Size())/1e6, runs)

	st, err := bench.Startup(ponder, runs*3)
	if err != nil {
		return err
	}
	one, fl, err := bench.OneTurnWithFloor(ponder, floor, runs)
	if err != nil {
		return err
	}
	three, err := bench.ThreeTurns(ponder, runs)
	if err != nil {
		return err
	}
	w("## Start-up and headless runs\n\n")
	w("Peak memory is the median of the runs' peak resident sets (the worst run in brackets).\n\n")
	w("| what | ponder | baseline | ratio | peak memory | target |\n|---|---|---|---|---|---|\n")
	w("| start-up: `ponder version` vs `true` | %.1f ms | %.1f ms | %.1f× | %.1f MiB (%.1f) | ≤ 10 ms |\n", st.Subject.Ms(), st.Baseline.Ms(), st.Ratio(), st.Subject.MiB(), st.Subject.MaxMiB())
	w("| 1-turn `ponder -p` vs one raw streaming request (curl) to the same fake | %.1f ms | %.1f ms | %.2f× | %.1f MiB (%.1f) | ≤ 30 ms, ≤ 25 MiB |\n", one.Subject.Ms(), one.Baseline.Ms(), one.Ratio(), one.Subject.MiB(), one.Subject.MaxMiB())
	if fl.Runs > 0 {
		w("| 1-turn floor: the same request from a program linking only the two model SDKs | %.1f ms | %.1f ms | %.2f× | %.1f MiB (%.1f) | — |\n", fl.Ms(), one.Baseline.Ms(), float64(fl.Median)/float64(one.Baseline.Median), fl.MiB(), fl.MaxMiB())
	}
	w("| 3-turn run (Read, Write, answer) vs three raw requests (curl) | %.1f ms | %.1f ms | %.2f× | %.1f MiB (%.1f) | — |\n\n", three.Subject.Ms(), three.Baseline.Ms(), three.Ratio(), three.Subject.MiB(), three.Subject.MaxMiB())
	w("On this virtual machine absolute times drift by up to a factor of two from one minute to the next, and peak memory by a few MiB with the page cache's state; runs on the same day have put start-up between 9.4 and 11.7 ms and the 1-turn peak between 24.7 and 26.7 MiB. The baselines above ran in the same invocation, so the ratios are the steadier figures. The floor row shows that most of the memory and start-up cost is the two SDKs' own.\n\n")
	w("For scale, the issue reports the same 1-turn run on this kind of machine at 0.33 s and 83 MiB for crush, 1.38 s and 283 MiB for Claude Code, and 1.08 s for Codex.\n\n")

	per, fake, err := bench.Harness(20)
	if err != nil {
		return err
	}
	w("## The harness's own time\n\n")
	w("A 20-turn scripted session in process (each human turn is one tool round trip, so 40 model requests) against the in-process fake model: ponder spends **%.2f ms per model request** (%.2f ms per human turn) of its own, after subtracting the fake's %.2f ms per request measured by replaying the same requests. Target: ≤ 2 ms per turn.\n\n",
		ms(per), 2*ms(per), ms(fake))

	rs, err := bench.Resume(10000, 7)
	if err != nil {
		return err
	}
	w("## Resuming a long session\n\n")
	w("Rebuilding a session from a transcript of 10,000 messages, as --resume does before its first request (load and check every line, restore the plan-mode state, build the tools and the agent), against merely decoding every line of the same file into generic JSON values. Median of 7 runs. Target: under 200 ms.\n\n")
	w("| what | ponder | baseline | ratio |\n|---|---|---|---|\n")
	w("| resume 10,000 messages | %.1f ms | %.1f ms | %.2f× |\n\n", rs.Subject.Ms(), rs.Baseline.Ms(), rs.Ratio())

	if err := renderSection(w); err != nil {
		return err
	}
	if err := sandboxSection(w, runs*3); err != nil {
		return err
	}
	if err := denySection(w, grepFiles, runs); err != nil {
		return err
	}

	if _, err := exec.LookPath("rg"); err != nil {
		w("## Grep\n\nripgrep is not installed (`apt-get install ripgrep`), so the comparison was skipped.\n")
	} else {
		dir, err := os.MkdirTemp("", "ponder-grep-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		tree := filepath.Join(dir, "tree")
		if err := bench.GenerateTree(tree, grepFiles); err != nil {
			return err
		}
		rgVersion, _ := exec.Command("rg", "--version").Output()
		w("## Grep against ripgrep\n\n")
		w("A generated tree of %d files (about 2 KiB each, 400 directories, a .gitignore hiding 2%% of them). ponder's Grep tool runs in process; ripgrep (%s) runs as a process, so its times include its start-up (about 1 ms). Median of 5 runs each, page cache warm. Target: within 1.5× of ripgrep.\n\n",
			grepFiles, strings.TrimSpace(strings.SplitN(string(rgVersion), "\n", 2)[0]))
		w("| pattern | mode | ponder | ripgrep | ratio |\n|---|---|---|---|---|\n")
		for _, c := range []struct{ pattern, mode string }{
			{"zanzibar", "files_with_matches"},
			{"zanzibar", "content"},
			{"request", "count"},
			{`(?i)ZANZIBAR`, "files_with_matches"},
			{`resp\w+ handler`, "files_with_matches"},
			{`\b\w{9,}\b`, "count"},
		} {
			p, err := bench.GrepPair(tree, c.pattern, c.mode, 5)
			if err != nil {
				return err
			}
			w("| `%s` | %s | %.0f ms | %.0f ms | %.2f× |\n", c.pattern, c.mode, p.Subject.Ms(), p.Baseline.Ms(), p.Ratio())
		}
		w("\n")
	}
	if err := scaleSection(w, ponder, "", scaleFiles, 3); err != nil {
		return err
	}
	if err := longSection(w, ponder, 5); err != nil {
		return err
	}
	fmt.Print(b.String())
	return nil
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// sandboxSection measures what confining a command costs.
func sandboxSection(w func(string, ...any), n int) error {
	r, err := bench.SandboxCost(n)
	if err != nil {
		w("## The sandbox\n\nNot measured: %v.\n\n", err)
		return nil
	}
	base := r.Plain.Median
	row := func(what string, s bench.Stats, target string) {
		w("| %s | %.1f ms | %+.1f ms | %.2f× | %s |\n", what, s.Ms(), ms(s.Median-base), float64(s.Median)/float64(base), target)
	}
	w("## The sandbox\n\n")
	w("`bash -c true` run %d times each way, the ways interleaved in one invocation, as root (so capabilities are dropped too). The baseline is the same command started plainly with os/exec. The sandbox's start confines one locked thread (Landlock ABI rules, seccomp, capabilities), starts the command from it, and removes the scratch directory afterwards; the Bash tool adds a session, the output pipe and the sweep of /proc for anything left running. Target: a confined command within 10 ms of the plain one.\n\n", n)
	w("| what | median | over baseline | ratio | target |\n|---|---|---|---|---|\n")
	row("`bash -c true`, plain os/exec (baseline)", r.Plain, "")
	row(fmt.Sprintf("the same through the sandbox (%s)", r.Kind), r.Start, "≤ +10 ms")
	row(fmt.Sprintf("the Bash tool, confined (%s)", r.Kind), r.ToolConfined, "≤ +10 ms")
	row("the Bash tool, not confined", r.ToolPlain, "")
	if r.Bwrap.Runs > 0 {
		row("the same through bubblewrap (the fallback)", r.Bwrap, "")
	}
	w("\n")
	return nil
}

// denySection measures the deny layer: finding denied paths, and the
// kernel layer's cost per command.
func denySection(w func(string, ...any), files, n int) error {
	r, err := bench.DenyCost(files, n)
	if err != nil {
		return err
	}
	w("## The deny layer\n\n")
	w("Rules Read(.env), Read(*.pem), Read(~/.ssh/**) and Edit(/build/**) over a generated tree of %d files with 20 .env files (%d denied paths found). Finding them walks the tree with ignored files included, once; later calls check the times of the directories listed and list again only those that changed. Median of %d runs.\n\n", r.Files, r.Denied, n)
	w("| what | median |\n|---|---|\n")
	w("| finding the denied paths | %.1f ms |\n| checking they are current, nothing changed | %.1f ms |\n| bringing them up to date after a file was added | %.1f ms |\n\n", r.Discover.Ms(), r.Unchanged.Ms(), r.Changed.Ms())
	if r.Plain.Runs == 0 {
		w("The kernel layer was not measured: no Landlock here.\n\n")
		return nil
	}
	w("`bash -c true` started through the sandbox, with and without the kernel layer for those paths (which lists every directory on the way to each and grants the rest).\n\n")
	w("| start | without the layer | with it | cost |\n|---|---|---|---|\n")
	w("| not confined | %.1f ms | %.1f ms | %+.1f ms |\n", r.Plain.Ms(), r.PlainDeny.Ms(), ms(r.PlainDeny.Median-r.Plain.Median))
	w("| confined | %.1f ms | %.1f ms | %+.1f ms |\n\n", r.Confined.Ms(), r.ConfDeny.Ms(), ms(r.ConfDeny.Median-r.Confined.Median))
	return nil
}

// renderSection runs the terminal interface's frame benchmarks.
func renderSection(w func(string, ...any)) error {
	out, err := exec.Command("go", "test", "-run", "^$", "-bench", "BenchmarkRender", "-benchtime", "300x", "./internal/tui/").CombinedOutput()
	if err != nil {
		return fmt.Errorf("render benchmarks: %v\n%s", err, out)
	}
	w("## Drawing the interface\n\n")
	w("One frame of the terminal interface over a conversation of about 2,000 rendered lines (user turns, markdown answers with lists and code, tool calls), 120×40 terminal. At 60 frames a second a frame may take 16 ms.\n\n")
	w("| frame | time |\n|---|---|\n")
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) < 4 || !strings.HasPrefix(f[0], "BenchmarkRender") {
			continue
		}
		var ns float64
		fmt.Sscanf(f[2], "%g", &ns)
		name := map[string]string{"BenchmarkRenderFrame": "while an answer streams in (markdown re-rendered each delta)", "BenchmarkRenderKeystroke": "after a key press, nothing streaming"}[strings.SplitN(f[0], "-", 2)[0]]
		w("| %s | %.2f ms |\n", name, ns/1e6)
	}
	w("\n")
	return nil
}
