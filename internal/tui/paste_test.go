package tui

import "testing"

func TestPastedImagePathsBecomeMentions(t *testing.T) {
	for in, want := range map[string]string{
		"/tmp/shot.png":                 "@/tmp/shot.png ",
		"'/Users/me/Screen Shot 1.PNG'": `@"/Users/me/Screen Shot 1.PNG" `,
		"/Users/me/Screen\\ Shot.jpg":   `@"/Users/me/Screen Shot.jpg" `,
		"file:///home/me/a%20b.webp":    `@"/home/me/a b.webp" `,
		"~/Pictures/cat.gif\n":          "@~/Pictures/cat.gif ",
	} {
		if got, ok := pastedImage(in); !ok || got != want {
			t.Errorf("pastedImage(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for _, in := range []string{"shot.png", "/tmp/notes.txt", "look at /tmp/a.png please", "/tmp/a.png\n/tmp/b.png"} {
		if got, ok := pastedImage(in); ok {
			t.Errorf("pastedImage(%q) = %q", in, got)
		}
	}
}
