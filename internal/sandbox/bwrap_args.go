package sandbox

// bwrapArgs are bubblewrap's arguments for running argv with a read-only
// view of the whole file system, a fresh /dev and /proc, scratch as the
// one writable directory, every namespace unshared (the network one only
// when the network is off), no capabilities, a session of its own, death
// with its parent, and the seccomp filter read from file descriptor
// seccompFD (none when negative).
func bwrapArgs(argv []string, dir, scratch string, network bool, seccompFD int) []string {
	args := []string{
		"--ro-bind", "/", "/",
		"--dev", "/dev",
		"--proc", "/proc",
		"--bind", scratch, scratch,
		"--unshare-all",
	}
	if network {
		args = append(args, "--share-net")
	}
	args = append(args, "--cap-drop", "ALL", "--die-with-parent", "--new-session")
	if dir != "" {
		args = append(args, "--chdir", dir)
	}
	if seccompFD >= 0 {
		args = append(args, "--seccomp", itoa(seccompFD))
	}
	args = append(args, "--")
	return append(args, argv...)
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}
