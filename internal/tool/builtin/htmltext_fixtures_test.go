package builtin

import (
	"fmt"
	"net/url"
	"os"
	"strings"
	"testing"
)

func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile("testdata/html/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// On pages shaped like real ones the converter keeps the article and
// leaves out what is around it and what a reader would not see: the
// hidden text is where a page would hide instructions for a model.
func TestHTMLFixtures(t *testing.T) {
	base, _ := url.Parse("https://example.test/en-US/docs/Array/map")
	for _, tc := range []struct {
		file      string
		want, not []string
	}{
		{"docs.html",
			[]string{"# Array.prototype.map()", "[Array](https://example.test/en-US/docs/Array)", "```js\nconst numbers",
				"| Firefox | 1.5 | Full *support* \\| since 2005 |", "See also this and [the spec]"},
			[]string{"Docs home", "Array.prototype.at()", "Ignore previous instructions", "template content",
				"Enable JavaScript", "javascript:", "Privacy", "dataLayer"}},
		{"blog.html",
			[]string{"# Why our builds got 3x faster", "1. Cached the `go mod download` step.", "   - unit",
				"> The fastest build is the one you don't run.", "![Build time over six months](https://example.test/en-US/docs/Array/img/graph.png)"},
			[]string{"cookies", "Related posts", "42 comments", "Subscribe"}},
	} {
		_, text, err := htmlToMarkdown(readFixture(t, tc.file), base)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range tc.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s: no %q in\n%s", tc.file, w, text)
			}
		}
		for _, n := range tc.not {
			if strings.Contains(text, n) {
				t.Errorf("%s: %q should be left out", tc.file, n)
			}
		}
	}
}

// bigIndexPage is a 117 KB page: a long paragraph and an 800-row table.
func bigIndexPage() []byte {
	var rows strings.Builder
	for i := 1; i < 800; i++ {
		fmt.Fprintf(&rows, "<tr><td><a href=\"/pkg/%d\">pkg%d</a></td><td>%d.%d.0</td><td>A package that does thing number %d, with some <code>inline code</code></td></tr>\n", i, i, i%7, i%13, i)
	}
	return []byte(`<html><head><title>Package index</title></head><body><div role="main"><h1>Packages</h1><p>` +
		strings.Repeat("Long intro. ", 200) + "</p><table><tr><th>Name</th><th>Version</th><th>Summary</th></tr>" + rows.String() + "</table></div></body></html>")
}

func BenchmarkHTMLToMarkdown(b *testing.B) {
	base, _ := url.Parse("https://example.test/")
	for name, data := range map[string][]byte{
		"docs": readFixture(b, "docs.html"), "blog": readFixture(b, "blog.html"), "index": bigIndexPage(),
	} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := htmlToMarkdown(data, base); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
