package permission

import "testing"

func TestSameURLHost(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{"http://localhost:3000/a", "http://127.0.0.1:3000/b", true},
		{"http://localhost/", "http://[::1]/", true},
		{"http://api.localhost/", "http://127.0.0.2/", true},
		{"https://Docs.Dev/x", "https://docs.dev./y", true},
		{"http://127.1/", "http://127.0.0.1/", true},
		{"http://localhost/", "http://docs.dev/", false},
		{"http://127.0.0.1/", "http://10.0.0.1/", false},
		{"https://docs.dev/", "https://docs.dev.evil.example/", false},
		{"http://a\\b/", "http://a/", false},
	} {
		if got := SameURLHost(tc.a, tc.b); got != tc.same {
			t.Errorf("SameURLHost(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.same)
		}
	}
}
