package e2e

import (
	"os"
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/internal/testenv"
)

// memScan reads every readable mapping of a process and prints the
// strings that look like the fake server's API key.
const memScan = `import re, sys
pid = int(sys.argv[1]); found = set(); errors = set()
mem = open('/proc/%d/mem' % pid, 'rb', 0)
for line in open('/proc/%d/maps' % pid):
    p = line.split()
    if 'r' not in p[1]:
        continue
    a, b = [int(x, 16) for x in p[0].split('-')]
    if b - a > 512 * 1024 * 1024:
        continue
    try:
        mem.seek(a); data = mem.read(b - a)
    except Exception as e:
        errors.add(type(e).__name__); continue
    found.update(x.decode() for x in re.findall(rb'KEYMARK[A-Za-z0-9_-]{4,40}', data))
print('found', sorted(found), 'errors', sorted(errors))
`

// A command ponder runs as root, approved or in bypass mode, cannot read
// ponder's memory, where the API key lives: every command starts without
// CAP_SYS_PTRACE.
func TestCommandsCannotReadPondersMemory(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("only root can read another process's memory when it is not dumpable")
	}
	testenv.Program(t, "python3", "the attack is a Python script")
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api)
		w.write("scan.py", memScan)
		const key = "KEYMARK-sk-ant-api03-e2e-secret"
		for _, kv := range w.srv.Env(api) {
			if name, _, _ := strings.Cut(kv, "="); strings.HasSuffix(name, "_API_KEY") {
				w.extraEnv = append(w.extraEnv, name+"="+key)
			}
		}
		for _, run := range [][]string{
			{"--allowedTools", "Bash(python3:*)"},
			{"--dangerously-skip-permissions", "--permission-mode", "bypassPermissions"},
		} {
			w.srv.Add(calls("scan "+run[0], bashCall("python3 scan.py $PPID"))...)
			w.mustRun(0, "", append([]string{"-p", "scan " + run[0]}, run...)...)
			res := lastResults(t, w, 1)[0]
			// Confined to its workspace, the command has a /proc of its
			// own, where ponder is not to be found at all.
			if !strings.Contains(res.Content, "found") && !strings.Contains(res.Content, "PermissionError") && !strings.Contains(res.Content, "FileNotFoundError") {
				t.Fatalf("%v: the scan did not run: %q", run, res.Content)
			}
			for _, r := range w.srv.Requests() {
				if strings.Contains(string(r.Body), key) {
					t.Fatalf("%v: ponder's API key reached the model: %q", run, res.Content)
				}
			}
		}
	})
}
