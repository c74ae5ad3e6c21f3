package atomicfile

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// A process killed between creating a temporary file and renaming it
// leaves the file behind. The next write into the same directory removes
// it, but a directory may never be written again; so each process also
// notes, in ponder's config directory, the directories where it makes
// temporary files:
//
//	<config dir>/temps/<pid>.dirs
//
// one quoted path a line. Sweep, at the start of a later process, cleans
// the directories of processes that are gone (removing, as always, only
// files whose names prove them ponder's leftovers) and forgets their
// notes.

// journal notes the directories of one process's temporary files.
type journal struct {
	dir string // <config dir>/temps; "" notes nothing

	mu   sync.Mutex
	seen map[string]bool
}

// note records dir, once per process, before a temporary file is made in
// it. A note that cannot be written only costs the sweep.
func (j *journal) note(dir string) {
	if j == nil || j.dir == "" {
		return
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.seen[abs] {
		return
	}
	if err := os.MkdirAll(j.dir, 0o700); err != nil {
		return
	}
	f, err := os.OpenFile(filepath.Join(j.dir, strconv.Itoa(os.Getpid())+".dirs"), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return
	}
	_, err = f.WriteString(strconv.Quote(abs) + "\n")
	f.Close()
	if err == nil {
		if j.seen == nil {
			j.seen = map[string]bool{}
		}
		j.seen[abs] = true
	}
}

// sweep cleans the directories noted by processes that are gone, and
// forgets their notes. It returns how many leftovers it removed.
func (t *temps) sweep(j *journal) int {
	if t.key == nil || j == nil || j.dir == "" {
		return 0
	}
	d, err := os.Open(j.dir)
	if err != nil {
		return 0
	}
	names, _ := d.Readdirnames(-1)
	d.Close()
	removed := 0
	for _, name := range names {
		pid, err := strconv.Atoi(strings.TrimSuffix(name, ".dirs"))
		if err != nil || !strings.HasSuffix(name, ".dirs") || pid <= 0 || pid == os.Getpid() {
			continue
		}
		path := filepath.Join(j.dir, name)
		info, err := os.Lstat(path)
		if err != nil || !info.Mode().IsRegular() {
			continue
		}
		if processAlive(pid) && time.Since(info.ModTime()) < staleAge {
			continue // still writing, or its pid was taken again: later
		}
		for _, dir := range readNotes(path) {
			removed += t.clean(dir)
		}
		os.Remove(path)
	}
	return removed
}

// readNotes reads the directories of a note file.
func readNotes(path string) []string {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if dir, err := strconv.Unquote(sc.Text()); err == nil && filepath.IsAbs(dir) {
			out = append(out, dir)
		}
	}
	return out
}

// Sweep removes the temporary files that ponder processes killed in the
// middle of a write left anywhere they wrote, and returns how many it
// removed. Call it once as ponder starts.
func Sweep() int {
	return defaultTemps().sweep(defaultJournal())
}

// defaultJournal is the journal in ponder's config directory.
var defaultJournal = sync.OnceValue(func() *journal {
	return &journal{dir: tempsDir()}
})
