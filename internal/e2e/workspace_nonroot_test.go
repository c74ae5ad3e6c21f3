package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A user without CAP_SYS_ADMIN gets the workspace policy too, through a
// user namespace of its own. ponder makes itself non-dumpable, and the
// kernel then refuses to let it write a child's ID maps, so the policy
// was once missing for every ordinary user. Run as root, the test starts
// ponder as nobody.
func TestWorkspacePolicyForAnOrdinaryUser(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("runs ponder as another user, which needs root")
	}
	haveSandbox(t, "landlock")
	probe := exec.Command("unshare", "--user", "--map-current-user", "--mount", "--pid", "--fork", "true")
	probe.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	if out, err := probe.CombinedOutput(); err != nil {
		t.Skipf("unprivileged user namespaces are not available here (%v: %s)", err, strings.TrimSpace(string(out)))
	}
	// A directory nobody may enter, holding a copy of the binary.
	base, err := os.MkdirTemp("", "ponder-nonroot-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	if err := os.Chmod(base, 0o755); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(base, "ponder")
	data, err := os.ReadFile(ponderBin)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(base, "home")
	proj := filepath.Join(home, "proj")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(home, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(proj, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "doctor")
	cmd.Dir = proj
	cmd.Env = []string{"HOME=" + home, "PATH=/usr/bin:/bin", "PONDER_CONFIG_DIR=" + filepath.Join(home, ".ponder")}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("ponder doctor as nobody: %v\n%s", err, out)
	}
	if strings.Contains(string(out), "workspace policy: not available") || !strings.Contains(string(out), "workspace policy (mount and PID namespaces") {
		t.Fatalf("an ordinary user gets no workspace policy:\n%s", out)
	}
}
