package builtin

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// tinyStream makes windows so small that every search crosses many of
// their edges.
var tinyStream = streamLimits{read: 64, maxLine: 4096, carry: 512}

// randomText makes lines of a few words, with empty lines, CRLF endings
// and a missing final newline now and then.
func randomText(rng *rand.Rand, lines int) string {
	words := strings.Fields("alpha beta gamma delta epsilon foo bar baz qux Alpha BETA x y z 42 3.14 func return")
	var b strings.Builder
	for i := range lines {
		n := rng.IntN(12)
		for j := range n {
			if j > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(words[rng.IntN(len(words))])
		}
		if rng.IntN(20) == 0 {
			b.WriteByte('\r')
		}
		if i < lines-1 || rng.IntN(2) == 0 {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// The streamed search finds exactly what the whole-file search finds,
// with context, counts and cut output alike, however the windows fall.
func TestStreamMatchesWholeFileSearch(t *testing.T) {
	dir := t.TempDir()
	seed := uint64(3)
	if v, err := strconv.ParseUint(os.Getenv("PONDER_GREP_STREAM_SEED"), 10, 64); err == nil {
		seed = v
	}
	rng := rand.New(rand.NewPCG(seed, 5))
	inputs := []map[string]any{
		{"pattern": "gamma"},
		{"pattern": "gamma", "output_mode": "count"},
		{"pattern": "gamma", "output_mode": "content"},
		{"pattern": `^foo`, "output_mode": "content", "-n": false},
		{"pattern": `bar$`, "output_mode": "content", "-C": 2},
		{"pattern": `alpha \w+ beta`, "output_mode": "content", "-B": 3},
		{"pattern": `alpha`, "output_mode": "content", "-A": 4, "-i": true},
		{"pattern": `4[0-9]`, "output_mode": "content", "-B": 1, "-A": 2},
		{"pattern": `\bx\b.*\by\b`, "output_mode": "count"},
		{"pattern": `^$`, "output_mode": "content"},
		{"pattern": "nothing-matches-this"},
		{"pattern": `alpha\nbeta`, "multiline": true, "output_mode": "content"},
		{"pattern": `gamma[^\n]*\n[^\n]*delta`, "multiline": true, "output_mode": "content", "-C": 1},
		{"pattern": `foo\s+bar`, "multiline": true, "output_mode": "count"},
		{"pattern": `^z`, "multiline": true},
		{"pattern": `^z\w*\s*$`, "multiline": true, "output_mode": "content"},
		{"pattern": `\bfoo\b\s+\w`, "multiline": true, "output_mode": "content", "-B": 2},
		{"pattern": `(gamma\s*)*`, "multiline": true, "output_mode": "count"},
	}
	rounds := 40
	if raceEnabled {
		rounds = 6 // the race detector makes each round slow
	}
	for round := range rounds {
		text := randomText(rng, 20+rng.IntN(600))
		if round%10 == 5 {
			text = strings.Repeat(text, 8) // long enough to cut the output
			if raceEnabled {
				text = text[:len(text)/2]
			}
		}
		path := filepath.Join(dir, fmt.Sprintf("f%d.txt", round))
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, in := range inputs {
			s, err := newSearcher(decodeGrep(t, in))
			if err != nil {
				t.Fatal(err)
			}
			s.maxSize = 0
			want, wantOK, wantSkip := newGrepWorker(s).searchFile(path)
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			got, gotOK, gotSkip, _ := newGrepWorker(s).searchStream(f, path, tinyStream)
			f.Close()
			if gotOK != wantOK || gotSkip != wantSkip || got.count != want.count || string(got.out) != string(want.out) || got.extra != want.extra {
				t.Fatalf("round %d, %v:\nstreamed ok=%v skip=%v count=%d extra=%d\n%s\nwhole ok=%v skip=%v count=%d extra=%d\n%s",
					round, in, gotOK, gotSkip, got.count, got.extra, got.out, wantOK, wantSkip, want.count, want.extra, want.out)
			}
		}
	}
}

// A NUL byte far into a matching file makes it binary, streamed or not;
// lines longer than the longest held are searched in pieces.
func TestStreamBinaryAndHugeLines(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	os.WriteFile(bin, []byte(strings.Repeat("gamma line\n", 2000)+"\x00tail\n"), 0o644)
	s, _ := newSearcher(decodeGrep(t, map[string]any{"pattern": "gamma"}))
	f, _ := os.Open(bin)
	_, ok, skip, _ := newGrepWorker(s).searchStream(f, bin, tinyStream)
	f.Close()
	if ok || skip != skippedBinary {
		t.Fatalf("binary file: ok %v skip %v", ok, skip)
	}

	huge := filepath.Join(dir, "huge")
	os.WriteFile(huge, []byte("start\n"+strings.Repeat("y", 20000)+"needle"+strings.Repeat("y", 20000)+"\nend needle\n"), 0o644)
	s, _ = newSearcher(decodeGrep(t, map[string]any{"pattern": "needle", "output_mode": "content"}))
	f, _ = os.Open(huge)
	res, ok, _, st := newGrepWorker(s).searchStream(f, huge, tinyStream)
	f.Close()
	if !ok || !st.cutLines || res.count < 2 || !strings.Contains(string(res.out), ":3:end needle") {
		t.Fatalf("huge line: ok %v cut %v count %d\n%s", ok, st.cutLines, res.count, res.out)
	}
	// A multiline search moves on through a huge line too.
	s, _ = newSearcher(decodeGrep(t, map[string]any{"pattern": `y\s+end needle`, "multiline": true, "output_mode": "count"}))
	f, _ = os.Open(huge)
	res, ok, _, st = newGrepWorker(s).searchStream(f, huge, tinyStream)
	f.Close()
	if !ok || !st.cutLines || res.count != 2 {
		t.Fatalf("multiline through a huge line: ok %v cut %v count %d", ok, st.cutLines, res.count)
	}
}

// A NUL anywhere in the first 8 KB makes a file binary however small the
// reads, as in a whole-file search.
func TestStreamSniffsTheWholeStart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	os.WriteFile(path, []byte(strings.Repeat("plain text\n", 300)+"\x00"+strings.Repeat("more\n", 10)), 0o644)
	s, _ := newSearcher(decodeGrep(t, map[string]any{"pattern": "absent"}))
	f, _ := os.Open(path)
	_, _, skip, _ := newGrepWorker(s).searchStream(f, path, tinyStream)
	f.Close()
	if skip != skippedBinary {
		t.Fatalf("skip %v", skip)
	}
}

func decodeGrep(t *testing.T, in map[string]any) grepInput {
	t.Helper()
	var g grepInput
	g.Pattern, _ = in["pattern"].(string)
	g.OutputMode, _ = in["output_mode"].(string)
	g.Multiline, _ = in["multiline"].(bool)
	g.IgnoreCase, _ = in["-i"].(bool)
	if v, ok := in["-n"].(bool); ok {
		g.LineNums = &v
	}
	if v, ok := in["-A"].(int); ok {
		g.After = &v
	}
	if v, ok := in["-B"].(int); ok {
		g.Before = &v
	}
	g.Context, _ = in["-C"].(int)
	return g
}
