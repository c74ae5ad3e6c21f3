package builtin

import (
	"strings"
	"testing"
)

// A failure that shows the sandbox's refusal says what was withheld and
// how to ask for more; other failures say nothing of the sandbox.
func TestWithheldNote(t *testing.T) {
	for out, want := range map[string]string{
		"error: could not write config file .git/config: Device or resource busy": "read-only",
		"touch: cannot touch '/root/.bashrc': Read-only file system":              "read-only",
		"npm ERR! getaddrinfo EAI_AGAIN registry.npmjs.org":                       "network",
		"fatal: unable to access: Could not resolve host: github.com":             "network",
		"FileNotFoundError: [Errno 2] No such file or directory: 'x'":             "",
		"--- FAIL: TestX": "",
	} {
		note := withheldNote(out)
		switch {
		case want == "" && note != "":
			t.Errorf("%q: unexpected note %q", out, note)
		case want != "" && (!strings.Contains(note, want) || !strings.Contains(note, "outside_sandbox: true")):
			t.Errorf("%q: note %q lacks %q", out, note, want)
		}
	}
}
