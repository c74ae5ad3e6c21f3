package permission

import "testing"

func TestURLNormalForm(t *testing.T) {
	cases := []struct {
		in   string
		want normURL
	}{
		{"https://Docs.Example.COM/a", normURL{"https", "docs.example.com", "443", "/a", ""}},
		{"HTTP://LOCALHOST/", normURL{"http", "localhost", "80", "/", ""}},
		{"http://example.com./x", normURL{"http", "example.com", "80", "/x", ""}},
		{"http://allowed.test@127.0.0.1/p", normURL{"http", "127.0.0.1", "80", "/p", ""}},
		{"http://u:pw@h.test:0080/p", normURL{"http", "h.test", "80", "/p", ""}},
		{"http://h.test/public/../private", normURL{"http", "h.test", "80", "/private", ""}},
		{"http://h.test/public/./../private/", normURL{"http", "h.test", "80", "/private/", ""}},
		{"http://h.test/%70rivate/", normURL{"http", "h.test", "80", "/private/", ""}},
		{"http://h.test/public%2F..%2Fprivate", normURL{"http", "h.test", "80", "/private", ""}},
		{`http://h.test/public\..\private`, normURL{"http", "h.test", "80", "/private", ""}},
		{"http://h.test//a///b", normURL{"http", "h.test", "80", "/a/b", ""}},
		{"http://[::ffff:127.0.0.1]/", normURL{"http", "127.0.0.1", "80", "/", ""}},
		{"http://[::1]:8080/", normURL{"http", "::1", "8080", "/", ""}},
		{"http://127.1/", normURL{"http", "127.0.0.1", "80", "/", ""}},
		{"http://0x7f.0.0.1/", normURL{"http", "127.0.0.1", "80", "/", ""}},
		{"http://0177.0.0.1/", normURL{"http", "127.0.0.1", "80", "/", ""}},
		{"http://2130706433/", normURL{"http", "127.0.0.1", "80", "/", ""}},
		{"http://127.0.1/", normURL{"http", "127.0.0.1", "80", "/", ""}},
		{"http://münchen.de/", normURL{"http", "xn--mnchen-3ya.de", "80", "/", ""}},
		{"http://MÜNCHEN.de/", normURL{"http", "xn--mnchen-3ya.de", "80", "/", ""}},
		{"https://h.test/a?b=1#frag", normURL{"https", "h.test", "443", "/a", "b=1"}},
		{"h.test/x", normURL{"http", "h.test", "80", "/x", ""}},
	}
	for _, tc := range cases {
		got, err := normalizeURL(tc.in)
		if err != nil {
			t.Errorf("normalizeURL(%q): %v", tc.in, err)
			continue
		}
		if got != tc.want {
			t.Errorf("normalizeURL(%q) = %+v, want %+v", tc.in, got, tc.want)
		}
	}
	for _, bad := range []string{`http://allowed.test\@evil.test/`, `http://a\b/`, "http://h.test/\x00", "http:example.com", "http://", "http://a b/", "http://x:99999/", "http://a..b../"} {
		if got, err := normalizeURL(bad); err == nil {
			t.Errorf("normalizeURL(%q) = %+v, want an error", bad, got)
		}
	}
}

func TestNetworkRules(t *testing.T) {
	cases := []struct {
		spec, target string
		want         bool
	}{
		// domain rules: the host and its subdomains, any scheme and port
		// unless a port is named.
		{"domain:example.com", "https://example.com/x", true},
		{"domain:example.com", "http://docs.EXAMPLE.com./x", true},
		{"domain:example.com", "https://example.com.evil.test/", false},
		{"domain:example.com", "https://notexample.com/", false},
		{"domain:example.com", "http://example.com@evil.test/", false},
		{"domain:*.example.com", "https://docs.example.com/", true},
		{"domain:*.example.com", "https://example.com/", false},
		{"domain:example.com:8443", "https://example.com:8443/", true},
		{"domain:example.com:8443", "https://example.com/", false},
		{"domain:LOCALHOST", "http://localhost/", true},
		{"domain:127.0.0.1", "http://127.1/", true},
		{"domain:127.0.0.1", "http://0x7f.0.0.1/", true},
		{"domain:127.0.0.1", "http://[::ffff:127.0.0.1]/", true},
		{"domain:127.0.0.1", "http://localhost:6379/", true},
		{"domain:localhost", "http://[::1]/", true},
		// The unspecified address connects to the local host on Linux.
		{"domain:127.0.0.1", "http://0.0.0.0:8080/", true},
		{"domain:127.0.0.1", "http://[::]:8080/", true},
		{"domain:127.0.0.1", "http://0:8080/", true},
		{"domain:127.0.0.1", "http://0x0/", true},
		{"domain:127.0.0.1", "http://00.0/", true},
		{"domain:127.0.0.1", "http://[::ffff:0.0.0.0]/", true},
		{"domain:localhost", "http://[0:0::0]/", true},
		{"http://localhost:8080/admin", "http://0.0.0.0:8080/admin", true},
		{"domain:127.0.0.1", "http://0.0.0.1/", false},
		{"domain:münchen.de", "http://xn--mnchen-3ya.de/", true},
		{"domain:10.0.0.1", "http://1.10.0.0.1/", false},
		// URL rules: scheme, host and port equal, path a prefix element by
		// element, after normalisation.
		{"https://h.test/public/", "https://h.test/public/a.html", true},
		{"https://h.test/public/", "https://H.TEST:443/public/a", true},
		{"https://h.test/public/", "http://h.test/public/a", false},
		{"https://h.test/public/", "https://h.test:8443/public/a", false},
		{"https://h.test/public/", "https://h.test/public/../private/a", false},
		{"https://h.test/public/", "https://h.test/%70ublic/a", true},
		{"https://h.test/public/", "https://allowed.test@h.test/public/", true},
		{"https://h.test/public/", "https://h.test@evil.test/public/", false},
		{"https://h.test/public", "https://h.test/publicity", false},
		{"https://h.test/public", "https://h.test/public", true},
		{"https://h.test/public", "https://h.test/public?x=1", true},
		{"https://h.test/private", "https://h.test/public/../private", true},
		{"https://h.test/private", "https://h.test/%70rivate/", true},
		{"https://h.test/private", `https://h.test/public\..\private`, true},
		{"http://localhost:8080/admin", "http://127.0.0.1:8080/admin/x", true},
		{"https://h.test/", "https://h.test/anything", true},
		{"https://h.test/search?q=", "https://h.test/search?q=go", true},
		{"https://h.test/search?q=", "https://h.test/search?x=go", false},
		// Nothing matches what cannot be parsed.
		{"https://h.test/", `https://h.test\@evil.test/`, false},
		{"domain:h.test", "http://h.test:99999/", false},
	}
	for _, tc := range cases {
		if got := networkMatches(tc.spec, tc.target); got != tc.want {
			t.Errorf("networkMatches(%q, %q) = %v, want %v", tc.spec, tc.target, got, tc.want)
		}
	}
}

// Decide refuses a network access whose address cannot be read in one
// way only, whatever rules or mode would say.
func TestDecideRefusesAmbiguousURLs(t *testing.T) {
	e, _ := NewEngine(Rules{Allow: []string{"WebFetch"}, Deny: []string{"WebFetch(domain:evil.test)"}}, "/p", "/h")
	for _, target := range []string{`http://allowed.test\@evil.test/`, "http://evil.test\t/", "http:evil.test"} {
		d := e.Decide(Context{Mode: ModeBypass}, Access{Tool: "WebFetch", Kind: KindNetwork, Target: target})
		if d.Behavior != Deny {
			t.Errorf("%q: %s (%s)", target, d.Behavior, d.Reason)
		}
	}
	d := e.Decide(Context{Mode: ModeBypass}, Access{Tool: "WebFetch", Kind: KindNetwork, Target: "http://EVIL.test./x"})
	if d.Behavior != Deny {
		t.Errorf("denied domain in another spelling: %s", d.Behavior)
	}
}
