package gitignore

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// patternCases are single-file cases: the .gitignore text at the top, a
// path relative to it, whether that path is a directory, and whether git
// ignores it. List.Match sees only the path itself; parent directories
// are the Matcher's business, tested separately.
var patternCases = []struct {
	name   string
	ignore string
	path   string
	dir    bool
	want   bool
}{
	{"suffix glob at top", "*.log", "debug.log", false, true},
	{"suffix glob nested", "*.log", "logs/debug.log", false, true},
	{"suffix glob needs the suffix", "*.log", "debug.log.txt", false, false},
	{"leading star is one directory", "*/secret.txt", "a/secret.txt", false, true},
	{"leading star is anchored", "*/secret.txt", "x/a/secret.txt", false, false},
	{"leading star needs a directory", "*/secret.txt", "secret.txt", false, false},
	{"comment line", "# comment", "# comment", false, false},
	{"escaped hash", `\#file`, "#file", false, true},
	{"escaped bang", `\!important`, "!important", false, true},
	{"negation re-includes", "*.log\n!keep.log", "keep.log", false, false},
	{"negation leaves others", "*.log\n!keep.log", "other.log", false, true},
	{"later pattern wins", "!keep.log\n*.log", "keep.log", false, true},
	{"dir-only matches dir", "build/", "build", true, true},
	{"dir-only skips file", "build/", "build", false, false},
	{"dir-only at any depth", "build/", "src/build", true, true},
	{"leading slash anchors", "/build", "build", false, true},
	{"leading slash not nested", "/build", "src/build", false, false},
	{"middle slash anchors", "doc/frotz", "doc/frotz", false, true},
	{"middle slash not nested", "doc/frotz", "a/doc/frotz", false, false},
	{"middle and trailing slash", "doc/frotz/", "doc/frotz", true, true},
	{"leading ** at top", "**/foo", "foo", false, true},
	{"leading ** deep", "**/foo", "a/b/foo", false, true},
	{"leading ** with path", "**/foo/bar", "x/foo/bar", false, true},
	{"trailing ** inside", "abc/**", "abc/x/y", false, true},
	{"trailing ** not the dir", "abc/**", "abc", true, false},
	{"middle ** no dirs", "a/**/b", "a/b", false, true},
	{"middle ** many dirs", "a/**/b", "a/x/y/b", false, true},
	{"single star one level", "a/*/b", "a/x/b", false, true},
	{"single star not two levels", "a/*/b", "a/x/y/b", false, false},
	{"question mark", "foo?.txt", "foo1.txt", false, true},
	{"question mark needs a byte", "foo?.txt", "foo.txt", false, false},
	{"bracket set", "[abc].txt", "b.txt", false, true},
	{"bracket set miss", "[abc].txt", "d.txt", false, false},
	{"negated bracket", "[!abc].txt", "d.txt", false, true},
	{"caret bracket", "[^abc].txt", "a.txt", false, false},
	{"bracket range", "[a-c]x", "bx", false, true},
	{"posix class", "[[:digit:]]*.log", "1a.log", false, true},
	{"posix class miss", "[[:digit:]]*.log", "a1.log", false, false},
	{"trailing spaces dropped", "foo   ", "foo", false, true},
	{"escaped trailing space kept", `foo\ `, "foo ", false, true},
	{"escaped trailing space needed", `foo\ `, "foo", false, false},
	{"star matches everything", "*", "deep/thing", false, true},
	{"blank lines only", "\n\n   \n", "x", false, false},
	{"lone negation", "!foo", "foo", false, false},
	{"star slash star one level", "foo/*", "foo/bar", false, true},
	{"double star alone", "**", "a/b", false, true},
	{"double star inside name", "a**b", "axxb", false, true},
	{"double star inside name no slash", "a**b", "ax/xb", false, false},
	{"suffix glob on dir", "*.txt", "dir.txt", true, true},
	{"anchored star top", "/*.c", "cat-file.c", false, true},
	{"anchored star nested", "/*.c", "mozilla-sha1/sha1.c", false, false},
	{"trailing **/ dirs only", "foo/**/", "foo/a", true, true},
	{"trailing **/ not files", "foo/**/", "foo/a", false, false},
	{"escaped star", `\*star`, "*star", false, true},
	{"escaped star literal only", `\*star`, "xstar", false, false},
	{"crlf line ending", "foo\r\nbar", "foo", false, true},
	{"bare bang is nothing", "!\nfoo", "foo", false, true},
	{"case sensitive", "*.LOG", "a.log", false, false},
	{"dotfile", ".env", "config/.env", false, true},
	{"dotfile glob", ".*", "x/.hidden", false, true},
}

func TestListMatch(t *testing.T) {
	for _, tc := range patternCases {
		t.Run(tc.name, func(t *testing.T) {
			got, _ := Parse([]byte(tc.ignore)).Match(tc.path, tc.dir)
			if got != tc.want {
				t.Errorf("patterns %q, path %q (dir %v): ignored = %v, want %v", tc.ignore, tc.path, tc.dir, got, tc.want)
			}
		})
	}
}

// TestCasesAgreeWithGit checks the expectations above against git itself,
// when git is installed.
func TestCasesAgreeWithGit(t *testing.T) {
	if testing.Short() {
		t.Skip("runs git")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	for _, tc := range patternCases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
				t.Fatalf("git init: %v %s", err, out)
			}
			writeFile(t, filepath.Join(dir, ".gitignore"), tc.ignore)
			p := filepath.Join(dir, filepath.FromSlash(tc.path))
			if tc.dir {
				if err := os.MkdirAll(p, 0o755); err != nil {
					t.Fatal(err)
				}
			} else {
				writeFile(t, p, "x")
			}
			cmd := exec.Command("git", "check-ignore", "-q", "--no-index", tc.path)
			cmd.Dir = dir
			err := cmd.Run()
			got := err == nil
			if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() != 1) {
				t.Fatalf("git check-ignore: %v", err)
			}
			if got != tc.want {
				t.Errorf("git says ignored = %v for %q with %q, table says %v", got, tc.path, tc.ignore, tc.want)
			}
		})
	}
}

func TestParsePattern(t *testing.T) {
	tests := []struct {
		line string
		ok   bool
		str  string
	}{
		{"", false, ""},
		{"   ", false, ""},
		{"# x", false, ""},
		{"!", false, ""},
		{"/", false, ""},
		{"foo", true, "foo"},
		{"!foo/", true, "!foo/"},
		{"/foo", true, "/foo"},
		{"a/b", true, "/a/b"},
		{`\#x`, true, `\#x`},
	}
	for _, tc := range tests {
		p, ok := ParsePattern(tc.line)
		if ok != tc.ok || (ok && p.String() != tc.str) {
			t.Errorf("ParsePattern(%q) = %q, %v; want %q, %v", tc.line, p.String(), ok, tc.str, tc.ok)
		}
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkListMatch matches 10,000 source paths against 200 patterns of
// the kinds big repositories have: suffixes, anchored directories, '**'
// and negations.
func BenchmarkListMatch(b *testing.B) {
	var pats []string
	for i := 0; i < 50; i++ {
		pats = append(pats, fmt.Sprintf("*.tmp%d", i), fmt.Sprintf("/build%d/", i), fmt.Sprintf("docs/**/gen%d", i), fmt.Sprintf("!keep%d.tmp1", i))
	}
	list := Parse([]byte(strings.Join(pats, "\n")))
	paths := make([]string, 10000)
	for i := range paths {
		paths[i] = fmt.Sprintf("src/pkg%d/sub%d/file%d.go", i%50, i%7, i)
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, p := range paths {
			list.Match(p, false)
		}
	}
}
