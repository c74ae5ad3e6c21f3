package shellclass

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// redirect checks one redirection: output may only go to a descriptor or
// to a harmless device.
func (w *walker) redirect(r *syntax.Redirect) {
	w.visited[r] = true
	if r.N != nil && strings.HasPrefix(r.N.Value, "{") {
		w.denyf("stores a file descriptor in the variable %s", r.N.Value)
	}
	if r.Hdoc != nil {
		w.word(r.Hdoc)
	}
	if r.Word == nil {
		w.hide("uses a redirection that is not checked")
		return
	}
	target := w.wordArg(r.Word)
	w.socketRedirect(target)
	switch r.Op {
	case syntax.RdrIn:
		w.use(target, false)
		return
	case syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
		return
	case syntax.DplIn, syntax.DplOut:
		if target.lit && isDescriptor(target.text) {
			return
		}
		if r.Op == syntax.DplIn {
			w.denyf("duplicates input from %s, which is not a file descriptor", target.text)
			return
		}
	}
	switch {
	case target.lit && safeOutputs[target.text]:
	case target.lit:
		w.writes = append(w.writes, target.text)
		w.use(target, true)
		w.denyf("redirects output to %q", target.text)
	default:
		w.writes = append(w.writes, target.text)
		w.denyf("redirects output to a file named by %s", target.text)
	}
}

// safeOutputs are the files output may be redirected to.
var safeOutputs = map[string]bool{
	"/dev/null":   true,
	"/dev/stdout": true,
	"/dev/stderr": true,
}

// isDescriptor reports whether s is a redirection operand naming a file
// descriptor: "1", "2-" (move) or "-" (close).
func isDescriptor(s string) bool {
	s = strings.TrimSuffix(s, "-")
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// socketRedirect records the network connection bash opens for a
// redirection to /dev/tcp/host/port or /dev/udp/host/port. A target only
// known at run time could be one.
func (w *walker) socketRedirect(target arg) {
	for _, dev := range []string{"/dev/tcp/", "/dev/udp/"} {
		if rest, ok := strings.CutPrefix(target.text, dev); ok && target.lit {
			host, port, _ := strings.Cut(rest, "/")
			w.fetches = append(w.fetches, Fetch{Program: "bash", URL: "tcp://" + host + ":" + port})
			return
		}
		if !target.lit && (strings.HasPrefix(target.prefix, dev) || strings.HasPrefix(dev, target.prefix)) {
			w.fetches = append(w.fetches, Fetch{Program: "bash"})
			return
		}
	}
}
