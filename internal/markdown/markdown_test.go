package markdown

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// narrowGoldens also get a golden file at width 30.
var narrowGoldens = map[string]bool{"plan": true, "tables": true, "lists": true}

func inputs(t testing.TB) map[string]string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "*.md"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata: %v", err)
	}
	out := map[string]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[strings.TrimSuffix(filepath.Base(f), ".md")] = string(b)
	}
	return out
}

// TestGolden renders every testdata/NAME.md with the plain theme at width
// 60 (and 30 for a few) and compares with testdata/NAME.golden
// (NAME.w30.golden). Run with -update to rewrite them.
func TestGolden(t *testing.T) {
	plain := compile(PlainTheme())
	for name, src := range inputs(t) {
		widths := []int{60}
		if narrowGoldens[name] {
			widths = append(widths, 30)
		}
		for _, w := range widths {
			file := filepath.Join("testdata", name+".golden")
			if w != 60 {
				file = filepath.Join("testdata", fmt.Sprintf("%s.w%d.golden", name, w))
			}
			t.Run(fmt.Sprintf("%s/%d", name, w), func(t *testing.T) {
				got := render(plain, src, w) + "\n"
				if *update {
					if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				want, err := os.ReadFile(file)
				if err != nil {
					t.Fatalf("%v (run with -update to create it)", err)
				}
				if got != string(want) {
					t.Errorf("%s differs from the rendering:\n%s", file, diff(string(want), got))
				}
			})
		}
	}
}

func diff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	for i := 0; i < max(len(w), len(g)); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			fmt.Fprintf(&b, "line %d\n  want %q\n  got  %q\n", i+1, wl, gl)
		}
	}
	return b.String()
}

// checkLines fails t when a line of out is wider than width or leaves an
// escape sequence unfinished or a style open at its end.
func checkLines(t testing.TB, out string, width int, what string) {
	t.Helper()
	for i, l := range strings.Split(out, "\n") {
		if w := ansi.StringWidth(l); width > 0 && w > width {
			t.Fatalf("%s: line %d is %d wide, over %d: %q", what, i+1, w, width, l)
		}
		if err := sgrBalanced(l); err != nil {
			t.Fatalf("%s: line %d: %v: %q", what, i+1, err, l)
		}
	}
}

// sgrBalanced checks that every escape sequence in l is a complete SGR
// sequence and that the last one leaves no attribute on.
func sgrBalanced(l string) error {
	open := false
	for i := 0; i < len(l); i++ {
		if l[i] != 0x1b {
			continue
		}
		if i+1 >= len(l) || l[i+1] != '[' {
			return fmt.Errorf("escape at %d is not a CSI sequence", i)
		}
		j := i + 2
		for j < len(l) && (l[j] >= '0' && l[j] <= '9' || l[j] == ';' || l[j] == ':') {
			j++
		}
		if j >= len(l) || l[j] != 'm' {
			return fmt.Errorf("unterminated or non-SGR sequence at %d", i)
		}
		params := l[i+2 : j]
		open = params != "" && params != "0"
		i = j
	}
	if open {
		return fmt.Errorf("style still on at the end of the line")
	}
	return nil
}

// TestDefaultThemeWidths renders every input in colour at widths 20..120
// and checks every line's width and escape sequences.
func TestDefaultThemeWidths(t *testing.T) {
	st := compile(DefaultTheme())
	for name, src := range inputs(t) {
		for w := 20; w <= 120; w++ {
			out := render(st, src, w)
			checkLines(t, out, w, fmt.Sprintf("%s at %d", name, w))
		}
	}
}

// TestNarrowWidths covers the widths where containers give up their
// indentation and tables turn into records.
func TestNarrowWidths(t *testing.T) {
	st := compile(DefaultTheme())
	for name, src := range inputs(t) {
		for w := 1; w < 20; w++ {
			checkLines(t, render(st, src, w), w, fmt.Sprintf("%s at %d", name, w))
		}
	}
}

// TestHostileInputs renders inputs built to trip quadratic behaviour:
// they must finish quickly and still respect the width.
func TestHostileInputs(t *testing.T) {
	const n = 1 << 16
	nested := func(unit string, lines int) string {
		var b strings.Builder
		for i := range lines {
			b.WriteString(strings.Repeat(unit, i))
			b.WriteString("x\n")
		}
		return b.String()
	}
	tickRuns := func() string {
		var b strings.Builder
		for i := 1; b.Len() < n; i++ {
			b.WriteString(strings.Repeat("`", i%300+1))
			b.WriteString("x")
		}
		return b.String()
	}
	cases := map[string]string{
		"open brackets":     strings.Repeat("[", n),
		"unfinished links":  strings.Repeat("[a](", n/4),
		"unfinished images": strings.Repeat("![a](()", n/7),
		"empty brackets":    strings.Repeat("[]", n/2),
		"openers":           strings.Repeat("*a ", n/3),
		"star run":          strings.Repeat("*", n),
		"delimiters":        strings.Repeat("*_~~", n/4),
		"backticks":         strings.Repeat("`", n),
		"backtick runs":     tickRuns(),
		"quote markers":     strings.Repeat(">", n),
		"list markers":      strings.Repeat("- ", n/2),
		"nested lists":      nested("  ", 300) + "- x",
		"nested quotes":     nested("> ", 300),
		"wide table":        "|" + strings.Repeat("a|", n/4) + "\n|" + strings.Repeat("-|", n/4) + "\n" + strings.Repeat("|x", n/4),
		"long table":        "|a|b|\n|-|-|\n" + strings.Repeat("|x|y|\n", n/6),
		"long word":         strings.Repeat("x", n),
		"cjk":               strings.Repeat("日本", n/6),
		"soft breaks":       strings.Repeat("a\n", n/2),
		"angles":            strings.Repeat("<a", n/2),
		"entities":          strings.Repeat("&#", n/2),
		"empty items":       strings.Repeat("-\n", n/2),
		"fences":            strings.Repeat("```\n", n/4),
		"nested images":     strings.Repeat("![", 1000) + strings.Repeat("](x)", 1000),
	}
	st := compile(DefaultTheme())
	for name, src := range cases {
		for _, w := range []int{0, 13, 80} {
			start := time.Now()
			out := render(st, src, w)
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("%s at width %d took %v", name, w, d)
			}
			checkLines(t, out, w, fmt.Sprintf("%s at %d", name, w))
		}
	}
}

func TestPlainHasNoEscapes(t *testing.T) {
	for name, src := range inputs(t) {
		if out := Render(src, 60, PlainTheme()); strings.Contains(out, "\x1b") {
			t.Errorf("%s: plain output contains an escape", name)
		}
	}
}

func TestInputEscapesAreDropped(t *testing.T) {
	src := "bold \x1b[1mtext\x1b[0m, bell \a, C1 \u009b31m, CR\r\nnext\rline\x00"
	got := Render(src, 0, PlainTheme())
	want := "bold [1mtext[0m, bell , C1 31m, CR next line"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestUnlimitedWidth(t *testing.T) {
	long := strings.Repeat("word ", 100)
	if got := Render(long, 0, PlainTheme()); strings.Contains(got, "\n") {
		t.Errorf("width 0 wrapped the paragraph")
	}
	if got := Render(long, -5, PlainTheme()); strings.Contains(got, "\n") {
		t.Errorf("negative width wrapped the paragraph")
	}
}

func TestCodeLinesAreCut(t *testing.T) {
	src := "```\n" + strings.Repeat("x", 100) + "\n```"
	got := Render(src, 30, PlainTheme())
	want := "│ " + strings.Repeat("x", 27) + "…"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestEmptyInput(t *testing.T) {
	for _, src := range []string{"", "\n", "   \n\t\n"} {
		if got := Render(src, 40, DefaultTheme()); got != "" {
			t.Errorf("Render(%q) = %q, want empty", src, got)
		}
	}
}

func TestInline(t *testing.T) {
	st := compile(PlainTheme())
	cases := []struct{ in, want string }{
		{"*a*", "a"},
		{"**a**", "a"},
		{"***a***", "a"},
		{"*a", "*a"},
		{"a*", "a*"},
		{"**a*", "*a"},
		{"*a**", "a*"},
		{"_a_b", "_a_b"},
		{"foo_bar_", "foo_bar_"},
		{"*foo*bar", "foobar"},
		{"~~a~~", "a"},
		{"~a~", "~a~"},
		{"`*a*`", "*a*"},
		{"`` ` ``", "`"},
		{"`unclosed", "`unclosed"},
		{`\*a\*`, "*a*"},
		{`\a`, `\a`},
		{"[a](b)", "a (b)"},
		{"[a](<b c>)", "a (b c)"},
		{`[a](b "t")`, "a (b)"},
		{"[a](b(c))", "a (b(c))"},
		{"[a]", "[a]"},
		{"[a](", "[a]("},
		{"[[a](b)](c)", "[a](b) (c)"},
		{"![x](y)", "[image: x]"},
		{"<http://a.b>", "http://a.b"},
		{"<not a link>", "<not a link>"},
		{"a &amp; b &#65; &#x42;", "a & b A B"},
		{"&#0; &#1;", "\uFFFD \uFFFD"},
		{"a\\\nb", "a\nb"},
		{"a  \nb", "a\nb"},
		{"a\nb", "a b"},
	}
	for _, c := range cases {
		if got := render(st, c.in, 0); got != c.want {
			t.Errorf("%q: got %q, want %q", c.in, got, c.want)
		}
	}
}

func TestInlineRoles(t *testing.T) {
	sp := parseInline("**b *bi* b** `c` [l](u)", 0, false)
	var got []string
	for _, s := range sp {
		got = append(got, fmt.Sprintf("%q:%b", s.text, s.m))
	}
	b, i, c, l, u := bit(rBold), bit(rItalic), bit(rCode), bit(rLink), bit(rLinkURL)
	want := []string{
		fmt.Sprintf("%q:%b", "b ", b), fmt.Sprintf("%q:%b", "bi", b|i), fmt.Sprintf("%q:%b", " b", b),
		fmt.Sprintf("%q:%b", " ", 0), fmt.Sprintf("%q:%b", "c", c), fmt.Sprintf("%q:%b", " ", 0),
		fmt.Sprintf("%q:%b", "l", l), fmt.Sprintf("%q:%b", " ", 0), fmt.Sprintf("%q:%b", "(u)", u),
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("got  %v\nwant %v", got, want)
	}
}

func TestFitColumns(t *testing.T) {
	cases := []struct {
		nat, minW []int
		avail     int
		want      []int
	}{
		{[]int{5, 5}, []int{5, 5}, 20, []int{5, 5}},
		// A column short of its widest word borrows from the others.
		{[]int{27, 34}, []int{27, 12}, 50, []int{27, 23}},
		// A column no wider than an even share keeps its width.
		{[]int{10, 30}, []int{4, 6}, 20, []int{10, 10}},
		// Borrowing would cost the lender over a third: words break.
		{[]int{28, 40, 45}, []int{28, 8, 12}, 50, []int{12, 17, 21}},
		// Words must break: narrow columns keep their width, wide
		// ones share the rest by natural width.
		{[]int{4, 40, 20}, []int{4, 40, 20}, 34, []int{4, 20, 10}},
		{[]int{10, 10, 10}, []int{10, 10, 10}, 15, []int{5, 5, 5}},
		{[]int{3, 100}, []int{3, 100}, 10, []int{3, 7}},
	}
	for _, c := range cases {
		got := fitColumns(c.nat, c.minW, c.avail)
		sum := 0
		for _, w := range got {
			sum += w
		}
		if sum > c.avail {
			t.Errorf("fitColumns(%v, %v, %d) uses %d cells", c.nat, c.minW, c.avail, sum)
		}
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("fitColumns(%v, %v, %d) = %v, want %v", c.nat, c.minW, c.avail, got, c.want)
		}
	}
}

func TestDefaultThemeStyles(t *testing.T) {
	out := Render("# H\n\n**b** `c`", 40, DefaultTheme())
	for _, want := range []string{"\x1b[", "H", "b", "c"} {
		if !strings.Contains(out, want) {
			t.Errorf("output %q lacks %q", out, want)
		}
	}
	// Every style is closed: stripping escapes leaves the text.
	if got := ansi.Strip(out); got != "H\n\nb c" {
		t.Errorf("stripped output = %q", got)
	}
}

// TestPrefixMatchesLipgloss holds sgrPrefix to what lipgloss renders for
// the same style.
func TestPrefixMatchesLipgloss(t *testing.T) {
	n := lipgloss.NewStyle
	styles := []lipgloss.Style{
		n(), n().Bold(true), n().Italic(true).Faint(true), n().Underline(true).Foreground(lipgloss.Color("33")),
		n().UnderlineStyle(lipgloss.UnderlineCurly).UnderlineColor(lipgloss.Red),
		n().Strikethrough(true).Reverse(true).Blink(true), n().Foreground(lipgloss.Color("#ff8800")).Background(lipgloss.Blue),
	}
	th := DefaultTheme()
	styles = append(styles, th.Heading1, th.Heading2, th.Heading3, th.Heading4, th.Bold, th.Italic, th.Strikethrough,
		th.Code, th.Link, th.LinkURL, th.Image, th.Quote, th.QuoteBar, th.Rule, th.ListMarker, th.TaskChecked,
		th.CodeBlock, th.CodeBlockBorder, th.CodeBlockLabel, th.TableHeader, th.TableBorder, th.HTML)
	for i, s := range styles {
		want := s.Render("x")
		got := "x"
		if p := sgrPrefix(s); p != "" {
			got = p + "x" + reset
		}
		if got != want {
			t.Errorf("style %d: got %q, lipgloss renders %q", i, got, want)
		}
	}
}

func TestThemeLayoutPropertiesIgnored(t *testing.T) {
	th := PlainTheme()
	th.Bold = th.Bold.Padding(2).Width(50).Bold(true)
	got := ansi.Strip(Render("**x**", 20, th))
	if got != "x" {
		t.Errorf("got %q, want %q", got, "x")
	}
}

func TestRendererCache(t *testing.T) {
	r := NewRenderer(PlainTheme())
	a := r.Render("# hi\n\ntext", 40)
	if a != Render("# hi\n\ntext", 40, PlainTheme()) {
		t.Fatalf("Renderer and Render disagree")
	}
	if b := r.Render("# hi\n\ntext", 40); b != a {
		t.Fatalf("cache hit differs")
	}
	if c := r.Render("# hi\n\ntext", 10); c == "" {
		t.Fatalf("empty render")
	}
	// Streaming: many distinct sources must not grow the cache unbounded.
	for i := range 5 * cacheEntries {
		r.Render(fmt.Sprintf("message %d", i), 40)
	}
	r.mu.Lock()
	n := len(r.cur) + len(r.prev)
	r.mu.Unlock()
	if n > 2*cacheEntries {
		t.Errorf("cache holds %d entries", n)
	}
}

func TestNoInitWork(t *testing.T) {
	// Guard against package-level work creeping in: only the test flag
	// and these declarations may be package variables.
	b, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	decl := regexp.MustCompile(`(?m)^(var |func init\()`)
	for _, e := range b {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if loc := decl.FindIndex(src); loc != nil {
			t.Errorf("%s has package-level state or init: %q", name, src[loc[0]:loc[1]+20])
		}
	}
}

// FuzzRender checks that rendering never panics, never overflows the width
// (code lines included: they are cut), leaves no style open at a line's
// end, and is deterministic.
func FuzzRender(f *testing.F) {
	for _, src := range inputs(f) {
		f.Add(src, 40)
	}
	f.Add("*a **b** c*", 10)
	f.Add("| a | b |\n|---|---|\n| 1 | 2 |", 12)
	f.Add("> - [ ] x\n>   ```\n>   y", 11)
	f.Add("1. a\n  - b\n    - c\n      - d", 10)
	f.Add("日本語 🇯🇵 e\u0301 \u0600x", 10)
	st := compile(DefaultTheme())
	plain := compile(PlainTheme())
	f.Fuzz(func(t *testing.T, src string, width int) {
		if len(src) > 1<<16 {
			return
		}
		width = width % 200
		a := render(st, src, width)
		if b := render(st, src, width); a != b {
			t.Fatalf("not deterministic")
		}
		p := render(plain, src, width)
		if strings.Contains(p, "\x1b") {
			t.Fatalf("plain output has an escape")
		}
		if width >= 10 {
			checkLines(t, a, width, "default")
			checkLines(t, p, width, "plain")
		} else {
			checkLines(t, a, 0, "default")
		}
	})
}

// TestRandomDocuments renders documents assembled at random from markdown
// syntax and awkward Unicode (combining marks, joiners, flags, prepended
// marks, wide characters, controls), checking widths and escapes. It
// complements the fuzzer, which rarely builds such text by mutation.
func TestRandomDocuments(t *testing.T) {
	pieces := []string{
		"# ", "## ", "- ", "* ", "1. ", "10) ", "> ", "    ", "  ", "\n", "\n\n", "\t", "```", "```go\n", "~~~",
		"---", "***", "| a | b |\n|---|:-:|\n", "|", "[", "]", "(", ")", "![", "](u)", "<http://x.y/z>", "<",
		"*", "**", "_", "__", "~~", "`", "``", "\\", "&amp;", "&#x301;", "[ ] ", "[x] ", "<div>", "  \n",
		"word", "longerword", "https://example.com/a/b/c?d=e", "path/to/file.go", " ", " ", " ",
		"日本語", "中", "👍🏽", "🇯🇵", "👨\u200d👩\u200d👧", "e\u0301", "\u0301", "\u0600", "\u0600 ", "☺\ufe0f",
		"\ufe0f", "\u200b", "\u00a0", "\r\n", "\x1b[31m", "\x00", "\u009b", "\xff", "ｗｉｄｅ", "…", "│",
	}
	rng := rand.New(rand.NewPCG(1, 2))
	st, plain := compile(DefaultTheme()), compile(PlainTheme())
	for i := range 3000 {
		var b strings.Builder
		for range rng.IntN(60) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		src, w := b.String(), 1+rng.IntN(50)
		checkLines(t, render(st, src, w), w, fmt.Sprintf("doc %d %q at %d", i, src, w))
		checkLines(t, render(plain, src, w), w, fmt.Sprintf("plain doc %d %q at %d", i, src, w))
	}
}

// benchDoc builds a markdown document of about n lines from the testdata.
func benchDoc(b *testing.B, n int) string {
	var parts []string
	for _, name := range []string{"plan", "mixed", "lists", "inline", "tables", "code", "quotes", "paragraphs"} {
		src, err := os.ReadFile(filepath.Join("testdata", name+".md"))
		if err != nil {
			b.Fatal(err)
		}
		parts = append(parts, string(src))
	}
	var sb strings.Builder
	lines := 0
	for lines < n {
		for _, p := range parts {
			sb.WriteString(p)
			sb.WriteString("\n\n")
			lines += strings.Count(p, "\n") + 2
			if lines >= n {
				break
			}
		}
	}
	return sb.String()
}

func BenchmarkRender(b *testing.B) {
	src := benchDoc(b, 2000)
	th := DefaultTheme()
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		Render(src, 100, th)
	}
	b.ReportMetric(float64(strings.Count(src, "\n")), "src-lines")
}

func BenchmarkRenderPlan(b *testing.B) {
	src, err := os.ReadFile(filepath.Join("testdata", "plan.md"))
	if err != nil {
		b.Fatal(err)
	}
	th := DefaultTheme()
	b.ReportAllocs()
	for b.Loop() {
		Render(string(src), 100, th)
	}
}

func BenchmarkRendererCacheHit(b *testing.B) {
	src, err := os.ReadFile(filepath.Join("testdata", "plan.md"))
	if err != nil {
		b.Fatal(err)
	}
	r := NewRenderer(DefaultTheme())
	r.Render(string(src), 100)
	s := string(src)
	b.ReportAllocs()
	for b.Loop() {
		r.Render(s, 100)
	}
}

func BenchmarkCompileTheme(b *testing.B) {
	th := DefaultTheme()
	b.ReportAllocs()
	for b.Loop() {
		compile(th)
	}
}
