package sandbox

import (
	"path/filepath"
	"strings"
)

// scratchEnv returns env with the variables that make common readers work
// quietly inside the wall: caches, temporary files and logs go to the
// scratch directory (the only place a confined command may write), and
// tools that would otherwise fetch, lock or report are told not to. The
// wall holds without these; they only spare readers failed writes.
func scratchEnv(env []string, scratch string) []string {
	in := func(name string) string { return filepath.Join(scratch, name) }
	set := [][2]string{
		{"TMPDIR", scratch},
		{"TMP", scratch},
		{"TEMP", scratch},
		{"XDG_CACHE_HOME", in("cache")},
		// Go: build cache and temporary files in the scratch directory,
		// no telemetry, no downloads.
		{"GOCACHE", in("go-build")},
		{"GOTMPDIR", scratch},
		{"GOTELEMETRY", "off"},
		{"GOPROXY", "off"},
		// Rust: cargo check and friends build into the scratch
		// directory, not the project's target/, and fetch nothing.
		{"CARGO_TARGET_DIR", in("cargo-target")},
		{"CARGO_NET_OFFLINE", "true"},
		// git: no index refresh or other optional locks.
		{"GIT_OPTIONAL_LOCKS", "0"},
		// npm: its cache and debug logs in the scratch directory.
		{"npm_config_cache", in("npm-cache")},
		{"npm_config_logs_dir", in("npm-logs")},
		{"npm_config_update_notifier", "false"},
		// Python: no byte code next to the sources, no pip cache.
		{"PYTHONDONTWRITEBYTECODE", "1"},
		{"PIP_NO_CACHE_DIR", "1"},
		// less keeps no history file.
		{"LESSHISTFILE", "-"},
	}
	return withSettings(env, set)
}

// withSettings returns env with set's variables in place of any of the
// same name.
func withSettings(env []string, set [][2]string) []string {
	out := make([]string, 0, len(env)+len(set))
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if !overridden(set, name) {
			out = append(out, kv)
		}
	}
	for _, kv := range set {
		out = append(out, kv[0]+"="+kv[1])
	}
	return out
}

func overridden(set [][2]string, name string) bool {
	for _, kv := range set {
		if kv[0] == name {
			return true
		}
	}
	return false
}
