package e2e

import (
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// The model never sees ponder's credentials: not in a command's
// environment, not in ponder's own /proc files, whatever it runs or reads.
func TestCredentialsNeverReachTheModel(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		const key = "sk-LEAK-CHECK-7f3a9c"
		w := newWorld(t, api)
		w.extraEnv = []string{"ANTHROPIC_API_KEY=" + key, "OPENAI_API_KEY=" + key, "GITHUB_TOKEN=ghp-LEAK-CHECK-b2", "DATABASE_URL=postgres://app:pw-LEAK-CHECK-c3@db/prod"}
		// ponder's pid, as the test sees it: a confined command's $PPID
		// is 0 where ponder gives it a PID namespace of its own, but a
		// command can still find ponder in /proc, so the reads aim at
		// the real process.
		var pid atomic.Int64
		ponderPID := func(*fakemodel.Request) string { return strconv.FormatInt(pid.Load(), 10) }
		bashFunc := func(format string) fakemodel.ToolCall {
			return fakemodel.ToolCall{Name: "Bash", InputFunc: func(r *fakemodel.Request) any {
				return map[string]any{"command": fmt.Sprintf(format, ponderPID(r))}
			}}
		}
		pathCall := func(tool, key, suffix string, extra map[string]any) fakemodel.ToolCall {
			return fakemodel.ToolCall{Name: tool, InputFunc: func(r *fakemodel.Request) any {
				in := map[string]any{key: "/proc/" + ponderPID(r) + suffix}
				for k, v := range extra {
					in[k] = v
				}
				return in
			}}
		}
		w.srv.Add(calls("look around",
			bashCall("printenv"), bashCall("env"), bashCall("echo PID=$PPID"),
			bashFunc("cat /proc/%s/environ | tr '\\0' '\\n'"),
			bashFunc("tr '\\0' '\\n' < /proc/%s/environ"),
			fakemodel.ToolCall{Name: "Read", Input: map[string]any{"file_path": "/proc/self/environ"}},
		)...)
		w.srv.Add(calls("dig deeper",
			pathCall("Read", "file_path", "/environ", nil),
			pathCall("Grep", "path", "", map[string]any{"pattern": "LEAK", "output_mode": "content"}),
			pathCall("LS", "path", "", nil),
			pathCall("Glob", "path", "", map[string]any{"pattern": "**/environ"}),
			fakemodel.ToolCall{Name: "Grep", Input: map[string]any{"pattern": "LEAK-CHECK", "path": "/proc/self/", "output_mode": "content"}},
		)...)
		s := w.start("--provider", api, "--allowedTools", "Bash(cat:*),Bash(tr:*),Bash(printenv),Bash(env),Bash(echo:*)")
		pid.Store(int64(s.cmd.Process.Pid))
		s.say("look around")
		s.result()
		s.say("dig deeper")
		s.result()
		s.close()
		reqs := w.srv.Requests()
		if len(reqs) != 4 {
			t.Fatalf("%d requests", len(reqs))
		}
		first := toolResults(reqs[1])
		if !strings.Contains(first[0].Content, "PATH=") || !strings.Contains(first[1].Content, "HOME=") {
			t.Fatalf("printenv and env did not run: %q %q", first[0].Content, first[1].Content)
		}
		// The read either finds the environment ponder re-executed with
		// (no secrets in it) or is refused by the kernel: commands start
		// without CAP_SYS_PTRACE, and ponder is not dumpable.
		if !strings.Contains(first[3].Content, "PONDER_CONFIG_DIR=") && !strings.Contains(first[3].Content, "Permission denied") {
			t.Fatalf("reading ponder's environ did not run: %q", first[3].Content)
		}
		for _, r := range reqs {
			for _, secret := range []string{"LEAK-CHECK-7f3a9c", "ghp-LEAK-CHECK-b2", "pw-LEAK-CHECK-c3"} {
				if strings.Contains(string(r.Body), secret) {
					t.Errorf("request %s carries %s", r.Reply, secret)
				}
			}
		}
		second := toolResults(reqs[3])
		for i, r := range second[:2] {
			if !failed(r) || !strings.Contains(r.Content, "ponder's own process") {
				t.Errorf("call %d was not refused: %s", i, r.Content)
			}
		}
	})
}
