package sandbox

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// A confined command's scratch directory is named after the ponder that
// made it: ponder-sandbox-PID.START-RANDOM, START being when that process
// started. A ponder that crashed or was killed leaves its scratch
// directories behind; the next ponder removes those whose owner is gone,
// and nothing else.

// scratchPrefix begins every scratch directory's name.
const scratchPrefix = "ponder-sandbox-"

// makeScratch makes a scratch directory named after this process.
func makeScratch() (string, error) {
	return os.MkdirTemp("", scratchPattern())
}

// scratchPattern is the os.MkdirTemp pattern of this process's scratch
// directories.
func scratchPattern() string {
	start, _ := processStart(os.Getpid())
	return scratchPrefix + strconv.Itoa(os.Getpid()) + "." + strconv.FormatUint(start, 10) + "-"
}

var staleOnce sync.Once

// removeStaleScratch removes, once per process, the scratch directories
// in dir that ponder processes no longer running left behind. A name that
// does not follow the pattern, an entry that is not a directory (a link
// included), one owned by another user, and one whose owner still runs
// (the same pid started at the same time) are left alone.
func removeStaleScratch(dir string) (removed []string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	self := os.Getpid()
	for _, e := range entries {
		pid, start, ok := parseScratchName(e.Name())
		if !ok || pid == self || !e.IsDir() {
			continue
		}
		p := filepath.Join(dir, e.Name())
		if !ownedByMe(p) || !ownerGone(pid, start) {
			continue
		}
		if os.RemoveAll(p) == nil {
			removed = append(removed, p)
		}
	}
	return removed
}

// parseScratchName reads the owner out of a scratch directory's name.
func parseScratchName(name string) (pid int, start uint64, ok bool) {
	rest, found := strings.CutPrefix(name, scratchPrefix)
	if !found {
		return 0, 0, false
	}
	owner, random, found := strings.Cut(rest, "-")
	if !found || random == "" {
		return 0, 0, false
	}
	p, s, found := strings.Cut(owner, ".")
	if !found {
		return 0, 0, false
	}
	pid, err := strconv.Atoi(p)
	if err != nil || pid <= 0 {
		return 0, 0, false
	}
	start, err = strconv.ParseUint(s, 10, 64)
	if err != nil {
		return 0, 0, false
	}
	return pid, start, true
}

// ownerGone reports whether the process that made a scratch directory no
// longer runs: no process has its pid, or the one that has was started
// at another time.
func ownerGone(pid int, start uint64) bool {
	now, alive := processStart(pid)
	return !alive || now != start
}
