package shellenv

import (
	"bytes"
	"errors"
	"os"
	"strconv"
	"strings"
)

// Conceal keeps ponder's secrets out of its process environment as other
// programs see it. A process's initial environment stays readable in
// /proc/PID/environ for its whole life, whatever it later unsets; a
// command ponder runs could print its parent's with cat /proc/$PPID/environ.
// The Go runtime copied that environment into its own memory before any
// package started, so on Linux Conceal overwrites each secret entry of the
// original block in place, through /proc/self/mem: /proc then shows zero
// bytes where the secret was, while the program keeps using its copy.
// (sandbox.HardenProcess later makes the process non-dumpable, so that
// the same user's other programs cannot read the secrets from its memory
// either; this must run before, while /proc/self/mem is still writable.)
//
// Call it first thing in main.
func Conceal() error {
	block, err := os.ReadFile("/proc/self/environ")
	if err != nil {
		return err
	}
	start, err := envStart()
	if err != nil {
		return err
	}
	mem, err := os.OpenFile("/proc/self/mem", os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	defer mem.Close()
	off := 0
	for kv := range bytes.SplitSeq(block, []byte{0}) {
		name, value, _ := strings.Cut(string(kv), "=")
		if IsCredential(name) || LooksSecret(name, value) {
			if _, err := mem.WriteAt(make([]byte, len(kv)), int64(start)+int64(off)); err != nil {
				return err
			}
		}
		off += len(kv) + 1
	}
	return nil
}

// envStart reads where the initial environment block begins in memory
// (field 50 of /proc/self/stat).
func envStart() (uint64, error) {
	stat, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return 0, err
	}
	// The command name in parentheses may hold spaces; fields are
	// counted after its closing parenthesis, which ends field 2.
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, errors.New("unexpected /proc/self/stat")
	}
	fields := strings.Fields(string(stat[i+1:]))
	const envStartField = 50
	if len(fields) < envStartField-2 {
		return 0, errors.New("/proc/self/stat lacks env_start")
	}
	return strconv.ParseUint(fields[envStartField-3], 10, 64)
}
