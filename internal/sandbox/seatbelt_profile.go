package sandbox

import "strings"

// seatbeltProfile is the Seatbelt (sandbox-exec) profile for a confined
// command on macOS. Paths come in as parameters (-D SCRATCH=…), never
// spliced into the text, so no path can change the profile. Reading and
// running stay allowed; writing is refused everywhere but the scratch
// directory and /dev/null; signals reach only processes in the same
// sandbox; the network is closed unless the setting opens it.
func seatbeltProfile(network bool) string {
	var b strings.Builder
	b.WriteString(`(version 1)
(allow default)
(deny file-write*)
(allow file-write*
  (subpath (param "SCRATCH"))
  (literal "/dev/null"))
(deny file-ioctl (regex #"^/dev/(tty|pty|ttys)"))
(deny signal)
(allow signal (target same-sandbox))
(deny process-info* (target others))
(deny system-privilege)
(deny mach-priv-host-port)
(deny mach-priv-task-port)
`)
	if !network {
		b.WriteString(`(deny network*)
`)
	}
	return b.String()
}
