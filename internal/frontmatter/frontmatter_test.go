package frontmatter

import (
	"strings"
	"testing"
)

type header struct {
	Name  string `yaml:"name"`
	Tools List   `yaml:"tools"`
}

func commas(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func TestParseSplitsHeaderAndBody(t *testing.T) {
	for _, tc := range []struct{ in, name, body string }{
		{"---\nname: a\n---\nbody\n", "a", "body\n"},
		{"---\r\nname: a\r\n---\r\nbody\r\n", "a", "body\n"},
		{"---\n---\nbody", "", "body"},
		{"---\nname: a\n---", "a", ""},
		{"---\nname: a\n---  \n\nbody", "a", "\nbody"},
		{"no header\n---\n", "", "no header\n---\n"},
		{"---\nname: a\nnote: |\n  ---x\n---\nbody", "a", "body"},
	} {
		var h struct {
			Name string `yaml:"name"`
			Note string `yaml:"note"`
		}
		body, err := Parse([]byte(tc.in), "f.md", &h, Options{})
		if err != nil || h.Name != tc.name || body != tc.body {
			t.Errorf("Parse(%q) = %q, %q, %v; want %q, %q", tc.in, h.Name, body, err, tc.name, tc.body)
		}
	}
}

func TestListTakesStringOrList(t *testing.T) {
	var h header
	if _, err := Parse([]byte("---\ntools: Read, Grep\n---\nx"), "f.md", &h, Options{}); err != nil {
		t.Fatal(err)
	}
	if got := h.Tools.Items(commas); !h.Tools.Set || strings.Join(got, "|") != "Read|Grep" {
		t.Fatalf("string form: %v %q", h.Tools.Set, got)
	}
	h = header{}
	if _, err := Parse([]byte("---\ntools:\n  - Read\n  - Bash(a, b)\n---\nx"), "f.md", &h, Options{}); err != nil {
		t.Fatal(err)
	}
	if got := h.Tools.Items(commas); strings.Join(got, "|") != "Read|Bash(a, b)" {
		t.Fatalf("list form: %q", got)
	}
	h = header{}
	if _, err := Parse([]byte("---\nname: x\n---\nx"), "f.md", &h, Options{}); err != nil || h.Tools.Set || h.Tools.Items(commas) != nil {
		t.Fatalf("absent: %+v %v", h.Tools, err)
	}
}

// Every malformed header is refused with the file and the line of the
// file (not of the header) where the problem is.
func TestMalformedHeadersNameFileAndLine(t *testing.T) {
	for _, tc := range []struct {
		in   string
		opts Options
		want string
	}{
		{"---\nname: a\nbody", Options{}, "a.md:1: the front matter opened here is not closed"},
		{"---\n", Options{}, "a.md:1: the front matter opened here is not closed"},
		{"just text", Options{Required: true}, "a.md:1: the file must start with front matter"},
		{"---\nname: a\ntools: [Read\n---\nx", Options{}, "a.md:3: front matter: "},
		{"---\nname: a\n\n\nname: b\n---\nx", Options{}, "a.md:5: front matter: mapping key \"name\" already defined at line 2"},
		{"---\nname: a\ntoolz: Read\n---\nx", Options{Strict: true}, "a.md:3: front matter: field toolz not found"},
		{"---\nname: [a]\n---\nx", Options{}, "a.md:2: front matter: cannot unmarshal !!seq into string"},
		{"---\nname: a\ntools: {a: b}\n---\nx", Options{}, "a.md:3: front matter: a list is a comma-separated string or a YAML list"},
		{"---\n\tname: a\n---\nx", Options{}, "a.md:2: front matter: found character that cannot start any token"},
	} {
		var h header
		_, err := Parse([]byte(tc.in), "a.md", &h, tc.opts)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("Parse(%q) error %v; want prefix %q", tc.in, err, tc.want)
		}
	}
}

func TestUnknownFieldsAllowedUnlessStrict(t *testing.T) {
	var h header
	if _, err := Parse([]byte("---\nname: a\nextra: 1\n---\nx"), "a.md", &h, Options{}); err != nil || h.Name != "a" {
		t.Fatalf("%+v %v", h, err)
	}
}

func TestErrorWithoutSource(t *testing.T) {
	if got := (&Error{Line: 3, Msg: "bad"}).Error(); got != "line 3: bad" {
		t.Fatal(got)
	}
	if got := (&Error{Source: "x.md", Msg: "bad"}).Error(); got != "x.md: bad" {
		t.Fatal(got)
	}
}

// A header built to expand into billions of nodes (a hostile repository's
// agent file) is refused rather than expanded.
func TestAliasBombIsRefused(t *testing.T) {
	bomb := "---\na: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n" +
		"d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\n" +
		"g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]\nh: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]\nname: [*h,*h,*h,*h,*h,*h,*h,*h,*h]\n---\nx"
	var h struct {
		Name any `yaml:"name"`
	}
	if _, err := Parse([]byte(bomb), "a.md", &h, Options{}); err == nil || !strings.Contains(err.Error(), "alias") {
		t.Fatalf("alias bomb: %v", err)
	}
}
