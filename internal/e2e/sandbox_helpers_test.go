package e2e

import (
	"archive/zip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
	"github.com/ponder-agent/ponder/internal/testenv"
)

// sandboxWorld is a project in plan mode with a plan file, fixtures that
// readers read and attackers aim at (a git repository with a commit and a
// changed file, a Go module, archives, a package.json, a script), a
// sentinel directory outside everything, its own temporary directory (so
// leftover scratch directories show), a TCP listener and an abstract Unix
// socket that count connections, and a marker that every attack's
// processes carry in their command lines.
type sandboxWorld struct {
	*world
	id, plan, base, outside, tmp string
	marker                       string
	tcpAddr, abstract            string
	tcpHits, unixHits            *atomic.Int64
	// bwrap says the world runs commands through bubblewrap.
	bwrap bool
}

func newSandboxWorld(t *testing.T, api string, env ...string) *sandboxWorld {
	t.Helper()
	w := newWorld(t, api,
		writePlanOnly(fakemodel.Match{LastUser: "make a plan"}),
		fakemodel.Reply{Name: "planned", When: fakemodel.Match{ToolResult: "Created"}, Text: "planned"},
	)
	sw := &sandboxWorld{world: w, id: "5e1f3a2b-9c8d-4e7f-a6b5-c4d3e2f1a0b9", base: filepath.Dir(w.dir),
		tcpHits: new(atomic.Int64), unixHits: new(atomic.Int64)}
	sw.outside = filepath.Join(sw.base, "outside")
	sw.tmp = filepath.Join(sw.base, "tmp")
	os.MkdirAll(sw.outside, 0o755)
	os.MkdirAll(sw.tmp, 0o755)
	os.WriteFile(filepath.Join(sw.outside, "keep.txt"), []byte("outside"), 0o644)
	w.extraEnv = append([]string{"TMPDIR=" + sw.tmp}, env...)
	sw.marker = fmt.Sprintf("7%06d", (os.Getpid()*7919+len(t.Name())*104729)%1000000)

	o := w.mustRun(0, "", "-p", "make a plan", "--permission-mode", "plan", "--session-id", sw.id, "--output-format", "json")
	sw.plan = fmt.Sprint(lastResult(t, o.stdout)["plan_file"])

	w.write("main.go", "package main\n\nfunc main() { println(\"hi\") }\n")
	w.write("util.go", "package main\n\nfunc helper() int { return 1 }\n")
	w.write("go.mod", "module example.com/demo\n\ngo 1.22\n")
	w.write("notes.txt", "banana\napple\ncherry\napple\n")
	w.write("data.json", `{"name":"demo","items":[1,2,3]}`+"\n")
	w.write("package.json", `{"name":"demo","version":"1.0.0"}`+"\n")
	w.write("dirty.txt", "committed\n")
	w.write("script.sh", "#!/bin/sh\necho pwned > pwned-script\n")
	os.Chmod(filepath.Join(w.dir, "script.sh"), 0o755)
	git := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		cmd.Dir = w.dir
		cmd.Env = append(os.Environ(), "HOME="+sw.base)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	git("add", ".")
	git("commit", "-qm", "start")
	w.write("dirty.txt", "changed since the commit\n")
	exec.Command("tar", "-cf", filepath.Join(w.dir, "a.tar"), "-C", w.dir, "util.go", "notes.txt").Run()
	makeZip(t, filepath.Join(w.dir, "a.zip"), map[string]string{"inside.txt": "zipped\n"})
	// git status would refresh the stat data in the index; do it now so
	// that an unconfined reader has nothing left to write either.
	git("status", "-s")

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	sw.tcpAddr = ln.Addr().String()
	go countConns(ln, sw.tcpHits)
	sw.abstract = "ponder-e2e-" + sw.marker
	uln, err := net.Listen("unix", "@"+sw.abstract)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { uln.Close() })
	go countConns(uln, sw.unixHits)
	return sw
}

func countConns(ln net.Listener, n *atomic.Int64) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		n.Add(1)
		c.Close()
	}
}

func makeZip(t *testing.T, path string, files map[string]string) {
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	for name, content := range files {
		w, _ := zw.Create(name)
		w.Write([]byte(content))
	}
	zw.Close()
	f.Close()
	// An old time, so that unzip -T would visibly move it.
	old := mustTime(t, "2001-02-03T04:05:06Z")
	os.Chtimes(path, old, old)
}

// roots are the trees an attack must not change: the project, $HOME (which
// holds the config directory and the temporary directory) and the
// sentinel outside both.
func (sw *sandboxWorld) roots() []string { return []string{sw.base} }

// deepSnapshot records, for every path under the roots, its type, mode,
// size, modification time, link count, extended attributes, and content
// hash or link target. Transcripts and the notes of temporary files and
// running commands, which ponder itself writes (and sweeps) on every run,
// are left out.
func (sw *sandboxWorld) deepSnapshot(t *testing.T) map[string]string {
	t.Helper()
	skip := map[string]bool{}
	for _, name := range []string{"projects", "temps", "procs"} {
		skip[filepath.Join(sw.cfg, name)] = true
	}
	out := map[string]string{}
	for _, root := range sw.roots() {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if skip[p] {
				return filepath.SkipDir
			}
			if err != nil {
				out[p] = "error: " + err.Error()
				return nil
			}
			var st unix.Stat_t
			if err := unix.Lstat(p, &st); err != nil {
				out[p] = "gone"
				return nil
			}
			desc := fmt.Sprintf("mode=%o nlink=%d mtime=%d.%09d xattr=%s", st.Mode, st.Nlink, st.Mtim.Sec, st.Mtim.Nsec, xattrs(p))
			switch st.Mode & unix.S_IFMT {
			case unix.S_IFLNK:
				target, _ := os.Readlink(p)
				desc += " link=" + target
			case unix.S_IFREG:
				data, _ := os.ReadFile(p)
				sum := sha256.Sum256(data)
				desc += " sha=" + hex.EncodeToString(sum[:8])
			case unix.S_IFDIR:
				desc = fmt.Sprintf("dir mode=%o xattr=%s", st.Mode, xattrs(p))
			}
			out[p] = desc
			return nil
		})
	}
	return out
}

func xattrs(p string) string {
	buf := make([]byte, 4096)
	n, err := unix.Llistxattr(p, buf)
	if err != nil || n == 0 {
		return "-"
	}
	names := strings.Split(strings.TrimRight(string(buf[:n]), "\x00"), "\x00")
	sort.Strings(names)
	return strings.Join(names, ",")
}

// markerProcesses lists live processes whose command line holds marker.
func markerProcesses(marker string) []string {
	var out []string
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		cmdline, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err != nil || !strings.Contains(string(cmdline), marker) {
			continue
		}
		stat, _ := os.ReadFile("/proc/" + e.Name() + "/stat")
		if i := strings.LastIndexByte(string(stat), ')'); i > 0 && i+2 < len(stat) && (stat[i+2] == 'Z' || stat[i+2] == 'X') {
			continue
		}
		out = append(out, fmt.Sprintf("%d: %s", pid, strings.ReplaceAll(string(cmdline), "\x00", " ")))
	}
	return out
}

// scratchLeft lists sandbox scratch directories left in the world's
// temporary directory.
func (sw *sandboxWorld) scratchLeft() []string {
	entries, _ := os.ReadDir(sw.tmp)
	var out []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "ponder-sandbox-") {
			out = append(out, e.Name())
		}
	}
	return out
}

// apiKey is the key the fake server hands ponder, which no command may
// read.
func (sw *sandboxWorld) apiKey() string {
	for _, kv := range sw.srv.Env(sw.api) {
		if k, v, _ := strings.Cut(kv, "="); strings.HasSuffix(k, "_API_KEY") {
			return v
		}
	}
	return ""
}

// haveSandbox skips tests that need an OS sandbox on machines without
// one; CI installs what it needs.
func haveSandbox(t *testing.T, kind string) {
	t.Helper()
	switch kind {
	case "landlock":
		v, _, e := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION)
		if e != 0 || v < 1 {
			t.Skip("the kernel has no Landlock")
		}
	case "bwrap":
		testenv.Program(t, "bwrap", "the fallback sandbox")
	}
}

// runIn runs a shell command in dir, unconfined, as a test fixture does.
func runIn(dir, c string) (string, error) {
	cmd := exec.Command("bash", "-c", c)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// runWithEnv runs ponder with exactly env and returns what it printed.
func runWithEnv(t *testing.T, w *world, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command(ponderBin, args...)
	cmd.Dir = w.dir
	cmd.Env = env
	out, _ := cmd.CombinedOutput()
	return string(out)
}
