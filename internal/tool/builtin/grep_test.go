package builtin

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp/syntax"
	"strings"
	"testing"
	"time"

	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/tool"
)

// grepTree builds the tree most Grep tests search.
func grepTree(t *testing.T) *tool.Env {
	t.Helper()
	env := newEnv(t)
	put(t, env.Dir, map[string]string{
		".gitignore":         "ignored/\n*.gen.go\n",
		"main.go":            "package main\n\nfunc main() {\n\tfmt.Println(\"Hello\")\n}\n",
		"util.go":            "package main\n\n// helper does nothing\nfunc helper() {}\n",
		"z.gen.go":           "package main\nfunc main() {}\n",
		"web/app.ts":         "export function main() {\n  return 1;\n}\n",
		"web/app.tsx":        "const App = () => <div>hello</div>;\n",
		"docs/readme.md":     "# Title\nHELLO world\nhello again\n",
		"ignored/x.go":       "func main() {}\n",
		"bin/blob":           "func main()\x00\x01\x02",
		".git/config":        "func main",
		"crlf.txt":           "one hello\r\ntwo\r\n",
		"context.txt":        "l1\nl2\nmatch a\nl4\nl5\nl6\nl7\nmatch b\nl9\n",
		"multi/block.txt":    "start {\n  inner\n}\nother\n",
		"deep/a/b/c/deep.py": "def main():\n    pass\n",
	})
	return env
}

func grep(t *testing.T, env *tool.Env, input map[string]any) string {
	t.Helper()
	return runOK(t, NewGrep(), env, input)
}

func TestGrepFilesWithMatches(t *testing.T) {
	env := grepTree(t)
	// Give files distinct times so the newest-first order is testable.
	old := time.Now().Add(-time.Hour)
	os.Chtimes(filepath.Join(env.Dir, "util.go"), old, old)
	got := grep(t, env, map[string]any{"pattern": `func\w* \w+\(`})
	lines := strings.Split(got, "\n")
	if lines[0] != "Found 3 files" {
		t.Errorf("header %q in:\n%s", lines[0], got)
	}
	want := map[string]bool{"main.go": true, "util.go": true, "web/app.ts": true, "deep/a/b/c/deep.py": false}
	for name, in := range want {
		if strings.Contains(got, filepath.Join(env.Dir, name)) != in {
			t.Errorf("%s listed = %v, want %v:\n%s", name, !in, in, got)
		}
	}
	if lines[len(lines)-1] != filepath.Join(env.Dir, "util.go") {
		t.Errorf("oldest file not last:\n%s", got)
	}
	for _, bad := range []string{"z.gen.go", "ignored", "blob", ".git"} {
		if strings.Contains(got, bad) {
			t.Errorf("output includes %s:\n%s", bad, got)
		}
	}
}

func TestGrepContent(t *testing.T) {
	env := grepTree(t)
	p := func(name string) string { return filepath.Join(env.Dir, name) }
	tests := []struct {
		name  string
		input map[string]any
		want  string
	}{
		{"line numbers by default",
			map[string]any{"pattern": "hello", "output_mode": "content", "path": "docs"},
			p("docs/readme.md") + ":3:hello again"},
		{"no line numbers",
			map[string]any{"pattern": "hello", "output_mode": "content", "path": "docs", "-n": false},
			p("docs/readme.md") + ":hello again"},
		{"ignore case",
			map[string]any{"pattern": "hello", "output_mode": "content", "path": "docs", "-i": true},
			p("docs/readme.md") + ":2:HELLO world\n" + p("docs/readme.md") + ":3:hello again"},
		{"context",
			map[string]any{"pattern": "^match", "output_mode": "content", "path": "context.txt", "-C": 1},
			p("context.txt") + "-2-l2\n" + p("context.txt") + ":3:match a\n" + p("context.txt") + "-4-l4\n--\n" +
				p("context.txt") + "-7-l7\n" + p("context.txt") + ":8:match b\n" + p("context.txt") + "-9-l9"},
		{"after only, merged",
			map[string]any{"pattern": "^match", "output_mode": "content", "path": "context.txt", "-A": 5},
			p("context.txt") + ":3:match a\n" + p("context.txt") + "-4-l4\n" + p("context.txt") + "-5-l5\n" +
				p("context.txt") + "-6-l6\n" + p("context.txt") + "-7-l7\n" + p("context.txt") + ":8:match b\n" + p("context.txt") + "-9-l9"},
		{"before only",
			map[string]any{"pattern": "match b", "output_mode": "content", "path": "context.txt", "-B": 2},
			p("context.txt") + "-6-l6\n" + p("context.txt") + "-7-l7\n" + p("context.txt") + ":8:match b"},
		{"-C overridden by -A",
			map[string]any{"pattern": "match b", "output_mode": "content", "path": "context.txt", "-C": 1, "-A": 0},
			p("context.txt") + "-7-l7\n" + p("context.txt") + ":8:match b"},
		{"crlf trimmed",
			map[string]any{"pattern": "hello", "output_mode": "content", "path": "crlf.txt"},
			p("crlf.txt") + ":1:one hello"},
		{"multiline",
			map[string]any{"pattern": `start \{.*?\}`, "output_mode": "content", "path": "multi", "multiline": true},
			p("multi/block.txt") + ":1:start {\n" + p("multi/block.txt") + ":2:  inner\n" + p("multi/block.txt") + ":3:}"},
		{"alternation",
			map[string]any{"pattern": "inner|other", "output_mode": "content", "path": "multi"},
			p("multi/block.txt") + ":2:  inner\n" + p("multi/block.txt") + ":4:other"},
		{"head limit",
			map[string]any{"pattern": "l", "output_mode": "content", "path": "context.txt", "head_limit": 2},
			p("context.txt") + ":1:l1\n" + p("context.txt") + ":2:l2\n\n(Showing the first 2 of 7 lines (head_limit).)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := grep(t, env, tc.input); got != tc.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

func TestGrepCountAndFilters(t *testing.T) {
	env := grepTree(t)
	p := func(name string) string { return filepath.Join(env.Dir, name) }
	tests := []struct {
		name  string
		input map[string]any
		want  string
	}{
		{"count",
			map[string]any{"pattern": "hello", "output_mode": "count", "-i": true},
			"Found 5 matching lines in 4 files\n" + p("crlf.txt") + ":1\n" + p("docs/readme.md") + ":2\n" + p("main.go") + ":1\n" + p("web/app.tsx") + ":1"},
		{"glob by name",
			map[string]any{"pattern": "main", "output_mode": "count", "glob": "*.go"},
			"Found 3 matching lines in 2 files\n" + p("main.go") + ":2\n" + p("util.go") + ":1"},
		{"glob with braces and path",
			map[string]any{"pattern": "main|App", "output_mode": "count", "glob": "**/*.{ts,tsx}"},
			"Found 2 matching lines in 2 files\n" + p("web/app.ts") + ":1\n" + p("web/app.tsx") + ":1"},
		{"negated glob",
			map[string]any{"pattern": "main", "output_mode": "count", "glob": "!*.go"},
			"Found 2 matching lines in 2 files\n" + p("deep/a/b/c/deep.py") + ":1\n" + p("web/app.ts") + ":1"},
		{"negated dir glob",
			map[string]any{"pattern": "main", "output_mode": "count", "glob": "!web/**"},
			"Found 4 matching lines in 3 files\n" + p("deep/a/b/c/deep.py") + ":1\n" + p("main.go") + ":2\n" + p("util.go") + ":1"},
		{"type",
			map[string]any{"pattern": "main", "output_mode": "count", "type": "ts"},
			"Found 1 matching line in 1 file\n" + p("web/app.ts") + ":1"},
		{"type py deep",
			map[string]any{"pattern": "def main", "type": "python"},
			"Found 1 file\n" + p("deep/a/b/c/deep.py")},
		{"comma separated globs",
			map[string]any{"pattern": "main", "output_mode": "count", "glob": "*.ts,*.py"},
			"Found 2 matching lines in 2 files\n" + p("deep/a/b/c/deep.py") + ":1\n" + p("web/app.ts") + ":1"},
		{"single ignored file searched when named",
			map[string]any{"pattern": "main", "output_mode": "count", "path": "z.gen.go"},
			"Found 2 matching lines in 1 file\n" + p("z.gen.go") + ":2"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := grep(t, env, tc.input); got != tc.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

func TestGrepNoMatchAndErrors(t *testing.T) {
	env := grepTree(t)
	wantContains(t, grep(t, env, map[string]any{"pattern": "nothing-like-this"}), "No matches")
	wantContains(t, grep(t, env, map[string]any{"pattern": "func", "path": "bin/blob"}), "binary")
	wantContains(t, runErr(t, NewGrep(), env, map[string]any{"pattern": "x", "path": "missing"}), "does not exist")
	for _, tc := range []struct {
		input any
		want  string
	}{
		{map[string]any{"pattern": "("}, "not a valid regular expression"},
		{map[string]any{"pattern": ""}, "pattern is required"},
		{map[string]any{"pattern": `a\nb`}, "multiline"},
		{map[string]any{"pattern": "a", "output_mode": "lines"}, "output_mode"},
		{map[string]any{"pattern": "a", "type": "cobol"}, "unknown type"},
		{map[string]any{"pattern": "a", "glob": "[a"}, "glob"},
		{map[string]any{"pattern": "a", "-A": -1}, "negative"},
		{map[string]any{"pattern": "a", "head_limit": -1}, "head_limit"},
	} {
		wantContains(t, prepareErr(t, NewGrep(), env, tc.input), tc.want)
	}
	a := prepare(t, NewGrep(), env, map[string]any{"pattern": "x", "path": "docs"}).Access()
	if NewGrep().Kind() != permission.KindRead || a.Paths[0] != filepath.Join(env.Dir, "docs") {
		t.Errorf("Access = %+v", a)
	}
	a = prepare(t, NewGrep(), env, map[string]any{"pattern": "x"}).Access()
	if a.Paths[0] != env.Dir {
		t.Errorf("default root %q", a.Paths[0])
	}
}

func TestGrepNestedGitignoreAndLargeFiles(t *testing.T) {
	env := newEnv(t)
	put(t, env.Dir, map[string]string{
		"a/.gitignore":   "*.txt\n!keep.txt\n",
		"a/skip.txt":     "needle\n",
		"a/keep.txt":     "needle\n",
		"a/b/other.txt":  "needle\n",
		"top.txt":        "needle\n",
		".git/info/x":    "",
		".git/HEAD":      "needle",
		"exclude/x.txt":  "needle",
		"huge/large.txt": strings.Repeat("x", grepMaxFileSize) + "\nneedle\n",
	})
	put(t, env.Dir, map[string]string{".git/info/exclude": "exclude/\n"})
	got := grep(t, env, map[string]any{"pattern": "needle", "output_mode": "count"})
	want := "Found 2 matching lines in 2 files\n" + filepath.Join(env.Dir, "a/keep.txt") + ":1\n" + filepath.Join(env.Dir, "top.txt") + ":1" +
		"\n\n(1 file larger than 20 MB not searched; name such a file as path to search it.)"
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	got = grep(t, env, map[string]any{"pattern": "needle", "path": "huge/large.txt", "output_mode": "count"})
	wantContains(t, got, "large.txt:1")
}

func TestGrepDeterministicAndLongLines(t *testing.T) {
	env := newEnv(t)
	files := map[string]string{}
	for i := range 200 {
		files[fmt.Sprintf("d%d/f%03d.txt", i%7, i)] = fmt.Sprintf("x\nhit %d\n", i)
	}
	files["wide.txt"] = "hit " + strings.Repeat("é", 600) + "\n"
	put(t, env.Dir, files)
	in := map[string]any{"pattern": "hit", "output_mode": "content"}
	first := grep(t, env, in)
	for range 5 {
		if again := grep(t, env, in); again != first {
			t.Fatal("output differs between runs")
		}
	}
	wantContains(t, first, "[line cut]")
	if strings.Count(first, "\n") != 200 {
		t.Errorf("want 201 lines, got %d", strings.Count(first, "\n")+1)
	}
}

func TestPrefilter(t *testing.T) {
	tests := []struct {
		pattern string
		needles []string // what the needles search for; nil: no prefilter
		pure    bool
	}{
		{"hello", []string{"hello"}, true},
		{"(?i)hello", []string{"hello"}, true},
		{"(?i)kubernetes", []string{"ubernete"}, false},
		{`foo\w+bar`, []string{"foo"}, false},
		{`\w+_handler\(`, []string{"_handler("}, false},
		{"foo|bar", []string{"foo", "bar"}, false},
		{"(foo|ba)r+", []string{"foo", "ba"}, false},
		{`x?`, nil, false},
		{`\w+`, nil, false},
		{"a|.*", nil, false},
		{"(?i)ss", nil, false},
		{"(abc)+", []string{"abc"}, false},
		{"[ab]cd", []string{"cd"}, false},
		{"héllo", []string{"héllo"}, true},
		{`\w+[XYZ]\w*`, []string{"X", "Y", "Z"}, false},
		{`\w+\(`, nil, false},
		{`[a-z]+`, nil, false},
	}
	for _, tc := range tests {
		re, err := syntax.Parse("(?m)"+tc.pattern, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		p := buildPrefilter(re)
		if tc.needles == nil {
			if p != nil {
				t.Errorf("%q: unexpected prefilter %+v", tc.pattern, p)
			}
			continue
		}
		if p == nil {
			t.Errorf("%q: no prefilter", tc.pattern)
			continue
		}
		var got []string
		for _, n := range p.needles {
			if n.fold {
				got = append(got, string(n.lower))
			} else {
				got = append(got, string(n.exact))
			}
		}
		if strings.Join(got, ",") != strings.Join(tc.needles, ",") || p.pure != tc.pure {
			t.Errorf("%q: needles %q pure %v, want %q pure %v", tc.pattern, got, p.pure, tc.needles, tc.pure)
		}
	}
}

func TestFoldNeedle(t *testing.T) {
	tests := []struct {
		needle, text string
		want         int
	}{
		{"hello", "say HeLLo", 4},
		{"hello", "hell", -1},
		{"zq", "aZQ", 1},
		{"a_b", "xx A_B", 3},
		{"abc", "ab abx aBc", 7},
		{"x", "", -1},
	}
	for _, tc := range tests {
		n := makeNeedle(literal{text: tc.needle, fold: true})
		if got := n.index([]byte(tc.text)); got != tc.want {
			t.Errorf("index(%q in %q) = %d, want %d", tc.needle, tc.text, got, tc.want)
		}
	}
	// Case-insensitive search still finds matches that differ only in k or
	// s forms outside ASCII: the Kelvin sign matches k.
	env := newEnv(t)
	put(t, env.Dir, map[string]string{"k.txt": "\u212Aubernetes\n"})
	wantContains(t, grep(t, env, map[string]any{"pattern": "kubernetes", "-i": true}), "k.txt")
}

func TestTypeTable(t *testing.T) {
	for _, name := range strings.Split(knownTypes, ", ") {
		globs, ok := typeGlobs(name)
		if !ok || len(globs) == 0 {
			t.Errorf("listed type %q is unknown", name)
		}
	}
	for _, alias := range []string{"golang", "javascript", "typescript", "python", "rs", "c++", "markdown", "yml", "shell"} {
		if _, ok := typeGlobs(alias); !ok {
			t.Errorf("alias %q unknown", alias)
		}
	}
}
