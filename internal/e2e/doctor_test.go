package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
	"github.com/ponder-agent/ponder/internal/testenv"
)

func TestDoctor(t *testing.T) {
	haveSandbox(t, "landlock")
	w := newWorld(t, "anthropic")
	os.MkdirAll(w.cfg, 0o755)
	os.WriteFile(filepath.Join(w.cfg, "settings.json"), []byte(`{"model":"doctor-model"}`), 0o644)
	w.write(".ponder/settings.json", `{"sandbox":{"network":true}}`)
	o := w.mustRun(0, "", "doctor")
	for _, want := range []string{
		"sandbox: landlock (ABI ", "- writes: only a private scratch directory", "- privileges: no_new_privs; every capability dropped",
		"settings files read:\n  " + filepath.Join(w.cfg, "settings.json") + "\n  " + filepath.Join(w.dir, ".ponder", "settings.json"),
		`"sandbox.network" ignored`, "provider: anthropic (model doctor-model", "missing:\n  nothing",
	} {
		if !strings.Contains(o.stdout, want) {
			t.Errorf("doctor output lacks %q:\n%s", want, o.stdout)
		}
	}
	// The project's network setting was dropped: the network stays closed.
	if !strings.Contains(o.stdout, "network: no TCP") {
		t.Errorf("a project opened the network:\n%s", o.stdout)
	}

	w.extraEnv = []string{"PONDER_SANDBOX=none"}
	o = w.mustRun(0, "", "doctor")
	for _, want := range []string{"sandbox: none", "not used: turned off by PONDER_SANDBOX=none", "plan mode and read-only agents run no shell commands", "- an OS sandbox"} {
		if !strings.Contains(o.stdout, want) {
			t.Errorf("doctor output lacks %q:\n%s", want, o.stdout)
		}
	}
	w.extraEnv = []string{"PONDER_SANDBOX=chroot"}
	if o := w.run("", "doctor"); o.code != 2 || !strings.Contains(o.stdout, "PONDER_SANDBOX") {
		t.Errorf("a bad choice: exit %d\n%s", o.code, o.stdout)
	}
}

func TestDoctorWithoutProvider(t *testing.T) {
	w := newWorld(t, "anthropic")
	cmdEnv := []string{}
	for _, kv := range w.env() {
		if !strings.HasPrefix(kv, "ANTHROPIC_") && !strings.HasPrefix(kv, "OPENAI_") {
			cmdEnv = append(cmdEnv, kv)
		}
	}
	o := runWithEnv(t, w, cmdEnv, "doctor")
	if !strings.Contains(o, "provider: none") || !strings.Contains(o, "- a model provider") {
		t.Errorf("doctor output:\n%s", o)
	}
}

// sandbox.required refuses to start without a sandbox, with a clear error
// and exit 2; with one, the run goes on.
func TestSandboxRequired(t *testing.T) {
	w := newWorld(t, "anthropic", fakemodel.Reply{Name: "hi", Text: "hello"})
	os.MkdirAll(w.cfg, 0o755)
	os.WriteFile(filepath.Join(w.cfg, "settings.json"), []byte(`{"sandbox":{"required":true}}`), 0o644)
	w.extraEnv = []string{"PONDER_SANDBOX=none"}
	o := w.run("", "-p", "hi")
	if o.code != 2 || !strings.Contains(o.stderr, "sandbox.required is set, but no OS sandbox is available") {
		t.Fatalf("exit %d, stderr %q", o.code, o.stderr)
	}
	if len(w.srv.Requests()) != 0 {
		t.Fatal("the model was asked anyway")
	}
	haveSandbox(t, "landlock")
	w.extraEnv = nil
	if o := w.mustRun(0, "", "-p", "hi"); !strings.Contains(o.stdout, "hello") {
		t.Fatalf("stdout %q", o.stdout)
	}
}

// The stream-json init message names the sandbox in force.
func TestInitNamesTheSandbox(t *testing.T) {
	for _, tc := range []struct{ choice, want, api string }{
		{"", "landlock", "anthropic"}, {"bwrap", "bwrap", "openai"}, {"none", "none", "anthropic"},
	} {
		t.Run(tc.want, func(t *testing.T) {
			if tc.want != "none" {
				haveSandbox(t, tc.want)
			}
			w := newWorld(t, tc.api, fakemodel.Reply{Name: "hi", Text: "hello"})
			if tc.choice != "" {
				w.extraEnv = []string{"PONDER_SANDBOX=" + tc.choice}
			}
			o := w.mustRun(0, "", "-p", "hi", "--output-format", "stream-json")
			init := lines(t, o.stdout)[0]
			if init["subtype"] != "init" || init["sandbox"] != tc.want {
				t.Fatalf("init %v", init)
			}
		})
	}
}

// The evidence the attack suites rely on is real: unconfined, the same
// kinds of change (a time, an attribute, a mode, a link) show up in the
// snapshot, and a process left running shows up in /proc.
func TestSnapshotSeesChanges(t *testing.T) {
	testenv.Program(t, "setfattr", "to set an extended attribute the snapshot must see")
	sw := newSandboxWorld(t, "anthropic")
	before := sw.deepSnapshot(t)
	for _, c := range []string{"touch -d 2001-01-01 main.go", "setfattr -n user.x -v 1 util.go", "chmod 600 notes.txt", "ln data.json hard.json"} {
		if out, err := runIn(sw.dir, c); err != nil {
			t.Fatalf("%s: %v %s", c, err, out)
		}
	}
	diff := strings.Join(diffSnapshots(before, sw.deepSnapshot(t)), "\n")
	for _, want := range []string{"main.go", "util.go", "notes.txt", "data.json", "hard.json: created"} {
		if !strings.Contains(diff, want) {
			t.Errorf("the snapshot missed a change to %s:\n%s", want, diff)
		}
	}
}

// ponder doctor says what a SIGKILL of ponder leaves running, and that
// the next start stops it.
func TestDoctorSaysWhatAKillLeaves(t *testing.T) {
	w := newWorld(t, "anthropic")
	w.extraEnv = []string{"PONDER_SANDBOX=none"}
	o := w.mustRun(0, "", "doctor")
	for _, want := range []string{
		"if ponder itself is killed (SIGKILL):",
		"no PID namespace for commands here: what a command started outlives a ponder killed with SIGKILL",
		"the next ponder start stops such leftovers",
	} {
		if !strings.Contains(o.stdout, want) {
			t.Errorf("doctor output lacks %q:\n%s", want, o.stdout)
		}
	}
}

// In an untrusted folder doctor names the project settings it leaves out
// and how to trust the folder; with --trust they count.
func TestDoctorInAnUntrustedFolder(t *testing.T) {
	w := newWorld(t, "anthropic")
	os.MkdirAll(filepath.Join(w.dir, ".git"), 0o755)
	w.write(".ponder/settings.json", `{"permissions":{"allow":["Bash(go test:*)"]},
		"hooks":{"Stop":[{"hooks":[{"type":"command","command":"./check"}]}]}}`)
	w.write(".mcp.json", `{"mcpServers":{"tracker":{"command":"tracker-mcp"}}}`)
	w.write(".ponder/commands/ship.md", "---\nallowed-tools: Bash(git push:*)\n---\nShip it.\n")
	o := w.mustRun(0, "", "doctor")
	for _, want := range []string{
		"trust: " + w.dir + " is not trusted",
		"ponder ignores its hooks, MCP servers",
		"- permissions.allow (Bash(go test:*)) in .ponder/settings.json",
		"- hooks (Stop) in .ponder/settings.json",
		"- mcpServers (tracker) in .mcp.json",
		"- allowed-tools of /ship (Bash(git push:*)) in .ponder/commands/ship.md",
		"to trust it: answer yes when the interface asks, run with --trust, or add " + w.dir + " to trustedFolders",
		"hooks (read once as a session starts):\n  (none); the project's are ignored until the folder is trusted",
	} {
		if !strings.Contains(o.stdout, want) {
			t.Errorf("doctor output lacks %q:\n%s", want, o.stdout)
		}
	}
	o = w.mustRun(0, "", "doctor", "--trust")
	if !strings.Contains(o.stdout, "is trusted (by --trust)") || !strings.Contains(o.stdout, "Stop: ./check") || strings.Contains(o.stdout, "ignored here") {
		t.Errorf("doctor --trust:\n%s", o.stdout)
	}
}
