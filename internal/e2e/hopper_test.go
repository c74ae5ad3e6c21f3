package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
	"github.com/ponder-agent/ponder/internal/testenv"
)

// hopperPy forks without end, each generation forking the next and
// exiting at once, after leaving its command's session: its pid never
// stays the same, and every exited generation is re-parented to ponder.
// It stops by itself after the seconds given, so that a failing test
// cannot leave it running for long.
const hopperPy = `import os, sys, time
end = time.time() + float(sys.argv[1])
if os.fork(): os._exit(0)
os.setsid()
while time.time() < end:
    try:
        if os.fork(): os._exit(0)
    except OSError:
        time.sleep(0.01)
`

// A re-forking process that a repository's fsmonitor hook starts during
// a read-only git status in plan mode neither outlives the call nor
// exhausts the process table: the next call runs, ponder does not crash,
// and no generation is left once the call returns. ponder runs in a
// cgroup limited to 2000 processes where the machine offers one, so that
// a failure cannot exhaust the machine.
func TestReForkingProcessIsContained(t *testing.T) {
	haveSandbox(t, "landlock")
	testenv.Program(t, "python3", "the attack is a Python script")
	forAPIs(t, func(t *testing.T, api string) {
		m := fmt.Sprintf("hop%d%s", os.Getpid()%100000, api[:1])
		w := newWorld(t, api,
			fakemodel.Reply{Name: "status", When: fakemodel.Match{LastUser: "look at the repository with " + api}, ToolCalls: tools(
				call{Name: "Bash", Input: map[string]any{"command": "git status --short; sleep 0.5"}})},
			fakemodel.Reply{Name: "count", When: fakemodel.Match{ToolResult: "a.txt"}, ToolCalls: tools(
				call{Name: "Bash", Input: map[string]any{"command": "sleep 1; echo \"second call ran, left: $(grep -ls '[h]" + m[1:] + "' /proc/[0-9]*/cmdline | wc -l)\""}})},
			fakemodel.Reply{Name: "done", When: fakemodel.Match{ToolResult: "second call ran"}, Text: "done " + m},
		)
		hop := filepath.Join(filepath.Dir(w.dir), m+".py")
		if err := os.WriteFile(hop, []byte(hopperPy), 0o644); err != nil {
			t.Fatal(err)
		}
		w.write("a.txt", "hello\n")
		for _, c := range []string{
			"git init -q . && git add a.txt && git -c user.email=a@b -c user.name=a commit -qm init",
			"echo dirty >> a.txt",
			"git config core.fsmonitor 'echo hook-ran-" + m + " >&2; python3 " + hop + " 20 </dev/null >/dev/null 2>&1; true'",
		} {
			if out, err := runIn(w.dir, c); err != nil {
				t.Fatalf("%s: %v\n%s", c, err, out)
			}
		}
		t.Cleanup(func() { killMarked(m) })
		args := []string{"-p", "look at the repository with " + api, "--permission-mode", "plan", "--output-format", "stream-json"}
		var o outcome
		if cg := pidsCgroupFor(t, 2000); cg != "" {
			o = w.runProgram("bash", append([]string{"-c", `echo $$ > "$1/cgroup.procs" && shift && exec "$@"`, "_", cg, ponderBin}, args...)...)
		} else {
			o = w.run("", args...)
		}
		if strings.Contains(o.stderr, "failed to create new OS thread") || strings.Contains(o.stderr, "newosproc") {
			t.Fatalf("ponder crashed:\n%s", o.stderr)
		}
		if o.code != 0 {
			t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", o.code, o.stdout, o.stderr)
		}
		if strings.Contains(o.stdout, "could not be stopped") || strings.Contains(o.stdout, "resource temporarily unavailable") {
			t.Errorf("the hopper got in the way:\n%s", o.stdout)
		}
		// The hook ran (it says so on git's standard error), and the
		// next call counted the hopper's live generations.
		var first, second string
		for _, r := range w.srv.Requests() {
			for _, res := range r.LastUser().ToolResults {
				if strings.Contains(res.Content, "hook-ran-"+m) {
					first = res.Content
				}
				if strings.Contains(res.Content, "second call ran") {
					second = res.Content
				}
			}
		}
		if first == "" {
			t.Fatal("the fsmonitor hook did not run")
		}
		if !strings.Contains(second, "left: 0") {
			t.Errorf("while ponder still ran, the next call saw generations of the hopper: %q", second)
		}
		if left := markerProcesses(m); len(left) > 0 {
			t.Fatalf("the hopper outlived ponder:\n%s", strings.Join(left, "\n"))
		}
		w.allUsed()
	})
}

// killMarked kills, by id, every process whose command line holds marker,
// until none is left: the clean-up of a failed containment test.
func killMarked(marker string) {
	for range 100 {
		left := markerProcesses(marker)
		if len(left) == 0 {
			return
		}
		for _, l := range left {
			var pid int
			if _, err := fmt.Sscanf(l, "%d:", &pid); err == nil && pid > 1 {
				if pgid, err := syscall.Getpgid(pid); err == nil && pgid > 1 && pgid != syscall.Getpgrp() {
					_ = syscall.Kill(-pgid, syscall.SIGKILL)
				}
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	}
}

// pidsCgroupFor makes a pids cgroup that admits at most max processes,
// removed when the test ends, and returns its directory; "" where the
// machine offers none to the test.
func pidsCgroupFor(t *testing.T, max int) string {
	t.Helper()
	root := ""
	switch {
	case isDir("/sys/fs/cgroup/pids"):
		root = "/sys/fs/cgroup/pids"
	default:
		data, err := os.ReadFile("/sys/fs/cgroup/cgroup.controllers")
		if err == nil && slices.Contains(strings.Fields(string(data)), "pids") {
			root = "/sys/fs/cgroup"
		}
	}
	if root == "" {
		return ""
	}
	dir := filepath.Join(root, "ponder-e2e-"+filepath.Base(t.TempDir()))
	if err := os.Mkdir(dir, 0o755); err != nil {
		return ""
	}
	if err := os.WriteFile(filepath.Join(dir, "pids.max"), []byte(fmt.Sprint(max)), 0o644); err != nil {
		os.Remove(dir)
		return ""
	}
	t.Cleanup(func() { os.Remove(dir) })
	return dir
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}
