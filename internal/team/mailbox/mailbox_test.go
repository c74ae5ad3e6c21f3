package mailbox

import (
	"strings"
	"testing"
)

func TestOpenPicksImplementation(t *testing.T) {
	t.Parallel()
	for _, setting := range []string{"", "files"} {
		mb, err := Open(setting, t.TempDir(), "core")
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := mb.(*fileMailbox); !ok {
			t.Errorf("Open(%q) = %T", setting, mb)
		}
		mb.Close()
	}
	url := startNATS(t, t.TempDir(), 0).ClientURL()
	mb, err := Open(url, "", "core")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := mb.(*natsMailbox); !ok {
		t.Errorf("Open(%q) = %T", url, mb)
	}
	if mb.Team() != "core" {
		t.Errorf("Team = %q", mb.Team())
	}
	mb.Close()

	for _, bad := range []string{"file", "FILES", "http://x:4222", "nats:/x", "nats://", "nats://a:1,http://b", "/tmp/x", "nats://user:hunter2@ host"} {
		_, err := Open(bad, t.TempDir(), "core")
		if err == nil {
			t.Errorf("Open(%q) accepted", bad)
			continue
		}
		if strings.Contains(err.Error(), "hunter2") {
			t.Errorf("Open(%q) shows the password: %v", bad, err)
		}
	}
	if _, err := Open("files", "", "core"); err == nil {
		t.Error("the file mailbox opened without a config directory")
	}
}

func TestRedactURL(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"nats://127.0.0.1:4222":             "nats://127.0.0.1:4222",
		"nats://alice:secret@h:1":           "nats://xxxxx@h:1",
		"nats://token@h:1,tls://bob:pw@g:2": "nats://xxxxx@h:1,tls://xxxxx@g:2",
		"nats://user:hunter2@ host":         "(an unreadable URL)",
		"files":                             "files",
	} {
		if got := redactURL(in); got != want {
			t.Errorf("redactURL(%q) = %q, want %q", in, got, want)
		}
	}
}
