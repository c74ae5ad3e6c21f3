//go:build darwin

package sandbox

import (
	"fmt"
	"os"
	"os/exec"
)

// sandboxExec is where macOS keeps the Seatbelt front end.
const sandboxExec = "/usr/bin/sandbox-exec"

// detect picks Seatbelt when sandbox-exec is present.
func detect(s *Sandbox, want Kind) error {
	auto := want == "" || want == "auto"
	if !auto && want != KindSeatbelt {
		return fmt.Errorf("%s=%s: only seatbelt exists on macOS", ChoiceEnv, want)
	}
	if _, err := os.Stat(sandboxExec); err != nil {
		s.missing = append(s.missing, "Seatbelt: "+sandboxExec+" is missing")
		if want == KindSeatbelt {
			return fmt.Errorf("%s=seatbelt, but %s is missing", ChoiceEnv, sandboxExec)
		}
		s.kind = KindNone
		return nil
	}
	s.kind, s.impl = KindSeatbelt, seatbelt{network: s.opts.Network}
	return nil
}

// seatbelt runs commands through sandbox-exec with seatbeltProfile.
type seatbelt struct{ network bool }

// prepare wraps cmd in sandbox-exec. A command allowed to fetch gets the
// network: the permission rules judge where it connects.
func (sb seatbelt) prepare(cmd *exec.Cmd, scratch string, c Confinement) (func() error, func(), error) {
	argv := append([]string{cmd.Path}, cmd.Args[1:]...)
	cmd.Args = append([]string{"sandbox-exec", "-D", "SCRATCH=" + scratch, "-p", seatbeltProfile(sb.network || len(c.Ports) > 0)}, argv...)
	cmd.Path = sandboxExec
	return nil, nil, nil
}

func (sb seatbelt) restricts() []string {
	net := "network: none"
	if sb.network {
		net = "network: allowed (sandbox.network)"
	}
	return []string{
		"writes: only a private scratch directory (removed after each command) and /dev/null",
		"signals: only to processes in the same sandbox",
		net,
	}
}
