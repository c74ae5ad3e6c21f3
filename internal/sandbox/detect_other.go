//go:build !darwin && !(linux && (amd64 || arm64))

package sandbox

import "fmt"

// detect finds nothing: ponder has no sandbox for this system.
func detect(s *Sandbox, want Kind) error {
	if want != "" && want != "auto" {
		return fmt.Errorf("%s=%s: no sandbox exists for this system", ChoiceEnv, want)
	}
	s.kind = KindNone
	s.missing = append(s.missing, "no sandbox mechanism for this operating system and architecture")
	return nil
}
