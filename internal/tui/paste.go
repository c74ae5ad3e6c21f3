package tui

import (
	"net/url"
	"path/filepath"
	"strings"
)

// pastedImage turns the path of an image file dropped or pasted into the
// terminal (a bare, quoted or file:// path, as terminals give them) into
// an @-mention, so that the image is attached when the prompt is sent.
// It only rewrites text: whether the file exists, and may be read, is
// decided when the prompt is sent.
func pastedImage(s string) (string, bool) {
	p := strings.TrimSpace(s)
	if p == "" || strings.ContainsAny(p, "\n\r") {
		return "", false
	}
	if len(p) >= 2 && (p[0] == '\'' || p[0] == '"') && p[len(p)-1] == p[0] {
		p = p[1 : len(p)-1]
	}
	if strings.HasPrefix(p, "file://") {
		u, err := url.Parse(p)
		if err != nil {
			return "", false
		}
		p = u.Path
	}
	p = strings.ReplaceAll(p, `\ `, " ")
	if !filepath.IsAbs(p) && !strings.HasPrefix(p, "~/") {
		return "", false
	}
	switch strings.ToLower(filepath.Ext(p)) {
	case ".png", ".jpg", ".jpeg", ".gif", ".webp":
	default:
		return "", false
	}
	if strings.ContainsAny(p, " \t") {
		return `@"` + p + `" `, true
	}
	return "@" + p + " ", true
}
