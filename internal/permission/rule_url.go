package permission

import (
	"net/url"
	"strings"
)

// networkMatches matches "domain:example.com" (and its subdomains) or a
// URL prefix.
func networkMatches(spec, target string) bool {
	if d, ok := strings.CutPrefix(spec, "domain:"); ok {
		u, err := url.Parse(target)
		if err != nil {
			return false
		}
		host := strings.ToLower(u.Hostname())
		d = strings.ToLower(d)
		return host == d || strings.HasSuffix(host, "."+d)
	}
	return strings.HasPrefix(target, spec)
}
