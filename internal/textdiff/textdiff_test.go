package textdiff

import (
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
	diff, err := exec.LookPath("diff")
	for _, tc := range cases {
		got := Unified("a", "b", tc.old, tc.new, 3)
		if err != nil {
			continue
		}
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "a"), []byte(tc.old), 0o644)
		os.WriteFile(filepath.Join(dir, "b"), []byte(tc.new), 0o644)
		cmd := exec.Command(diff, "-U3", "a", "b")
		cmd.Dir = dir
		out, _ := cmd.Output()
		want := string(out)
		// diff(1) puts dates after the names; compare the rest.
		want = strings.Join(dropHeader(strings.Split(want, "\n")), "\n")
		gotBody := strings.Join(dropHeader(strings.Split(got, "\n")), "\n")
		if gotBody != want {
			t.Errorf("%q → %q:\ngot\n%s\nwant\n%s", tc.old, tc.new, gotBody, want)
		}
	}
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
