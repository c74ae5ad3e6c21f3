package permission

// SameURLHost reports whether two URLs name the same host as the URL
// rules see hosts: after normalising (case, trailing dot, every spelling
// of an address), with every loopback name and address counting as one
// host. A URL that cannot be normalised is no host's.
func SameURLHost(a, b string) bool {
	na, err := normalizeURL(a)
	if err != nil {
		return false
	}
	nb, err := normalizeURL(b)
	if err != nil {
		return false
	}
	return sameHost(na.host, nb.host)
}
