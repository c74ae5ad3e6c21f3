//go:build linux && (amd64 || arm64)

package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
)

// bubblewrap confines commands by running them through bwrap, for
// kernels without Landlock. The seccomp filter goes along through bwrap's
// --seccomp, which loads it just before running the command.
type bubblewrap struct {
	path    string
	network bool
	filters filterSet
}

func newBubblewrap(opts Options) (*bubblewrap, error) {
	path, err := exec.LookPath("bwrap")
	if err != nil {
		return nil, errors.New("bwrap is not installed (the bubblewrap package)")
	}
	filters, err := buildFilterSet(filterOptions{network: opts.Network, ponder: os.Getpid()})
	if err != nil {
		return nil, err
	}
	b := &bubblewrap{path: path, network: opts.Network, filters: filters}
	// bwrap can be installed yet unusable (no user namespaces in a
	// container): try it once.
	dir, err := os.MkdirTemp("", "ponder-sandbox-probe-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	probe := exec.Command(path, bwrapArgs([]string{"true"}, "/", dir, opts.Network, -1)...)
	if out, err := probe.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("bwrap does not work here: %v %s", err, strings.TrimSpace(string(out)))
	}
	return b, nil
}

// prepare wraps cmd in bwrap. A command allowed to fetch shares the
// network namespace: bwrap cannot limit ports, so there the permission
// rules alone judge where it connects.
func (b *bubblewrap) prepare(cmd *exec.Cmd, scratch string, c Confinement) (func() error, func(), error) {
	filter, network := b.filters.pick(c), b.network
	if len(c.Ports) > 0 {
		network = true
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, nil, err
	}
	// The filter is a few kilobytes at most, well within a pipe's buffer.
	if _, err := w.Write(filterBytes(filter)); err != nil {
		r.Close()
		w.Close()
		return nil, nil, err
	}
	w.Close()
	fd := 3 + len(cmd.ExtraFiles)
	cmd.ExtraFiles = append(cmd.ExtraFiles, r)
	argv := append([]string{cmd.Path}, cmd.Args[1:]...)
	cmd.Args = append([]string{"bwrap"}, bwrapArgs(argv, cmd.Dir, scratch, network, fd)...)
	cmd.Path = b.path
	return nil, func() { r.Close() }, nil
}

func (b *bubblewrap) restricts() []string {
	net := "network: none (a network namespace of its own)"
	if b.network {
		net = "network: allowed (sandbox.network)"
	}
	return []string{
		"writes: only a private scratch directory (removed after each command); the rest of the file system is mounted read-only",
		"devices: a fresh /dev without terminals or disks",
		net,
		"processes: a PID namespace of its own, so nothing outside can be signalled and nothing outlives bwrap",
		seccompSummary,
		"privileges: every capability dropped",
	}
}
