//go:build unix

package atomicfile

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// deadPID returns the pid of a process that has ended.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

func testTemps(t *testing.T) *temps {
	t.Helper()
	key := loadKey(t.TempDir())
	if key == nil {
		t.Fatal("no key")
	}
	return &temps{key: key}
}

func TestTempNamesAreRecognisedOnlyWithTheKey(t *testing.T) {
	tt := testTemps(t)
	name, err := tt.name("/p/main.go", 4242)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(name, ".main.go.ponder-4242-") || !strings.HasSuffix(name, ".tmp") {
		t.Fatalf("name %q", name)
	}
	if pid, ok := tt.owner(name); !ok || pid != 4242 {
		t.Fatalf("owner(%q) = %d, %v", name, pid, ok)
	}
	other := testTemps(t)
	// The tag's last digit changed (to one it is not).
	last := name[len(name)-len(".tmp")-1]
	changed := byte('0')
	if last == '0' {
		changed = '1'
	}
	forged := []string{
		strings.Replace(name, "4242", "4243", 1),                      // another pid, same tag
		name[:len(name)-len(".tmp")-1] + string(changed) + ".tmp",     // tag changed
		".main.go.ponder-4242-0123456789abcdef.tmp",                   // no tag
		".main.go.ponder-4242-0123456789abcdef-0123456789abcdef.tmp",  // made-up tag
		".main.go.ponder-04242-0123456789abcdef-0123456789abcdef.tmp", // padded pid
		"main.go.ponder-4242-x-y.tmp",                                 // not hidden
		".main.go.123456.tmp",                                         // the old style
		".main.go.ponder--4242-0123456789abcdef-0123456789abcdef.tmp", // negative
	}
	for _, f := range forged {
		if _, ok := tt.owner(f); ok {
			t.Errorf("forged name %q accepted", f)
		}
	}
	if _, ok := other.owner(name); ok {
		t.Error("a name made with another key was accepted")
	}
	long := strings.Repeat("ü", 200) + ".txt"
	n, _ := tt.name(long, 1)
	if len(n) > 255 || !strings.HasSuffix(n, ".tmp") {
		t.Errorf("name for a long target is %d bytes", len(n))
	}
	if _, ok := tt.owner(n); !ok {
		t.Error("a long target's temporary name is not recognised")
	}
}

// The key is made once and then shared by every process of the user.
func TestKeyIsStable(t *testing.T) {
	dir := t.TempDir()
	a, b := loadKey(dir), loadKey(dir)
	if a == nil || string(a) != string(b) {
		t.Fatal("the key changed between loads")
	}
	info, _ := os.Stat(filepath.Join(dir, "tempname.key"))
	if info.Mode().Perm() != 0o600 {
		t.Errorf("key file mode %v", info.Mode().Perm())
	}
}

// Only leftovers that are provably ponder's, regular files of the user's,
// of processes that are gone (or a day old), are removed; whatever a
// repository puts there under a look-alike name stays.
func TestCleanRemovesOnlyPonderLeftovers(t *testing.T) {
	tt := testTemps(t)
	dir := t.TempDir()
	dead := deadPID(t)
	put := func(name string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	mustName := func(target string, pid int) string {
		n, err := tt.name(target, pid)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	leftover := put(mustName("a.go", dead))
	old := put(mustName("b.go", os.Getppid()))
	yesterday := time.Now().Add(-25 * time.Hour)
	os.Chtimes(old, yesterday, yesterday)

	keep := map[string]string{
		"live owner":       put(mustName("c.go", os.Getppid())),
		"this process":     put(mustName("d.go", os.Getpid())),
		"forged tag":       put(fmt.Sprintf(".e.go.ponder-%d-0123456789abcdef-0123456789abcdef.tmp", dead)),
		"no tag":           put(fmt.Sprintf(".f.go.ponder-%d-0123456789abcdef.tmp", dead)),
		"old style":        put(".g.go.8472910.tmp"),
		"repository file":  put("notes.tmp"),
		"other key's name": put(func() string { n, _ := testTemps(t).name("h.go", dead); return n }()),
	}
	link := filepath.Join(dir, mustName("i.go", dead))
	if err := os.Symlink(filepath.Join(dir, "notes.tmp"), link); err != nil {
		t.Fatal(err)
	}
	keep["symlink"] = link
	sub := filepath.Join(dir, mustName("j.go", dead))
	os.Mkdir(sub, 0o700)
	keep["directory"] = sub
	if os.Geteuid() == 0 {
		p := put(mustName("k.go", dead))
		if err := os.Chown(p, 65534, 65534); err == nil {
			keep["another user's file"] = p
		}
	}

	tt.clean(dir)
	for _, gone := range []string{leftover, old} {
		if _, err := os.Lstat(gone); !os.IsNotExist(err) {
			t.Errorf("leftover %s was not removed", filepath.Base(gone))
		}
	}
	for what, p := range keep {
		if _, err := os.Lstat(p); err != nil {
			t.Errorf("%s (%s) was removed", what, filepath.Base(p))
		}
	}
}

// TestWriteHelperProcess is not a test: TestFailedWriteHidesTheTempName
// runs it in a child process whose file size limit makes writes fail.
func TestWriteHelperProcess(t *testing.T) {
	target := os.Getenv("PONDER_WRITE_HELPER_TARGET")
	if target == "" {
		t.Skip("helper process only")
	}
	lim := syscall.Rlimit{Cur: 16, Max: 16}
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
		fmt.Println("setrlimit:", err)
		os.Exit(2)
	}
	err := Write(target, []byte(strings.Repeat("data ", 1000)), 0o644)
	fmt.Println(err)
	os.Exit(0)
}

// A failed write names the file written, never the temporary file, and
// leaves no temporary file behind.
func TestFailedWriteHidesTheTempName(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "main.go")
	cmd := exec.Command(os.Args[0], "-test.run=^TestWriteHelperProcess$")
	cmd.Env = append(os.Environ(), "PONDER_WRITE_HELPER_TARGET="+target)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("helper: %v %s", err, out)
	}
	msg := strings.TrimSpace(string(out))
	if msg == "<nil>" || !strings.Contains(msg, target) || strings.Contains(msg, ".tmp") || strings.Contains(msg, "ponder-") {
		t.Fatalf("error %q", msg)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Fatalf("left %v", ents)
	}
}

// A write into a directory removes what a killed writer left there.
func TestWriteCleansUpLeftovers(t *testing.T) {
	dir := t.TempDir()
	tt := defaultTemps()
	if tt.key == nil {
		t.Skip("no cache directory for the key")
	}
	name, _ := tt.name("a.go", deadPID(t))
	leftover := filepath.Join(dir, name)
	os.WriteFile(leftover, []byte("half"), 0o600)
	if err := Write(filepath.Join(dir, "b.go"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(leftover); !os.IsNotExist(err) {
		t.Fatal("the leftover is still there")
	}
}
