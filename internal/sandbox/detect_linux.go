//go:build linux && (amd64 || arm64)

package sandbox

import "fmt"

// detect picks Landlock when the kernel has it, else bubblewrap, else
// nothing; want forces one of them.
func detect(s *Sandbox, want Kind) error {
	auto := want == "" || want == "auto"
	if auto || want == KindLandlock {
		abi, errata := landlockABI()
		if abi >= 1 {
			l, err := newLandlock(abi, errata, s.opts)
			if err == nil {
				s.kind, s.abi, s.impl = KindLandlock, abi, l
				return nil
			}
			s.missing = append(s.missing, "Landlock: "+err.Error())
		} else {
			s.missing = append(s.missing, "Landlock: not supported or turned off in this kernel")
		}
		if want == KindLandlock {
			return fmt.Errorf("%s=landlock, but %s", ChoiceEnv, s.missing[len(s.missing)-1])
		}
	}
	if auto || want == KindBubblewrap {
		b, err := newBubblewrap(s.opts)
		if err == nil {
			s.kind, s.impl = KindBubblewrap, b
			return nil
		}
		s.missing = append(s.missing, "bubblewrap: "+err.Error())
		if want == KindBubblewrap {
			return fmt.Errorf("%s=bwrap, but %s", ChoiceEnv, err)
		}
	}
	if want == KindSeatbelt {
		return fmt.Errorf("%s=seatbelt: Seatbelt exists only on macOS", ChoiceEnv)
	}
	s.kind = KindNone
	return nil
}
