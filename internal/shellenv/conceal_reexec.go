//go:build unix && !linux

package shellenv

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// concealVar names the descriptor a concealed program reads its secrets
// from after the re-execution.
const concealVar = "PONDER_CONCEALED_FD"

// concealMax bounds the secrets handed over, well below the smallest pipe
// buffer, so that writing them before the exec cannot block.
const concealMax = 8 << 10

// Conceal keeps ponder's secrets out of its process environment as other
// programs see it. A process's initial environment stays readable in
// /proc/PID/environ (and through ps on some systems) for its whole life,
// whatever it later unsets; a command ponder runs could print its parent's
// with cat /proc/$PPID/environ. So when the environment holds credentials
// or other secret-looking variables, Conceal writes them to a pipe and
// re-executes the program in place (same process id, arguments and
// descriptors) without them; the new image reads them back into its own
// copy of the environment, where the program uses them as before. (Linux
// overwrites the block in place instead, which costs no second start.)
//
// Call it first thing in main. It returns only when there is nothing to
// conceal, after the hand-over in the re-executed program, or when the
// re-execution failed (then the environment is as it was).
func Conceal() error {
	if fd := os.Getenv(concealVar); fd != "" {
		return restore(fd)
	}
	var keep, hide []string
	size := 0
	for _, kv := range os.Environ() {
		name, value, _ := strings.Cut(kv, "=")
		if IsCredential(name) || LooksSecret(name, value) {
			hide = append(hide, kv)
			size += len(kv) + 1
			continue
		}
		keep = append(keep, kv)
	}
	if len(hide) == 0 {
		return nil
	}
	if size > concealMax {
		return errors.New("too many secret variables to conceal")
	}
	r, w, err := os.Pipe()
	if err != nil {
		return err
	}
	defer r.Close()
	_, err = w.Write([]byte(strings.Join(hide, "\x00")))
	w.Close()
	if err != nil {
		return err
	}
	// dup leaves the copy open across the exec, unlike the pipe's own
	// descriptor.
	fd, err := syscall.Dup(int(r.Fd()))
	if err != nil {
		return err
	}
	exe, err := executable()
	if err != nil {
		syscall.Close(fd)
		return err
	}
	err = syscall.Exec(exe, os.Args, append(keep, concealVar+"="+strconv.Itoa(fd)))
	syscall.Close(fd)
	return err
}

// restore reads the concealed variables back in the re-executed program.
func restore(fdText string) error {
	os.Unsetenv(concealVar)
	fd, err := strconv.Atoi(fdText)
	if err != nil || fd < 3 {
		return errors.New("bad " + concealVar)
	}
	f := os.NewFile(uintptr(fd), "concealed")
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, concealMax+1))
	if err != nil {
		return err
	}
	for kv := range bytes.SplitSeq(data, []byte{0}) {
		if name, value, ok := strings.Cut(string(kv), "="); ok && name != "" {
			os.Setenv(name, value)
		}
	}
	return nil
}

// executable is the running program's file.
func executable() (string, error) { return os.Executable() }
