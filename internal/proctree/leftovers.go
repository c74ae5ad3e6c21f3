package proctree

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// A command's shell dies with ponder (it is started with a parent-death
// signal), but what the shell started outlives a ponder killed with
// SIGKILL, which no handler sees, unless the command ran in a PID
// namespace of its own. So each ponder process that runs commands marks
// them, and leaves a record of the mark where the next ponder looks:
//
//	<config dir>/procs/<pid>-<start>.json
//
// with ponder's pid, its start time in clock ticks since boot, the boot's
// id and a random mark. Every command gets the mark in its environment
// ($PONDER_RUN_ID), and the processes it starts inherit it. The record
// is removed when ponder ends normally. A later ponder that finds a
// record whose process is gone (no process with that pid and start time)
// kills the processes that still carry the mark: of the same user, born
// since that ponder started, in the same boot, each checked and signalled
// through a pidfd, so a pid reused meanwhile is never hit. A process that
// cleared its environment is not found (best effort); one that was never
// marked (started by someone else) is never touched.

// RunIDEnv is the variable that marks the commands of one ponder process.
const RunIDEnv = "PONDER_RUN_ID"

// record is what a ponder process leaves for its successors.
type record struct {
	PID   int    `json:"pid"`
	Start uint64 `json:"start"`
	Boot  string `json:"boot"`
	Mark  string `json:"mark"`
}

// marks is the process's own record, written on first use.
type marks struct {
	mu   sync.Mutex
	dir  string
	path string
	mark string
}

// RecordIn makes the Tracker leave its record in dir (ponder's procs
// directory) once it marks a command. Without it, commands are not
// marked.
func (t *Tracker) RecordIn(dir string) {
	t.marks.mu.Lock()
	t.marks.dir = dir
	t.marks.mu.Unlock()
}

// CommandEnv is what to add to a command's environment so that a later
// ponder can find what it leaves running should this process be killed.
// The first call writes the record; nothing is added where the record
// cannot be written, or where leftovers cannot be found anyway.
func (t *Tracker) CommandEnv() []string {
	m := &t.marks
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.mark != "" {
		return []string{RunIDEnv + "=" + m.mark}
	}
	if m.dir == "" || !CanSweep() {
		return nil
	}
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil
	}
	rec := record{PID: t.os.pid(), Start: selfStart(), Boot: bootID(), Mark: hex.EncodeToString(b[:])}
	if rec.Start == 0 || rec.Boot == "" {
		return nil
	}
	data, _ := json.Marshal(rec)
	if err := os.MkdirAll(m.dir, 0o700); err != nil {
		return nil
	}
	path := filepath.Join(m.dir, strconv.Itoa(rec.PID)+"-"+strconv.FormatUint(rec.Start, 10)+".json")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		return nil
	}
	m.path, m.mark = path, rec.Mark
	return []string{RunIDEnv + "=" + m.mark}
}

// forget removes the process's record: it ends normally, and has killed
// what its commands left.
func (t *Tracker) forget() {
	m := &t.marks
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.path != "" {
		os.Remove(m.path)
		m.path = ""
	}
}

// Sweep kills what the commands of ponder processes that were killed
// (their records in dir remain, their processes are gone) left running,
// and removes those records. It returns how many processes it killed.
func Sweep(dir string) int {
	d, err := os.Open(dir)
	if err != nil {
		return 0
	}
	names, _ := d.Readdirnames(-1)
	d.Close()
	if len(names) == 0 || !CanSweep() {
		return 0
	}
	boot := bootID()
	var dead []record
	var stale []string
	for _, name := range names {
		pid, start, ok := recordName(name)
		if !ok || pid == os.Getpid() || running(pid, start) {
			continue
		}
		path := filepath.Join(dir, name)
		stale = append(stale, path)
		var rec record
		data, err := os.ReadFile(path)
		if err != nil || json.Unmarshal(data, &rec) != nil {
			continue
		}
		if rec.PID == pid && rec.Start == start && rec.Boot == boot && len(rec.Mark) == 32 {
			dead = append(dead, rec)
		}
	}
	killed := 0
	if len(dead) > 0 {
		killed = killMarked(dead)
	}
	for _, p := range stale {
		os.Remove(p)
	}
	return killed
}

// recordName reads "<pid>-<start>.json".
func recordName(name string) (pid int, start uint64, ok bool) {
	base, found := strings.CutSuffix(name, ".json")
	if !found {
		return 0, 0, false
	}
	p, s, found := strings.Cut(base, "-")
	if !found {
		return 0, 0, false
	}
	pid, err := strconv.Atoi(p)
	if err != nil || pid <= 0 || strconv.Itoa(pid) != p {
		return 0, 0, false
	}
	start, err = strconv.ParseUint(s, 10, 64)
	return pid, start, err == nil
}
