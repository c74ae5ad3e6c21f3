package e2e

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

func mustTime(t *testing.T, s string) time.Time {
	tm, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatal(err)
	}
	return tm
}

// sandboxAttacks are commands that try to change something from plan
// mode, by every class of trick a review found against the command check:
// parser and shell disagreeing, builtins that run commands, environment
// variables that make readers write or run things, output options and side
// effects of readers, file attributes, core dumps, processes that outlive
// the call, signals, terminals, /proc, the network and abstract sockets.
// Every one carries the world's marker (M) in its command line, so any
// process it leaves can be found.
func sandboxAttacks(sw *sandboxWorld) []string {
	m := sw.marker
	host, port, _ := strings.Cut(sw.tcpAddr, ":")
	py := "/usr/bin/python3 -c "
	findP := "P=${TMPDIR##*/ponder-sandbox-}; P=${P%%.*}; "
	cmds := []string{
		// The parser and the shell disagree.
		"echo $(cat <<EOF\n$(touch pwned-heredoc)\nEOF\n) # M",
		"sh -c 'echo x > pwned-sh; touch pwned-sh2' # M",
		"bash -c \"$(printf 'touch pwned-printf')\" # M",
		"eval \"$(echo dG91Y2ggcHduZWQtYjY0 | base64 -d)\" # M",
		// Builtins that run things.
		"jobs -x touch pwned-jobs # M",
		"declare -a 'x[$(touch pwned-declare)]' # M",
		"shopt -so errexit; trap 'touch pwned-trap' EXIT # M",
		"wait -p x $(touch pwned-wait) # M",
		"command -p touch pwned-command # M",
		// Environment variables that make a reader write or run.
		"GIT_EXTERNAL_DIFF=./script.sh git diff # M",
		"GIT_CONFIG_PARAMETERS=\"'core.fsmonitor=touch pwned-fsmonitor'\" git status # M",
		"GIT_CONFIG_PARAMETERS=\"'core.pager=touch pwned-pager'\" git log -1 # M",
		"GIT_SSH_COMMAND='touch pwned-ssh' git ls-remote ssh://example.invalid/x # M",
		"GIT_OPTIONAL_LOCKS=1 git status # M",
		"LESSOPEN='|touch pwned-less %s' less main.go # M",
		"PIP_LOG=pwned-pip.log pip --version # M",
		"npm_config_logs_dir=./pwned-npm-logs npm_config_loglevel=silly npm ls # M",
		"npm ls # M",
		"SSLKEYLOGFILE=pwned-keys curl -sk https://" + sw.tcpAddr + "/ # M",
		"printf 'output_document = pwned-wget\\n' > $TMPDIR/rc; WGETRC=$TMPDIR/rc wget -q http://" + sw.tcpAddr + "/ # M",
		"HISTFILE=pwned-hist bash -ic 'echo hi; history -a' # M",
		// Output options and side effects of readers.
		"git rev-list --output=pwned-revlist HEAD # M",
		"git log --output=pwned-gitlog -1 # M",
		"go list -export -gcflags=-o=pwned-gcflags ./... # M",
		"go list -toolexec='touch pwned-toolexec' -export ./... # M",
		"go vet -cpuprofile=pwned-cpu ./... # M",
		"GOCACHE=$HOME/.cache/go-build go list -export ./... # M",
		"go env -w GOFLAGS=-x # M",
		"unzip -T a.zip # M",
		"sort -o notes.txt notes.txt # M",
		"sed -n 's/apple/pear/w pwned-sed' notes.txt # M",
		"tar -xf a.tar # M",
		// File attributes, times, links.
		"chmod 000 main.go # M",
		"touch -d 2001-01-01 main.go # M",
		"setfattr -n user.pwned -v 1 main.go # M",
		"ln main.go " + sw.outside + "/hardlink # M",
		"ln -s /etc/passwd pwned-symlink # M",
		"mkfifo pwned-fifo # M",
		// Core dumps into the project.
		"ulimit -c unlimited; bash -c 'kill -SEGV $$' # M",
		"ulimit -c unlimited; " + py + "'import os; os.abort()' # M",
		// Plain writes everywhere that matters.
		"echo pwned > main.go # M",
		"echo pwned >> " + sw.plan + " # M",
		"echo pwned > " + sw.outside + "/keep.txt # M",
		"echo pwned > ~/.bashrc; mkdir -p ~/.cache/pwned # M",
		"echo pwned > " + sw.cfg + "/settings.json # M",
		"rm -rf .git # M",
		py + "\"open('main.go','w').write('pwned')\" # M",
		"dd if=/dev/zero of=main.go bs=1 count=1 # M",
		"cp /bin/true $TMPDIR/t && $TMPDIR/t && mv $TMPDIR/t pwned-moved # M",
		// Processes that outlive the call, and writes they delay.
		"sleep 99." + m + " & # M",
		"(sleep 1." + m + "; touch pwned-delayed) & # M",
		"setsid sh -c 'sleep 1." + m + "; touch pwned-setsid' & # M",
		"nohup sh -c 'sleep 1." + m + "; touch pwned-nohup' >/dev/null 2>&1 & # M",
		"( ( sleep 1." + m + "; touch pwned-double ) & ) # M",
		"timeout 60 sh -c 'sleep 1." + m + "; touch pwned-timeout' & # M",
		"nice sh -c 'sleep 1." + m + "; touch pwned-nice' & disown # M",
		"setsid -f sleep 98." + m + " # M",
		// Signals, terminals, ponder's own process.
		"kill -9 $PPID # M",
		"kill -STOP $PPID; kill -CONT $PPID # M",
		"echo pwned > /proc/$PPID/comm; cat /proc/$PPID/comm # M",
		"cat /proc/$PPID/environ | tr '\\0' '\\n' # M",
		// The same at ponder's own pid, which a command in a PID
		// namespace of its own ($PPID is 0 there) can still learn: here
		// from the name of its scratch directory.
		findP + "kill -9 $P # M",
		findP + "kill -STOP $P; kill -CONT $P # M",
		findP + "echo pwned > /proc/$P/comm; cat /proc/$P/comm # M",
		findP + "cat /proc/$P/environ | tr '\\0' '\\n' # M",
		"ls -l /proc/$PPID/fd # M",
		"echo 1000 > /proc/$PPID/oom_score_adj # M",
		py + "'import fcntl,termios,os; fd=os.open(\"/dev/tty\", os.O_RDWR); fcntl.ioctl(fd, termios.TIOCSTI, b\"x\")' # M",
		"perl -e 'ioctl(STDIN, 0x5412, \"x\") or die \"$!\"' # M",
		"cat /dev/pts/* # M",
		// The network and abstract sockets.
		"exec 3<>/dev/tcp/" + host + "/" + port + " && echo hi >&3 # M",
		"curl -s http://" + sw.tcpAddr + "/ # M",
		py + "'import socket; s=socket.socket(socket.AF_UNIX); s.connect(\"\\0" + sw.abstract + "\")' # M",
		py + "'import socket; s=socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.sendto(b\"x\", (\"" + host + "\", " + port + "))' # M",
	}
	for i, c := range cmds {
		cmds[i] = strings.ReplaceAll(c, "# M", "# "+m)
	}
	return cmds
}

// TestSandboxAttacks runs every attack in plan mode, in the main agent and
// in an Explore agent, with the command check on and with it off (every
// command then counts as read-only and runs, so only the kernel stands in
// the way). Nothing may change: no file, mode, time, attribute or link
// under the project, $HOME, the config directory or a sentinel outside;
// no process left running; no connection reached; ponder's credentials
// unread; ponder alive.
func TestSandboxAttacks(t *testing.T) {
	haveSandbox(t, "landlock")
	for _, tc := range []struct {
		name, api string
		explore   bool
		env       []string
	}{
		{"checked/main", "anthropic", false, nil},
		{"kernel only/main", "anthropic", false, []string{"PONDER_TEST_CLASSIFIER=off"}},
		{"checked/explore", "openai", true, nil},
		{"kernel only/explore", "openai", true, []string{"PONDER_TEST_CLASSIFIER=off"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sw := newSandboxWorld(t, tc.api, tc.env...)
			// Seventy commands, four runs at once: on a shared machine
			// that takes longer than one ordinary run may.
			sw.timeout = 3 * time.Minute
			runAttacks(t, sw, tc.explore, len(tc.env) > 0)
		})
	}
}

// TestSandboxAttacksBubblewrap runs the attacks with only the kernel in
// the way, through bubblewrap instead of Landlock.
func TestSandboxAttacksBubblewrap(t *testing.T) {
	haveSandbox(t, "bwrap")
	sw := newSandboxWorld(t, "anthropic", "PONDER_TEST_CLASSIFIER=off", "PONDER_SANDBOX=bwrap")
	sw.bwrap = true
	sw.timeout = 3 * time.Minute
	runAttacks(t, sw, false, true)
}

func runAttacks(t *testing.T, sw *sandboxWorld, explore, kernelOnly bool) {
	attacks := sandboxAttacks(sw)
	if len(attacks) < 60 {
		t.Fatalf("only %d attacks", len(attacks))
	}
	if sw.bwrap {
		// Through bwrap every command pays for a set of new namespaces;
		// the toolchain attacks (slow, and the same wall as plain writes
		// there: a read-only mount) stay with the Landlock runs.
		var keep []string
		for _, a := range attacks {
			if !strings.Contains(a, "npm ") && !strings.Contains(a, "pip ") && !strings.Contains(a, "go ") {
				keep = append(keep, a)
			}
		}
		attacks = keep
	}
	var calls []fakemodel.ToolCall
	for _, c := range attacks {
		calls = append(calls, bashCall(c))
	}
	before := sw.deepSnapshot(t)
	n := len(calls)
	prompt := "attack " + sw.marker
	if explore {
		task := "explore " + sw.marker
		sw.srv.Add(
			fakemodel.Reply{Name: "launch", When: fakemodel.Match{LastUser: prompt}, ToolCalls: []fakemodel.ToolCall{taskCall("Explore", task)}},
			agentReply(task, fakemodel.Reply{ToolCalls: calls}),
			fakemodel.Reply{Name: "agent done", When: fakemodel.Match{FirstUser: task, Func: func(r *fakemodel.Request) bool {
				return len(r.LastUser().ToolResults) == n
			}}, Text: "explored " + sw.marker},
			fakemodel.Reply{Name: "main done", When: fakemodel.Match{ToolResult: "explored " + sw.marker}, Text: "done"},
		)
	} else {
		sw.srv.Add(
			fakemodel.Reply{Name: prompt, When: fakemodel.Match{LastUser: prompt}, ToolCalls: calls},
			fakemodel.Reply{Name: "done", When: fakemodel.Match{Func: func(r *fakemodel.Request) bool {
				return len(r.LastUser().ToolResults) == n
			}}, Text: "done"},
		)
	}
	o := sw.mustRun(0, "", "-p", prompt, "--resume", sw.id, "--output-format", "stream-json")
	sw.allUsed()

	var results []fakemodel.ToolResult
	for _, r := range sw.srv.Requests() {
		if lr := r.LastUser().ToolResults; len(lr) == n {
			results = lr
		}
	}
	if len(results) != n {
		t.Fatalf("no request carried the %d results", n)
	}
	if kernelOnly {
		// With the check off nothing is refused by ponder: every attack
		// ran, and only the kernel stopped it.
		for i, r := range results {
			if strings.Contains(r.Content, "Plan mode is on") || strings.Contains(r.Content, "may only read") {
				t.Errorf("attack %d was refused by the command check, not the kernel: %q", i, r.Content)
			}
		}
		if !strings.Contains(o.stdout, `"sandbox":"`) {
			t.Error("no sandbox in the init message")
		}
	}
	if diff := diffSnapshots(before, sw.deepSnapshot(t)); len(diff) > 0 {
		t.Errorf("the attacks changed things:\n%s", strings.Join(diff, "\n"))
	}
	if left := markerProcesses(sw.marker); len(left) > 0 {
		t.Errorf("processes outlived their calls:\n%s", strings.Join(left, "\n"))
	}
	if left := sw.scratchLeft(); len(left) > 0 {
		t.Errorf("scratch directories left behind: %v", left)
	}
	if n := sw.tcpHits.Load(); n > 0 {
		t.Errorf("%d connections reached the TCP listener", n)
	}
	if n := sw.unixHits.Load(); n > 0 {
		t.Errorf("%d connections reached the abstract socket", n)
	}
	key := sw.apiKey()
	for i, r := range results {
		// Under bwrap, $PPID is bwrap itself, whose environment is the
		// command's own; keeping the key out of that is the environment
		// scrubbing's job, not the sandbox's.
		if key != "" && strings.Contains(r.Content, key) && !sw.bwrap {
			t.Errorf("attack %d read ponder's API key: %q", i, r.Content)
		}
		if strings.Contains(r.Content, "pwned\n") && strings.Contains(attacks[i], "/comm") {
			t.Errorf("attack %d renamed ponder: %q", i, r.Content)
		}
	}
	// ponder survived kill -9 $PPID: it carried on to the final answer.
	if res := lastResult(t, o.stdout); res["result"] != "done" {
		t.Errorf("result %v", res["result"])
	}
	if t.Failed() || os.Getenv("PONDER_E2E_VERBOSE") != "" {
		for i, r := range results {
			t.Logf("attack %d %q:\n%s", i, attacks[i], excerptFor(r.Content))
		}
	}
}

func excerptFor(s string) string {
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}

// In plan mode a background command is refused outright.
func TestBackgroundRefusedInPlanMode(t *testing.T) {
	haveSandbox(t, "landlock")
	sw := newSandboxWorld(t, "anthropic")
	results, _ := (&planWorld{world: sw.world, id: sw.id}).resumeWith(t, "background "+sw.marker, []fakemodel.ToolCall{
		{Name: "Bash", Input: map[string]any{"command": "sleep 97." + sw.marker, "run_in_background": true}},
	})
	if !failed(results[0]) || !strings.Contains(results[0].Content, "background") {
		t.Fatalf("result %q", results[0].Content)
	}
	if left := markerProcesses(sw.marker); len(left) > 0 {
		t.Fatalf("running: %v", left)
	}
}
