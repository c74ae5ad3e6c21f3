package permission

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// ponder's own process files in /proc hold what the model must never see:
// its environment (the API keys), its memory, its command line. The file
// tools may not read or write them in any mode, and no rule lifts that.
// The environment and memory of every other process are refused as well,
// since the user's shell that started ponder usually holds the same keys.
//
// The shell is not covered here: commands ponder runs get an environment
// without the keys (package shellenv), and ponder's own /proc environ
// holds none either (see shellenv.Conceal).

// guardSecrets refuses a read or write of a path that exposes a process's
// secrets.
func guardSecrets(a Access, canon []string) (Decision, bool) {
	if a.Kind != KindRead && a.Kind != KindWrite {
		return Decision{}, false
	}
	for i, p := range a.Paths {
		for _, q := range []string{p, canon[i]} {
			if why := procSecret(q); why != "" {
				return Decision{Behavior: Deny, Rule: "process secrets", Reason: fmt.Sprintf("%s is %s; no tool may read or change it.", p, why)}, true
			}
		}
	}
	return Decision{}, false
}

// procRoot is where the process file system is mounted.
const procRoot = "/proc"

// procSecret says why p exposes a process's secrets, or returns "".
func procSecret(p string) string {
	if !strings.Contains(p, "proc") {
		return ""
	}
	p = filepath.ToSlash(filepath.Clean(p))
	rest, ok := strings.CutPrefix(p, procRoot+"/")
	if !ok {
		return ""
	}
	first, more, _ := strings.Cut(rest, "/")
	switch first {
	case "self", "thread-self":
		return "ponder's own process information"
	}
	pid, err := strconv.Atoi(first)
	if err != nil {
		return ""
	}
	if ownTask(pid) {
		return "ponder's own process information"
	}
	entry, more, _ := strings.Cut(more, "/")
	if entry == "task" {
		// /proc/PID/task/TID/… holds the same files per thread.
		_, more, _ = strings.Cut(more, "/")
		entry, _, _ = strings.Cut(more, "/")
	}
	switch entry {
	case "environ":
		return "a process's environment, which holds credentials"
	case "mem":
		return "a process's memory"
	}
	return ""
}

// ownTask reports whether id is ponder's process id or the id of one of
// its threads (each thread also appears as /proc/TID).
func ownTask(id int) bool {
	self := os.Getpid()
	if id == self {
		return true
	}
	_, err := os.Lstat(filepath.Join(procRoot, strconv.Itoa(self), "task", strconv.Itoa(id)))
	return err == nil
}
