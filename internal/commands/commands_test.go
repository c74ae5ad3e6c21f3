package commands

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestParseAndExpand(t *testing.T) {
	c, err := Parse([]byte("---\ndescription: Review a file\nargument-hint: FILE [FOCUS]\nallowed-tools: Read, Bash(git diff:*, x), Grep\nmodel: fast-one\n---\nReview $1 with a focus on $2.\nAll: $ARGUMENTS. Costs $5 and $ alone.\n"), "c.md")
	if err != nil {
		t.Fatal(err)
	}
	if c.Description != "Review a file" || c.ArgumentHint != "FILE [FOCUS]" || c.Model != "fast-one" {
		t.Fatalf("front matter %+v", c)
	}
	if want := []string{"Read", "Bash(git diff:*, x)", "Grep"}; !reflect.DeepEqual(c.AllowedTools, want) {
		t.Fatalf("allowed tools %q", c.AllowedTools)
	}
	got := c.Expand(`main.go "error handling"`)
	want := "Review main.go with a focus on error handling.\nAll: main.go \"error handling\". Costs  and $ alone."
	if got != want {
		t.Fatalf("expanded:\n%q\nwant\n%q", got, want)
	}
}

func TestExpandAppendsUnusedArguments(t *testing.T) {
	c, err := Parse([]byte("Say hello."), "c.md")
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Expand("politely"); got != "Say hello.\n\nARGUMENTS: politely" {
		t.Fatalf("%q", got)
	}
	if got := c.Expand(""); got != "Say hello." {
		t.Fatalf("%q", got)
	}
}

func TestBadFilesAreReported(t *testing.T) {
	for _, bad := range []string{"---\ndescription: x\n", "---\ndescription: [\n---\nbody", "---\ndescription: x\n---\n  \n"} {
		if _, err := Parse([]byte(bad), "c.md"); err == nil {
			t.Errorf("accepted %q", bad)
		}
	}
}

func TestLoadNamesScopesAndPrecedence(t *testing.T) {
	base := t.TempDir()
	user, proj := filepath.Join(base, "user"), filepath.Join(base, "proj")
	write := func(p, s string) {
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(user, "review.md"), "user review")
	write(filepath.Join(proj, "review.md"), "project review")
	write(filepath.Join(proj, "git", "commit.md"), "commit it")
	write(filepath.Join(proj, "plan.md"), "shadow a built-in")
	write(filepath.Join(proj, "bad name.md"), "x")
	outside := filepath.Join(base, "outside.md")
	write(outside, "from outside")
	if err := os.Symlink(outside, filepath.Join(proj, "linked.md")); err != nil {
		t.Fatal(err)
	}
	cmds, problems := Load([]Dir{{user, ScopeUser}, {proj, ScopeProject}, {filepath.Join(base, "missing"), ScopeProject}}, []string{"/plan"})
	var names []string
	for _, c := range cmds {
		names = append(names, c.Name+"="+string(c.Scope))
	}
	if want := []string{"git:commit=project", "review=user"}; !reflect.DeepEqual(names, want) {
		t.Fatalf("commands %v", names)
	}
	if len(problems) != 1 {
		t.Fatalf("problems %v", problems)
	}
}

func TestSplit(t *testing.T) {
	for _, tc := range []struct{ in, name, args string }{
		{"/review main.go now", "review", "main.go now"},
		{"/git:commit", "git:commit", ""},
		{"/fix\nthe bug", "fix", "the bug"},
	} {
		n, a, ok := Split(tc.in)
		if !ok || n != tc.name || a != tc.args {
			t.Errorf("Split(%q) = %q %q %v", tc.in, n, a, ok)
		}
	}
	for _, in := range []string{"review", "/", "/a/b", "/../x"} {
		if _, _, ok := Split(in); ok {
			t.Errorf("Split(%q) accepted", in)
		}
	}
}

// A bad header is reported at its line of the file.
func TestBadHeaderIsReportedAtItsLine(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.md")
	if err := os.WriteFile(bad, []byte("---\ndescription: x\nallowed-tools: [Read\n---\nbody"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmds, problems := Load([]Dir{{dir, ScopeProject}}, nil)
	if len(cmds) != 0 || len(problems) != 1 || !strings.HasPrefix(problems[0].Error(), bad+":3: front matter:") {
		t.Fatalf("commands %v problems %v", cmds, problems)
	}
}
