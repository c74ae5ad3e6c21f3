package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// The project's instructions file reaches the model only as a Read of it
// would: a link to a file a deny rule covers, or to one outside the
// project, is left out with a warning, and a link to a device or a pipe
// neither hangs ponder nor exhausts its memory.
func TestProjectInstructionsObeyTheReadRules(t *testing.T) {
	cases := []struct {
		name, file, target string
		include            bool
	}{
		{"plain file", "AGENTS.md", "", true},
		{"link to a file in the project", "CLAUDE.md", "docs/guide.md", true},
		{"link to a denied file", "CLAUDE.md", ".env", false},
		{"link to a denied file outside", "AGENTS.md", "../home/secret/key.txt", false},
		{"link outside the project", "AGENTS.md", "../elsewhere.md", false},
		{"link to an endless device", "AGENTS.md", "/dev/zero", false},
		{"a pipe", "AGENTS.md", "fifo", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t, "anthropic", fakemodel.Reply{Times: -1, Text: "ok"})
			mustWrite(t, filepath.Join(w.cfg, "settings.json"), `{"permissions":{"deny":["Read(.env)","Read(~/secret/**)"]}}`)
			w.write(".env", "SECRET-IN-ENV")
			w.write("docs/guide.md", "GUIDE-TEXT")
			home := filepath.Dir(w.cfg)
			mustWrite(t, filepath.Join(home, "secret", "key.txt"), "SECRET-IN-HOME")
			mustWrite(t, filepath.Join(filepath.Dir(w.dir), "elsewhere.md"), "SECRET-ELSEWHERE")
			path := filepath.Join(w.dir, c.file)
			switch {
			case c.target == "":
				w.write(c.file, "PLAIN-INSTRUCTIONS")
			case c.target == "fifo":
				if err := syscall.Mkfifo(path, 0o600); err != nil {
					t.Fatal(err)
				}
			default:
				target := c.target
				if strings.HasPrefix(target, "../home/") {
					target = filepath.Join(home, strings.TrimPrefix(target, "../home/"))
				}
				if err := os.Symlink(target, path); err != nil {
					t.Fatal(err)
				}
			}
			o := w.mustRun(0, "", "-p", "hello")
			sys := w.srv.Requests()[0].System
			for _, secret := range []string{"SECRET-IN-ENV", "SECRET-IN-HOME", "SECRET-ELSEWHERE"} {
				if strings.Contains(sys, secret) {
					t.Fatalf("%s reached the model", secret)
				}
			}
			included := strings.Contains(sys, "PLAIN-INSTRUCTIONS") || strings.Contains(sys, "GUIDE-TEXT")
			if included != c.include {
				t.Fatalf("instructions included: %v, want %v", included, c.include)
			}
			if !c.include && !strings.Contains(o.stderr, c.file) {
				t.Errorf("no warning names %s:\n%s", c.file, o.stderr)
			}
		})
	}
}

func mustWrite(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A repository's settings or agent file that is a pipe or a link to an
// endless device gets a clear error, not a hang or an exhausted memory.
func TestRepositoryFilesThatAreNotFiles(t *testing.T) {
	for _, rel := range []string{".ponder/settings.json", ".ponder/agents/x.md", ".mcp.json"} {
		for _, kind := range []string{"fifo", "zero"} {
			t.Run(rel+" "+kind, func(t *testing.T) {
				w := newWorld(t, "anthropic", fakemodel.Reply{Times: -1, Text: "ok"})
				path := filepath.Join(w.dir, rel)
				os.MkdirAll(filepath.Dir(path), 0o755)
				var err error
				if kind == "fifo" {
					err = syscall.Mkfifo(path, 0o600)
				} else {
					err = os.Symlink("/dev/zero", path)
				}
				if err != nil {
					t.Fatal(err)
				}
				o := w.run("", "-p", "hello")
				if !strings.Contains(o.stderr, "not a regular file") {
					t.Fatalf("exit %d, stderr:\n%s", o.code, o.stderr)
				}
			})
		}
	}
}

// A model's answer cannot drive the user's terminal through ponder -p's
// text output: OSC 52 (clipboard), titles and colours are removed.
func TestTextOutputCarriesNoTerminalEscapes(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api, fakemodel.Reply{Text: "done\x1b]52;c;ZWNobyBwd25lZA==\x07 \x1b[2Jclean"})
		o := w.mustRun(0, "", "-p", "hello")
		if strings.ContainsRune(o.stdout, 0x1b) || strings.ContainsRune(o.stdout, 0x07) || strings.TrimSpace(o.stdout) != "done clean" {
			t.Fatalf("stdout %q", o.stdout)
		}
	})
}
