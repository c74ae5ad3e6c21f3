package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// Readers that need somewhere to write (a build cache, temporary files, a
// lock they skip when told) work in plan mode once the user says yes: they
// run confined, their caches go to the command's scratch directory, and
// nothing in the project changes.
func TestScratchReadersWorkInPlanMode(t *testing.T) {
	haveSandbox(t, "landlock")
	w := newWorld(t, "openai")
	w.write("go.mod", "module example.com/demo\n\ngo 1.22\n")
	w.write("main.go", "package main\n\nfunc main() { println(add(1, 2)) }\n\nfunc add(a, b int) int { return a + b }\n")
	w.write("main_test.go", "package main\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif add(1, 2) != 3 {\n\t\tt.Fatal(\"add\")\n\t}\n}\n")
	w.write("Makefile", "build:\n\tgo build -o demo .\n")
	w.write("package.json", `{"name":"demo","version":"1.0.0"}`+"\n")
	w.write("Cargo.toml", "[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n")
	w.write("src/lib.rs", "pub fn add(a: i32, b: i32) -> i32 { a + b }\n")
	w.git("init", "-q")
	w.git("add", ".")
	w.git("commit", "-qm", "start")
	w.write("main.go", "package main\n\nfunc main() { println(add(2, 2)) }\n\nfunc add(a, b int) int { return a + b }\n")

	type reader struct {
		cmd, want string
		optional  bool // skipped where it does not work unconfined either
	}
	// go test is left out: in the scratch's empty build cache it compiles
	// the standard library first, minutes on a shared machine.
	readers := []reader{
		{"go vet ./...", "", false},
		{"make -n", "go build -o demo .", false},
		{"git describe --dirty --always", "-dirty", false},
		{"npm ls --depth=0", "demo@1.0.0", true},
		{"man ls | head -5", "LS", true},
		{"cargo check", "Finished", true},
	}
	var run []reader
	for _, r := range readers {
		if r.optional {
			cmd := exec.Command("bash", "-c", r.cmd)
			cmd.Dir = w.dir
			cmd.Env = append(w.env(), "CARGO_TARGET_DIR="+t.TempDir(), "npm_config_cache="+t.TempDir(), "npm_config_update_notifier=false")
			if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), r.want) {
				t.Logf("skipped, does not work here unconfined: %s", r.cmd)
				continue
			}
		}
		run = append(run, r)
	}
	// Whatever the unconfined checks above left is not the readers' doing.
	for _, p := range []string{"target", "demo"} {
		os.RemoveAll(filepath.Join(w.dir, p))
	}
	var calls []fakemodel.ToolCall
	for _, r := range run {
		calls = append(calls, bashCall(r.cmd))
	}
	w.srv.Add(callsThenDone("look around", calls)...)
	sw := &sandboxWorld{world: w, base: w.dir}
	before := sw.deepSnapshot(t)

	s := w.start("--permission-mode", "plan")
	s.say("look around")
	asked := 0
	for {
		m := s.next("a question or the result", func(m map[string]any) bool {
			return m["type"] == "result" || m["type"] == "control_request"
		})
		if m["type"] == "result" {
			break
		}
		asked++
		s.answer(m, map[string]any{"behavior": "allow"})
	}
	s.close()
	if asked == 0 {
		t.Error("no reader was asked about: the test no longer shows the question")
	}
	for i, r := range w.lastResults(len(calls)) {
		if failed(r) || !strings.Contains(r.Content, run[i].want) {
			t.Errorf("%q in plan mode: %q", run[i].cmd, r.Content)
		}
	}
	if diff := diffSnapshots(before, sw.deepSnapshot(t)); len(diff) > 0 {
		t.Errorf("readers changed the project:\n%s", strings.Join(diff, "\n"))
	}
}
