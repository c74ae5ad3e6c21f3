package builtin

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/internal/tool"
)

// writeBenchTree fills dir with n source-like files spread over nested
// directories, plus a .gitignore and some ignored files. One file in a
// hundred holds the rare marker "needleXYZ".
func writeBenchTree(tb testing.TB, dir string, n int) {
	tb.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	benchWords := strings.Fields(`func return if else for range var const type struct interface map
	string int error nil err ctx context request response handler server client config value
	index count buffer reader writer result status message params options logger metrics cache
	Open Close Read Write Get Set New Start Stop Run Parse Format Errorf Println Sprintf`)
	// A .git directory makes the tree a repository, so that ripgrep
	// applies the .gitignore as well.
	if err := os.MkdirAll(filepath.Join(dir, ".git", "info"), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("build/\n*.tmp\n"), 0o644); err != nil {
		tb.Fatal(err)
	}
	var b strings.Builder
	for i := range n {
		sub := filepath.Join(dir, fmt.Sprintf("pkg%02d", i%50), fmt.Sprintf("sub%02d", (i/50)%20))
		if i%97 == 0 {
			sub = filepath.Join(dir, "build", fmt.Sprintf("out%02d", i%10))
		}
		if err := os.MkdirAll(sub, 0o755); err != nil {
			tb.Fatal(err)
		}
		b.Reset()
		lines := 40 + rng.IntN(120)
		for l := range lines {
			b.WriteString(strings.Repeat("\t", rng.IntN(3)))
			for w := range 3 + rng.IntN(8) {
				if w > 0 {
					b.WriteByte(' ')
				}
				b.WriteString(benchWords[rng.IntN(len(benchWords))])
			}
			if i%100 == 7 && l == lines/2 {
				b.WriteString(" needleXYZ()")
			}
			b.WriteByte('\n')
		}
		name := filepath.Join(sub, "file"+strconv.Itoa(i)+".go")
		if err := os.WriteFile(name, []byte(b.String()), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
}

// BenchmarkGrep searches a generated tree. PONDER_GREP_BENCH_FILES sets
// its size (default 5000); when rg is installed it runs on the same tree
// for comparison.
func BenchmarkGrep(b *testing.B) {
	n := 5000
	if s := os.Getenv("PONDER_GREP_BENCH_FILES"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	dir := b.TempDir()
	writeBenchTree(b, dir, n)
	env := &tool.Env{Dir: dir, Files: tool.NewFileTracker()}
	cases := []struct {
		name string
		in   map[string]any
		rg   []string
	}{
		{"rare-literal-files", map[string]any{"pattern": "needleXYZ"}, []string{"-l", "needleXYZ"}},
		{"rare-literal-content", map[string]any{"pattern": "needleXYZ", "output_mode": "content"}, []string{"-n", "needleXYZ"}},
		{"common-literal-count", map[string]any{"pattern": "handler", "output_mode": "count"}, []string{"-c", "handler"}},
		{"ignore-case-files", map[string]any{"pattern": "NEEDLExyz", "-i": true}, []string{"-l", "-i", "NEEDLExyz"}},
		{"regex-with-literal", map[string]any{"pattern": `func \w+ needle\w+\(`}, []string{"-l", `func \w+ needle\w+\(`}},
		{"regex-rare-class", map[string]any{"pattern": `\w+[XYZ]\w*\s*$`}, []string{"-l", `\w+[XYZ]\w*\s*$`}},
		{"regex-no-literal", map[string]any{"pattern": `\b\w{22,}\b`}, []string{"-l", `\b\w{22,}\b`}},
		{"type-filter", map[string]any{"pattern": "needleXYZ", "type": "go"}, []string{"-l", "-tgo", "needleXYZ"}},
	}
	rg, _ := exec.LookPath("rg")
	for _, tc := range cases {
		call, err := NewGrep().Prepare(env, mustJSONB(b, tc.in))
		if err != nil {
			b.Fatal(err)
		}
		b.Run("ponder/"+tc.name, func(b *testing.B) {
			for b.Loop() {
				if res := call.Run(context.Background()); res.IsError {
					b.Fatal(res.Content)
				}
			}
		})
		if rg == "" {
			continue
		}
		b.Run("rg/"+tc.name, func(b *testing.B) {
			for b.Loop() {
				cmd := exec.Command(rg, append(tc.rg, "--", dir)...)
				if out, err := cmd.Output(); err != nil && len(out) > 0 {
					b.Fatal(err)
				}
			}
		})
	}
}

func mustJSONB(b *testing.B, v map[string]any) []byte {
	b.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		b.Fatal(err)
	}
	return data
}
