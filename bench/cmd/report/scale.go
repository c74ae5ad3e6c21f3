package main

import (
	"os"
	"os/exec"
	"path/filepath"

	"github.com/ponder-agent/ponder/bench"
)

// scaleSection measures Grep and Glob on a large tree, time and peak
// memory, against ripgrep and find. tree is an existing generated tree, or
// "" to generate one of files files (a tree named that does not exist yet
// is generated there, and kept for the next measurement).
func scaleSection(w func(string, ...any), ponder, tree string, files, n int) error {
	if _, err := exec.LookPath("rg"); err != nil {
		w("## Grep and Glob on a large tree\n\nripgrep is not installed (`apt-get install ripgrep`), so this was skipped.\n\n")
		return nil
	}
	if tree == "" {
		dir, err := os.MkdirTemp("", "ponder-scale-tree-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		tree = filepath.Join(dir, "tree")
		if err := bench.GenerateTree(tree, files); err != nil {
			return err
		}
	}
	if _, err := os.Stat(tree); os.IsNotExist(err) {
		if err := bench.GenerateTree(tree, files); err != nil {
			return err
		}
	}
	count, size, err := bench.TreeSize(tree)
	if err != nil {
		return err
	}
	rows, err := bench.Scale(ponder, tree, n)
	if err != nil {
		return err
	}
	w("## Grep and Glob on a large tree\n\n")
	w("A generated tree of %d files (%.0f MB, about 2 KiB each, 400 directories, a .gitignore hiding 2%% of them). Each ponder run is a whole `ponder -p` whose fake model asks for one Grep or Glob call over the tree, start-up and two model requests included; its baseline is ripgrep or find doing the same search, run in the same invocation. Peak memory is the median of the runs' peak resident sets (the worst run in brackets). Median of %d runs each, page cache warm. Targets: a file-list Grep under 50 MB and Glob under 40 MB, at the speed of the baseline.\n\n", count, float64(size)/1e6, n)
	w("| search | ponder | baseline | ratio | ponder's peak memory | baseline's |\n|---|---|---|---|---|---|\n")
	for _, r := range rows {
		p := r.Pair
		w("| %s vs `%s` | %.0f ms | %.0f ms | %.2f× | %.1f MiB (%.1f) | %.1f MiB |\n", r.Case.Name, r.Case.Baseline[0], p.Subject.Ms(), p.Baseline.Ms(), p.Ratio(), p.Subject.MiB(), p.Subject.MaxMiB(), p.Baseline.MiB())
	}
	w("\n")
	return nil
}

// longSection measures a long session's memory with and without ponder's
// soft memory limit.
func longSection(w func(string, ...any), ponder string, n int) error {
	w("## A long session's memory\n\n")
	w("A headless session (stream-json) of 50 turns, each reading a different 20 KB file, so the conversation grows to about 1 MB. The baseline is the same ponder with `GOGC=100` in its environment, which leaves the Go runtime's default collector in charge (ponder sets no memory limit when GOGC or GOMEMLIMIT is given). Peak memory through the launcher of `internal/e2e/testdata/peakrss`, median of %d runs (worst in brackets). Target: under 50 MB.\n\n", n)
	w("| API | time, ponder | time, default collector | peak, ponder | peak, default collector |\n|---|---|---|---|---|\n")
	for _, api := range []string{"anthropic", "openai"} {
		p, err := bench.LongSession(ponder, api, 50, n)
		if err != nil {
			return err
		}
		w("| %s | %.0f ms | %.0f ms | %.1f MiB (%.1f) | %.1f MiB (%.1f) |\n", api, p.Subject.Ms(), p.Baseline.Ms(), p.Subject.MiB(), p.Subject.MaxMiB(), p.Baseline.MiB(), p.Baseline.MaxMiB())
	}
	w("\n")
	return nil
}
