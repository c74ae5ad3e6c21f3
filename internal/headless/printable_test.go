package headless

import "testing"

func TestPrintableDropsWhatATerminalWouldObey(t *testing.T) {
	cases := map[string]string{
		"plain\ttext\nline":                       "plain\ttext\nline",
		"copy \x1b]52;c;ZWNobyBwd25lZA==\x07done": "copy done",
		"title \x1b]0;owned\x1b\\ok":              "title ok",
		"\x1b[31mred\x1b[0m and \x1b[2J":          "red and ",
		"bell\x07 nul\x00 cr\r c1\u009b2J":        "bell nul cr c12J",
		"dcs \x1bPq#0;2;0;0;0\x1b\\ after":        "dcs  after",
		"cut \x1b]52;c;abc":                       "cut ",
		"ünïcode ✓":                               "ünïcode ✓",
	}
	for in, want := range cases {
		if got := printable(in); got != want {
			t.Errorf("printable(%q) = %q, want %q", in, got, want)
		}
	}
}
