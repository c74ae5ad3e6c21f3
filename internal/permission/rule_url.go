package permission

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"path"
	"strconv"
	"strings"

	"golang.org/x/net/idna"
)

// A WebFetch rule's specifier is either "domain:HOST" (the host and its
// subdomains; "domain:*.HOST" for subdomains only; "domain:HOST:PORT" for
// one port) or a URL that the target must start with, compared element by
// element after both are normalised: https://docs.example.com/api/ covers
// https://docs.example.com/api/v2 but not http://…, another port, or
// /api/../admin.
//
// Targets and URL rules are compared in a normal form, so that the many
// ways of writing one address all meet the same rules: scheme and host in
// lower case, a trailing dot dropped from the host, international names in
// punycode, IPv4 addresses in any of the forms inet_aton accepts (127.1,
// 0x7f.0.0.1, 2130706433) and IPv4-mapped IPv6 written as dotted quads,
// the default port made explicit, userinfo and fragment ignored, the path
// percent-decoded, backslashes read as slashes and dot segments removed.
// Loopback names and addresses (localhost, *.localhost, 127.0.0.0/8, ::1)
// and the unspecified addresses (0.0.0.0, ::), which connect to the local
// host on Linux, count as one host.

// urlSpec is a parsed WebFetch specifier.
type urlSpec struct {
	// domain rules
	domain  string
	subOnly bool
	port    string // "" for any port
	// URL prefix rules
	prefix *normURL
}

// normURL is a URL in the normal form rules compare.
type normURL struct {
	scheme, host, port, path, query string
}

// parseURLSpec parses the specifier of a WebFetch rule.
func parseURLSpec(spec string) (*urlSpec, error) {
	if d, ok := strings.CutPrefix(spec, "domain:"); ok {
		s := &urlSpec{}
		if rest, ok := strings.CutPrefix(d, "*."); ok {
			s.subOnly, d = true, rest
		}
		if strings.ContainsAny(d, "/@?#\\ ") || d == "" {
			return nil, fmt.Errorf("domain:%s is not a host name; write domain:example.com", d)
		}
		host := d
		if h, p, err := net.SplitHostPort(d); err == nil {
			port, perr := normPort(p, "")
			if perr != nil {
				return nil, perr
			}
			host, s.port = h, port
		}
		h, err := normHost(strings.Trim(host, "[]"))
		if err != nil {
			return nil, err
		}
		s.domain = h
		return s, nil
	}
	if !strings.Contains(spec, "://") {
		return nil, fmt.Errorf("want domain:HOST or a URL with its scheme, such as WebFetch(domain:%s) or WebFetch(https://%s/)", spec, spec)
	}
	u, err := normalizeURL(spec)
	if err != nil {
		return nil, err
	}
	return &urlSpec{prefix: &u}, nil
}

// networkMatches reports whether a WebFetch specifier matches a target
// URL (or, for commands such as curl, an address given without a scheme,
// which is taken as http). A specifier or target that cannot be parsed
// matches nothing; Decide refuses such targets on its own.
func networkMatches(spec, target string) bool {
	s, err := parseURLSpec(spec)
	if err != nil {
		return false
	}
	return s.matches(target)
}

// matches is networkMatches for a parsed specifier.
func (s *urlSpec) matches(target string) bool {
	t, err := normalizeURL(target)
	if err != nil {
		return false
	}
	if s.prefix == nil {
		if s.port != "" && s.port != t.port {
			return false
		}
		if sameHost(s.domain, t.host) && !s.subOnly {
			return true
		}
		return net.ParseIP(s.domain) == nil && strings.HasSuffix(t.host, "."+s.domain)
	}
	p := s.prefix
	if p.scheme != t.scheme || !sameHost(p.host, t.host) || p.port != t.port || !pathHasPrefix(t.path, p.path) {
		return false
	}
	return p.query == "" || (t.path == p.path && strings.HasPrefix(t.query, p.query))
}

// pathHasPrefix reports whether path p is prefix or lies below it, element
// by element: /api covers /api and /api/x, not /apiary.
func pathHasPrefix(p, prefix string) bool {
	if prefix == "/" || p == prefix {
		return true
	}
	if !strings.HasPrefix(p, prefix) {
		return false
	}
	return strings.HasSuffix(prefix, "/") || p[len(prefix)] == '/'
}

// errAmbiguousURL is a URL that parsers disagree about.
var errAmbiguousURL = errors.New("the URL has a backslash or a control character in it, which programs read in different ways")

// normalizeURL parses raw and brings it to the normal form.
func normalizeURL(raw string) (normURL, error) {
	raw = strings.TrimSpace(raw)
	if !strings.Contains(raw, "://") {
		raw = "http://" + raw
	}
	scheme, rest, _ := strings.Cut(raw, "://")
	authority := rest
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		authority = rest[:i]
	}
	if strings.ContainsAny(authority, "\\") || strings.ContainsFunc(raw, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return normURL{}, errAmbiguousURL
	}
	u, err := url.Parse(strings.ToLower(scheme) + "://" + rest)
	if err != nil {
		return normURL{}, fmt.Errorf("the URL cannot be parsed: %v", unwrapURLError(err))
	}
	if u.Opaque != "" || u.Host == "" {
		return normURL{}, errors.New("the URL has no host")
	}
	host, err := normHost(u.Hostname())
	if err != nil {
		return normURL{}, err
	}
	port, err := normPort(u.Port(), u.Scheme)
	if err != nil {
		return normURL{}, err
	}
	return normURL{scheme: u.Scheme, host: host, port: port, path: normPath(u.Path), query: u.RawQuery}, nil
}

func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// normPath cleans a decoded URL path: backslashes become slashes, dot
// segments and repeated slashes go, a trailing slash stays.
func normPath(p string) string {
	p = strings.ReplaceAll(p, `\`, "/")
	if p == "" {
		return "/"
	}
	trailing := strings.HasSuffix(p, "/")
	p = path.Clean("/" + p)
	if trailing && p != "/" {
		p += "/"
	}
	return p
}

// normPort returns the port in decimal, the scheme's default when empty.
func normPort(p, scheme string) (string, error) {
	if p == "" {
		switch scheme {
		case "http", "ws":
			return "80", nil
		case "https", "wss":
			return "443", nil
		case "ftp":
			return "21", nil
		}
		return "", nil
	}
	n, err := strconv.Atoi(p)
	if err != nil || n < 0 || n > 65535 {
		return "", fmt.Errorf("port %q is not a port number", p)
	}
	return strconv.Itoa(n), nil
}

// normHost brings a host name or address to its normal form.
func normHost(h string) (string, error) {
	h = strings.TrimSuffix(strings.ToLower(h), ".")
	if h == "" || strings.HasSuffix(h, ".") {
		return "", errors.New("the URL's host is empty")
	}
	if i := strings.IndexByte(h, '%'); i >= 0 && strings.Contains(h, ":") {
		h = h[:i] // an IPv6 zone names the interface, not the host
	}
	if ip := net.ParseIP(h); ip != nil {
		if v4 := ip.To4(); v4 != nil {
			return v4.String(), nil
		}
		return ip.String(), nil
	}
	if v4, ok := parseLooseIPv4(h); ok {
		return v4, nil
	}
	a, err := idna.Lookup.ToASCII(h)
	if err != nil {
		return "", fmt.Errorf("host %q is not a valid name: %v", h, err)
	}
	return a, nil
}

// parseLooseIPv4 reads the IPv4 forms inet_aton accepts besides the dotted
// quad: one to four parts, each decimal, octal (leading 0) or hex (0x), the
// last filling the remaining bytes.
func parseLooseIPv4(h string) (string, bool) {
	parts := strings.Split(h, ".")
	if len(parts) > 4 {
		return "", false
	}
	vals := make([]uint64, len(parts))
	for i, p := range parts {
		base := 10
		switch {
		case strings.HasPrefix(p, "0x"):
			p, base = p[2:], 16
			if p == "" {
				p = "0"
			}
		case len(p) > 1 && p[0] == '0':
			p, base = p[1:], 8
		}
		v, err := strconv.ParseUint(p, base, 32)
		if err != nil || p == "" {
			return "", false
		}
		vals[i] = v
	}
	var n uint64
	for i, v := range vals[:len(vals)-1] {
		if v > 255 {
			return "", false
		}
		n |= v << (24 - 8*i)
	}
	last := vals[len(vals)-1]
	if last >= 1<<(8*(5-len(vals))) {
		return "", false
	}
	n |= last
	return net.IPv4(byte(n>>24), byte(n>>16), byte(n>>8), byte(n)).String(), true
}

// sameHost compares normalised hosts; every loopback name and address is
// the same host.
func sameHost(a, b string) bool {
	return a == b || (isLoopback(a) && isLoopback(b))
}

// isLoopback reports whether a normalised host reaches this machine: a
// loopback name or address, or the unspecified address (0.0.0.0, ::, and
// every spelling that normalises to them, such as 0 or 0x0), which Linux
// connects to the local host.
func isLoopback(h string) bool {
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && (ip.IsLoopback() || ip.IsUnspecified())
}
