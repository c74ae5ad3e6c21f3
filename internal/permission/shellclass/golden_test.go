package shellclass

import (
	"bufio"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

// goldenFile holds, for a large corpus of command lines, the verdict
// Classify gave when the corpus was recorded: every command line of the
// package's and the permission package's tests, and every registered
// program crossed with its registered options in several forms. A change
// to the classifier that changes any verdict, reason or finding shows up
// here, line by line; a change meant to do so is recorded with
// SHELLCLASS_GOLDEN=update after reading the differences it prints.
const goldenFile = "testdata/verdicts.txt.gz"

// verdictLine is one line of goldenFile: the input, R (read-only) or N,
// and a digest of the whole Result.
func verdictLine(input string) string {
	res := Classify(input)
	js, err := json.Marshal(res)
	if err != nil {
		panic(err)
	}
	sum := sha256.Sum256(js)
	ro := "N"
	if res.ReadOnly {
		ro = "R"
	}
	return strconv.Quote(input) + "\t" + ro + "\t" + hex.EncodeToString(sum[:8])
}

func readGolden(t *testing.T) []string {
	t.Helper()
	f, err := os.Open(goldenFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	sc := bufio.NewScanner(z)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return lines
}

func TestGoldenVerdicts(t *testing.T) {
	update := os.Getenv("SHELLCLASS_GOLDEN") == "update"
	lines := readGolden(t)
	if len(lines) < 30000 {
		t.Fatalf("the corpus has %d lines; it was recorded with more than 30000", len(lines))
	}
	var out strings.Builder
	changed := 0
	for _, line := range lines {
		q, _, ok := strings.Cut(line, "\t")
		input, err := strconv.Unquote(q)
		if !ok || err != nil {
			t.Fatalf("bad corpus line %q", line)
		}
		got := verdictLine(input)
		out.WriteString(got + "\n")
		if got != line {
			changed++
			if changed <= 40 && !update {
				res := Classify(input)
				t.Errorf("%s\n  was %s\n  now %s (reason %q, opaque %q)", q, strings.SplitN(line, "\t", 2)[1], strings.SplitN(got, "\t", 2)[1], res.Reason, res.Opaque)
			}
		}
	}
	if changed > 0 && update {
		writeGolden(t, out.String())
		t.Logf("recorded %d changed verdicts", changed)
		return
	}
	if changed > 0 {
		t.Errorf("%d of %d verdicts changed", changed, len(lines))
	}
}

func writeGolden(t *testing.T, text string) {
	t.Helper()
	tmp := goldenFile + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		t.Fatal(err)
	}
	z, _ := gzip.NewWriterLevel(f, gzip.BestCompression)
	if _, err := z.Write([]byte(text)); err != nil {
		t.Fatal(err)
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, goldenFile); err != nil {
		t.Fatal(err)
	}
}

// TestRecordGolden records the corpus from a list of inputs, one quoted
// string a line (SHELLCLASS_CORPUS=file).
func TestRecordGolden(t *testing.T) {
	in := os.Getenv("SHELLCLASS_CORPUS")
	if in == "" {
		t.Skip("set SHELLCLASS_CORPUS to record a new corpus")
	}
	data, err := os.ReadFile(in)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, q := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		input, err := strconv.Unquote(q)
		if err != nil {
			t.Fatalf("bad input %q", q)
		}
		fmt.Fprintln(&b, verdictLine(input))
	}
	if err := os.MkdirAll("testdata", 0o755); err != nil {
		t.Fatal(err)
	}
	writeGolden(t, b.String())
}
