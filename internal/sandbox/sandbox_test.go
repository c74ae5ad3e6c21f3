package sandbox

import (
	"slices"
	"strings"
	"testing"
)

func TestScratchEnv(t *testing.T) {
	env := scratchEnv([]string{"PATH=/bin", "TMPDIR=/elsewhere", "GOCACHE=/home/u/.cache/go", "GOPROXY=https://proxy", "HOME=/home/u"}, "/tmp/s")
	get := func(k string) string {
		for _, kv := range env {
			if v, ok := strings.CutPrefix(kv, k+"="); ok {
				return v
			}
		}
		return "<unset>"
	}
	for k, want := range map[string]string{
		"PATH": "/bin", "HOME": "/home/u", "TMPDIR": "/tmp/s", "GOCACHE": "/tmp/s/go-build", "GOPROXY": "off",
		"GOTELEMETRY": "off", "GIT_OPTIONAL_LOCKS": "0", "npm_config_cache": "/tmp/s/npm-cache",
		"npm_config_logs_dir": "/tmp/s/npm-logs", "XDG_CACHE_HOME": "/tmp/s/cache", "PIP_NO_CACHE_DIR": "1",
	} {
		if got := get(k); got != want {
			t.Errorf("%s=%q, want %q", k, got, want)
		}
	}
	seen := map[string]bool{}
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if seen[k] {
			t.Errorf("%s set twice", k)
		}
		seen[k] = true
	}
}

func TestBwrapArgs(t *testing.T) {
	args := bwrapArgs([]string{"/bin/bash", "-c", "ls"}, "/proj", "/tmp/s", false, 3)
	joined := strings.Join(args, " ")
	for _, want := range []string{"--ro-bind / /", "--dev /dev", "--proc /proc", "--bind /tmp/s /tmp/s", "--unshare-all",
		"--cap-drop ALL", "--die-with-parent", "--new-session", "--chdir /proj", "--seccomp 3", "-- /bin/bash -c ls"} {
		if !strings.Contains(joined, want) {
			t.Errorf("missing %q in %s", want, joined)
		}
	}
	if slices.Contains(args, "--share-net") {
		t.Error("network shared without the setting")
	}
	if !slices.Contains(bwrapArgs([]string{"true"}, "", "/s", true, -1), "--share-net") {
		t.Error("network setting ignored")
	}
	if slices.Contains(bwrapArgs([]string{"true"}, "", "/s", true, -1), "--seccomp") {
		t.Error("seccomp without a descriptor")
	}
	// The command comes after "--", so it cannot pass as bwrap options.
	evil := bwrapArgs([]string{"--bind", "/", "/"}, "", "/s", false, -1)
	if i := slices.Index(evil, "--"); i < 0 || evil[i+1] != "--bind" {
		t.Errorf("command not after --: %v", evil)
	}
}

func TestSeatbeltProfile(t *testing.T) {
	p := seatbeltProfile(false)
	for _, want := range []string{"(version 1)", "(deny file-write*)", `(subpath (param "SCRATCH"))`, `(literal "/dev/null")`,
		"(deny network*)", "(allow signal (target same-sandbox))"} {
		if !strings.Contains(p, want) {
			t.Errorf("profile lacks %q:\n%s", want, p)
		}
	}
	if strings.Contains(seatbeltProfile(true), "(deny network*)") {
		t.Error("network denied with the setting on")
	}
	// Paths are never spliced into the profile text.
	if strings.Contains(p, "/tmp") {
		t.Error("a path in the profile text")
	}
	open, closed := strings.Count(p, "("), strings.Count(p, ")")
	if open != closed {
		t.Errorf("unbalanced parentheses: %d ( and %d )", open, closed)
	}
}

func TestStatusSummary(t *testing.T) {
	for st, want := range map[string]Status{
		"landlock (ABI 7)": {Kind: KindLandlock, ABI: 7},
		"bwrap":            {Kind: KindBubblewrap},
		"none":             {Kind: KindNone},
	} {
		if got := want.Summary(); got != st {
			t.Errorf("Summary = %q, want %q", got, st)
		}
	}
	var nilBox *Sandbox
	if nilBox.Kind() != KindNone || nilBox.Available() {
		t.Error("a nil sandbox must read as none")
	}
}
