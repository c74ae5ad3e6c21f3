package textdiff

import (
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestUnifiedMatchesDiff(t *testing.T) {
	cases := []struct{ old, new string }{
		{"a\nb\nc\n", "a\nB\nc\n"},
		{"", "one\ntwo\n"},
		{"one\ntwo\n", ""},
		{"1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "1\n2\nx\n4\n5\n6\n7\n8\n9\n10\ny\n12\n"},
		{"1\n2\n3\n", "1\n2\n3\n4\n"},
		{"1\n2\n3\n4\n5\n6\n7\n8\n", "0\n1\n2\n3\n4\n5\n6\n7\n8\n"},
		{"a\nb\nc\nd\ne\nf\ng\nh\ni\n", "a\nb\nc\nd\nX\nf\ng\nh\ni\n"},
	}
	for _, tc := range cases {
		got, want := unifiedAndDiff(t, tc.old, tc.new)
		if got != want {
			t.Errorf("%q → %q:\ngot\n%s\nwant\n%s", tc.old, tc.new, got, want)
		}
	}
}

// unifiedAndDiff returns Unified's and diff -U3's hunks of old → new,
// without the file names (diff(1) puts dates after them). It skips the
// test where there is no diff(1).
func unifiedAndDiff(t *testing.T, old, new string) (got, want string) {
	t.Helper()
	diff, err := exec.LookPath("diff")
	if err != nil {
		t.Skip("no diff(1)")
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a"), []byte(old), 0o644)
	os.WriteFile(filepath.Join(dir, "b"), []byte(new), 0o644)
	cmd := exec.Command(diff, "-U3", "a", "b")
	cmd.Dir = dir
	out, _ := cmd.Output()
	want = strings.Join(dropHeader(strings.Split(string(out), "\n")), "\n")
	got = strings.Join(dropHeader(strings.Split(Unified("a", "b", old, new, 3), "\n")), "\n")
	return got, want
}

func dropHeader(ls []string) []string {
	if len(ls) >= 2 && strings.HasPrefix(ls[0], "---") {
		return ls[2:]
	}
	return ls
}

func TestEqualTextsHaveNoDiff(t *testing.T) {
	if d := Unified("a", "b", "x\ny\n", "x\ny\n", 3); d != "" {
		t.Fatalf("diff of equal texts: %q", d)
	}
}

func TestNewLines(t *testing.T) {
	got := NewLines("# Plan\n1. a\n2. b\n", "# Plan\n1. a\n2. B\n3. c\n")
	if len(got) != 2 || got[0] != 3 || got[1] != 4 {
		t.Fatalf("new lines %v", got)
	}
}

func TestLargeTextsStillGiveACorrectScript(t *testing.T) {
	var a, b strings.Builder
	for i := 0; i < 3000; i++ {
		a.WriteString("line\n")
		b.WriteString("other\n")
	}
	s := Compare(a.String(), b.String())
	add, rem := Count(s)
	if add != 3000 || rem != 3000 {
		t.Fatalf("added %d removed %d", add, rem)
	}
}

// genCode makes n lines of Go-like code with the repeated lines ("}",
// "return 0", blank) real code has.
func genCode(n int, seed int64) []string {
	r := rand.New(rand.NewSource(seed))
	var ls []string
	for len(ls) < n {
		ls = append(ls, fmt.Sprintf("func f%d(x int) int {", r.Intn(1000)), "\tif x > 0 {",
			fmt.Sprintf("\t\treturn x * %d", r.Intn(50)), "\t}", "\treturn 0", "}", "")
	}
	return ls[:n]
}

// editCode changes, inserts and deletes lines at edits places spread
// over ls.
func editCode(ls []string, edits int, seed int64) []string {
	r := rand.New(rand.NewSource(seed))
	out := append([]string(nil), ls...)
	step := len(out) / edits
	for e := edits - 1; e >= 0; e-- {
		i := e*step + r.Intn(step/2+1)
		switch e % 3 {
		case 0:
			out[i] += " // changed"
		case 1:
			out = append(out[:i], append([]string{"\t// new line", "\tx++"}, out[i:]...)...)
		case 2:
			out = append(out[:i], out[i+2:]...)
		}
	}
	return out
}

func joinLines(ls []string) string { return strings.Join(ls, "\n") + "\n" }

// realistic are the inputs the choice of diff engine was measured on.
func realistic() []struct{ name, old, new string } {
	c2k, c1m := genCode(2000, 1), genCode(75000, 2)
	return []struct{ name, old, new string }{
		{"2000 lines 20 edits", joinLines(c2k), joinLines(editCode(c2k, 20, 3))},
		{"2000 lines 300 edits", joinLines(c2k), joinLines(editCode(c2k, 300, 5))},
		{"1 MB 20 edits", joinLines(c1m), joinLines(editCode(c1m, 20, 4))},
	}
}

// The shortest script on real-sized inputs, as diff(1) finds it: the
// exact comparison this replaced gave a 1 MB file one block of 70,000
// deleted and inserted lines.
func TestRealisticInputsMatchDiff(t *testing.T) {
	for _, tc := range realistic() {
		if got, want := unifiedAndDiff(t, tc.old, tc.new); got != want {
			t.Errorf("%s: %d bytes of diff, diff(1) gives %d", tc.name, len(got), len(want))
		}
	}
}

// The script holds every line of both texts in order, also for texts of
// more distinct lines than fit in 16 bits.
func TestScriptRebuildsBothTexts(t *testing.T) {
	var a, b []string
	for i := 0; i < 70000; i++ {
		a = append(a, fmt.Sprint("line ", i))
		if i%1000 != 7 {
			b = append(b, fmt.Sprint("line ", i))
		} else {
			b = append(b, fmt.Sprint("changed ", i))
		}
	}
	var oldOut, newOut []string
	for _, l := range Compare(joinLines(a), joinLines(b)) {
		if l.Op != Insert {
			oldOut = append(oldOut, l.Text)
		}
		if l.Op != Delete {
			newOut = append(newOut, l.Text)
		}
	}
	if joinLines(oldOut) != joinLines(a) || joinLines(newOut) != joinLines(b) {
		t.Fatal("the script does not rebuild the texts")
	}
	if got := NewLines(joinLines(a), joinLines(b)); len(got) != 70 {
		t.Fatalf("%d new lines, want 70", len(got))
	}
}

func TestFinalLineEndDoesNotCount(t *testing.T) {
	if got := NewLines("a\nb", "a\nb\nc\n"); len(got) != 1 || got[0] != 3 {
		t.Fatalf("new lines %v", got)
	}
}

func BenchmarkUnified(b *testing.B) {
	for _, tc := range realistic() {
		b.Run(strings.ReplaceAll(tc.name, " ", "_"), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Unified("a", "b", tc.old, tc.new, 3)
			}
		})
	}
}
