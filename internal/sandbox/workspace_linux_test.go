//go:build linux && (amd64 || arm64)

package sandbox

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// workspaceBox is a Landlock sandbox that can confine to a workspace, or
// the test is skipped saying why not.
func workspaceBox(t *testing.T) *Sandbox {
	t.Helper()
	s := landlockBox(t, Options{})
	if err := s.WorkspaceAvailable(); err != nil {
		t.Skipf("no workspace policy here: %v", err)
	}
	return s
}

// wsRun runs a bash script confined to ws in dir and returns its output
// and exit error.
func wsRun(t *testing.T, s *Sandbox, ws *Workspace, dir, script string) (string, error) {
	t.Helper()
	cmd := exec.Command("bash", "-c", script)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	p, err := s.Start(cmd, &Confinement{Workspace: ws})
	if err != nil {
		t.Fatal(err)
	}
	werr := p.Wait()
	if err := p.Cleanup(); err != nil {
		t.Fatal(err)
	}
	return out.String(), werr
}

// A workspace command writes its project, but not the read-only paths
// inside it, not what lies outside, and it cannot rename a read-only
// path's directory away to put another in its place.
func TestWorkspaceWritesProjectButNotProtected(t *testing.T) {
	s := workspaceBox(t)
	home := t.TempDir()
	proj := filepath.Join(home, "proj")
	for _, d := range []string{".git/hooks", ".vscode", "src"} {
		if err := os.MkdirAll(filepath.Join(proj, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{".git/config", ".vscode/settings.json"} {
		if err := os.WriteFile(filepath.Join(proj, f), []byte("orig\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	outside := filepath.Join(home, ".bashrc")
	if err := os.WriteFile(outside, []byte("orig\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME_RC", outside)
	ws := &Workspace{Writable: []string{proj}, ReadOnly: []string{
		filepath.Join(proj, ".git/config"), filepath.Join(proj, ".git/hooks"), filepath.Join(proj, ".vscode/settings.json"),
	}}
	out, err := wsRun(t, s, ws, proj, `
set -u
echo ok > src/new.txt || echo FAIL-project
mkdir -p .git/objects/ab && echo obj > .git/objects/ab/cd || echo FAIL-git
echo evil >> .git/config 2>/dev/null && echo PLANT-config
echo evil > .git/hooks/pre-commit 2>/dev/null && echo PLANT-hook
echo evil > .vscode/settings.json 2>/dev/null && echo PLANT-vscode
mv .vscode .vscode.old 2>/dev/null && echo PLANT-rename
mv .git/hooks .git/hooks.old 2>/dev/null && echo PLANT-rename-hooks
echo evil >> "$HOME_RC" 2>/dev/null && echo PLANT-rc
chmod 777 "$HOME_RC" 2>/dev/null && echo PLANT-chmod
chmod +x src/new.txt || echo FAIL-chmod
echo tmp > "$TMPDIR/x" || echo FAIL-tmp
ls /proc | grep -qx "$PONDER_PID" && echo SEES-PONDER
echo done
`)
	_ = err
	if !strings.Contains(out, "done") {
		t.Fatalf("script did not finish: %v\n%s", err, out)
	}
	for _, bad := range []string{"FAIL", "PLANT", "SEES-PONDER"} {
		if strings.Contains(out, bad) {
			t.Errorf("output has %s:\n%s", bad, out)
		}
	}
	for _, f := range []string{".git/config", ".vscode/settings.json"} {
		if b, _ := os.ReadFile(filepath.Join(proj, f)); string(b) != "orig\n" {
			t.Errorf("%s changed: %q", f, b)
		}
	}
	if _, err := os.Stat(filepath.Join(proj, ".git/hooks/pre-commit")); err == nil {
		t.Error("a hook was planted")
	}
	if b, _ := os.ReadFile(filepath.Join(proj, "src/new.txt")); string(b) != "ok\n" {
		t.Errorf("project write lost: %q", b)
	}
	if st, _ := os.Stat(outside); st.Mode().Perm() != 0o644 {
		t.Errorf("mode of a file outside changed: %v", st.Mode())
	}
}

func init() {
	// The scripts above read these.
	os.Setenv("PONDER_PID", itoa(os.Getpid()))
}

// The environment of a workspace command points its caches where the
// policy says and its temporary files at its scratch directory.
func TestWorkspaceEnv(t *testing.T) {
	env := workspaceEnv([]string{"GOCACHE=/home/u/.cache/go-build", "PATH=/bin", "TMPDIR=/tmp"}, "/tmp/s", &Workspace{Env: []string{"GOCACHE=/c/go"}})
	got := map[string]string{}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		got[k] = v
	}
	if got["GOCACHE"] != "/c/go" || got["TMPDIR"] != "/tmp/s" || got["PATH"] != "/bin" {
		t.Errorf("env = %v", env)
	}
}

// The mount plan pins every directory between a writable root and a
// read-only path, and leaves out paths outside the roots and paths
// beneath another read-only one.
func TestWorkspaceMountPlan(t *testing.T) {
	root := t.TempDir()
	root, _ = filepath.EvalSymlinks(root)
	for _, d := range []string{"p/.husky/_", "p/.git/hooks", "q"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	p := filepath.Join(root, "p")
	w := Workspace{Writable: []string{p}, ReadOnly: []string{
		filepath.Join(p, ".husky/_"), filepath.Join(p, ".git"), filepath.Join(p, ".git/hooks"), filepath.Join(root, "q"), filepath.Join(p, "missing"),
	}}
	var got []string
	for _, op := range w.mountPlan(w.writableRoots(filepath.Join(root, "q"))) {
		kind := "rw"
		switch {
		case op.ReadOnly:
			kind = "ro"
		case op.Pin:
			kind = "pin"
		}
		got = append(got, kind+" "+strings.TrimPrefix(op.Path, root))
	}
	want := []string{"rw /p", "rw /q", "ro /p/.git", "pin /p/.husky", "ro /p/.husky/_"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("plan = %q, want %q", got, want)
	}
	if m := w.MissingReadOnly(); len(m) != 1 || !strings.HasSuffix(m[0], "missing") {
		t.Errorf("missing = %q", m)
	}
}

// A read-only path is held whatever the case of its name on disk, and
// what a command creates where a read-only path did not exist is set
// aside once it ends.
func TestWorkspaceFoldsCaseAndSetsAsideCreations(t *testing.T) {
	s := workspaceBox(t)
	proj := t.TempDir()
	os.WriteFile(filepath.Join(proj, "Makefile"), []byte("all:\n"), 0o644)
	ws := &Workspace{Writable: []string{proj}, ReadOnly: []string{
		filepath.Join(proj, "makefile"), filepath.Join(proj, ".claude"), filepath.Join(proj, ".mcp.json"),
	}}
	cmd := exec.Command("bash", "-c", `echo evil >> Makefile 2>/dev/null && echo PLANT-make
mkdir -p .claude && echo '{"hooks":{}}' > .claude/settings.json
echo '{}' > .MCP.json
echo ok > ordinary.txt`)
	cmd.Dir = proj
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	p, err := s.Start(cmd, &Confinement{Workspace: ws})
	if err != nil {
		t.Fatal(err)
	}
	p.Wait()
	aside := p.SetAside()
	p.Cleanup()
	if strings.Contains(out.String(), "PLANT") {
		t.Errorf("Makefile was written: %s", out.String())
	}
	if len(aside) != 2 {
		t.Errorf("set aside %q, want .claude and .MCP.json", aside)
	}
	for _, f := range []string{".claude", ".MCP.json"} {
		if _, err := os.Lstat(filepath.Join(proj, f)); err == nil {
			t.Errorf("%s survived", f)
		}
		if _, err := os.Lstat(filepath.Join(proj, f+".ponder-withheld-1")); err != nil {
			t.Errorf("%s was not set aside: %v", f, err)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(proj, "ordinary.txt")); string(b) != "ok\n" {
		t.Error("an ordinary file was not written")
	}
}
