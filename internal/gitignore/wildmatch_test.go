package gitignore

import "testing"

func TestWildmatch(t *testing.T) {
	tests := []struct {
		pattern, text string
		want          bool
	}{
		{"foo", "foo", true},
		{"foo", "bar", false},
		{"", "", true},
		{"???", "abc", true},
		{"??", "a/", false},
		{"*", "foo", true},
		{"*", "foo/bar", false},
		{"f*", "foo", true},
		{"*f", "foo", false},
		{"*foo*", "xfoox", true},
		{"*ob*a*r*", "foobar", true},
		{"foo/*", "foo/bar", true},
		{"foo/*", "foo/bar/baz", false},
		{"*/bar", "foo/bar", true},
		{"*/bar", "a/foo/bar", false},
		{"**/foo", "foo", true},
		{"**/foo", "x/y/foo", true},
		{"foo/**", "foo/a/b", true},
		{"foo/**", "foo", false},
		{"foo/**/bar", "foo/bar", true},
		{"foo/**/bar", "foo/a/b/bar", true},
		{"foo/**/bar", "foo/a/b/baz", false},
		{"foo**bar", "foo/bar", false},
		{"foo**bar", "fooxbar", true},
		{"**", "a/b/c", true},
		{"[a-z]", "m", true},
		{"[a-z]", "M", false},
		{"[!a-z]", "M", true},
		{"[]]", "]", true},
		{"[!]]", "a", true},
		{"[]-]", "-", true},
		{"[a-]", "-", true},
		{"[/]", "/", false},
		{"[[:upper:]]", "Q", true},
		{"[[:space:]]", " ", true},
		{"[[:bogus:]]", "a", false},
		{"[[:x]", "x", true}, // not a class: the set of "[", ":" and "x"
		{"[[:x]", "y", false},
		{"[", "[", false},
		{`\[`, "[", true},
		{`a\*b`, "a*b", true},
		{`a\*b`, "axb", false},
		{`foo\`, `foo\`, false},
		{"-*-*-*-*-*-*-12-*-*-*-m-*-*-*", "-adobe-courier-bold-o-normal--12-120-75-75-m-70-iso8859-1", true},
		{"**/*a*b*g*n*t", "abcd/abcdefg/abcdefghijk/abcdefghijklmnop.txtz", false},
	}
	for _, tc := range tests {
		if got := wildmatch(tc.pattern, tc.text); got != tc.want {
			t.Errorf("wildmatch(%q, %q) = %v, want %v", tc.pattern, tc.text, got, tc.want)
		}
	}
}
