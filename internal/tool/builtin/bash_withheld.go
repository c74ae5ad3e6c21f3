package builtin

import "strings"

// withheldSigns are what commands print when the workspace sandbox
// withheld something, by what was withheld.
var withheldSigns = []struct {
	what  string
	signs []string
}{
	{"a write to a path it keeps read-only (the files that decide what runs later, such as .git/config, .git/hooks and editor or agent settings, and everything outside the project and its caches)",
		[]string{"read-only file system", "device or resource busy", "permission denied", "operation not permitted", "eacces", "erofs", "eperm"}},
	{"the network (sandbox.network is off)",
		[]string{"network is unreachable", "could not resolve", "temporary failure in name resolution", "name or service not known",
			"getaddrinfo", "eai_again", "address family not supported", "connection refused", "no such host", "dial tcp", "dial udp"}},
}

// withheldNote says, for a command that failed inside the workspace
// sandbox, what the sandbox may have withheld and how to run the command
// outside it; "" when its output shows no sign of either.
func withheldNote(output string) string {
	low := strings.ToLower(output)
	var what []string
	for _, w := range withheldSigns {
		for _, s := range w.signs {
			if strings.Contains(low, s) {
				what = append(what, w.what)
				break
			}
		}
	}
	if len(what) == 0 {
		return ""
	}
	return "\n\nThe command ran in ponder's OS sandbox, which may have withheld " + strings.Join(what, ", and ") +
		". If the command needs that, call Bash again with the same command and outside_sandbox: true: the user is asked whether it may run outside the sandbox."
}

// setAsideNote says which files that decide what runs the sandbox moved
// out of the way after the command created them; "" for none.
func setAsideNote(paths []string) string {
	if len(paths) == 0 {
		return ""
	}
	return "\n\nThe command created " + strings.Join(paths, ", ") + ", which decide(s) what runs later and which the OS sandbox keeps read-only: " +
		"ponder renamed each to NAME.ponder-withheld-N. If the file is meant to be there, call Bash again with the same command and outside_sandbox: true (the user is asked)."
}
